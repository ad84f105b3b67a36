//! Each function's memory setting from measurements (`.ci/bench memory`): every function runs its
//! workload in a process held to what Lambda gives at a memory setting (that many MiB, and the
//! CPU share that comes with it: one vCPU at 1,769 MB, in proportion below and above), at each
//! setting in turn, through Linux cgroups (v1, as root). The first request of a fresh process
//! (what a new instance loads on first use) is reported apart from the p50 and p99 of the rest.
//! The smallest setting is chosen whose p99 stays within 10 % (or 10 ms) of the largest
//! setting's, whose first request stays within 25 % (or 50 ms), and whose peak memory leaves a
//! quarter free.
//!
//!   memory-bench sweep JOB KEY [FUNCTION...]  every function (or those named) at every
//!                                       setting; a table and the choices
//!   memory-bench run FUNCTION JOB KEY   one function's workload in this process (what sweep
//!                                       starts in each cgroup); prints one line of JSON
//!
//! JOB is a stored job of 100,000 keywords (`results-bench seed`) owned by KEY's account: the
//! readers' largest case. The pipeline runs a demo-size job on the sample sites, which this
//! process serves (held to the same share), then a job of 10,000 imported keywords. The emulator runs outside the limits, as AWS's
//! services do.

use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use async_trait::async_trait;
use kr_aws::Resources;
use kr_core::config::Config;
use kr_core::domain::WebhookEvent;
use kr_core::domain::{DomainName, JobId, KeywordList, LanguageCode, LocationCode};
use kr_core::service::jobs::CreateJobRequest;
use kr_core::store::{DeliveryTarget, JobStore, WebhookMessage};
use kr_tests::bridge::{Bridge, InProcessPipeline, Invoker};
use kr_tests::harness::{self, Call};
use kr_tests::measure::{peak_memory_mib, percentile_ms};
use kr_tests::pipeline_rig::Rig;
use kr_tests::sites::{DEMO_COMPETITOR, DEMO_PRIMARY};
use serde_json::{json, Value};

/// The Lambda memory settings tried, MB.
const SETTINGS: [u32; 6] = [128, 256, 512, 1024, 1769, 3008];
/// Lambda's memory for one full vCPU.
const ONE_VCPU_MB: f64 = 1769.0;
/// A setting keeps the p99 when it is within this factor of the largest setting's, or within
/// this many milliseconds of it (a few milliseconds on a request nobody waits on are not lost).
const P99_KEPT: f64 = 1.10;
const P99_SLACK_MS: f64 = 10.0;
/// A new instance's first request (once per instance, after a sandbox start that costs more)
/// may take this much longer than at the largest setting.
const FIRST_KEPT: f64 = 1.25;
const FIRST_SLACK_MS: f64 = 50.0;
/// Functions whose workload here is smaller than their largest input: the pipeline's largest
/// job here has no data provider (10,000 imported keywords and the crawl's), not 20,000
/// keywords with 1,000 SERPs. The sweep never lowers them.
const NOT_AT_LARGEST: [&str; 1] = ["pipeline"];
/// Peak memory may use at most this share of the setting (larger inputs, allocator slack).
const PEAK_SHARE: f64 = 0.75;

const FUNCTIONS: [&str; 10] = [
    "account", "jobs", "locales", "results", "export", "briefs", "web", "mcp", "notifier",
    "pipeline",
];

#[derive(serde::Serialize, serde::Deserialize)]
struct Measured {
    /// The first request of the fresh process: a new instance's, with what it loads on first use.
    first_ms: f64,
    /// The requests after it (`samples` of them).
    samples: usize,
    p50_ms: f64,
    p99_ms: f64,
    peak_mib: f64,
}

/// Times each call of `step` (one invocation's worth of work).
struct Timings(Vec<Duration>);

impl Timings {
    async fn time<T>(&mut self, step: impl std::future::Future<Output = T>) -> T {
        let started = Instant::now();
        let out = step.await;
        self.0.push(started.elapsed());
        out
    }
}

/// Sends `call` to `app` and checks it succeeded; the body is read and dropped chunk by chunk,
/// as Lambda streams it out, so a large answer never sits in this process whole.
async fn ok(app: &axum::Router, call: Call) -> Result<()> {
    let reply = call.send_streamed(app).await;
    if reply >= 400 {
        bail!("answered {reply}");
    }
    Ok(())
}

