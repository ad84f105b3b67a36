//! Local stack tooling: `provision` creates the template's resources on the emulator and
//! writes the functions' environment; `seed` creates the demo and dev accounts; `serve-api`
//! serves every function in-process for schemathesis (`.ci/schemathesis`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Parser, Subcommand};
use kr_aws::dynamo::DynamoStore;
use kr_aws::s3::S3ObjectStore;
use kr_aws::sqs::SqsJobQueue;
use kr_aws::AwsClients;
use kr_aws::Resources;
use kr_core::config::Config;
use kr_tests::bridge::{Bridge, HttpInvoker, Invoker};
use kr_tests::dataforseo_mock::{MockConfig, MockDataForSeo};
use kr_tests::provision::{function_environment, provision};
use kr_tests::template::Template;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(about = "Local stack tooling for the keyword research service")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Create the tables, queues and buckets of template.yaml on the emulator at
    /// KR_AWS_ENDPOINT and write the functions' environment as KEY=VALUE lines.
    Provision {
        /// Local resource names are `<prefix>-<logical id>`.
        #[arg(long, default_value = "kr-local")]
        prefix: String,
        /// Template parameter values, `Name=value`.
        #[arg(long = "param", value_parser = parse_pair)]
        params: Vec<(String, String)>,
        /// Where to write the environment; stdout when absent.
        #[arg(long)]
        env_file: Option<PathBuf>,
    },
    /// Create the demo account with a job on the sample sites, and the dev user with an API
    /// key; prints one JSON object.
    Seed,
    /// Emulate the SQS event source mapping of the pipeline function: deliver batches from
    /// KR_JOBS_QUEUE_URL through the Lambda Invoke API, and send the sweeper's scheduled event.
    /// With `--queue webhooks`: the notifier's mapping from KR_WEBHOOKS_QUEUE_URL instead.
    Bridge {
        /// `jobs` (the pipeline's queue) or `webhooks` (the notifier's).
        #[arg(long, default_value = "jobs")]
        queue: String,
        /// Where the Lambda Invoke API is (`cargo lambda watch`).
        #[arg(long, default_value = "http://127.0.0.1:9000")]
        invoke_base: String,
        #[arg(long, default_value = "pipeline")]
        function: String,
        #[arg(long, default_value_t = 5)]
        batch_size: i32,
        /// Seconds between scheduled sweeper events.
        #[arg(long, default_value_t = 300)]
        sweep_every: u64,
    },
    /// Serve the sample websites of tests/fixtures/sites on loopback (by Host header).
    ServeSites {
        #[arg(long, default_value = "127.0.0.1:8780")]
        address: std::net::SocketAddr,
    },
    /// Serve every function in-process on one local port, as API Gateway routes them, against
    /// the emulator at KR_AWS_ENDPOINT (configured by KR_* like the functions). Before serving:
    /// a fresh Agency user with an API key, and a job of the demo account and one of the user
    /// run to completion on the sample sites by the real pipeline. Prints one JSON object (base
    /// URL, API key and its id, the jobs, the demo job's cluster ids, the dev user's sign-in),
    /// then serves until killed.
    ServeApi {
        #[arg(long, default_value = "127.0.0.1:0")]
        address: std::net::SocketAddr,
        /// Runs and new primary domains the user starts with.
        #[arg(long, default_value_t = 1_000_000)]
        balance: i64,
    },
    /// Serve the DataForSEO mock (files in tests/fixtures/dataforseo) on loopback and print
    /// its base URL, for KR_DATAFORSEO_BASE_URL.
    ServeDataforseo {
        #[arg(long, default_value_t = 8790)]
        port: u16,
        #[arg(long, default_value = "mock-login")]
        login: String,
        #[arg(long, default_value = "mock-password")]
        password: String,
        /// The account's balance in USD; unlimited when absent.
        #[arg(long)]
        balance: Option<f64>,
        /// Answer without playing the fault rules of faults.json.
        #[arg(long)]
        no_faults: bool,
    },
    /// Serve the Google mock (OAuth 2.0 consent, token and revoke endpoints, userinfo, and the
    /// Search Console API with seeded data) on loopback and print its base URL; the KR_GOOGLE_*
    /// settings that point at it are listed in tests/README.md.
    ServeGoogle {
        #[arg(long, default_value_t = 8791)]
        port: u16,
        #[arg(long, default_value = "local-client-id")]
        client_id: String,
        #[arg(long, default_value = "local-client-secret")]
        client_secret: String,
        /// The signed-in Google account.
        #[arg(long, default_value = "owner@brightbrew-coffee.test")]
        email: String,
        /// The last day with data, YYYY-MM-DD; two days before today when absent.
        #[arg(long)]
        data_end_date: Option<chrono::NaiveDate>,
    },
    /// Serve the Bedrock runtime mock (Converse answered from tests/fixtures/bedrock/<model>.json)
    /// on loopback and print its URL, for KR_BEDROCK_ENDPOINT_URL (with a model id such as
    /// mock.personas-v1 in KR_BEDROCK_PERSONA_MODEL).
    ServeBedrock {
        #[arg(long, default_value_t = 8791)]
        port: u16,
    },
}

