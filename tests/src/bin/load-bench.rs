//! Load: N concurrent clients for a fixed time over a mix of reads and writes, against every
//! function on this machine (run through `.ci/bench load`; tests/README.md, "Load").
//!
//!   load-bench [--clients 16] [--seconds 30] [--warmup 5] [--keywords 10000] [--base-url URL]
//!
//! Without `--base-url` every function is mounted in this process on a local port
//! (`kr_tests::gateway`, as API Gateway routes them) against the emulator named by the KR_*
//! variables. With `--base-url` the clients target a service already running, e.g.
//! `.ci/local-stack` (`cargo lambda watch`); the KR_* variables must then be the ones its
//! functions use (`.local/functions.env`), since the accounts and the job are seeded there.
//!
//! Seeded: a completed job of `--keywords` synthetic keywords (`results-bench seed`, run from
//! beside this binary), readable by every client as the demo job, and one Agency user with an
//! API key and ample runs per client, so per-user limits apply to each client on its own. (A
//! running service's demo account is `KR_DEMO_USER_ID`; the job is handed to it for the run and
//! deleted afterwards.)
//! Each client loops over: the job, keyword pages with filters and sorts, cluster pages, its own
//! job list, creating a job and deleting one of its own. Created jobs stay `queued` in-process
//! (nothing consumes the queue); under the local stack the pipeline runs them (their sites do
//! not resolve, so they fail quickly) unless they are deleted first.
//!
//! Prints requests per second and latency (p50/p99, overall and per kind) over the measured
//! window, and counts 2xx, 4xx (429 apart) and 5xx. Exits non-zero on any 5xx or transport
//! error. A 429 is honoured (the client waits `Retry-After`) and is not a failure.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Parser;
use kr_aws::dynamo::DynamoStore;
use kr_aws::s3::S3ObjectStore;
use kr_aws::AwsClients;
use kr_aws::Resources;
use kr_core::config::Config;
use kr_core::domain::{JobId, Plan, UserId};
use kr_core::service::account::issue_api_key;
use kr_core::service::jobs::delete_job;
use kr_core::store::JobStore;
use kr_tests::aws_calls::CallRecorder;
use kr_tests::harness;
use kr_tests::measure::percentile_ms;

#[derive(Parser)]
#[command(about = "Concurrent clients over a mix of reads and writes; rps, p50/p99, 5xx")]
struct Args {
    /// Concurrent clients, each with its own user and API key.
    #[arg(long, default_value_t = 16)]
    clients: usize,
    /// Measured seconds.
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// Seconds of the same load before measuring (cold starts, dataset loads).
    #[arg(long, default_value_t = 5)]
    warmup: u64,
    /// Keywords in the job the clients read.
    #[arg(long, default_value_t = 10_000)]
    keywords: usize,
    /// A running service (e.g. http://127.0.0.1:9000) instead of the functions in-process.
    #[arg(long)]
    base_url: Option<String>,
}

/// What a client does; weights out of 100.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Job,
    Keywords,
    Clusters,
    List,
    Create,
    Delete,
}

const MIX: [(Kind, u32); 6] = [
    (Kind::Job, 15),
    (Kind::Keywords, 35),
    (Kind::Clusters, 15),
    (Kind::List, 10),
    (Kind::Create, 13),
    (Kind::Delete, 12),
];

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Job => "GET job",
            Kind::Keywords => "GET keywords (filters, sorts)",
            Kind::Clusters => "GET clusters",
            Kind::List => "GET jobs (own list)",
            Kind::Create => "POST job",
            Kind::Delete => "DELETE job",
        }
    }
}

/// The filters and sorts of the results benchmark, plus plain pages.
const KEYWORD_QUERIES: [&str; 10] = [
    "?intent=commercial,transactional&minVolume=1000&sortBy=searchVolume",
    "?search=espresso&sortBy=cpc&sortOrder=asc",
    "?minDifficulty=20&maxDifficulty=60&sortBy=difficulty&offset=200",
    "?personaAvatarNames=__none__,Curious%20Casey&sortBy=opportunityValue",
    "?minCpc=1&maxCpc=5&minCompetition=0.2&sortBy=keyword",
    "?sortBy=organicOpportunityScore&limit=500",
    "?minPaidOpportunityScore=50&sortBy=paidOpportunityScore&offset=1000",
    "?intent=informational&sortBy=intent",
    "",
    "?limit=50&offset=100",
];

const CLUSTER_QUERIES: [&str; 4] = [
    "",
    "?sortBy=keywordCount",
    "?sortBy=name&sortOrder=asc&limit=50",
    "?sortBy=opportunityValue&offset=100",
];