async fn account(config: Config, times: &mut Timings, key: &str) -> Result<()> {
    let store = harness::store().await;
    let user = harness::new_user(&store, kr_core::domain::Plan::Agency, 1, 1).await;
    let app = kr_account::router(
        kr_account::AccountState::from_config(config, Resources::from_env()?).await,
    );
    for _ in 0..10 {
        let login = Call::post("/api/v1/auth/login")
            .json(json!({"email": user.email.as_str(), "password": harness::TEST_PASSWORD}));
        times.time(ok(&app, login)).await?;
        let me = Call::get("/api/v1/users/me").api_key(key);
        times.time(ok(&app, me)).await?;
    }
    Ok(())
}

async fn jobs(config: Config, times: &mut Timings, job: &str, key: &str) -> Result<()> {
    let app =
        kr_jobs::router(kr_jobs::JobsState::from_config(config, Resources::from_env()?).await);
    let body = json!({"primaryDomain": "example.com", "competitorDomains": ["example.org"],
        "languageCode": "en", "locationCode": 2840});
    for _ in 0..10 {
        let list = Call::get("/api/v1/jobs?limit=20").api_key(key);
        times.time(ok(&app, list)).await?;
        let one = Call::get(&format!("/api/v1/jobs/{job}")).api_key(key);
        times.time(ok(&app, one)).await?;
        let estimate = Call::post("/api/v1/jobs/estimate")
            .api_key(key)
            .json(body.clone());
        times.time(ok(&app, estimate)).await?;
    }
    Ok(())
}

async fn locales(times: &mut Timings) -> Result<()> {
    let app = kr_locales::router();
    for _ in 0..10 {
        times.time(ok(&app, Call::get("/api/v1/languages"))).await?;
        let locations = Call::get("/api/v1/locations?search=united");
        times.time(ok(&app, locations)).await?;
    }
    Ok(())
}

/// Keyword pages: a cold first one, then filtered, sorted and paged ones.
const QUERIES: [&str; 6] = [
    "?intent=commercial,transactional&minVolume=1000&sortBy=searchVolume",
    "?search=espresso&sortBy=cpc&sortOrder=asc",
    "?minDifficulty=20&maxDifficulty=60&sortBy=difficulty&offset=200",
    "?sortBy=organicOpportunityScore&limit=500",
    "?serpFeature=people_also_ask,local_pack&minWeakSpots=1&sortBy=searchVolume",
    "?sortBy=keyword&offset=5000",
];

async fn results(config: Config, times: &mut Timings, job: &str, key: &str) -> Result<()> {
    let app = kr_results::router(
        kr_results::ResultsState::from_config(config, Resources::from_env()?).await,
    );
    for _ in 0..4 {
        for query in QUERIES {
            let page = Call::get(&format!("/api/v1/jobs/{job}/keywords{query}")).api_key(key);
            times.time(ok(&app, page)).await?;
        }
        let clusters = Call::get(&format!("/api/v1/jobs/{job}/clusters")).api_key(key);
        times.time(ok(&app, clusters)).await?;
    }
    Ok(())
}

async fn export(config: Config, times: &mut Timings, job: &str, key: &str) -> Result<()> {
    let app = kr_export::router(
        kr_export::ExportState::from_config(config, Resources::from_env()?).await,
    );
    for _ in 0..3 {
        let csv = Call::get(&format!("/api/v1/jobs/{job}/export-keywords")).api_key(key);
        times.time(ok(&app, csv)).await?;
    }
    Ok(())
}

async fn briefs(config: Config, times: &mut Timings, job: &str, key: &str) -> Result<()> {
    let state = kr_briefs::BriefsState::from_config(config, Resources::from_env()?)
        .await
        .map_err(|e| anyhow!(e))?;
    let app = kr_briefs::router(state);
    // Made once, then read back as stored: both kinds of request.
    for cluster in [0, 1, 2, 0, 1, 2, 3, 4, 3, 4] {
        let brief =
            Call::get(&format!("/api/v1/jobs/{job}/clusters/c-{cluster}/brief")).api_key(key);
        times.time(ok(&app, brief)).await?;
    }
    Ok(())
}