fn parse_pair(raw: &str) -> Result<(String, String), String> {
    raw.split_once('=')
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .ok_or_else(|| format!("{raw:?} is not Name=value"))
}

#[tokio::main]
async fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Provision {
            prefix,
            params,
            env_file,
        } => {
            let endpoint = std::env::var("KR_AWS_ENDPOINT")
                .context("KR_AWS_ENDPOINT must name the emulator")?;
            let resources = Resources::from_lookup(|name| match name {
                "KR_TABLE_NAME" => Some("unused".into()),
                "KR_AWS_ENDPOINT" => Some(endpoint.clone()),
                _ => None,
            })?;
            let template = Template::load_default()?;
            let clients = AwsClients::from_resources(&resources).await;
            let provisioned = provision(&clients, &template, &prefix).await?;
            let parameters: BTreeMap<String, String> = params.into_iter().collect();
            let mut environment = function_environment(&template, &provisioned, &parameters)?;
            environment.insert("KR_AWS_ENDPOINT".into(), endpoint);
            let lines: String = environment
                .iter()
                .map(|(k, v)| format!("{k}={v}\n"))
                .collect();
            match env_file {
                Some(path) => std::fs::write(&path, lines)
                    .with_context(|| format!("writing {}", path.display()))?,
                None => print!("{lines}"),
            }
        }
        Command::Seed => {
            let config = Config::from_env()?;
            let demo = config
                .demo_user_id
                .ok_or_else(|| anyhow!("KR_DEMO_USER_ID must be set to seed the demo account"))?;
            let resources = Resources::from_env()?;
            let clients = AwsClients::from_resources(&resources).await;
            let objects = S3ObjectStore::new(clients.s3.clone(), resources.results_bucket.clone());
            let store = DynamoStore::new(clients.dynamodb, resources.table_name);
            let queue = SqsJobQueue::new(clients.sqs, resources.jobs_queue_url.clone());
            let report =
                kr_tests::seed::seed(&store, &store, &store, &queue, &objects, demo.into()).await?;
            println!("{}", serde_json::to_string(&report)?);
        }
        Command::Bridge {
            queue,
            invoke_base,
            function,
            batch_size,
            sweep_every,
        } => {
            let resources = Resources::from_env()?;
            let clients = AwsClients::from_resources(&resources).await;
            let (queue_url, sweeps) = match queue.as_str() {
                "jobs" => (resources.jobs_queue_url, true),
                "webhooks" => (resources.webhooks_queue_url, false),
                other => bail!("--queue must be jobs or webhooks, not {other}"),
            };
            let bridge = Bridge {
                sqs: clients.sqs,
                queue_url,
                batch_size,
            };
            let timeout = Template::load_default()?.function_timeout(&function)?;
            let invoker = HttpInvoker::new(
                &invoke_base,
                &function,
                Duration::from_secs(u64::from(timeout)),
            )?;
            // The pipeline fails the job of a dead letter and runs the sweeper; the notifier
            // has neither (its dead letters are kept for an operator).
            let dead_letters = if sweeps {
                bridge.dead_letters().await?
            } else {
                None
            };
            let mut next_sweep = Instant::now() + Duration::from_secs(sweep_every);
            loop {
                if let Err(err) = bridge.poll_once(&invoker, 5).await {
                    eprintln!("bridge: {err}");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
                if let Some(dead_letters) = &dead_letters {
                    if let Err(err) = dead_letters.poll_once(&invoker, 0).await {
                        eprintln!("bridge: dead letters: {err}");
                    }
                }
                if sweeps && Instant::now() >= next_sweep {
                    let event = serde_json::json!({"detail-type": "Scheduled Event", "source": "aws.events", "detail": {}});
                    if let Err(err) = invoker.invoke(event).await {
                        eprintln!("bridge: sweeper: {err}");
                    }
                    next_sweep = Instant::now() + Duration::from_secs(sweep_every);
                }
            }
        }
        Command::ServeSites { address } => {
            let bound =
                kr_tests::sites::serve_sites(address, kr_tests::sites::fixtures_root()).await?;
            println!("{}", kr_tests::sites::resolve_spec(bound));
            std::future::pending::<()>().await;
        }
        Command::ServeApi { address, balance } => serve_api(address, balance).await?,
        Command::ServeDataforseo {
            port,
            login,
            password,
            balance,
            no_faults,
        } => {
            let mut config = MockConfig {
                address: std::net::SocketAddr::from(([127, 0, 0, 1], port)),
                login,
                password,
                balance_usd: balance,
                ..MockConfig::default()
            };
            if no_faults {
                config = config.without_faults();
            }
            let mock = MockDataForSeo::start(config).await?;
            println!("{}", mock.base_url());
            std::future::pending::<()>().await;
        }
        Command::ServeGoogle {
            port,
            client_id,
            client_secret,
            email,
            data_end_date,
        } => {
            let config = kr_tests::google_mock::GoogleMockConfig {
                address: std::net::SocketAddr::from(([127, 0, 0, 1], port)),
                client_id,
                client_secret,
                email,
                data_end_date,
                ..Default::default()
            };
            let mock = kr_tests::google_mock::MockGoogle::start(config).await?;
            println!("{}", mock.base_url());
            std::future::pending::<()>().await;
        }
        Command::ServeBedrock { port } => {
            let (_mock, url) = kr_tests::bedrock_mock::MockBedrock::start(
                std::net::SocketAddr::from(([127, 0, 0, 1], port)),
                kr_tests::bedrock_mock::fixtures_root(),
            )
            .await?;
            println!("{url}");
            std::future::pending::<()>().await;
        }
    }
    Ok(())
}

