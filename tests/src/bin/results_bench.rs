//! Results API figures for large jobs, against the emulator (run through `.ci/bench results`):
//!   results-bench seed N          store a completed job of N keywords; prints `<job id> <api key>`
//!   results-bench query JOB KEY   cold load to first page, then warm p50/p99 of filtered, sorted pages
//!   results-bench formats-write DIR N   a job of N keywords in each stored form measured, to DIR
//!   results-bench formats-read DIR FORM  load one of them: size, time and peak memory
//!   results-bench export JOB KEY  stream the CSV export; throughput and this process's peak memory
//!   results-bench dashboard JOB KEY   the dashboard's keywords tab: server time per page of 100
//!                                 rows, and the page in headless Chromium until interactive
//!   results-bench serve JOB        every function on a local port, the job readable as a demo
//!                                 job; prints a session cookie of its owner and the pages to
//!                                 measure (job tabs, share link, sign-in, signed-in pages) and
//!                                 serves until killed
//! Each step runs in its own process so peak memory speaks for that step alone.

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use kr_aws::dynamo::DynamoStore;
use kr_aws::s3::S3ObjectStore;
use kr_aws::AwsClients;
use kr_aws::Resources;
use kr_core::config::Config;
use kr_core::dataset::export::write_csv;
use kr_core::dataset::stored::DatasetBytes;
use kr_core::dataset::{objects, ResultsDataset, SerpFeature, DATASET_FORMAT};
use kr_core::domain::Job;
use kr_core::domain::{DomainName, JobId, JobStatus, Plan, Progress};
use kr_core::service::account::issue_api_key;
use kr_core::store::ArtifactStore;
use kr_query::IndexedDataset;
use kr_research::intent::Intent;
use kr_research::research::{ClusterRecord, KeywordRecord};
use kr_tests::harness::{self, Call};
use kr_tests::measure::{peak_memory_mib, percentile_ms};

const WORDS: [&str; 16] = [
    "coffee",
    "espresso",
    "grinder",
    "beans",
    "roast",
    "brew",
    "cold",
    "pour",
    "kettle",
    "filter",
    "milk",
    "latte",
    "single",
    "origin",
    "decaf",
    "subscription",
];

/// Keywords with a results page: the largest SERP budget a job can have.
const WITH_SERPS: usize = 20_000;

/// The results page of keyword `i`: features, questions and weak spots for the first
/// `WITH_SERPS`, as a job with the largest SERP budget has them; none for the rest.
fn serp_page(i: usize) -> KeywordRecord {
    if i >= WITH_SERPS {
        return KeywordRecord::default();
    }
    let features: Vec<SerpFeature> = SerpFeature::ALL
        .iter()
        .copied()
        .filter(|f| (i + *f as usize).is_multiple_of(3))
        .collect();
    let questions = if features.contains(&SerpFeature::PeopleAlsoAsk) {
        (0..4)
            .map(|q| format!("How does keyword {i} work, question {q}?"))
            .collect()
    } else {
        Vec::new()
    };
    KeywordRecord {
        serp_features: Some(features),
        people_also_ask: Some(questions),
        weak_spots: Some(harness::reddit_weak_spots(i, i % 3)),
        ..KeywordRecord::default()
    }
}

