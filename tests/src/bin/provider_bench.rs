//! DataForSEO requests and cost per job: a primary plus 3 competitors at default settings,
//! counted against the mock; then the same domains again for another user (the cross-job
//! cache), and the first job again with Live SERPs. Run through `.ci/bench provider` (it
//! starts the emulator); prints three tables and exits non-zero when a job's recorded usage
//! differs from what the mock saw and billed, or the Live job's results from the queued one's.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use kr_core::dataset::ResultsDataset;
use kr_core::domain::JobStatus;
use kr_core::domain::{Job, ProviderUsage};
use kr_tests::dataforseo_mock::{
    paths, MockConfig, MockDataForSeo, MockStats, COMPETITORS, PRIMARY,
};
use kr_tests::pipeline_rig::{provider_at, rig, Rig};
use kr_tests::sites::DEMO_COMPETITOR;

/// What one job cost, as the mock counted it and as the job recorded it.
struct Figures {
    stats: MockStats,
    usage: ProviderUsage,
    result: ResultsDataset,
    wall: Duration,
}

/// `/v3/dataforseo_labs/google/ranked_keywords/live` → `dataforseo_labs/google/ranked_keywords`.
fn short(path: &str) -> &str {
    let path = path.strip_prefix("/v3/").unwrap_or(path);
    path.strip_suffix("/live").unwrap_or(path)
}

async fn run_job(rig: &Rig, mock: &MockDataForSeo) -> Result<Figures> {
    let job = rig.start(PRIMARY, &COMPETITORS).await;
    finish(rig, mock, job).await
}

/// Runs `job` to its end; what it cost and gave.
async fn finish(rig: &Rig, mock: &MockDataForSeo, job: Job) -> Result<Figures> {
    let started = Instant::now();
    let (done, _) = rig.run(job.id).await;
    let wall = started.elapsed();
    if done.status != JobStatus::Completed {
        bail!(
            "job {} ended {:?}: {:?}",
            done.id,
            done.status,
            done.error_message
        );
    }
    let dataset: ResultsDataset = kr_core::store::get_dataset(rig.objects.as_ref(), done.id)
        .await?
        .context("the job stored no dataset")?;
    Ok(Figures {
        stats: mock.stats(),
        usage: usage(&done)?,
        result: dataset,
        wall,
    })
}

/// A job of `DEFAULT_SERP_BUDGET` keywords of the user's own (the synthetic niche of the
/// research benchmarks: "{brand} {product} {modifier}"), discovery off, with a job size
/// allowing them all: every one gets its SERP through the queue, none from a cache.
async fn serp_budget_job(aliases: &[(&str, &str)]) -> Result<(usize, Figures)> {
    let budget = kr_dataforseo::DEFAULT_SERP_BUDGET;
    let mock = MockDataForSeo::start(MockConfig::default().without_faults()).await?;
    let provider = provider_at(&mock.base_url(), "mock-login", "mock-password", &[]).await;
    let settings = kr_pipeline::stages::ResearchSettings {
        max_keywords: budget,
        ..Default::default()
    };
    let rig = kr_tests::pipeline_rig::rig_with(Some(provider), aliases, settings).await;
    const BRANDS: [&str; 10] = [
        "acme",
        "zoeller",
        "wayne",
        "superior",
        "basement watchdog",
        "liberty",
        "everbilt",
        "little giant",
        "ridgid",
        "pentair",
    ];
    const PRODUCTS: [&str; 10] = [
        "sump pump",
        "sump pump alarm",
        "sump pump check valve",
        "battery backup sump pump",
        "sump pump float switch",
        "utility pump",
        "sewage pump",
        "well pump",
        "drain pump",
        "pedestal sump pump",
    ];
    const MODIFIERS: [&str; 10] = [
        "",
        "review",
        "price",
        "near me",
        "installation",
        "replacement",
        "parts",
        "manual",
        "warranty",
        "for sale",
    ];
    let phrases: Vec<String> = BRANDS
        .iter()
        .flat_map(|b| PRODUCTS.iter().map(move |p| (b, p)))
        .flat_map(|(b, p)| {
            MODIFIERS
                .iter()
                .map(move |m| format!("{b} {p} {m}").trim().to_string())
        })
        .take(budget)
        .collect();
    let request = kr_core::service::jobs::CreateJobRequest {
        primary_domain: kr_core::domain::DomainName::parse(PRIMARY).map_err(anyhow::Error::msg)?,
        competitor_domains: Vec::new(),
        language_code: kr_core::domain::LanguageCode::parse("en").map_err(anyhow::Error::msg)?,
        location_code: kr_core::domain::LocationCode::parse(2840).map_err(anyhow::Error::msg)?,
        keywords: Some(
            kr_core::domain::KeywordList::from_json(&serde_json::json!(phrases))
                .map_err(|errors| anyhow::anyhow!("{errors:?}"))?,
        ),
        discover_keywords: false,
        callback_url: None,
        search_console_property: None,
    };
    let (_, job) = rig.start_request(request).await;
    Ok((phrases.len(), finish(&rig, &mock, job).await?))
}

