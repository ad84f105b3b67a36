//! A cluster brief's time with five ranking pages that each take 200 ms to answer (their
//! robots.txt too), the crawler at its default politeness, against the emulator (run through
//! `.ci/bench briefs`): the first request of each of several clusters (reading the pages,
//! composing, storing, counting), then the stored ones read back.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use anyhow::Result;
use axum::extract::Request;
use axum::response::{Html, IntoResponse, Response};
use axum::Router;
use kr_brief_maker::{Access, BriefMaker, BriefSettings};
use kr_core::dataset::{objects, ClusterRecord, KeywordRecord, ResultsDataset, DATASET_FORMAT};
use kr_core::domain::{JobStatus, Plan};
use kr_core::store::put_json;
use kr_crawler::{CrawlConfig, Crawler};
use kr_research::research::Measured;
use kr_tests::harness;

/// How long every answer of the ranking pages' server takes.
const LATENCY: Duration = Duration::from_millis(200);
const PAGES: usize = 5;
const CLUSTERS: usize = 12;
const KEYWORDS_PER_CLUSTER: usize = 5;
/// The bound for one brief.
const TARGET: Duration = Duration::from_secs(3);

/// A guide of about 1,500 words with a dozen sections, a little different per site.
fn page(site: usize) -> String {
    let sections = [
        "What is cold brew",
        "Cold brew ratio",
        "How to make cold brew",
        "Steeping time",
        "Straining the concentrate",
        "How long cold brew lasts",
        "Cold brew vs iced coffee",
        "Best beans for cold brew",
        "Grind size",
        "Serving ideas",
        "Common mistakes",
        "Equipment",
    ];
    let paragraph = "Coarse grounds steep in cold filtered water for twelve to twenty four hours; \
        the concentrate is strained, kept in a sealed jar in the fridge and diluted with water \
        or milk before serving, which gives a smooth cup with low acidity and a sweet finish. ";
    let mut body = String::from("<main><h1>Cold brew guide</h1>");
    for (i, section) in sections.iter().enumerate().skip(site % 3) {
        body.push_str(&format!("<h2>{section}</h2><p>{}</p>", paragraph.repeat(3)));
        if i % 3 == 0 {
            body.push_str(&format!("<h3>{section}: tips</h3><p>{paragraph}</p>"));
        }
    }
    body.push_str("</main>");
    format!("<!doctype html><html lang=\"en\"><head><title>Guide {site}</title></head><body>{body}</body></html>")
}

async fn ranking_site(request: Request) -> Response {
    tokio::time::sleep(LATENCY).await;
    let host = request
        .headers()
        .get("host")
        .and_then(|h| h.to_str().ok())
        .unwrap_or_default()
        .to_string();
    if request.uri().path() == "/robots.txt" {
        return "User-agent: *\nAllow: /\n".into_response();
    }
    let site: usize = host
        .trim_start_matches("www.rank")
        .split('.')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    Html(page(site)).into_response()
}

fn site_url(site: usize) -> String {
    format!("https://www.rank{site}.example/cold-brew-guide")
}

fn dataset(job: kr_core::domain::JobId) -> (ResultsDataset, Vec<Measured>) {
    let mut keywords = Vec::new();
    let mut clusters = Vec::new();
    let mut measured = Vec::new();
    for c in 0..CLUSTERS {
        let id = format!("c-{c}");
        for k in 0..KEYWORDS_PER_CLUSTER {
            let keyword = format!("cold brew {c} {k}");
            keywords.push(KeywordRecord {
                id: format!("k-{}", keywords.len() + 1),
                keyword: keyword.clone(),
                search_volume: Some(1000 - k as i64),
                cluster_id: id.clone(),
                cluster_name: format!("cold brew {c}"),
                ..KeywordRecord::default()
            });
            measured.push(Measured {
                serp_urls: Some((1..=PAGES).map(site_url).collect()),
                ..Measured::default()
            });
        }
        clusters.push(ClusterRecord {
            id,
            name: format!("cold brew {c}"),
            primary_keyword: format!("cold brew {c} 0"),
            keyword_count: KEYWORDS_PER_CLUSTER,
            ..ClusterRecord::default()
        });
    }
    let dataset = ResultsDataset {
        format: DATASET_FORMAT,
        job_id: job,
        keywords,
        clusters,
        personas: Vec::new(),
        topics: Vec::new(),
    };
    (dataset, measured)
}

fn millis(duration: Duration) -> String {
    format!("{:.0} ms", duration.as_secs_f64() * 1000.0)
}

fn report(label: &str, mut times: Vec<Duration>) {
    times.sort();
    println!(
        "{label}: p50 {}, max {} ({} requests)",
        millis(times[times.len() / 2]),
        millis(*times.last().unwrap()),
        times.len()
    );
}

#[tokio::main]
async fn main() -> Result<()> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let address: SocketAddr = listener.local_addr()?;
    tokio::spawn(async move {
        let _ = axum::serve(listener, Router::new().fallback(ranking_site)).await;
    });
    let resolve = (1..=PAGES)
        .map(|site| format!("rank{site}.example={address},www.rank{site}.example={address}"))
        .collect::<Vec<_>>()
        .join(",");
    let crawler = Crawler::new(CrawlConfig::from_vars(|name| {
        (name == "KR_CRAWL_RESOLVE").then(|| resolve.clone())
    })?)?;

    let store = harness::store().await;
    let owner = harness::new_user(&store, Plan::Agency, 1, 1).await;
    let job = kr_core::domain::Job {
        completed_at: Some(chrono::Utc::now()),
        ..harness::job_record(owner.id, JobStatus::Completed, "primary-site.com", &[])
    };
    store.import_jobs(std::slice::from_ref(&job)).await?;
    let objects = kr_aws::s3::S3ObjectStore::new(
        harness::clients().await.s3,
        harness::resources().results_bucket,
    );
    let (dataset, measured) = dataset(job.id);
    kr_core::store::put_dataset(&objects, &dataset).await?;
    put_json(&objects, job.id, &objects::stage("metrics"), &measured).await?;
    let settings = BriefSettings::default();
    let maker = BriefMaker {
        objects: &objects,
        ledger: store.as_ref(),
        crawler: &crawler,
        settings: &settings,
        writer: None,
    };

    let (mut made, mut read) = (Vec::new(), Vec::new());
    for cluster in &dataset.clusters {
        let started = Instant::now();
        let brief = maker
            .brief(&job, Some(&dataset), &cluster.id, Access::Make)
            .await?;
        made.push(started.elapsed());
        anyhow::ensure!(
            brief.sources.iter().all(|s| s.fetched),
            "every page is read: {:?}",
            brief.sources
        );
        anyhow::ensure!(!brief.outline.is_empty(), "an outline");
    }
    for cluster in &dataset.clusters {
        let started = Instant::now();
        maker
            .brief(&job, Some(&dataset), &cluster.id, Access::Read)
            .await?;
        read.push(started.elapsed());
    }
    println!(
        "## briefs: {PAGES} ranking pages answering in {} ms each (robots.txt too), default politeness",
        LATENCY.as_millis()
    );
    let slowest = *made.iter().max().unwrap();
    report("first request (read, compose, store, count)", made);
    report("stored brief read back", read);
    println!(
        "target: ≤ {} s per brief: {}",
        TARGET.as_secs(),
        if slowest <= TARGET { "met" } else { "NOT met" }
    );
    Ok(())
}