fn synthetic(job: JobId, count: usize) -> ResultsDataset {
    let intents = [
        Intent::Informational,
        Intent::Commercial,
        Intent::Transactional,
        Intent::Navigational,
    ];
    let keywords = (0..count)
        .map(|i| {
            let phrase: Vec<&str> = (0..1 + i % 4)
                .map(|w| WORDS[(i / (w + 1) + w * 7) % WORDS.len()])
                .collect();
            KeywordRecord {
                id: format!("k-{}", i + 1),
                keyword: format!("{} {i}", phrase.join(" ")),
                search_volume: (i % 9 != 0).then_some(((i * 7919) % 50_000) as i64),
                cpc: (i % 11 != 0).then_some(((i * 31) % 900) as f64 / 100.0),
                competition: Some(((i * 17) % 100) as f64 / 100.0),
                difficulty: (i % 13 != 0).then_some(((i * 29) % 101) as i64),
                intent: intents[i % 4],
                secondary_intents: Vec::new(),
                persona_avatar_name: (i % 5 != 0).then(|| {
                    ["Curious Casey", "Decisive Dana", "Comparing Cam"][i % 3].to_string()
                }),
                cluster_id: format!("c-{}", i % 500),
                cluster_name: format!("cluster {}", i % 500),
                organic_opportunity_score: ((i * 37) % 10_000) as f64 / 100.0,
                paid_opportunity_score: ((i * 53) % 10_000) as f64 / 100.0,
                opportunity_value: ((i * 97) % 100_000) as f64 / 10.0,
                monthly_searches: vec![],
                metrics_source: "estimate".into(),
                rankings: vec![],
                content_gap: i % 3 == 0,
                source: Some(kr_core::dataset::KeywordSource::Crawl),
                topic_id: None,
                ..serp_page(i)
            }
        })
        .collect();
    let clusters = (0..500)
        .map(|c| ClusterRecord {
            id: format!("c-{c}"),
            name: format!("cluster {c}"),
            primary_keyword: format!("cluster {c}"),
            keyword_count: count / 500,
            total_search_volume: c * 1000,
            avg_difficulty: Some(50.0),
            avg_cpc: Some(1.0),
            dominant_intent: Intent::Informational,
            organic_opportunity_score: 1.0,
            paid_opportunity_score: 1.0,
            opportunity_value: 1.0,
            ..ClusterRecord::default()
        })
        .collect();
    ResultsDataset {
        format: DATASET_FORMAT,
        job_id: job,
        keywords,
        clusters,
        personas: vec![],
        topics: Vec::new(),
    }
}

async fn seed(count: usize) -> Result<()> {
    let resources = Resources::from_env()?;
    let clients = AwsClients::from_resources(&resources).await;
    let store = DynamoStore::new(clients.dynamodb.clone(), resources.table_name.clone());
    let results = S3ObjectStore::new(clients.s3.clone(), resources.results_bucket.clone());
    let user = harness::new_user(&store, Plan::Agency, 1, 1).await;
    let (_, key) = issue_api_key(&store, &store, user.id, Some("bench"))
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let now = chrono::Utc::now();
    let job = Job {
        id: JobId::new(),
        owner: user.id,
        status: JobStatus::Completed,
        primary_domain: DomainName::parse("bench.example.com").unwrap(),
        competitor_domains: vec![],
        language_code: "en".into(),
        location_code: 2840,
        created_at: now,
        started_at: Some(now),
        completed_at: Some(now),
        progress: Progress::completed(),
        error_message: None,
        keyword_count: Some(count as i64),
        stage: None,
        version: 7,
        refunded: false,
        usage: None,
        heartbeat_at: None,
        redrives: 0,
        expires_at: None,
        imported_keywords: 0,
        discover_keywords: true,
        callback_url: None,
        briefs: 0,
        schedule_id: None,
        search_console: None,
        search_console_property: None,
        ai_answers: None,
    };
    let dataset = synthetic(job.id, count);
    let mut csv = Vec::new();
    write_csv(&dataset, &mut csv)?;
    results
        .put_artifact(job.id, &objects::export(), csv)
        .await?;
    kr_core::store::put_dataset(&results, &dataset).await?;
    store.import_jobs(std::slice::from_ref(&job)).await?;
    println!("{} {}", job.id, key.expose());
    Ok(())
}

const QUERIES: [&str; 9] = [
    "?intent=commercial,transactional&minVolume=1000&sortBy=searchVolume",
    "?search=espresso&sortBy=cpc&sortOrder=asc",
    "?minDifficulty=20&maxDifficulty=60&sortBy=difficulty&offset=200",
    "?personaAvatarNames=__none__,Curious%20Casey&sortBy=opportunityValue",
    "?minCpc=1&maxCpc=5&minCompetition=0.2&sortBy=keyword",
    "?sortBy=organicOpportunityScore&limit=500",
    "?minPaidOpportunityScore=50&sortBy=paidOpportunityScore&offset=1000",
    "?intent=informational&sortBy=intent",
    "?serpFeature=people_also_ask,local_pack&minWeakSpots=1&sortBy=searchVolume",
];

