//! Store requests behind the jobs endpoints with 5,000 jobs for one user.
//! Run through `.ci/bench jobs` (it starts the emulator); prints a table.

use std::sync::Arc;

use anyhow::Result;
use chrono::{Duration, Utc};
use kr_aws::dynamo::DynamoStore;
use kr_aws::sqs::SqsJobQueue;
use kr_aws::AwsClients;
use kr_aws::Resources;
use kr_core::domain::Job;
use kr_core::domain::{DomainName, JobId, JobStatus, LanguageCode, LocationCode, Plan, Progress};
use kr_core::service::account::issue_api_key;
use kr_core::service::jobs::{create_job, CreateJobRequest, JobPorts};
use kr_core::store::JobStore;
use kr_http::auth::{Authenticator, PresentedCredentials};
use kr_tests::counting::RequestCounter;
use kr_tests::harness;

const JOBS: usize = 5_000;

fn print_row(label: &str, counts: &std::collections::BTreeMap<String, u32>, items: Option<u32>) {
    let requests: u32 = counts.values().sum();
    let detail: Vec<String> = counts.iter().map(|(op, n)| format!("{op}×{n}")).collect();
    let items = items.map(|i| i.to_string()).unwrap_or_else(|| "-".into());
    println!(
        "| {label:<44} | {requests:>8} | {items:>10} | {} |",
        detail.join(", ")
    );
}

#[tokio::main]
async fn main() -> Result<()> {
    let resources = Resources::from_env()?;
    let counter = RequestCounter::default();
    let clients = counter.instrument(&AwsClients::from_resources(&resources).await);
    let store = Arc::new(DynamoStore::new(
        clients.dynamodb.clone(),
        resources.table_name.clone(),
    ));

    let user = harness::new_user(&store, Plan::Agency, 100, 100).await;
    let (_, key) = issue_api_key(store.as_ref(), store.as_ref(), user.id, Some("bench")).await?;
    let domain = DomainName::parse("bench.example.com").unwrap();
    let start = Utc::now() - Duration::days(30);
    let jobs: Vec<Job> = (0..JOBS)
        .map(|i| Job {
            id: JobId::new(),
            owner: user.id,
            status: if i % 5 == 0 {
                JobStatus::Completed
            } else {
                JobStatus::Failed
            },
            primary_domain: domain.clone(),
            competitor_domains: Vec::new(),
            language_code: "en".into(),
            location_code: 2840,
            created_at: start + Duration::seconds(i as i64 * 60),
            started_at: None,
            completed_at: None,
            progress: Progress::waiting(),
            error_message: None,
            keyword_count: Some(0),
            stage: None,
            version: 1,
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
        })
        .collect();
    store.import_jobs(&jobs).await?;
    counter.take();

    println!("{JOBS} jobs for one user ({} completed).\n", JOBS / 5);
    let kind = "requests by kind";
    println!(
        "| {:<44} | {:>8} | {:>10} | {kind} |",
        "operation", "requests", "items read"
    );
    println!(
        "|{}|{}|{}|{}|",
        "-".repeat(46),
        "-".repeat(10),
        "-".repeat(12),
        "-".repeat(20)
    );
    for (label, status, limit, offset) in [
        ("GET /jobs?limit=20&offset=0", None, 20, 0),
        ("GET /jobs?limit=20&offset=4980", None, 20, 4980),
        (
            "GET /jobs?status=completed&limit=20",
            Some(JobStatus::Completed),
            20,
            0,
        ),
        (
            "GET /jobs?status=completed&limit=20&offset=980",
            Some(JobStatus::Completed),
            20,
            980,
        ),
    ] {
        let page = store.list_jobs(user.id, status, limit, offset).await?;
        assert_eq!(page.jobs.len(), limit as usize);
        print_row(label, &counter.take(), Some(page.reads.items));
    }

    let authenticator = Authenticator::on(store.clone(), Default::default());
    let mut headers = axum::http::HeaderMap::new();
    headers.insert("x-api-key", key.expose().parse()?);
    authenticator
        .identify(PresentedCredentials::from_headers(&headers))
        .await?;
    counter.take();
    authenticator
        .identify(PresentedCredentials::from_headers(&headers))
        .await?;
    print_row("auth lookup (API key, per request)", &counter.take(), None);

    let queue = SqsJobQueue::new(clients.sqs.clone(), resources.jobs_queue_url.clone());
    let request = |primary: &str| CreateJobRequest {
        primary_domain: DomainName::parse(primary).unwrap(),
        competitor_domains: vec![],
        language_code: LanguageCode::parse("en").unwrap(),
        location_code: LocationCode::parse(2840).unwrap(),
        keywords: None,
        discover_keywords: true,
        callback_url: None,
        search_console_property: None,
    };
    let objects =
        kr_aws::s3::S3ObjectStore::new(clients.s3.clone(), resources.results_bucket.clone());
    // Imported jobs register no domain, so the first create on a domain is a new domain.
    for label in [
        "POST /jobs, first job on a new domain",
        "POST /jobs, primary domain used before",
    ] {
        create_job(
            &JobPorts {
                jobs: store.as_ref(),
                queue: &queue,
                artifacts: &objects,
                removals: &objects,
            },
            user.id,
            request("bench.example.com"),
            None,
            None,
        )
        .await
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
        print_row(label, &counter.take(), None);
    }
    Ok(())
}