async fn web(config: Config, times: &mut Timings, job: &str, key: &str) -> Result<()> {
    let app = kr_web::router(kr_web::WebState::from_config(config, Resources::from_env()?).await);
    for _ in 0..3 {
        for query in QUERIES {
            let path =
                format!("/jobs/{job}{query}&tab=keywords&limit=100").replace("&limit=500", "");
            times.time(ok(&app, Call::get(&path).api_key(key))).await?;
        }
        for tab in ["overview", "clusters", "plan"] {
            let path = format!("/jobs/{job}?tab={tab}");
            times.time(ok(&app, Call::get(&path).api_key(key))).await?;
        }
    }
    Ok(())
}

/// MCP over its HTTP transport: initialize, then tool calls on the job.
async fn mcp(config: Config, times: &mut Timings, job: &str, key: &str) -> Result<()> {
    let app = kr_mcp::router(kr_mcp::McpState::from_config(config, Resources::from_env()?).await);
    let rpc = |body: Value, session: Option<&str>| {
        let call = Call::post("/mcp")
            .bearer(key)
            .header("host", "api.keyword-research.test")
            .header("accept", "application/json, text/event-stream")
            .json(body);
        match session {
            Some(id) => call.header("mcp-session-id", id),
            None => call,
        }
    };
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "memory-bench", "version": "1"}}});
    let reply = times.time(rpc(init, None).send(&app)).await;
    if reply.status != 200 {
        bail!("initialize: {} {}", reply.status, reply.text);
    }
    // Without sessions (the function's mode: any instance may answer) there is no id to send.
    let session = reply.header("mcp-session-id").map(str::to_string);
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    rpc(initialized, session.as_deref()).send(&app).await;
    for id in 1..=10 {
        let (tool, args) = if id % 2 == 0 {
            ("list_clusters", json!({"jobId": job}))
        } else {
            (
                "query_keywords",
                json!({"jobId": job, "limit": 50, "sortBy": "searchVolume"}),
            )
        };
        let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": args}});
        let reply = times.time(rpc(call, session.as_deref()).send(&app)).await;
        if reply.status >= 400 || reply.json["result"]["isError"] == json!(true) {
            bail!("{tool}: {} {}", reply.status, reply.text);
        }
    }
    Ok(())
}

/// Deliveries of a job's event to a webhook that answers at once.
async fn notifier(config: Config, times: &mut Timings, job: &str, key: &str) -> Result<()> {
    let receiver = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let address = receiver.local_addr()?;
    tokio::spawn(async move {
        let app = axum::Router::new().fallback(|| async { axum::http::StatusCode::NO_CONTENT });
        axum::serve(receiver, app).await
    });
    let account = kr_account::router(
        kr_account::AccountState::from_config(config.clone(), Resources::from_env()?).await,
    );
    let created = Call::post("/api/v1/webhooks")
        .api_key(key)
        .json(json!({"url": "http://hooks.bench/hook", "events": ["job.completed"]}))
        .send(&account)
        .await;
    let webhook = created.json["webhook"]["id"]
        .as_str()
        .or_else(|| created.json["id"].as_str())
        .with_context(|| format!("a webhook: {}", created.text))?
        .parse()
        .map_err(|_| anyhow!("a webhook id"))?;
    let resolve = format!("hooks.bench={address}");
    let env = |name: &str| match name {
        "KR_WEBHOOK_RESOLVE" => Some(resolve.clone()),
        other => std::env::var(other).ok(),
    };
    let kr_aws::Wiring {
        clients,
        objects,
        resources,
        ..
    } = kr_aws::Wiring::from_config(config.clone(), Resources::from_env()?).await;
    let store = harness::store().await;
    let notifier = kr_notifier::Notifier {
        changes: std::sync::Arc::new(kr_notifier::StoredChangeDigests::new(
            store.clone(),
            objects,
        )),
        jobs: store.clone(),
        fan_outs: store.clone(),
        webhooks: store,
        queue: std::sync::Arc::new(kr_aws::sqs::SqsWebhookQueue::new(
            clients.sqs,
            resources.webhooks_queue_url.clone(),
        )),
        signing: std::sync::Arc::new(kr_aws::signing_key::SigningKeySource::new(
            clients.secrets,
            resources.webhook_signing_key_arn.clone(),
        )),
        client: kr_notifier::Notifier::client_from_vars(env).map_err(|e| anyhow!(e))?,
        retries: kr_core::service::webhooks::RetrySchedule::from_vars(env)
            .map_err(|e| anyhow!(e))?,
    };
    let job: JobId = job.parse().map_err(|_| anyhow!("a job id"))?;
    for attempt in 1..=20 {
        let message = WebhookMessage {
            target: Some(DeliveryTarget::Webhook(webhook)),
            attempt,
            ..WebhookMessage::for_job(job, WebhookEvent::JobCompleted)
        };
        times
            .time(notifier.handle(&message))
            .await
            .map_err(|e| anyhow!("{e}"))?;
    }
    Ok(())
}