async fn query(job: &str, key: &str) -> Result<()> {
    let app = kr_results::router(
        kr_results::ResultsState::from_config(Config::from_env()?, Resources::from_env()?).await,
    );
    let path = |q: &str| format!("/api/v1/jobs/{job}/keywords{q}");
    let started = Instant::now();
    let first = Call::get(&path(QUERIES[0])).api_key(key).send(&app).await;
    let cold = started.elapsed();
    let cold_peak = peak_memory_mib();
    if first.status != 200 {
        bail!("first page: {} {}", first.status, first.text);
    }
    // Sort orders are built on first use per key; warm them as a warm instance would have.
    for q in QUERIES {
        Call::get(&path(q)).api_key(key).send(&app).await;
    }
    let mut times = Vec::new();
    for round in 0..50 {
        for q in QUERIES {
            let started = Instant::now();
            let reply = Call::get(&path(q)).api_key(key).send(&app).await;
            times.push(started.elapsed());
            if round == 0 && reply.status != 200 {
                bail!("{q}: {}", reply.status);
            }
        }
    }
    times.sort();
    println!(
        "cold load to first page: {:.0} ms (job and API-key lookups on the emulator included); this process's peak memory then {:.0} MiB",
        cold.as_secs_f64() * 1000.0,
        cold_peak
    );
    let engine = engine_times(job).await?;
    println!(
        "query engine alone (filter, sort, page, JSON of the page): p50 {:.2} ms, p99 {:.2} ms",
        percentile_ms(&engine, 0.5),
        percentile_ms(&engine, 0.99)
    );
    println!(
        "warm filtered+sorted page over {} requests: p50 {:.2} ms, p99 {:.2} ms (each includes the job lookup and the API-key lookup on the emulator)",
        times.len(),
        percentile_ms(&times, 0.5),
        percentile_ms(&times, 0.99),
    );
    Ok(())
}

/// The handler's own work, without the store round trips to the emulator.
async fn engine_times(job: &str) -> Result<Vec<Duration>> {
    use kr_core::query_params::QueryParams;
    use kr_query::KeywordQuery;
    let resources = Resources::from_env()?;
    let clients = AwsClients::from_resources(&resources).await;
    let results = S3ObjectStore::new(clients.s3, resources.results_bucket);
    let started = Instant::now();
    let stored = results
        .get_artifact(job.parse()?, &objects::stored_dataset())
        .await?
        .context("stored dataset")?;
    let fetched = started.elapsed();
    let records = DatasetBytes::decode(&stored)?;
    let decoded = started.elapsed();
    let indexed = IndexedDataset::new(records);
    let indexed_at = started.elapsed();
    let queries: Vec<KeywordQuery> = QUERIES
        .iter()
        .map(|q| {
            KeywordQuery::parse(&QueryParams::parse(q.trim_start_matches('?')).expect("query"))
                .expect("valid")
        })
        .collect();
    let first = indexed.query(&queries[0]);
    serde_json::to_vec(&first.keywords)?;
    let first_page = started.elapsed();
    println!(
        "cold, S3 object to first page: {:.0} ms = S3 GET {:.1} MB {:.0} ms + LZ4 and check {:.0} ms + columns {:.0} ms + first sort, filter, page and JSON {:.0} ms",
        first_page.as_secs_f64() * 1000.0,
        stored.len() as f64 / 1e6,
        fetched.as_secs_f64() * 1000.0,
        (decoded - fetched).as_secs_f64() * 1000.0,
        (indexed_at - decoded).as_secs_f64() * 1000.0,
        (first_page - indexed_at).as_secs_f64() * 1000.0,
    );
    for query in &queries {
        indexed.query(query);
    }
    let mut times = Vec::new();
    for _ in 0..50 {
        for query in &queries {
            let started = Instant::now();
            let page = indexed.query(query);
            let body = serde_json::to_vec(&page.keywords)?;
            std::hint::black_box((body, page.total));
            times.push(started.elapsed());
        }
    }
    times.sort();
    Ok(times)
}

