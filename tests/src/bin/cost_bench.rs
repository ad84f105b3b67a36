//! What a job costs in AWS, priced from what the functions did here (`.ci/bench cost`):
//! every AWS request each function made (an SDK interceptor on its own clients), each
//! invocation's duration, and the API requests, at us-east-1 list prices.
//!
//!   cost-bench demo        a demo-size job: created through the jobs function, every pipeline
//!                          stage on the sample sites, its first keywords page and the export
//!   cost-bench read JOB KEY N   a stored job of N keywords (results-bench seed): its objects'
//!                          storage and PUTs, the cold first page, 19 more pages, the export
//!
//! Durations are this machine's; a Lambda at 1,769 MB has one vCPU, slower per core than this
//! one, so the compute lines are a lower bound (the README says by how much it matters).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use async_trait::async_trait;
use kr_aws::Resources;
use kr_core::config::Config;
use kr_tests::aws_calls::{CallRecorder, SdkCall};
use kr_tests::bridge::{Bridge, InProcessPipeline, Invoker};
use kr_tests::harness::{self, Call};
use kr_tests::sites::{DEMO_COMPETITOR, DEMO_PRIMARY};
use serde_json::{json, Value};

/// us-east-1 list prices, USD (AWS pricing pages, on-demand, as of 2026-11).
mod price {
    /// Lambda, Arm (the template's default architecture), per GB-second and per request.
    pub const LAMBDA_GB_SECOND: f64 = 0.000_013_333_4;
    pub const LAMBDA_REQUEST: f64 = 0.20 / 1e6;
    /// API Gateway REST API, per request (first 333 million a month).
    pub const API_REQUEST: f64 = 3.50 / 1e6;
    /// DynamoDB on-demand, per write and read request unit.
    pub const DYNAMO_WRITE_UNIT: f64 = 0.625 / 1e6;
    pub const DYNAMO_READ_UNIT: f64 = 0.125 / 1e6;
    /// S3 Standard: PUT, COPY, POST, LIST and GET, HEAD per request; storage per GB-month.
    pub const S3_WRITE: f64 = 0.005 / 1e3;
    pub const S3_READ: f64 = 0.0004 / 1e3;
    pub const S3_GB_MONTH: f64 = 0.023;
    /// SQS standard queue, per request (each 64 KiB of a message is one).
    pub const SQS_REQUEST: f64 = 0.40 / 1e6;
    /// X-Ray (the template turns active tracing on), per trace recorded.
    pub const XRAY_TRACE: f64 = 5.00 / 1e6;
}

#[derive(Default)]
struct Bill {
    /// Per function: invocations and their durations.
    invocations: BTreeMap<&'static str, Vec<Duration>>,
    api_requests: u64,
    /// Receives and deletes the SQS event source makes to deliver the pipeline's messages.
    event_source_sqs: u64,
    /// Objects written outside the recorded functions: (PUTs, bytes stored).
    written_elsewhere: (usize, usize),
    calls: Vec<SdkCall>,
}

impl Bill {
    fn invoked(&mut self, function: &'static str, took: Duration) {
        self.invocations.entry(function).or_default().push(took);
    }

    fn print(&self, what: &str, keywords: usize) -> Result<()> {
        let template = kr_tests::template::Template::load_default()?;
        let mut lines: Vec<(String, f64)> = Vec::new();
        for (function, times) in &self.invocations {
            // Billed at the template's setting for the function.
            let memory = f64::from(template.function_memory(function)?);
            // Lambda bills each invocation's duration rounded up to the millisecond.
            let billed_ms: f64 = times
                .iter()
                .map(|t| (t.as_secs_f64() * 1000.0).ceil())
                .sum();
            let gb_seconds = billed_ms / 1000.0 * memory / 1024.0;
            lines.push((
                format!(
                    "Lambda {function}: {} invocations, {billed_ms:.0} ms billed at {memory} MB = {gb_seconds:.3} GB-s",
                    times.len()
                ),
                gb_seconds * price::LAMBDA_GB_SECOND + times.len() as f64 * price::LAMBDA_REQUEST,
            ));
        }
        let traces: usize = self.invocations.values().map(Vec::len).sum();
        lines.push((
            format!(
                "API Gateway: {} requests; X-Ray: {traces} traces",
                self.api_requests
            ),
            self.api_requests as f64 * price::API_REQUEST + traces as f64 * price::XRAY_TRACE,
        ));
        let (writes, reads) = dynamo_units(&self.calls);
        let dynamo_requests = self
            .calls
            .iter()
            .filter(|c| c.service == "dynamodb")
            .count();
        lines.push((
            format!("DynamoDB: {dynamo_requests} requests, {writes:.0} write units, {reads:.1} read units (on-demand)"),
            writes * price::DYNAMO_WRITE_UNIT + reads * price::DYNAMO_READ_UNIT,
        ));
        let s3: Vec<&SdkCall> = self.calls.iter().filter(|c| c.service == "s3").collect();
        let s3_writes = s3
            .iter()
            .filter(|c| c.method == "PUT" || c.method == "POST" || c.operation.starts_with("List"))
            .count();
        let s3_reads = s3.len() - s3_writes;
        let s3_writes = s3_writes + self.written_elsewhere.0;
        let stored: usize = s3
            .iter()
            .filter(|c| c.method == "PUT")
            .filter_map(|c| c.body.as_ref().map(Vec::len))
            .sum::<usize>()
            + self.written_elsewhere.1;
        let fetched: usize = s3
            .iter()
            .filter(|c| c.method == "GET")
            .filter_map(|c| c.response_bytes)
            .sum();
        lines.push((
            format!(
                "S3: {s3_writes} PUT/LIST, {s3_reads} GET/HEAD ({:.2} MB read); {:.2} MB stored for a month",
                fetched as f64 / 1e6,
                stored as f64 / 1e6
            ),
            s3_writes as f64 * price::S3_WRITE
                + s3_reads as f64 * price::S3_READ
                + stored as f64 / 1e9 * price::S3_GB_MONTH,
        ));
        let sqs: u64 = self
            .calls
            .iter()
            .filter(|c| c.service == "sqs")
            .map(|c| 1 + c.body.as_ref().map_or(0, |b| b.len() / 65_536) as u64)
            .sum::<u64>()
            + self.event_source_sqs;
        lines.push((
            format!(
                "SQS: {sqs} requests ({} by the event source)",
                self.event_source_sqs
            ),
            sqs as f64 * price::SQS_REQUEST,
        ));
        let total: f64 = lines.iter().map(|(_, usd)| usd).sum();
        println!("## {what}");
        for (line, usd) in &lines {
            println!("  {line}: USD {usd:.7}");
        }
        println!(
            "  total: USD {total:.6} per job; USD {:.6} per 1,000 keywords ({keywords} keywords)",
            total / keywords.max(1) as f64 * 1000.0
        );
        Ok(())
    }
}