/// Delivers the pipeline's messages as the event source would, timing each invocation.
struct Timed<'a>(InProcessPipeline, std::sync::Mutex<&'a mut Timings>);

#[async_trait]
impl Invoker for Timed<'_> {
    async fn invoke(&self, event: Value) -> Result<Value> {
        let started = Instant::now();
        let answer = self.0.invoke(event).await;
        self.1.lock().unwrap().0.push(started.elapsed());
        answer
    }
}

/// 10,000 phrases of one niche, as a client's own list would bring them (the import's limit).
fn imported_phrases() -> Vec<String> {
    const MODIFIERS: [&str; 8] = [
        "best",
        "cheap",
        "how to clean",
        "buy",
        "reviews of",
        "price of",
        "repair",
        "install",
    ];
    const PRODUCTS: [&str; 25] = [
        "coffee grinder",
        "espresso machine",
        "milk frother",
        "pour over kettle",
        "cold brew maker",
        "burr grinder",
        "french press",
        "moka pot",
        "drip coffee maker",
        "coffee scale",
        "espresso tamper",
        "knock box",
        "coffee roaster",
        "aeropress",
        "siphon brewer",
        "coffee canister",
        "water filter",
        "descaler",
        "portafilter",
        "steam wand",
        "bean hopper",
        "grouphead gasket",
        "shower screen",
        "brew basket",
        "coffee subscription",
    ];
    const ENDINGS: [&str; 50] = [
        "near me",
        "for home",
        "for office",
        "online",
        "uk",
        "usa",
        "2026",
        "under 100",
        "under 200",
        "for beginners",
        "for professionals",
        "small",
        "large",
        "quiet",
        "manual",
        "electric",
        "stainless steel",
        "black",
        "white",
        "with timer",
        "with scale",
        "compact",
        "commercial",
        "portable",
        "for travel",
        "for camping",
        "for one",
        "for two",
        "deal",
        "sale",
        "discount",
        "second hand",
        "refurbished",
        "parts",
        "warranty",
        "manual pdf",
        "troubleshooting",
        "not working",
        "leaking",
        "noisy",
        "settings",
        "vs",
        "alternative",
        "comparison",
        "ranking",
        "top 10",
        "guide",
        "tips",
        "review",
        "rating",
    ];
    let mut phrases = Vec::with_capacity(10_000);
    for modifier in MODIFIERS {
        for product in PRODUCTS {
            for ending in ENDINGS {
                phrases.push(format!("{modifier} {product} {ending}"));
            }
        }
    }
    phrases
}

/// Delivers the job's messages until it finishes.
async fn complete(rig: &Rig, invoker: &Timed<'_>, job: JobId) -> Result<()> {
    let bridge = Bridge {
        sqs: rig.clients.sqs.clone(),
        queue_url: rig.queue_url.clone(),
        batch_size: 1,
    };
    let deadline = Instant::now() + Duration::from_secs(1_800);
    loop {
        let now = rig.store.job(job).await?.context("the job")?;
        if now.status.is_finished() {
            if now.status != kr_core::domain::JobStatus::Completed {
                bail!("the job failed: {:?}", now.error_message);
            }
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!("the job did not finish");
        }
        bridge.poll_once(invoker, 1).await?;
    }
}