async fn export(job: &str, key: &str) -> Result<()> {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let app = kr_export::router(
        kr_export::ExportState::from_config(Config::from_env()?, Resources::from_env()?).await,
    );
    let baseline = peak_memory_mib();
    let request = axum::http::Request::get(format!("/api/v1/jobs/{job}/export-keywords"))
        .header("x-api-key", key)
        .body(axum::body::Body::empty())?;
    let started = Instant::now();
    let response = app.oneshot(request).await?;
    if response.status() != 200 {
        bail!("export: {}", response.status());
    }
    let mut body = response.into_body();
    let mut bytes = 0usize;
    while let Some(frame) = body.frame().await {
        bytes += frame
            .context("export stream")?
            .data_ref()
            .map(|d| d.len())
            .unwrap_or(0);
    }
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "export: {:.1} MB in {:.3} s = {:.0} MB/s; peak memory {:.0} MiB (before the request {:.0} MiB)",
        bytes as f64 / 1e6,
        elapsed,
        bytes as f64 / 1e6 / elapsed,
        peak_memory_mib(),
        baseline
    );
    Ok(())
}

/// The keywords tab with the queries above, 100 rows a page.
fn dashboard_paths(job: &str) -> Vec<String> {
    QUERIES
        .iter()
        .map(|q| format!("/jobs/{job}{q}&tab=keywords&limit=100").replace("&limit=500", ""))
        .collect()
}