/// Request units from the requests as sent and answered: a write unit per KB written (two in
/// a transaction), half a read unit per 4 KB read (eventually consistent; a whole one when
/// strongly consistent, two in a transaction). The wire's DynamoDB JSON is larger than the
/// item DynamoDB bills, so these are upper bounds.
fn dynamo_units(calls: &[SdkCall]) -> (f64, f64) {
    let units = |bytes: usize, per: usize| (bytes.max(1)).div_ceil(per) as f64;
    let (mut writes, mut reads) = (0.0, 0.0);
    for call in calls.iter().filter(|c| c.service == "dynamodb") {
        let body: Value = call
            .body
            .as_ref()
            .and_then(|b| serde_json::from_slice(b).ok())
            .unwrap_or(Value::Null);
        let answered = call.response_bytes.unwrap_or(0);
        let consistent = body["ConsistentRead"].as_bool().unwrap_or(false);
        let read = |bytes| units(bytes, 4096) * if consistent { 1.0 } else { 0.5 };
        match call.operation.as_str() {
            "PutItem" | "UpdateItem" | "DeleteItem" => {
                writes += units(call.body.as_ref().map_or(0, Vec::len), 1024);
            }
            "TransactWriteItems" => {
                for item in body["TransactItems"].as_array().into_iter().flatten() {
                    writes += 2.0 * units(item.to_string().len(), 1024);
                }
            }
            "BatchWriteItem" => {
                for requests in body["RequestItems"].as_object().into_iter().flatten() {
                    for item in requests.1.as_array().into_iter().flatten() {
                        writes += units(item.to_string().len(), 1024);
                    }
                }
            }
            "TransactGetItems" => reads += 2.0 * units(answered, 4096),
            _ => reads += read(answered),
        }
    }
    (writes, reads)
}

/// Delivers the pipeline's messages as Lambda's event source would, timing each invocation.
struct Timed<'a> {
    inner: InProcessPipeline,
    bill: &'a std::sync::Mutex<Bill>,
}

#[async_trait]
impl Invoker for Timed<'_> {
    async fn invoke(&self, event: Value) -> Result<Value> {
        let started = Instant::now();
        let answer = self.inner.invoke(event).await;
        let mut bill = self.bill.lock().unwrap();
        bill.invoked("pipeline", started.elapsed());
        // One receive that brought the message and one delete after it.
        bill.event_source_sqs += 2;
        answer
    }
}

async fn api(
    bill: &std::sync::Mutex<Bill>,
    function: &'static str,
    app: &axum::Router,
    call: Call,
) -> harness::Reply {
    let started = Instant::now();
    let reply = call.send(app).await;
    let mut bill = bill.lock().unwrap();
    bill.invoked(function, started.elapsed());
    bill.api_requests += 1;
    reply
}

/// The results and export functions, each recording its own AWS requests.
async fn readers(
    config: &Config,
    resources: &Resources,
) -> (axum::Router, CallRecorder, axum::Router, CallRecorder) {
    let results_calls = CallRecorder::new();
    let results = results_calls
        .build(async {
            kr_results::router(
                kr_results::ResultsState::from_config(config.clone(), resources.clone()).await,
            )
        })
        .await;
    let export_calls = CallRecorder::new();
    let export = export_calls
        .build(async {
            kr_export::router(
                kr_export::ExportState::from_config(config.clone(), resources.clone()).await,
            )
        })
        .await;
    (results, results_calls, export, export_calls)
}