/// Every stage of a demo-size job on the sample sites, then of the largest job without a data
/// provider: 10,000 imported keywords and what the crawl adds.
async fn pipeline(times: &mut Timings) -> Result<()> {
    let rig = kr_tests::pipeline_rig::rig(None, &[]).await;
    let invoker = Timed(
        InProcessPipeline(rig.pipeline.clone()),
        std::sync::Mutex::new(times),
    );
    let demo = rig.start(DEMO_PRIMARY, &[DEMO_COMPETITOR]).await;
    complete(&rig, &invoker, demo.id).await?;
    let request = CreateJobRequest {
        primary_domain: DomainName::parse(DEMO_PRIMARY).map_err(|e| anyhow!("{e:?}"))?,
        competitor_domains: vec![],
        language_code: LanguageCode::parse("en").map_err(|e| anyhow!("{e:?}"))?,
        location_code: LocationCode::parse(2840).map_err(|e| anyhow!("{e:?}"))?,
        keywords: Some(
            KeywordList::from_json(&json!(imported_phrases())).map_err(|e| anyhow!("{e:?}"))?,
        ),
        discover_keywords: true,
        callback_url: None,
        search_console_property: None,
    };
    let (_, large) = rig.start_request(request).await;
    complete(&rig, &invoker, large.id).await
}

async fn run(function: &str, job: &str, key: &str) -> Result<()> {
    let config = Config::from_env()?;
    let mut times = Timings(Vec::new());
    match function {
        "account" => account(config, &mut times, key).await?,
        "jobs" => jobs(config, &mut times, job, key).await?,
        "locales" => locales(&mut times).await?,
        "results" => results(config, &mut times, job, key).await?,
        "export" => export(config, &mut times, job, key).await?,
        "briefs" => briefs(config, &mut times, job, key).await?,
        "web" => web(config, &mut times, job, key).await?,
        "mcp" => mcp(config, &mut times, job, key).await?,
        "notifier" => notifier(config, &mut times, job, key).await?,
        "pipeline" => pipeline(&mut times).await?,
        other => bail!("no function {other}"),
    }
    let Some((first, warm)) = times.0.split_first() else {
        bail!("{function} timed nothing");
    };
    let mut sorted = warm.to_vec();
    sorted.sort();
    let measured = Measured {
        first_ms: first.as_secs_f64() * 1000.0,
        samples: sorted.len(),
        p50_ms: percentile_ms(&sorted, 0.5),
        p99_ms: percentile_ms(&sorted, 0.99),
        peak_mib: peak_memory_mib(),
    };
    println!("{}", serde_json::to_string(&measured)?);
    Ok(())
}

/// A cgroup (v1) pair holding a process to one memory setting.
struct Limits {
    cpu: String,
    memory: String,
}

impl Limits {
    fn new(name: &str, mb: u32) -> Result<Self> {
        let cpu = format!("/sys/fs/cgroup/cpu/{name}");
        let memory = format!("/sys/fs/cgroup/memory/{name}");
        for dir in [&cpu, &memory] {
            std::fs::create_dir_all(dir).with_context(|| {
                format!("{dir}: the sweep needs cgroups v1 and root to hold processes to a setting")
            })?;
        }
        let period = 100_000u64;
        let quota = (f64::from(mb) / ONE_VCPU_MB * period as f64).round() as u64;
        std::fs::write(format!("{cpu}/cpu.cfs_period_us"), period.to_string())?;
        std::fs::write(format!("{cpu}/cpu.cfs_quota_us"), quota.to_string())?;
        let bytes = (u64::from(mb) * 1024 * 1024).to_string();
        std::fs::write(format!("{memory}/memory.limit_in_bytes"), &bytes)?;
        // No swap either, where the kernel accounts it: Lambda has none.
        let _ = std::fs::write(format!("{memory}/memory.memsw.limit_in_bytes"), &bytes);
        Ok(Self { cpu, memory })
    }

    /// Whether the process reached the limit: the kernel's count of refused charges, of memory
    /// or of memory and swap together.
    fn out_of_memory(&self) -> bool {
        ["memory.failcnt", "memory.memsw.failcnt"]
            .iter()
            .any(|file| {
                std::fs::read_to_string(format!("{}/{file}", self.memory))
                    .map(|n| n.trim() != "0")
                    .unwrap_or(false)
            })
    }
}