/// xorshift64*: a fixed sequence per client, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[derive(Default)]
struct Tally {
    /// Latencies of answered requests other than 429.
    times: Vec<Duration>,
    ok: u64,
    client_errors: u64,
    rate_limited: u64,
    server_errors: u64,
    transport_errors: u64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.times.extend_from_slice(&other.times);
        self.ok += other.ok;
        self.client_errors += other.client_errors;
        self.rate_limited += other.rate_limited;
        self.server_errors += other.server_errors;
        self.transport_errors += other.transport_errors;
    }

    fn requests(&self) -> u64 {
        self.ok
            + self.client_errors
            + self.rate_limited
            + self.server_errors
            + self.transport_errors
    }
}

#[derive(Default)]
struct ClientReport {
    tallies: BTreeMap<Kind, Tally>,
    /// The first few failures: what was asked and what came back.
    failures: Vec<String>,
}

struct Client {
    http: reqwest::Client,
    api: String,
    key: String,
    job: JobId,
    domain: String,
    rng: Rng,
    own_jobs: Vec<String>,
}

enum Outcome {
    Answered {
        status: u16,
        body: String,
        retry_after: Option<u64>,
    },
    Failed(String),
}

impl Client {
    fn pick(&mut self) -> Kind {
        let mut roll = self.rng.below(100) as u32;
        let mut kind = Kind::Job;
        for (candidate, weight) in MIX {
            if roll < weight {
                kind = candidate;
                break;
            }
            roll -= weight;
        }
        // Keep a few jobs of its own: delete only what exists, create when there are none.
        match kind {
            Kind::Delete if self.own_jobs.is_empty() => Kind::Create,
            Kind::Create if self.own_jobs.len() >= 3 => Kind::Delete,
            other => other,
        }
    }

    fn request(&mut self, kind: Kind) -> (String, reqwest::RequestBuilder) {
        let job = self.job;
        let (label, builder) = match kind {
            Kind::Job => {
                let path = format!("{}/jobs/{job}", self.api);
                (path.clone(), self.http.get(path))
            }
            Kind::Keywords => {
                let query = KEYWORD_QUERIES[self.rng.below(KEYWORD_QUERIES.len())];
                let path = format!("{}/jobs/{job}/keywords{query}", self.api);
                (path.clone(), self.http.get(path))
            }
            Kind::Clusters => {
                let query = CLUSTER_QUERIES[self.rng.below(CLUSTER_QUERIES.len())];
                let path = format!("{}/jobs/{job}/clusters{query}", self.api);
                (path.clone(), self.http.get(path))
            }
            Kind::List => {
                let path = format!("{}/jobs?limit=20", self.api);
                (path.clone(), self.http.get(path))
            }
            Kind::Create => {
                let path = format!("{}/jobs", self.api);
                let body = serde_json::json!({
                    "primaryDomain": self.domain,
                    "competitorDomains": ["rival.load.example.org"],
                    "languageCode": "en",
                    "locationCode": 2840,
                });
                (path.clone(), self.http.post(path).json(&body))
            }
            Kind::Delete => {
                let id = self.own_jobs.remove(0);
                let path = format!("{}/jobs/{id}", self.api);
                (path.clone(), self.http.delete(path))
            }
        };
        (label, builder.header("x-api-key", &self.key))
    }