async fn dashboard(job: &str, key: &str) -> Result<()> {
    let app = kr_web::router(
        kr_web::WebState::from_config(Config::from_env()?, Resources::from_env()?).await,
    );
    let paths = dashboard_paths(job);
    for path in &paths {
        let reply = Call::get(path).api_key(key).send(&app).await;
        if reply.status != 200 || !reply.text.contains("table class=\"keywords\"") {
            bail!(
                "{path}: {} {}",
                reply.status,
                &reply.text[..reply.text.len().min(300)]
            );
        }
    }
    let mut times = Vec::new();
    let mut bytes = 0;
    for _ in 0..30 {
        for path in &paths {
            let started = Instant::now();
            let reply = Call::get(path).api_key(key).send(&app).await;
            times.push(started.elapsed());
            bytes = bytes.max(reply.text.len());
        }
    }
    times.sort();
    println!(
        "dashboard keywords tab, 100 rows, {} warm requests: p50 {:.2} ms, p99 {:.2} ms (job and API-key lookups on the emulator included); largest page {:.0} KB of HTML",
        times.len(),
        percentile_ms(&times, 0.5),
        percentile_ms(&times, 0.99),
        bytes as f64 / 1024.0
    );
    let render = dashboard_render_times(job).await?;
    println!(
        "dashboard keywords tab, 100 rows, rendering alone (query engine + HTML, no store reads): p50 {:.2} ms, p99 {:.2} ms",
        percentile_ms(&render, 0.5),
        percentile_ms(&render, 0.99)
    );
    let base = serve_gateway(job).await?;
    let browser = kr_tests::browser::Browser::start().await?;
    let mut interactive = Vec::new();
    for round in 0..7 {
        browser
            .goto(&format!("{base}{}", paths[round % paths.len()]))
            .await?;
        // The paint entry is queued after the frame is drawn, which can come after the load.
        let mut timing = Vec::new();
        for _ in 0..40 {
            timing = browser
                .execute(
                    "const n = performance.getEntriesByType('navigation')[0]; const p = performance.getEntriesByName('first-contentful-paint')[0]; return [n.responseEnd, n.domInteractive, n.loadEventEnd, p ? p.startTime : null];",
                    Vec::new(),
                )
                .await?
                .as_array()
                .cloned()
                .unwrap_or_default();
            if timing.get(3).is_some_and(|paint| !paint.is_null()) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let at = |i: usize| timing[i].as_f64().unwrap_or(f64::NAN);
        interactive.push((at(0), at(1), at(2), at(3)));
    }
    // The first load also compiles the stylesheet and script; a returning user has them cached.
    let warm = &interactive[1..];
    let median = |pick: fn(&(f64, f64, f64, f64)) -> f64| {
        let mut values: Vec<f64> = warm.iter().map(pick).collect();
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    println!(
        "in headless Chromium (median of {} loads after the first): response complete {:.0} ms, first contentful paint {:.0} ms, DOM interactive {:.0} ms, load event {:.0} ms; first load: contentful paint {:.0} ms, interactive {:.0} ms",
        warm.len(),
        median(|t| t.0),
        median(|t| t.3),
        median(|t| t.1),
        median(|t| t.2),
        interactive[0].3,
        interactive[0].1
    );
    browser.quit().await?;
    Ok(())
}

/// The page's own work: the job and its dataset already in memory, as on a warm instance.
async fn dashboard_render_times(job: &str) -> Result<Vec<Duration>> {
    use kr_core::store::JobStore;
    let resources = Resources::from_env()?;
    let clients = AwsClients::from_resources(&resources).await;
    let objects_store = S3ObjectStore::new(clients.s3, resources.results_bucket);
    let id: JobId = job.parse()?;
    let records = kr_core::store::get_stored_dataset(&objects_store, id)
        .await?
        .context("stored dataset")?;
    let indexed = kr_query::IndexedDataset::new(records);
    let job = harness::store().await.job(id).await?.context("the job")?;
    let queries: Vec<String> = dashboard_paths(&id.to_string())
        .iter()
        .map(|path| {
            path.split_once('?')
                .map(|(_, q)| q.to_string())
                .unwrap_or_default()
        })
        .collect();
    for query in &queries {
        kr_web::render_job_page(&job, Some(&indexed), query);
    }
    let mut times = Vec::new();
    for _ in 0..30 {
        for query in &queries {
            let started = Instant::now();
            std::hint::black_box(kr_web::render_job_page(&job, Some(&indexed), query));
            times.push(started.elapsed());
        }
    }
    times.sort();
    Ok(times)
}

/// The stored forms compared: JSON (what jobs were stored as), postcard (serde's compact binary,
/// read back into records) and rkyv (read in place), each LZ4-compressed as the trip from S3
/// would want it.
const FORMS: [&str; 3] = ["json", "postcard", "rkyv"];

fn formats_write(dir: &str, count: usize) -> Result<()> {
    let dataset = synthetic(kr_core::domain::JobId::new(), count);
    std::fs::create_dir_all(dir)?;
    for form in FORMS {
        let raw = match form {
            "json" => serde_json::to_vec(&dataset)?,
            "postcard" => postcard::to_stdvec(&dataset)?,
            _ => rkyv_bytes(&dataset)?,
        };
        let compressed = lz4_flex::block::compress_prepend_size(&raw);
        println!(
            "{form}: {:.1} MB, {:.1} MB with LZ4",
            raw.len() as f64 / 1e6,
            compressed.len() as f64 / 1e6
        );
        std::fs::write(format!("{dir}/{form}.lz4"), compressed)?;
    }
    Ok(())
}

fn rkyv_bytes(dataset: &ResultsDataset) -> Result<Vec<u8>> {
    let stored = kr_core::dataset::stored::encode(dataset)?;
    Ok(lz4_flex::block::decompress_size_prepended(&stored)?)
}

/// Reads one form from disk, as a reader would get it from S3, until its first page could be
/// served: records parsed (JSON, postcard) or checked in place with the query columns (rkyv).
fn formats_read(dir: &str, form: &str) -> Result<()> {
    let stored = std::fs::read(format!("{dir}/{form}.lz4"))?;
    let before = peak_memory_mib();
    let started = Instant::now();
    let keywords = match form {
        "json" | "postcard" => {
            let raw = lz4_flex::block::decompress_size_prepended(&stored)?;
            let dataset: ResultsDataset = if form == "json" {
                serde_json::from_slice(&raw)?
            } else {
                postcard::from_bytes(&raw)?
            };
            drop(raw);
            let count = dataset.keywords.len();
            std::hint::black_box(dataset);
            count
        }
        "rkyv" => {
            let indexed = IndexedDataset::new(DatasetBytes::decode(&stored)?);
            let count = indexed.keyword_count();
            std::hint::black_box(indexed);
            count
        }
        other => bail!("unknown form {other}"),
    };
    println!(
        "{form}: {keywords} keywords ready in {:.0} ms; peak memory {:.0} MiB over the {:.0} MiB before",
        started.elapsed().as_secs_f64() * 1000.0,
        peak_memory_mib() - before,
        before
    );
    Ok(())
}

/// The job's owner becomes the demo account, so its pages need no sign-in.
async fn serve_gateway(job: &str) -> Result<String> {
    use kr_core::store::JobStore;
    let mut config = Config::from_env()?;
    let store = harness::store().await;
    let owner = store
        .job(job.parse()?)
        .await?
        .context("the job exists")?
        .owner;
    config.demo_user_id = Some(owner.as_uuid());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://127.0.0.1:{}", listener.local_addr()?.port());
    config.allowed_origins.push(base.clone());
    kr_tests::gateway::Gateway::with_every_function(config, Resources::from_env()?)
        .await
        .serve(listener)
        .await;
    Ok(base)
}

/// Every function on a local port, and the pages Lighthouse measures, one per line:
/// `cookie <session cookie of the job's owner>` first, then `public <url>` (read signed out:
/// the job is the demo job) and `signed-in <url>` (read with the cookie). The first public
/// URL is the keywords tab, which `dashboard` measures.
async fn serve(job: &str) -> Result<()> {
    use kr_core::store::{JobStore, UserStore};
    let base = serve_gateway(job).await?;
    let store = harness::store().await;
    let job = store.job(job.parse()?).await?.context("the job exists")?;
    let owner = store.user(job.owner).await?.context("its owner")?;
    let web = kr_web::router(
        kr_web::WebState::from_config(Config::from_env()?, Resources::from_env()?).await,
    );
    let cookie = harness::web_session(&web, owner.email.as_str()).await;
    let (_, token) = kr_core::service::share_links::create_share_link(
        &*store,
        &*store,
        job.owner,
        job.id,
        kr_core::domain::SharedTabs::all(),
        kr_core::domain::ShareLifetime::default(),
        chrono::Utc::now(),
    )
    .await
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let id = job.id;
    println!("cookie {cookie}");
    for tab in [
        "keywords", "clusters", "plan", "personas", "overview", "changes",
    ] {
        println!("public {base}/jobs/{id}?tab={tab}");
    }
    println!("public {base}/share/{}", token.expose());
    println!("public {base}/share/{}?tab=plan", token.expose());
    println!("public {base}/login");
    for path in [
        "/jobs".to_string(),
        "/jobs/new".to_string(),
        format!("/jobs/{id}/share"),
        format!("/jobs/{id}/repeat"),
        "/settings/api-keys".to_string(),
        "/settings/branding".to_string(),
    ] {
        println!("signed-in {base}{path}");
    }
    std::future::pending::<()>().await;
    Ok(())
}

#[tokio::main]
async fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["seed", count] => seed(count.parse()?).await,
        ["query", job, key] => query(job, key).await,
        ["export", job, key] => export(job, key).await,
        ["dashboard", job, key] => dashboard(job, key).await,
        ["serve", job] => serve(job).await,
        ["formats-write", dir, count] => formats_write(dir, count.parse()?),
        ["formats-read", dir, form] => formats_read(dir, form),
        _ => bail!(
            "usage: results-bench seed N | query JOB KEY | export JOB KEY | dashboard JOB KEY | serve JOB | formats-write DIR N | formats-read DIR FORM"
        ),
    }
}