impl Drop for Limits {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir(&self.cpu);
        let _ = std::fs::remove_dir(&self.memory);
    }
}

enum Outcome {
    Measured(Measured),
    OutOfMemory,
}

fn measure(function: &str, mb: u32, job: &str, key: &str) -> Result<Outcome> {
    let limits = Limits::new(
        &format!("kr-memory-bench-{}-{function}-{mb}", std::process::id()),
        mb,
    )?;
    let exe = std::env::current_exe()?;
    // The shell joins both groups before it becomes the bench: nothing runs outside them.
    let script = format!(
        "echo $$ > {}/tasks && echo $$ > {}/tasks && exec \"$0\" run \"$@\"",
        limits.cpu, limits.memory
    );
    let output = Command::new("/bin/sh")
        .args(["-c", &script])
        .arg(&exe)
        .args([function, job, key])
        .output()?;
    if !output.status.success() {
        use std::os::unix::process::ExitStatusExt;
        // The kernel's out-of-memory killer is the only sender of SIGKILL here.
        if limits.out_of_memory() || output.status.signal() == Some(9) {
            return Ok(Outcome::OutOfMemory);
        }
        bail!(
            "{function} at {mb} MB: {}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let line = String::from_utf8_lossy(&output.stdout);
    let measured = serde_json::from_str(line.lines().last().unwrap_or_default())
        .with_context(|| format!("{function} at {mb} MB printed {line}"))?;
    Ok(Outcome::Measured(measured))
}

fn sweep(job: &str, key: &str, only: &[&str]) -> Result<()> {
    println!("| function | MB | first ms | p50 ms | p99 ms | peak MiB | samples |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let mut chosen = Vec::new();
    for function in FUNCTIONS
        .into_iter()
        .filter(|f| only.is_empty() || only.contains(f))
    {
        let mut rows: Vec<(u32, Measured)> = Vec::new();
        for mb in SETTINGS {
            match measure(function, mb, job, key)? {
                Outcome::OutOfMemory => {
                    println!("| {function} | {mb} | out of memory | | | | |")
                }
                Outcome::Measured(m) => {
                    println!(
                        "| {function} | {mb} | {:.1} | {:.1} | {:.1} | {:.1} | {} |",
                        m.first_ms, m.p50_ms, m.p99_ms, m.peak_mib, m.samples
                    );
                    rows.push((mb, m));
                }
            }
        }
        let Some((_, largest)) = rows.last() else {
            bail!("{function} ran out of memory at every setting");
        };
        let kept = (largest.p99_ms * P99_KEPT).max(largest.p99_ms + P99_SLACK_MS);
        let first_kept = (largest.first_ms * FIRST_KEPT).max(largest.first_ms + FIRST_SLACK_MS);
        let pick = rows
            .iter()
            .find(|(mb, m)| {
                m.p99_ms <= kept
                    && m.first_ms <= first_kept
                    && m.peak_mib <= f64::from(*mb) * PEAK_SHARE
            })
            .map_or(SETTINGS[SETTINGS.len() - 1], |(mb, _)| *mb);
        chosen.push((function, pick));
    }
    println!();
    println!(
        "chosen (p99 within {P99_KEPT}x or {P99_SLACK_MS} ms of {} MB's, the first request within {FIRST_KEPT}x or {FIRST_SLACK_MS} ms, peak at most {:.0} % of the setting):",
        SETTINGS[SETTINGS.len() - 1],
        PEAK_SHARE * 100.0
    );
    let template = kr_tests::template::Template::load_default()?;
    for (function, mb) in chosen {
        let now = template.function_memory(function)?;
        if NOT_AT_LARGEST.contains(&function) && mb < now {
            println!("  {function}: {now} MB kept ({mb} MB by the rule on this smaller workload)");
        } else {
            println!("  {function}: {mb} MB (template.yaml: {now} MB)");
        }
    }
    Ok(())
}

#[tokio::main]
async fn run_main(function: &str, job: &str, key: &str) -> Result<()> {
    run(function, job, key).await
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["sweep", job, key, only @ ..] => sweep(job, key, only),
        ["run", function, job, key] => run_main(function, job, key),
        _ => bail!("usage: memory-bench sweep JOB KEY [FUNCTION...] | run FUNCTION JOB KEY"),
    }
}