async fn demo() -> Result<()> {
    let config = Config::from_env()?;
    let mut resources = Resources::from_env()?;
    let store = harness::store().await;
    let (_, key) = harness::new_user_with_key(&store).await;
    let key = key.expose().to_string();
    let pipeline_calls = CallRecorder::new();
    let rig = pipeline_calls
        .build(kr_tests::pipeline_rig::rig(None, &[]))
        .await;
    resources.jobs_queue_url = rig.queue_url.clone();
    let jobs_calls = CallRecorder::new();
    let jobs = jobs_calls
        .build(async {
            kr_jobs::router(
                kr_jobs::JobsState::from_config(config.clone(), resources.clone()).await,
            )
        })
        .await;
    let (results, results_calls, export, export_calls) = readers(&config, &resources).await;
    let bill = std::sync::Mutex::new(Bill::default());
    let created = api(
        &bill,
        "jobs",
        &jobs,
        Call::post("/api/v1/jobs")
            .api_key(&key)
            .json(json!({"primaryDomain": DEMO_PRIMARY, "competitorDomains": [DEMO_COMPETITOR], "languageCode": "en", "locationCode": 2840})),
    )
    .await;
    if created.status != 201 {
        bail!("job creation: {} {}", created.status, created.text);
    }
    let id = created.json["job"]["id"]
        .as_str()
        .context("job id")?
        .to_string();
    let bridge = Bridge {
        sqs: rig.clients.sqs.clone(),
        queue_url: rig.queue_url.clone(),
        batch_size: 1,
    };
    let invoker = Timed {
        inner: InProcessPipeline(rig.pipeline.clone()),
        bill: &bill,
    };
    let deadline = Instant::now() + Duration::from_secs(300);
    let keywords = loop {
        let job = api(
            &bill,
            "jobs",
            &jobs,
            Call::get(&format!("/api/v1/jobs/{id}")).api_key(&key),
        )
        .await;
        let job = job.json.get("job").unwrap_or(&job.json).clone();
        match job["status"].as_str() {
            Some("completed") => break job["keywordCount"].as_u64().unwrap_or(0) as usize,
            Some("failed") => bail!("the job failed: {job}"),
            _ if Instant::now() > deadline => bail!("the job did not finish"),
            _ => bridge.poll_once(&invoker, 1).await?,
        };
    };
    api(
        &bill,
        "results",
        &results,
        Call::get(&format!("/api/v1/jobs/{id}/keywords")).api_key(&key),
    )
    .await;
    api(
        &bill,
        "export",
        &export,
        Call::get(&format!("/api/v1/jobs/{id}/export-keywords")).api_key(&key),
    )
    .await;
    let mut bill = bill.into_inner().unwrap();
    for recorder in [&jobs_calls, &pipeline_calls, &results_calls, &export_calls] {
        bill.calls.extend(recorder.calls());
    }
    bill.print(
        &format!("demo-size job ({keywords} keywords, offline, sample sites; status polled once per pipeline step)"),
        keywords,
    )
}

async fn read(job: &str, key: &str, keywords: usize) -> Result<()> {
    let config = Config::from_env()?;
    let resources = Resources::from_env()?;
    let clients = harness::clients().await;
    let listed = clients
        .s3
        .list_objects_v2()
        .bucket(&resources.results_bucket)
        .prefix(format!("jobs/{job}/"))
        .send()
        .await?;
    let objects = listed.contents();
    let bytes: i64 = objects.iter().filter_map(|o| o.size()).sum();
    let (results, results_calls, export, export_calls) = readers(&config, &resources).await;
    let bill = std::sync::Mutex::new(Bill {
        written_elsewhere: (objects.len(), bytes as usize),
        ..Bill::default()
    });
    for page in 0..20 {
        let path = format!(
            "/api/v1/jobs/{job}/keywords?sortBy=searchVolume&limit=100&offset={}",
            page * 100
        );
        let reply = api(&bill, "results", &results, Call::get(&path).api_key(key)).await;
        if reply.status != 200 {
            bail!("{path}: {}", reply.status);
        }
    }
    api(
        &bill,
        "export",
        &export,
        Call::get(&format!("/api/v1/jobs/{job}/export-keywords")).api_key(key),
    )
    .await;
    let mut bill = bill.into_inner().unwrap();
    bill.calls.extend(results_calls.calls());
    bill.calls.extend(export_calls.calls());
    bill.print(
        &format!(
            "a stored {keywords}-keyword job: its {} objects ({:.1} MB) written and kept a month, 20 pages of 100 (the first cold), the CSV export; the pipeline's compute not included",
            objects.len(),
            bytes as f64 / 1e6
        ),
        keywords,
    )
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
        ["demo"] => demo().await,
        ["read", job, key, keywords] => read(job, key, keywords.parse()?).await,
        _ => bail!("usage: cost-bench demo | read JOB KEY KEYWORDS"),
    }
}