fn usage(job: &Job) -> Result<ProviderUsage> {
    job.usage
        .clone()
        .context("the job recorded no provider usage")
}

fn print_table(title: &str, figures: &Figures) {
    let stats = &figures.stats;
    let mut cost: BTreeMap<&str, f64> = BTreeMap::new();
    for task in &stats.tasks {
        *cost.entry(task.path.as_str()).or_default() += task.cost;
    }
    println!("## {title}\n");
    println!(
        "| {:<46} | {:>8} | {:>10} |",
        "endpoint", "requests", "cost USD"
    );
    println!("|{}|{}|{}|", "-".repeat(48), "-".repeat(10), "-".repeat(12));
    for path in paths::ALL {
        println!(
            "| {:<46} | {:>8} | {:>10.4} |",
            short(path),
            stats.requests_to(path),
            cost.get(path).copied().unwrap_or(0.0)
        );
    }
    let requests: u64 = stats.requests.values().sum();
    println!(
        "| {:<46} | {:>8} | {:>10.4} |",
        "total (mock)", requests, stats.total_cost
    );
    let usage = &figures.usage;
    println!(
        "\njob usage: cost {:.4} USD, requests {}, cacheHits {}, capReached {}",
        usage.cost_usd, usage.requests, usage.cache_hits, usage.cap_reached
    );
    println!("keywords in the result: {}", figures.result.keywords.len());
    println!("wall time: {:.2} s\n", figures.wall.as_secs_f64());
}

/// The job's usage is what the mock saw: every request, every cent.
fn check(figures: &Figures) -> Vec<String> {
    let (stats, usage) = (&figures.stats, &figures.usage);
    let requests: u64 = stats.requests.values().sum();
    let billed: f64 = stats.tasks.iter().map(|t| t.cost).sum();
    let mut problems = Vec::new();
    if usage.requests != requests {
        problems.push(format!(
            "job usage has {} requests, the mock saw {requests}",
            usage.requests
        ));
    }
    if (usage.cost_usd - stats.total_cost).abs() > 1e-6 {
        problems.push(format!(
            "job usage costs {} USD, the mock billed {}",
            usage.cost_usd, stats.total_cost
        ));
    }
    if (billed - stats.total_cost).abs() > 1e-6 {
        problems.push(format!(
            "the mock's task costs sum to {billed}, its total is {}",
            stats.total_cost
        ));
    }
    problems
}