    async fn send(builder: reqwest::RequestBuilder) -> Outcome {
        let response = match builder.send().await {
            Ok(response) => response,
            Err(err) => return Outcome::Failed(format!("{err:?}")),
        };
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse().ok());
        match response.text().await {
            Ok(body) => Outcome::Answered {
                status,
                body,
                retry_after,
            },
            Err(err) => Outcome::Failed(format!("reading the body of a {status}: {err:?}")),
        }
    }

    /// Runs until `end`; counts only what starts after `measure_from`.
    async fn run(mut self, measure_from: Instant, end: Instant) -> ClientReport {
        let mut report = ClientReport::default();
        while Instant::now() < end {
            let kind = self.pick();
            let (label, builder) = self.request(kind);
            let started = Instant::now();
            let outcome = Self::send(builder).await;
            let elapsed = started.elapsed();
            let measured = started >= measure_from;
            let tally = report.tallies.entry(kind).or_default();
            let mut wait = None;
            let mut failure = None;
            match outcome {
                Outcome::Answered {
                    status,
                    body,
                    retry_after,
                } => {
                    if kind == Kind::Create && status == 201 {
                        let created: serde_json::Value =
                            serde_json::from_str(&body).unwrap_or_default();
                        if let Some(id) = created["job"]["id"].as_str() {
                            self.own_jobs.push(id.to_string());
                        }
                    }
                    if !measured {
                        if status >= 500 {
                            failure = Some(format!("(warm-up) {status} {label}: {body}"));
                        }
                    } else if status == 429 {
                        tally.rate_limited += 1;
                    } else {
                        tally.times.push(elapsed);
                        match status {
                            200..=399 => tally.ok += 1,
                            400..=499 => {
                                tally.client_errors += 1;
                                failure = Some(format!("{status} {label}: {body}"));
                            }
                            _ => {
                                tally.server_errors += 1;
                                failure = Some(format!("{status} {label}: {body}"));
                            }
                        }
                    }
                    if status == 429 {
                        wait = Some(Duration::from_secs(retry_after.unwrap_or(1)));
                    }
                }
                Outcome::Failed(err) => {
                    if measured {
                        tally.transport_errors += 1;
                    }
                    failure = Some(format!("no answer to {label}: {err}"));
                }
            }
            if let Some(failure) = failure {
                if report.failures.len() < 5 {
                    report.failures.push(failure);
                }
            }
            if let Some(wait) = wait {
                let left = end.saturating_duration_since(Instant::now());
                tokio::time::sleep(wait.min(left)).await;
            }
        }
        // Leave no jobs behind (a running service keeps its data); not measured.
        for id in std::mem::take(&mut self.own_jobs) {
            let url = format!("{}/jobs/{id}", self.api);
            let _ = self
                .http
                .delete(url)
                .header("x-api-key", &self.key)
                .send()
                .await;
        }
        report
    }
}

fn row(label: &str, tally: &mut Tally, seconds: f64) {
    tally.times.sort();
    println!(
        "| {label:<30} | {:>8} | {:>7.1} | {:>7.1} | {:>8.1} | {:>6} | {:>4} | {:>4} | {:>4} | {:>9} |",
        tally.requests(),
        tally.requests() as f64 / seconds,
        percentile_ms(&tally.times, 0.5),
        percentile_ms(&tally.times, 0.99),
        tally.ok,
        tally.client_errors,
        tally.rate_limited,
        tally.server_errors,
        tally.transport_errors,
    );
}