async fn serve_api(address: std::net::SocketAddr, balance: i64) -> Result<()> {
    use kr_core::dataset::ResultsDataset;
    use kr_core::domain::{DomainName, JobId, JobStatus, LanguageCode, LocationCode, Plan};
    use kr_core::service::jobs::{create_job, CreateJobRequest, JobPorts};
    let config = Config::from_env()?;
    let demo = config
        .demo_user_id
        .ok_or_else(|| anyhow!("KR_DEMO_USER_ID must be set: the completed job is a demo job"))?;
    // The jobs run through the real pipeline on a private queue of the rig's.
    let rig = kr_tests::pipeline_rig::rig(None, &[]).await;
    let queue = SqsJobQueue::new(rig.clients.sqs.clone(), rig.queue_url.clone());
    let seeded = kr_tests::seed::seed(
        &*rig.store,
        &*rig.store,
        &*rig.store,
        &queue,
        &rig.objects,
        demo.into(),
    )
    .await?;
    let user = kr_tests::harness::new_user(&rig.store, Plan::Agency, balance, balance).await;
    let (key, secret) = kr_core::service::account::issue_api_key(
        &*rig.store,
        &*rig.store,
        user.id,
        Some("schemathesis"),
    )
    .await
    .map_err(|err| anyhow!("issuing the API key: {err:?}"))?;
    // The user's own completed job, so that their list has one too.
    let request = CreateJobRequest {
        primary_domain: DomainName::parse(kr_tests::sites::DEMO_PRIMARY).map_err(|e| anyhow!(e))?,
        competitor_domains: vec![],
        language_code: LanguageCode::parse("en").map_err(|e| anyhow!(e))?,
        location_code: LocationCode::parse(2840).map_err(|e| anyhow!(e))?,
        keywords: None,
        discover_keywords: true,
        callback_url: None,
        search_console_property: None,
    };
    let own = create_job(
        &JobPorts {
            jobs: &*rig.store,
            queue: &queue,
            artifacts: &*rig.objects,
            removals: &*rig.objects,
        },
        user.id,
        request,
        None,
        None,
    )
    .await
    .map_err(|err| anyhow!("creating the user's job: {err:?}"))?;
    let mut completed: Vec<JobId> = Vec::new();
    for id in [seeded.demo_job_id, own.id] {
        let (job, _) = rig.run(id).await;
        if job.status != JobStatus::Completed {
            bail!("job {id} ended {:?}: {:?}", job.status, job.error_message);
        }
        completed.push(job.id);
    }
    let dataset: ResultsDataset = kr_core::store::get_dataset(&*rig.objects, completed[0])
        .await?
        .ok_or_else(|| anyhow!("the completed demo job has no dataset"))?;
    let own_dataset: ResultsDataset = kr_core::store::get_dataset(&*rig.objects, completed[1])
        .await?
        .ok_or_else(|| anyhow!("the user's completed job has no dataset"))?;
    // Both jobs' clusters: only the owner may have a brief made (`POST …/brief`), and the
    // run's user owns the second job only.
    let mut cluster_ids: Vec<&str> = dataset
        .clusters
        .iter()
        .chain(&own_dataset.clusters)
        .map(|c| c.id.as_str())
        .collect();
    cluster_ids.sort_unstable();
    cluster_ids.dedup();
    let own_cluster_ids: Vec<&str> = own_dataset.clusters.iter().map(|c| c.id.as_str()).collect();
    let topic_ids: Vec<&str> = dataset.topics.iter().map(|t| t.id.as_str()).collect();
    let own_topic_ids: Vec<&str> = own_dataset.topics.iter().map(|t| t.id.as_str()).collect();

    let listener = tokio::net::TcpListener::bind(address).await?;
    let bound = kr_tests::gateway::Gateway::with_every_function(config, Resources::from_env()?)
        .await
        .serve(listener)
        .await;
    let report = serde_json::json!({
        "baseUrl": format!("http://{bound}"),
        "apiKey": secret.expose(),
        "apiKeyId": key.id.to_string(),
        "userId": user.id.to_string(),
        "jobId": completed[0].to_string(),
        "ownJobId": completed[1].to_string(),
        "clusterIds": cluster_ids,
        "ownClusterIds": own_cluster_ids,
        "topicIds": topic_ids,
        "ownTopicIds": own_topic_ids,
        "devEmail": seeded.dev_email,
        "devPassword": seeded.dev_password,
    });
    println!("{report}");
    std::future::pending::<()>().await;
    Ok(())
}