#[tokio::main]
async fn main() -> Result<()> {
    let command: Vec<String> = std::env::args().collect();
    println!("command: {}", command.join(" "));
    println!("(built and run by: cargo run --release -p kr-tests --bin provider-bench; .ci/bench provider starts the emulator first)\n");

    let mock = MockDataForSeo::start(MockConfig::default().without_faults()).await?;
    // Only the base URL and the 10 ms retry pause (both set by `provider_at`) differ from
    // the defaults; no retries happen here, the mock plays no faults.
    let provider = provider_at(&mock.base_url(), "mock-login", "mock-password", &[]).await;
    let settings = provider.settings().clone();
    // The benchmark-only competitors are the sample site roastrivals.com under their names.
    let aliases: Vec<(&str, &str)> = COMPETITORS
        .iter()
        .filter(|c| **c != DEMO_COMPETITOR)
        .map(|c| (*c, DEMO_COMPETITOR))
        .collect();
    let rig = rig(Some(provider), &aliases).await;

    println!(
        "job: primary {PRIMARY}, competitors {}",
        COMPETITORS.join(", ")
    );
    println!("market: language en, location 2840 (United States)");
    for (alias, site) in &aliases {
        println!("crawler: {alias} serves the sample site {site}");
    }
    println!(
        "provider: DataForSEO mock at {}, no faults, unlimited balance",
        mock.base_url()
    );
    println!(
        "settings: defaults (max cost per job {} USD, SERP budget {}, cache TTL {} h, {} attempts per request);",
        settings.max_cost_per_job,
        settings.serp_budget,
        settings.cache_ttl.as_secs() / 3600,
        settings.retry.attempts
    );
    println!(
        "          SERPs through the Standard queue (the default), the mock's tasks ready at once;"
    );
    println!(
        "          only KR_DATAFORSEO_BASE_URL (the mock), KR_DATAFORSEO_RETRY_BASE_MS=10 and"
    );
    println!("          KR_DATAFORSEO_SERP_POLL_SECONDS=1 (collect every second, not every minute) are set\n");

    let first = run_job(&rig, &mock).await?;
    print_table("Job 1: first job on these domains", &first);
    // Each Labs answer and each collected SERP is cached (posting and listing tasks give none).
    let answers = first
        .stats
        .tasks
        .iter()
        .filter(|t| t.path != paths::SERP_TASK_POST && t.path != paths::SERP_TASKS_READY)
        .count() as u64;
    mock.reset();
    let second = run_job(&rig, &mock).await?;
    print_table(
        "Job 2: same domains, another user (cross-job cache)",
        &second,
    );

    // The same job with Live SERPs, against a mock of its own (the cache is per base URL).
    let live_mock = MockDataForSeo::start(MockConfig::default().without_faults()).await?;
    let live_provider = provider_at(
        &live_mock.base_url(),
        "mock-login",
        "mock-password",
        &[("KR_DATAFORSEO_SERP_METHOD", "live")],
    )
    .await;
    let live_rig = kr_tests::pipeline_rig::rig(Some(live_provider), &aliases).await;
    let live = run_job(&live_rig, &live_mock).await?;
    print_table(
        "Job 3: the same job with Live SERPs (KR_DATAFORSEO_SERP_METHOD=live)",
        &live,
    );
    println!(
        "Standard queue against Live: {:.4} USD against {:.4} ({:.0} % less)\n",
        first.usage.cost_usd,
        live.usage.cost_usd,
        100.0 * (1.0 - first.usage.cost_usd / live.usage.cost_usd)
    );

    let (budget, serp_job) = serp_budget_job(&aliases).await?;
    print_table(
        &format!("Job 4: {budget} keywords of your own, each with its SERP through the Standard queue (the default SERP budget)"),
        &serp_job,
    );
    let tasks = serp_job.stats.tasks_to(paths::SERP_TASK_POST).len();
    let task_price = kr_dataforseo::pricing::list_price(kr_dataforseo::Endpoint::SerpTaskPost).task;
    let serp_cost: f64 = serp_job
        .stats
        .tasks
        .iter()
        .filter(|t| t.path == paths::SERP_TASK_POST)
        .map(|t| t.cost)
        .sum();
    let serp_clustered = serp_job
        .result
        .clusters
        .iter()
        .filter(|c| c.method == Some(kr_core::dataset::ClusterMethod::Serp))
        .map(|c| c.keyword_count)
        .sum::<usize>();
    println!(
        "SERP tasks posted: {tasks} in {} requests, {serp_cost:.4} USD ({task_price} each at list price); keywords in SERP clusters: {serp_clustered} of {}\n",
        serp_job.stats.requests_to(paths::SERP_TASK_POST),
        serp_job.result.keywords.len()
    );

    // Job 1 again with AI answers on: 20 questions to one engine (Google AI Mode, the least
    // costly, through the Standard queue as the job's SERPs), against a mock of its own.
    let answers_mock = MockDataForSeo::start(MockConfig::default().without_faults()).await?;
    let answers_provider = provider_at(
        &answers_mock.base_url(),
        "mock-login",
        "mock-password",
        &[
            ("KR_AI_ANSWERS", "google_ai_mode"),
            ("KR_AI_ANSWERS_PROMPTS", "20"),
        ],
    )
    .await;
    let answers_rig = kr_tests::pipeline_rig::rig(Some(answers_provider), &aliases).await;
    let answered = run_job(&answers_rig, &answers_mock).await?;
    print_table(
        "Job 5: job 1 with AI answers on (KR_AI_ANSWERS=google_ai_mode, 20 questions through the Standard queue), Standard queue SERPs",
        &answered,
    );
    let asked: Vec<_> = answered.stats.tasks_to(paths::AI_MODE_TASK_POST);
    let answers_cost: f64 = asked.iter().map(|t| t.cost).sum();
    let list = |engine| 20.0 * kr_dataforseo::pricing::llm_answer_price(engine);
    use kr_core::domain::AiEngine;
    println!(
        "AI answers: cost of a {}-keyword job with AI answers on (20 questions on google_ai_mode, Standard queue SERPs): {:.4} USD, of which {} answers {:.4} USD (issue 49's target: at most 0.25 USD); the same 20 questions instead would add, at list price: perplexity {:.4}, claude {:.4}, chat_gpt {:.4}, gemini {:.4}, google_ai_mode Live {:.4} USD\n",
        kr_core::config::DEFAULT_MAX_KEYWORDS,
        answered.usage.cost_usd,
        asked.len(),
        answers_cost,
        list(AiEngine::Perplexity),
        list(AiEngine::Claude),
        list(AiEngine::ChatGpt),
        list(AiEngine::Gemini),
        list(AiEngine::GoogleAiMode),
    );

    let mut problems = check(&first);
    problems.extend(check(&answered));
    if asked.len() != 20 {
        problems.push(format!("job 5 asked {} questions, not 20", asked.len()));
    }
    if answered.usage.cost_usd > 0.25 {
        problems.push(format!(
            "job 5 cost {:.4} USD, over issue 49's target of 0.25",
            answered.usage.cost_usd
        ));
    }
    problems.extend(check(&second));
    problems.extend(check(&live));
    problems.extend(check(&serp_job));
    if tasks != budget || (serp_cost - budget as f64 * task_price).abs() > 1e-6 {
        problems.push(format!(
            "job 4 posted {tasks} SERP tasks for {serp_cost} USD; expected {budget} at list price"
        ));
    }
    if first.result.keywords != live.result.keywords {
        problems.push("the queued job's keywords differ from the Live job's".into());
    }
    if first.usage.requests == 0 {
        problems.push("job 1 sent no request to the provider".into());
    }
    if second.usage.cache_hits != answers || second.usage.requests != 0 {
        problems.push(format!(
            "job 2 took {} answers from the cache and made {} requests; job 1 had {answers} answers",
            second.usage.cache_hits, second.usage.requests
        ));
    }
    if problems.is_empty() {
        println!("check: each job's usage equals the mock's requests and cost; jobs 1 and 3 have the same keywords, metrics, clusters and scores");
        return Ok(());
    }
    for problem in &problems {
        eprintln!("MISMATCH: {problem}");
    }
    std::process::exit(1);
}