/// The job to read: `results-bench seed N` (beside this binary) stores it for a user of its own.
fn seed_job(keywords: usize) -> Result<JobId> {
    let exe = std::env::current_exe()?;
    let results_bench = exe
        .parent()
        .context("the binary's directory")?
        .join("results-bench");
    let output = std::process::Command::new(&results_bench)
        .args(["seed", &keywords.to_string()])
        .output()
        .with_context(|| {
            format!(
                "running {} (build it: cargo build --release -p kr-tests --bin results-bench)",
                results_bench.display()
            )
        })?;
    if !output.status.success() {
        bail!(
            "results-bench seed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let stdout = String::from_utf8(output.stdout)?;
    let job = stdout.split_whitespace().next().context("a job id")?;
    Ok(job.parse()?)
}

#[tokio::main]
async fn main() -> Result<()> {
    let args = Args::parse();
    if args.clients == 0 || args.seconds == 0 {
        bail!("--clients and --seconds must be at least 1");
    }
    let mut config = Config::from_env()?;
    let resources = Resources::from_env()?;
    let clients_aws = AwsClients::from_resources(&resources).await;
    let store = DynamoStore::new(clients_aws.dynamodb.clone(), resources.table_name.clone());

    let job_id = seed_job(args.keywords)?;
    let mut job = store.job(job_id).await?.context("the seeded job")?;
    // The clients read it as the demo job: any signed-in user may, so each client can be a user
    // of its own and the dataset is loaded once per function instance, not once per client.
    let handed_to_demo = match (&args.base_url, config.demo_user_id) {
        (Some(_), None) => bail!(
            "--base-url needs KR_DEMO_USER_ID, the running service's demo account \
             (source its functions.env)"
        ),
        (Some(_), Some(demo)) => {
            job.owner = UserId::from(demo);
            store.import_jobs(std::slice::from_ref(&job)).await?;
            true
        }
        (None, _) => {
            config.demo_user_id = Some(job.owner.as_uuid());
            false
        }
    };

    // In-process, the functions' AWS requests are counted over the measured window.
    let recorder = CallRecorder::new();
    recorder.pause();
    let base = match &args.base_url {
        Some(url) => url.trim_end_matches('/').to_string(),
        None => {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
            let base = format!("http://127.0.0.1:{}", listener.local_addr()?.port());
            recorder
                .build(kr_tests::gateway::Gateway::with_every_function(
                    config.clone(),
                    resources.clone(),
                ))
                .await
                .serve(listener)
                .await;
            base
        }
    };

    let mut clients = Vec::new();
    for i in 0..args.clients {
        let user = harness::new_user(&store, Plan::Agency, 1_000_000, 1_000).await;
        let (_, key) = issue_api_key(&store, &store, user.id, Some("load"))
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        clients.push(Client {
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(60))
                .build()?,
            api: format!("{base}/api/v1"),
            key: key.expose().to_string(),
            job: job_id,
            domain: format!("client-{i}.load.example.com"),
            rng: Rng(0x9E37_79B9_7F4A_7C15 ^ ((i as u64 + 1) << 17)),
            own_jobs: Vec::new(),
        });
    }

    println!(
        "{} clients, {} s measured after {} s of warm-up, against {} ({}); a completed job of {} keywords read as the demo job",
        args.clients,
        args.seconds,
        args.warmup,
        base,
        if args.base_url.is_some() { "running service" } else { "every function in this process" },
        args.keywords,
    );
    let measure_from = Instant::now() + Duration::from_secs(args.warmup);
    let end = measure_from + Duration::from_secs(args.seconds);
    if args.base_url.is_none() {
        let recorder = recorder.clone();
        tokio::spawn(async move {
            tokio::time::sleep_until(measure_from.into()).await;
            recorder.resume();
            tokio::time::sleep_until(end.into()).await;
            recorder.pause();
        });
    }
    let tasks: Vec<_> = clients
        .into_iter()
        .map(|client| tokio::spawn(client.run(measure_from, end)))
        .collect();
    let mut by_kind: BTreeMap<Kind, Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    for task in tasks {
        let report = task.await?;
        for (kind, tally) in &report.tallies {
            by_kind.entry(*kind).or_default().add(tally);
        }
        failures.extend(report.failures);
    }
    let seconds = args.seconds as f64;

    let mut all = Tally::default();
    for tally in by_kind.values() {
        all.add(tally);
    }
    println!(
        "\n| {:<30} | {:>8} | {:>7} | {:>7} | {:>8} | {:>6} | {:>4} | {:>4} | {:>4} | {:>9} |",
        "kind", "requests", "per s", "p50 ms", "p99 ms", "2xx", "4xx", "429", "5xx", "no answer"
    );
    println!(
        "|{:-<32}|{:->10}|{:->9}|{:->9}|{:->10}|{:->8}|{:->6}|{:->6}|{:->6}|{:->11}|",
        "", "", "", "", "", "", "", "", "", ""
    );
    row("all", &mut all, seconds);
    for (kind, tally) in by_kind.iter_mut() {
        row(kind.name(), tally, seconds);
    }
    println!("(4xx excludes 429; latencies exclude 429 answers)");
    if !failures.is_empty() {
        println!("\nfirst failures and 4xx seen:");
        for failure in &failures {
            println!("  {}", failure.chars().take(400).collect::<String>());
        }
    }
    println!(
        "\n{:.1} requests/s, p50 {:.1} ms, p99 {:.1} ms, 5xx: {}, no answer: {}, 429: {}",
        all.requests() as f64 / seconds,
        percentile_ms(&all.times, 0.5),
        percentile_ms(&all.times, 0.99),
        all.server_errors,
        all.transport_errors,
        all.rate_limited
    );

    if args.base_url.is_none() {
        let mut by_operation: BTreeMap<String, usize> = BTreeMap::new();
        let calls = recorder.calls();
        for call in &calls {
            *by_operation.entry(call.name()).or_default() += 1;
        }
        let per_request = |n: usize| n as f64 / all.requests().max(1) as f64;
        let detail: Vec<String> = by_operation
            .iter()
            .map(|(operation, n)| format!("{operation} {:.2}", per_request(*n)))
            .collect();
        println!(
            "AWS requests per API request: {:.2} ({})",
            per_request(calls.len()),
            detail.join(", ")
        );
    }

    if handed_to_demo {
        // Leave the running service's demo account as it was.
        let results = S3ObjectStore::new(clients_aws.s3.clone(), resources.results_bucket.clone());
        delete_job(&store, &results, job.owner, job.id).await?;
    }
    if all.server_errors > 0 || all.transport_errors > 0 {
        bail!(
            "{} responses 5xx and {} requests without an answer",
            all.server_errors,
            all.transport_errors
        );
    }
    Ok(())
}
