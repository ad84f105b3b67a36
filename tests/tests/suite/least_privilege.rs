//! Least privilege, proved. Every function is driven through its paths against the emulator:
//! each route of the route table, the dashboard's pages and forms, the pipeline over the
//! sample sites with the DataForSEO mock (a job that completes, one that fails, one deleted
//! while a stage waits on the provider, a dead letter), the sweeper, and the secret the
//! pipeline reads at start-up. Each function's state is built by its own
//! cold-start code inside a recorder (`kr_tests::aws_calls`, an SDK interceptor), so every AWS
//! request it makes is seen. Then, for each function of `template.yaml`:
//!
//! - every request is allowed by the function's `Policies`: the IAM action(s) it needs
//!   (`kr_tests::iam`: a transaction needs each part's action, a `DeleteObjects` one
//!   `s3:DeleteObject[Version]` per key, a read that found no object `s3:ListBucket`, since S3
//!   answers 403 instead of 404 without it), on the resource it touched (table or index,
//!   bucket or object key, queue, secret), within the statement's conditions;
//! - the policy grants nothing the function did not use: each action on each resource of
//!   every Allow statement was needed at least once.
//!
//! A new AWS call in a function fails here, naming function, action and resource, until the
//! template grants it; a grant the code stopped needing fails here until it is removed.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::AttributeValue;
use axum::Router;
use kr_aws::bedrock::{BedrockBriefs, BedrockPersonas, BedrockSettings};
use kr_aws::google::GoogleSource;
use kr_aws::s3::S3ObjectStore;
use kr_aws::signing_key::SigningKeySource;
use kr_aws::sqs::SqsWebhookQueue;
use kr_core::config::Config;
use kr_core::domain::{JobId, JobStatus, Plan};
use kr_core::service::account::issue_api_key;
use kr_core::service::webhooks::RetrySchedule;
use kr_core::store::{ApiKeyStore, ArtifactStore, JobStore};
use kr_crawler::GuardedClient;
use kr_http::routes::{Function, ROUTES};
use kr_notifier::{Notifier, StoredChangeDigests};
use kr_pipeline::event::{handle_event_from, Source};
use kr_pipeline::provider_credentials::{resolve_credentials, SECRET_ARN_VAR};
use kr_pipeline::stages::search_console::SearchConsoleParts;
use kr_pipeline::stages::ResearchSettings;
use kr_tests::aws_calls::CallRecorder;
use kr_tests::bedrock_mock::{fixtures_root as bedrock_fixtures, MockBedrock};
use kr_tests::bridge::{Bridge, InProcessPipeline, Invoker};
use kr_tests::dataforseo_mock::{MockConfig, MockDataForSeo};
use kr_tests::gateway::{function_router, matches};
use kr_tests::google_mock::{GoogleMockConfig, MockGoogle};
use kr_tests::harness::{self, Call, Reply, PIXEL_PNG, TEST_PASSWORD};
use kr_tests::iam::{self, Access, Resources};
use kr_tests::pipeline_rig::{provider_at, rig_with_search_console};
use kr_tests::sites::{crawler_resolving, serp_hosts_resolve, DEMO_COMPETITOR, DEMO_PRIMARY};
use kr_tests::template::Template;
use serde_json::json;
use tokio::sync::{watch, Notify};

const PIPELINE: &str = "pipeline";
/// A model the Bedrock mock answers for (tests/fixtures/bedrock/).
const BEDROCK_MODEL: &str = "mock.personas-v1";
const WEB: &str = "web";
const NOTIFIER: &str = "notifier";
const MCP: &str = "mcp";

type McpClient = rmcp::service::RunningService<rmcp::service::RoleClient, ()>;

async fn mcp_client(url: &str, key: &str) -> McpClient {
    use rmcp::ServiceExt;
    ().serve(rmcp::transport::StreamableHttpClientTransport::from_config(
        rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig::with_uri(
            url.to_string(),
        )
        .auth_header(key.to_string()),
    ))
    .await
    .expect("the MCP client connects")
}

/// A tool call that must succeed; its structured answer.
async fn mcp_call(client: &McpClient, tool: &str, args: serde_json::Value) -> serde_json::Value {
    let result = client
        .call_tool(
            rmcp::model::CallToolRequestParams::new(tool.to_string())
                .with_arguments(args.as_object().unwrap().clone()),
        )
        .await
        .unwrap_or_else(|err| panic!("{tool}: {err}"));
    assert_ne!(result.is_error, Some(true), "{tool}: {result:?}");
    result.structured_content.unwrap_or_default()
}

/// The notifier's event source: SQS batches handed to it in this process.
struct InProcessNotifier(Arc<Notifier>);

#[async_trait::async_trait]
impl Invoker for InProcessNotifier {
    async fn invoke(&self, event: serde_json::Value) -> anyhow::Result<serde_json::Value> {
        self.0
            .handle_event(event)
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))
    }
}

/// Every function's router (and the pipeline), each built inside its own recorder.
struct Service {
    recorders: BTreeMap<&'static str, CallRecorder>,
    api: HashMap<Function, Router>,
    web: Router,
    /// `(method, path)` of every route of the table this test has called.
    called: Mutex<BTreeSet<(&'static str, &'static str)>>,
}

impl Service {
    /// Briefs are worded by the personas' model (`bedrock`), as deployed with one configured.
    async fn build(
        config: &Config,
        aws: &kr_aws::Resources,
        pipeline: CallRecorder,
        bedrock: &BedrockSettings,
        google: &kr_google::GoogleSettings,
    ) -> Self {
        let mut recorders = BTreeMap::from([(PIPELINE, pipeline)]);
        let mut api = HashMap::new();
        for function in Function::ALL {
            let recorder = CallRecorder::new();
            let router = match function {
                // Its crawler reads the pages ranking in the mock's results: sent to a closed
                // local port, they are skipped, and no name is looked up outside the machine.
                Function::Briefs => {
                    recorder
                        .build(async {
                            let crawler = crawler_resolving(serp_hosts_resolve(
                                "127.0.0.1:1".parse().unwrap(),
                            ));
                            let writer = BedrockBriefs::new(
                                &kr_aws::sdk_config(None).await,
                                bedrock.clone(),
                            );
                            let state = kr_briefs::BriefsState::with(
                                config.clone(),
                                aws.clone(),
                                crawler,
                                kr_brief_maker::BriefSettings::default(),
                            )
                            .await
                            .with_writer(Arc::new(writer));
                            kr_briefs::router(state)
                        })
                        .await
                }
                // Google is the mock's, as the local stack configures it.
                Function::Integrations => {
                    recorder
                        .build(async {
                            kr_integrations::router(
                                kr_integrations::IntegrationsState::with_google(
                                    config.clone(),
                                    aws.clone(),
                                    google.clone(),
                                )
                                .await,
                            )
                        })
                        .await
                }
                _ => {
                    recorder
                        .build(function_router(function, config.clone(), aws.clone()))
                        .await
                }
            };
            api.insert(function, router);
            recorders.insert(function.binary(), recorder);
        }
        let recorder = CallRecorder::new();
        let web = recorder
            .build(async {
                kr_web::router(kr_web::WebState::from_config(config.clone(), aws.clone()).await)
            })
            .await;
        recorders.insert(WEB, recorder);
        Self {
            recorders,
            api,
            web,
            called: Mutex::new(BTreeSet::new()),
        }
    }

    /// `method path` through the function the route table gives it to, as API Gateway would.
    async fn api(&self, method: &str, path: &str, request: impl FnOnce(Call) -> Call) -> Reply {
        let bare = path.split('?').next().unwrap_or(path);
        let route = ROUTES
            .iter()
            .find(|r| r.method.as_str().eq_ignore_ascii_case(method) && matches(r.path, bare))
            .unwrap_or_else(|| panic!("no route for {method} {path}"));
        self.called
            .lock()
            .unwrap()
            .insert((route.method.as_str(), route.path));
        request(Call::new(method, path))
            .send(&self.api[&route.function])
            .await
    }

    /// [`api`](Self::api), answered with a success or a redirect.
    async fn api_ok(&self, method: &str, path: &str, request: impl FnOnce(Call) -> Call) -> Reply {
        ok(
            self.api(method, path, request).await,
            &format!("{method} {path}"),
        )
    }

    async fn page(&self, call: Call) -> Reply {
        call.send(&self.web).await
    }
}

/// `resource` with ids and digests (runs of 32 or more hex digits and dashes) as `…`.
fn shape(resource: &str) -> String {
    let mut out = String::new();
    let mut run = String::new();
    for c in resource.chars().chain(std::iter::once('/')) {
        if c.is_ascii_hexdigit() || c == '-' {
            run.push(c);
            continue;
        }
        if run.len() >= 32 {
            out.push('…');
        } else {
            out.push_str(&run);
        }
        run.clear();
        out.push(c);
    }
    out.pop();
    out
}

fn ok(reply: Reply, what: &str) -> Reply {
    assert!(
        (200..400).contains(&reply.status),
        "{what}: {} {}",
        reply.status,
        reply.text
    );
    reply
}

/// The session cookie a response sets (`name=value`).
fn cookie(reply: &Reply) -> String {
    reply
        .header("set-cookie")
        .and_then(|c| c.split(';').next())
        .expect("a session cookie")
        .to_string()
}

fn form(path: &str, origin: &str, cookie: &str, fields: &[(&str, &str)]) -> Call {
    Call::post(path)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("origin", origin)
        .header("cookie", cookie)
        .raw_body(serde_urlencoded::to_string(fields).unwrap())
}

/// Delivers the queue's messages to the pipeline (as Lambda's event source would, with the
/// test's own clients) until every job of `ids` has finished.
async fn run_pipeline(
    bridge: &Bridge,
    pipeline: &InProcessPipeline,
    jobs: &dyn JobStore,
    ids: &[JobId],
) {
    let deadline = Instant::now() + Duration::from_secs(240);
    loop {
        let mut finished = true;
        for id in ids {
            let job = jobs.job(*id).await.unwrap().expect("the job exists");
            finished &= job.status.is_finished();
        }
        if finished {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the pipeline did not finish {ids:?}"
        );
        bridge.poll_once(pipeline, 1).await.unwrap();
    }
}

/// A pass-through to the DataForSEO mock that can hold requests: how the test deletes a job
/// while one of its stages waits on the provider.
#[derive(Clone)]
struct Gate {
    closed: Arc<watch::Sender<bool>>,
    /// Notified when a request is held.
    held: Arc<Notify>,
}

impl Gate {
    async fn in_front_of(target: String) -> (Gate, String) {
        let gate = Gate {
            closed: Arc::new(watch::channel(false).0),
            held: Arc::new(Notify::new()),
        };
        let client = reqwest::Client::new();
        let state = gate.clone();
        let app = Router::new().fallback(move |request: axum::extract::Request| {
            let (gate, target, client) = (state.clone(), target.clone(), client.clone());
            async move {
                let mut closed = gate.closed.subscribe();
                if *closed.borrow_and_update() {
                    gate.held.notify_one();
                    let _ = closed.wait_for(|closed| !*closed).await;
                }
                let (parts, body) = request.into_parts();
                let body = axum::body::to_bytes(body, usize::MAX).await.unwrap();
                let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
                let mut forwarded = client.request(parts.method, format!("{target}{path}"));
                for (name, value) in &parts.headers {
                    if name != axum::http::header::HOST
                        && name != axum::http::header::CONTENT_LENGTH
                    {
                        forwarded = forwarded.header(name, value);
                    }
                }
                let answer = forwarded.body(body).send().await.unwrap();
                let mut response = axum::response::Response::builder().status(answer.status());
                if let Some(kind) = answer.headers().get(axum::http::header::CONTENT_TYPE) {
                    response = response.header(axum::http::header::CONTENT_TYPE, kind);
                }
                response
                    .body(axum::body::Body::from(answer.bytes().await.unwrap()))
                    .unwrap()
            }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        (gate, format!("http://{address}"))
    }

    fn close(&self) {
        self.closed.send_replace(true);
    }

    fn open(&self) {
        self.closed.send_replace(false);
    }
}

#[tokio::test]
async fn every_function_is_allowed_exactly_the_aws_actions_it_uses() {
    let template = Template::load_default().unwrap();
    let config = harness::config();
    let mut aws = harness::resources();
    let origin = config
        .allowed_origins
        .first()
        .expect("KR_ALLOWED_ORIGINS names an origin")
        .clone();
    // The test's own set-up and inspection go through clients no function has.
    let store = harness::store().await;
    let clients = harness::clients().await;
    let objects = S3ObjectStore::new(clients.s3.clone(), aws.results_bucket.clone());

    // The pipeline: the rig's wiring (with the DataForSEO client on the mock) records; making
    // its private queue is the test's doing, so recording starts after.
    let mock = MockDataForSeo::start(MockConfig::default().without_faults())
        .await
        .unwrap();
    let (gate, provider_url) = Gate::in_front_of(mock.base_url()).await;
    // Personas by a language model: the Bedrock runtime's mock answers for this model id.
    let (_bedrock, bedrock_url) =
        MockBedrock::start("127.0.0.1:0".parse().unwrap(), bedrock_fixtures())
            .await
            .unwrap();
    let bedrock_settings = BedrockSettings::from_vars(|name| match name {
        "KR_BEDROCK_PERSONA_MODEL" => Some(BEDROCK_MODEL.to_string()),
        "KR_BEDROCK_ENDPOINT_URL" => Some(bedrock_url.clone()),
        _ => None,
    })
    .unwrap()
    .unwrap();
    // Google's mock: the integrations function connects through it, and the pipeline reads
    // a job's Search Console property from it (the credentials key from Secrets Manager).
    let google = MockGoogle::start(GoogleMockConfig::default())
        .await
        .unwrap();
    let pipeline = CallRecorder::new();
    pipeline.pause();
    let rig = pipeline
        .build(async {
            let provider = provider_at(&provider_url, "mock-login", "mock-password", &[]).await;
            let model =
                BedrockPersonas::new(&kr_aws::sdk_config(None).await, bedrock_settings.clone());
            let clients = kr_aws::AwsClients::from_resources(&aws).await;
            let search_console = SearchConsoleParts {
                store: harness::store().await,
                google: Arc::new(
                    GoogleSource::new(
                        clients.secrets,
                        aws.credentials_key_arn.clone(),
                        aws.google_client_secret_arn.clone(),
                    )
                    .with_settings(google.settings()),
                ),
                days: 90,
            };
            rig_with_search_console(
                Some(provider),
                &[],
                ResearchSettings::default(),
                Duration::from_millis(20),
                Some(Arc::new(model)),
                Some(search_console),
            )
            .await
        })
        .await;
    pipeline.resume();
    let bridge = Bridge {
        sqs: clients.sqs.clone(),
        queue_url: rig.queue_url.clone(),
        batch_size: 5,
    };
    let invoker = InProcessPipeline(rig.pipeline.clone());
    // Jobs created through the API and the dashboard reach the rig's pipeline.
    aws.jobs_queue_url = rig.queue_url.clone();
    aws.webhooks_queue_url = rig.webhooks_queue_url.clone();
    let mut service = Service::build(
        &config,
        &aws,
        pipeline.clone(),
        &bedrock_settings,
        &google.settings(),
    )
    .await;
    // The notifier, wired as its main does, delivering to a receiver on loopback.
    let receiver = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let receiver_address = receiver.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(receiver, Router::new().fallback(|| async { "ok" }))
            .await
            .unwrap()
    });
    let notifier_recorder = CallRecorder::new();
    let notifier = notifier_recorder
        .build(async {
            let wiring = kr_aws::Wiring::from_config(config.clone(), aws.clone()).await;
            Arc::new(Notifier {
                changes: Arc::new(StoredChangeDigests::new(
                    wiring.store.clone(),
                    wiring.objects.clone(),
                )),
                jobs: wiring.store.clone(),
                fan_outs: wiring.store.clone(),
                webhooks: wiring.store.clone(),
                queue: Arc::new(SqsWebhookQueue::new(
                    wiring.clients.sqs.clone(),
                    aws.webhooks_queue_url.clone(),
                )),
                signing: Arc::new(SigningKeySource::new(
                    wiring.clients.secrets.clone(),
                    aws.webhook_signing_key_arn.clone(),
                )),
                client: GuardedClient::new(
                    &[("hooks.test".into(), receiver_address)],
                    Duration::from_secs(5),
                    "test",
                )
                .unwrap(),
                retries: RetrySchedule::default(),
            })
        })
        .await;
    service.recorders.insert(NOTIFIER, notifier_recorder);

    let user = harness::new_user(&store, Plan::Agency, 20, 20).await;
    let email = user.email.as_str().to_string();
    // A key per function, so each one's first use records it (`lastUsedAt`).
    let mut keys = HashMap::new();
    for function in Function::ALL {
        let (_, secret) = issue_api_key(
            store.as_ref(),
            store.as_ref(),
            user.id,
            Some(function.binary()),
        )
        .await
        .unwrap();
        keys.insert(function, secret.expose().to_string());
    }
    let key = |function: Function| keys[&function].clone();

    // ---------------------------------------------------------------- account
    let account = key(Function::Account);
    service
        .api_ok("GET", "/api/v1/users/me", |c| c.api_key(&account))
        .await;
    let login = service
        .api_ok("POST", "/api/v1/auth/login", |c| {
            c.header("origin", &origin)
                .json(json!({"email": email, "password": TEST_PASSWORD}))
        })
        .await;
    let session = cookie(&login);
    service
        .api_ok("GET", "/api/v1/users/me", |c| c.header("cookie", &session))
        .await;
    let created = service
        .api_ok("POST", "/api/v1/api-keys", |c| {
            c.api_key(&account)
                .json(json!({"name": "made by the test"}))
        })
        .await;
    service
        .api_ok("GET", "/api/v1/api-keys", |c| c.api_key(&account))
        .await;
    let key_id = created.json["apiKey"]["id"]
        .as_str()
        .expect("the new key's id")
        .to_string();
    service
        .api_ok("DELETE", &format!("/api/v1/api-keys/{key_id}"), |c| {
            c.api_key(&account)
        })
        .await;
    service
        .api_ok("POST", "/api/v1/auth/logout", |c| {
            c.header("cookie", &session).header("origin", &origin)
        })
        .await;

    // Webhooks: made here, delivered to by the notifier once the jobs below finish.
    let webhook = service
        .api_ok("POST", "/api/v1/webhooks", |c| {
            c.api_key(&account)
                .json(json!({"url": "http://hooks.test/webhook"}))
        })
        .await;
    let webhook_id = webhook.json["webhook"]["id"].as_str().unwrap().to_string();
    service
        .api_ok("GET", "/api/v1/webhooks", |c| c.api_key(&account))
        .await;

    // ---------------------------------------------------------------- Search Console
    let integrations = key(Function::Integrations);
    let connect = "/api/v1/integrations/search-console";
    // A service account's key first (the JWT bearer grant at the mock); the OAuth flow below
    // then replaces it.
    let (service_account_key, _) = kr_tests::google_mock::fixture_service_account_key();
    let service_account_key: serde_json::Value =
        serde_json::from_str(&service_account_key).unwrap();
    service
        .api_ok(
            "PUT",
            "/api/v1/integrations/search-console/service-account",
            |c| c.api_key(&integrations).json(service_account_key.clone()),
        )
        .await;
    let started = service
        .api_ok("POST", connect, |c| {
            c.api_key(&integrations).header("host", "127.0.0.1:9000")
        })
        .await;
    let consent_url = started.json["authorizationUrl"]
        .as_str()
        .unwrap()
        .to_string();
    let back = reqwest::Url::parse(&google.consent(&consent_url, true).await.unwrap()).unwrap();
    let param = |name: &str| {
        back.query_pairs()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
            .unwrap()
    };
    service
        .api_ok(
            "POST",
            "/api/v1/integrations/search-console/callback",
            |c| {
                c.api_key(&integrations)
                    .json(json!({"code": param("code"), "state": param("state")}))
            },
        )
        .await;
    service
        .api_ok("GET", connect, |c| c.api_key(&integrations))
        .await;

    // ---------------------------------------------------------------- jobs, then the pipeline
    let jobs_key = key(Function::Jobs);
    let create_at = |primary: &'static str,
                     competitors: &'static [&'static str],
                     location: u32,
                     idempotency: String| {
        let jobs_key = jobs_key.clone();
        let service = &service;
        async move {
            let reply = service
                .api("POST", "/api/v1/jobs", |c| {
                    c.api_key(&jobs_key)
                        .header("idempotency-key", &idempotency)
                        .json(json!({
                            "primaryDomain": primary,
                            "competitorDomains": competitors,
                            "languageCode": "en",
                            "locationCode": location,
                            "callbackUrl": "http://hooks.test/job-callback",
                            // The account's connection lists it: the job that completes
                            // imports it (the connection is removed once it has).
                            "searchConsoleProperty": (primary == DEMO_PRIMARY
                                && competitors == [DEMO_COMPETITOR]
                                && location == 2840)
                                .then_some("sc-domain:brightbrew-coffee.com"),
                        }))
                })
                .await;
            let reply = ok(reply, "create a job");
            reply.json["job"]["id"]
                .as_str()
                .unwrap()
                .parse::<JobId>()
                .unwrap()
        }
    };
    let create =
        |primary, competitors, idempotency| create_at(primary, competitors, 2840, idempotency);
    let once = uuid::Uuid::new_v4().to_string();
    let completes = create(DEMO_PRIMARY, &[DEMO_COMPETITOR], once.clone()).await;
    assert_eq!(
        create(DEMO_PRIMARY, &[DEMO_COMPETITOR], once).await,
        completes,
        "a replay"
    );
    let fails = create(
        "unreachable-primary.com",
        &[],
        uuid::Uuid::new_v4().to_string(),
    )
    .await;
    service
        .api_ok("GET", "/api/v1/jobs?limit=5", |c| c.api_key(&jobs_key))
        .await;
    // A job on the user's own keywords stores the list beside it; the preview reads balances.
    service
        .api_ok("POST", "/api/v1/jobs/estimate", |c| {
            c.api_key(&jobs_key).json(json!({
                "primaryDomain": DEMO_PRIMARY, "languageCode": "en", "locationCode": 2840,
                "keywords": ["cold brew coffee"],
            }))
        })
        .await;
    service
        .api_ok(
            "POST",
            &format!("/api/v1/jobs/import?primaryDomain={DEMO_PRIMARY}&languageCode=en&locationCode=2840&discoverKeywords=false"),
            |c| {
                c.api_key(&jobs_key)
                    .header("content-type", "text/plain")
                    .raw_body(b"cold brew coffee\nespresso beans\n".to_vec())
            },
        )
        .await;
    service
        .api_ok("GET", "/api/v1/jobs?status=queued", |c| {
            c.api_key(&jobs_key)
        })
        .await;
    service
        .api_ok("GET", &format!("/api/v1/jobs/{completes}"), |c| {
            c.api_key(&jobs_key)
        })
        .await;

    run_pipeline(&bridge, &invoker, store.as_ref(), &[completes, fails]).await;
    let imported = store.job(completes).await.unwrap().unwrap().search_console;
    assert_eq!(
        imported.map(|i| i.status),
        Some(kr_core::domain::ImportStatus::Imported),
        "the pipeline read Search Console"
    );
    service
        .api_ok("DELETE", connect, |c| c.api_key(&integrations))
        .await;
    // The finished jobs' events, fanned out and delivered.
    let webhook_bridge = Bridge {
        sqs: clients.sqs.clone(),
        queue_url: rig.webhooks_queue_url.clone(),
        batch_size: 10,
    };
    let notifier_invoker = InProcessNotifier(notifier.clone());
    while webhook_bridge
        .poll_once(&notifier_invoker, 1)
        .await
        .unwrap()
        > 0
    {}
    let log = service
        .api_ok(
            "GET",
            &format!("/api/v1/webhooks/{webhook_id}/deliveries"),
            |c| c.api_key(&account),
        )
        .await;
    assert!(
        log.json["deliveries"]
            .as_array()
            .is_some_and(|d| !d.is_empty()),
        "{}",
        log.text
    );
    service
        .api_ok("DELETE", &format!("/api/v1/webhooks/{webhook_id}"), |c| {
            c.api_key(&account)
        })
        .await;
    assert_eq!(
        store.job(completes).await.unwrap().unwrap().status,
        JobStatus::Completed
    );
    assert_eq!(
        store.job(fails).await.unwrap().unwrap().status,
        JobStatus::Failed
    );

    // A job deleted while one of its stages waits on the provider (a market no earlier job
    // asked about, so nothing comes from the provider cache): the pipeline removes what the
    // stage stored.
    let doomed = create_at(
        DEMO_PRIMARY,
        &[DEMO_COMPETITOR],
        2826,
        uuid::Uuid::new_v4().to_string(),
    )
    .await;
    gate.close();
    let released = AtomicBool::new(false);
    let deliver = async {
        let deadline = Instant::now() + Duration::from_secs(240);
        loop {
            let delivered = bridge.poll_once(&invoker, 1).await.unwrap();
            if delivered == 0 && released.load(Ordering::SeqCst) {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the deleted job's stage never ended"
            );
        }
    };
    let delete = async {
        tokio::time::timeout(Duration::from_secs(180), gate.held.notified())
            .await
            .expect("a stage of the job asked the provider");
        service
            .api_ok("DELETE", &format!("/api/v1/jobs/{doomed}"), |c| {
                c.api_key(&jobs_key)
            })
            .await;
        released.store(true, Ordering::SeqCst);
        gate.open();
    };
    tokio::join!(deliver, delete);
    assert!(store.job(doomed).await.unwrap().is_none());

    // A job whose first message was lost: the sweeper sends it again. Its message stays in
    // the queue, unprocessed; nothing is delivered after this.
    let waiting = create(DEMO_PRIMARY, &[], uuid::Uuid::new_v4().to_string()).await;
    clients
        .dynamodb
        .update_item()
        .table_name(&aws.table_name)
        .key(
            kr_aws::dynamo::PK,
            AttributeValue::S(format!("JOB#{waiting}")),
        )
        .key(kr_aws::dynamo::SK, AttributeValue::S("JOB".into()))
        .update_expression("SET GSI3SK = :an_hour_ago")
        .expression_attribute_values(
            ":an_hour_ago",
            AttributeValue::S(format!(
                "{}#{waiting}",
                (chrono::Utc::now() - chrono::Duration::hours(1))
                    .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
            )),
        )
        .send()
        .await
        .unwrap();
    // A schedule, read, paused, resumed and made due an hour ago: the sweep starts its run.
    let scheduled = service
        .api_ok("POST", "/api/v1/schedules", |c| {
            c.api_key(&jobs_key).json(json!({
                "primaryDomain": DEMO_PRIMARY,
                "languageCode": "en",
                "locationCode": 2840,
                "cadence": "monthly",
                "dayOfMonth": 1,
                "hourUtc": 6
            }))
        })
        .await;
    let schedule_id = scheduled.json["schedule"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let schedule_path = format!("/api/v1/schedules/{schedule_id}");
    service
        .api_ok("GET", "/api/v1/schedules", |c| c.api_key(&jobs_key))
        .await;
    service
        .api_ok("GET", &schedule_path, |c| c.api_key(&jobs_key))
        .await;
    for paused in [true, false] {
        service
            .api_ok("PATCH", &schedule_path, |c| {
                c.api_key(&jobs_key).json(json!({"paused": paused}))
            })
            .await;
    }
    let an_hour_ago = chrono::Utc::now() - chrono::Duration::hours(1);
    clients
        .dynamodb
        .update_item()
        .table_name(&aws.table_name)
        .key(
            kr_aws::dynamo::PK,
            AttributeValue::S(format!("USER#{}", user.id)),
        )
        .key(
            kr_aws::dynamo::SK,
            AttributeValue::S(format!("SCHEDULE#{schedule_id}")),
        )
        .update_expression("SET GSI3SK = :due, nextRunAt = :at")
        .expression_attribute_values(
            ":due",
            AttributeValue::S(format!(
                "{}#{schedule_id}",
                an_hour_ago.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
            )),
        )
        .expression_attribute_values(":at", AttributeValue::S(an_hour_ago.to_rfc3339()))
        .send()
        .await
        .unwrap();
    let swept = handle_event_from(
        &rig.pipeline,
        json!({"detail-type": "Scheduled Event", "source": "aws.events", "detail": {}}),
        &Source::local(),
    )
    .await
    .unwrap();
    assert!(swept["requeued"].as_u64().unwrap_or(0) >= 1, "{swept}");
    assert_eq!(swept["schedules"]["started"], 1, "{swept}");
    service
        .api_ok("DELETE", &schedule_path, |c| c.api_key(&jobs_key))
        .await;

    // A message that exhausted its deliveries arrives from the dead-letter queue: its job is
    // failed and its run given back.
    let dead = create(DEMO_PRIMARY, &[], uuid::Uuid::new_v4().to_string()).await;
    let dead_letters = "arn:aws:sqs:us-east-1:123456789012:dead-letters";
    let record = json!({
        "messageId": uuid::Uuid::new_v4().to_string(),
        "receiptHandle": "dead-letter",
        "body": json!({"jobId": dead, "stage": "references"}).to_string(),
        "attributes": {"ApproximateReceiveCount": "1"},
        "messageAttributes": {},
        "eventSource": "aws:sqs",
        "eventSourceARN": dead_letters,
        "awsRegion": "us-east-1",
    });
    let source = Source {
        deadline: chrono::Utc::now() + chrono::Duration::minutes(5),
        dead_letter_queue_arn: Some(dead_letters),
    };
    let answer = handle_event_from(&rig.pipeline, json!({ "Records": [record] }), &source)
        .await
        .unwrap();
    assert_eq!(answer["batchItemFailures"], json!([]), "{answer}");
    assert_eq!(
        store.job(dead).await.unwrap().unwrap().status,
        JobStatus::Failed
    );

    // The secret the pipeline reads at start-up when the template names one.
    let secrets =
        aws_sdk_secretsmanager::Client::new(&kr_aws::sdk_config(aws.aws_endpoint.as_deref()).await);
    let secret_arn = secrets
        .create_secret()
        .name(format!("dataforseo-{}", uuid::Uuid::new_v4().simple()))
        .secret_string(r#"{"login": "mock-login", "password": "mock-password"}"#)
        .send()
        .await
        .unwrap()
        .arn()
        .unwrap()
        .to_string();
    let sdk = pipeline.sdk_config(&kr_aws::sdk_config(aws.aws_endpoint.as_deref()).await);
    let credentials = resolve_credentials(
        |name| (name == SECRET_ARN_VAR).then(|| secret_arn.clone()),
        &sdk,
    )
    .await
    .unwrap();
    assert!(credentials.is_some());

    // ---------------------------------------------------------------- the MCP endpoint
    let mcp_recorder = CallRecorder::new();
    let mcp = mcp_recorder
        .build(async {
            // Its briefs read pages as the briefs function's do: never past the machine.
            let crawler = crawler_resolving(serp_hosts_resolve("127.0.0.1:1".parse().unwrap()));
            let writer =
                BedrockBriefs::new(&kr_aws::sdk_config(None).await, bedrock_settings.clone());
            kr_mcp::router(
                kr_mcp::McpState::from_config(config.clone(), aws.clone())
                    .await
                    .with_crawler(crawler)
                    .with_brief_writer(Arc::new(writer)),
            )
        })
        .await;
    service.recorders.insert(MCP, mcp_recorder);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let mcp_url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, mcp).await.unwrap() });
    let (_, mcp_key) = issue_api_key(store.as_ref(), store.as_ref(), user.id, Some("mcp"))
        .await
        .unwrap();
    let assistant = mcp_client(&mcp_url, mcp_key.expose()).await;
    for (tool, args) in [
        ("get_job", json!({"jobId": completes.to_string()})),
        ("list_jobs", json!({"limit": 3})),
        (
            "query_keywords",
            json!({"jobId": completes.to_string(), "limit": 3}),
        ),
        ("list_clusters", json!({"jobId": completes.to_string()})),
        ("content_plan", json!({"jobId": completes.to_string()})),
        ("get_personas", json!({"jobId": completes.to_string()})),
        ("get_references", json!({"jobId": completes.to_string()})),
        ("job_changes", json!({"jobId": completes.to_string()})),
        ("list_schedules", json!({})),
        ("get_balances", json!({})),
        // The stored connection only: never the credentials key.
        ("search_console_properties", json!({})),
        ("striking_distance", json!({"jobId": completes.to_string()})),
    ] {
        mcp_call(&assistant, tool, args).await;
    }
    // A brief of the second cluster (the briefs function makes the first's below).
    let listed = mcp_call(
        &assistant,
        "list_clusters",
        json!({"jobId": completes.to_string()}),
    )
    .await;
    let second = listed["clusters"][1]["id"].as_str().expect("two clusters");
    mcp_call(
        &assistant,
        "cluster_brief",
        json!({"jobId": completes.to_string(), "clusterId": second}),
    )
    .await;
    // A job with its own keywords and a callback, then its references before the pipeline
    // wrote them (an absent object).
    let created = mcp_call(
        &assistant,
        "create_job",
        json!({"primaryDomain": "mcp-only-example.com", "languageCode": "en", "locationCode": 2840,
            "keywords": ["cold brew"], "callbackUrl": "http://hooks.test/mcp"}),
    )
    .await;
    let mcp_job = created["job"]["id"].as_str().unwrap().to_string();
    mcp_call(&assistant, "get_references", json!({"jobId": mcp_job})).await;
    // Refused for want of runs: the keywords stored first are removed again.
    let broke = harness::new_user(&store, Plan::Agency, 0, 0).await;
    let (_, broke_key) = issue_api_key(store.as_ref(), store.as_ref(), broke.id, Some("mcp"))
        .await
        .unwrap();
    let refused = mcp_client(&mcp_url, broke_key.expose())
        .await
        .call_tool(
            rmcp::model::CallToolRequestParams::new("create_job").with_arguments(
                json!({"primaryDomain": DEMO_PRIMARY, "languageCode": "en", "locationCode": 2840,
                    "keywords": ["cold brew"]})
                .as_object()
                .unwrap()
                .clone(),
            ),
        )
        .await
        .unwrap();
    assert_eq!(refused.is_error, Some(true));

    // ---------------------------------------------------------------- results and export
    let results = key(Function::Results);
    let base = format!("/api/v1/jobs/{completes}");
    service
        .api_ok(
            "GET",
            &format!("{base}/keywords?sortBy=volume&limit=5"),
            |c| c.api_key(&results),
        )
        .await;
    let clusters = service
        .api_ok("GET", &format!("{base}/clusters"), |c| c.api_key(&results))
        .await;
    let cluster = clusters.json["clusters"][0]["id"]
        .as_str()
        .expect("a cluster")
        .to_string();
    service
        .api_ok("GET", &format!("{base}/clusters/{cluster}/keywords"), |c| {
            c.api_key(&results)
        })
        .await;
    // A brief is made (claimed and counted on the job, stored under its prefix), then read
    // back.
    let briefs = key(Function::Briefs);
    for method in ["POST", "GET"] {
        service
            .api_ok(method, &format!("{base}/clusters/{cluster}/brief"), |c| {
                c.api_key(&briefs)
            })
            .await;
    }
    service
        .api_ok("GET", &format!("{base}/topics"), |c| c.api_key(&results))
        .await;
    service
        .api_ok("GET", &format!("{base}/personas"), |c| c.api_key(&results))
        .await;
    service
        .api_ok("GET", &format!("{base}/references"), |c| {
            c.api_key(&results)
        })
        .await;
    // Its changes: the owner's completed jobs are read to find the earlier run.
    service
        .api_ok("GET", &format!("{base}/changes"), |c| c.api_key(&results))
        .await;
    // Its AI visibility: the dataset's overviews and the stored answers (none here).
    service
        .api_ok("GET", &format!("{base}/ai-visibility"), |c| {
            c.api_key(&results)
        })
        .await;
    // A job the pipeline has not reached: nothing is stored for it yet.
    let fresh = format!("/api/v1/jobs/{waiting}");
    let references = service
        .api_ok("GET", &format!("{fresh}/references"), |c| {
            c.api_key(&results)
        })
        .await;
    assert_eq!(references.json["references"], json!([null]));
    service
        .api_ok("GET", &format!("{fresh}/keywords"), |c| c.api_key(&results))
        .await;
    let export = key(Function::Export);
    service
        .api_ok("GET", &format!("{base}/export-keywords"), |c| {
            c.api_key(&export)
        })
        .await;
    let early = service
        .api("GET", &format!("{fresh}/export-keywords"), |c| {
            c.api_key(&export)
        })
        .await;
    assert_eq!(early.status, 409, "{}", early.text);

    // The scheduled run (started by the sweep above) completes: its `job.changes` reads the
    // earlier runs and their results. After the looks at the job the pipeline had
    // not reached, which this run of the pipeline reaches too.
    let changes_hook = service
        .api_ok("POST", "/api/v1/webhooks", |c| {
            c.api_key(&account)
                .json(json!({"url": "http://hooks.test/changes", "events": ["job.changes"]}))
        })
        .await;
    let scheduled_run = store
        .list_jobs(user.id, None, 50, 0)
        .await
        .unwrap()
        .jobs
        .into_iter()
        .find(|job| job.schedule_id.is_some())
        .expect("the scheduled run");
    run_pipeline(&bridge, &invoker, store.as_ref(), &[scheduled_run.id]).await;
    while webhook_bridge
        .poll_once(&notifier_invoker, 1)
        .await
        .unwrap()
        > 0
    {}
    let changes_hook = changes_hook.json["webhook"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let log = service
        .api_ok(
            "GET",
            &format!("/api/v1/webhooks/{changes_hook}/deliveries"),
            |c| c.api_key(&account),
        )
        .await;
    assert_eq!(
        log.json["deliveries"][0]["event"], "job.changes",
        "{}",
        log.text
    );
    service
        .api_ok("DELETE", &format!("/api/v1/webhooks/{changes_hook}"), |c| {
            c.api_key(&account)
        })
        .await;

    // ---------------------------------------------------------------- share links
    let share_links = format!("{base}/share-links");
    let shared = service
        .api_ok("POST", &share_links, |c| {
            c.api_key(&jobs_key)
                .json(json!({"tabs": ["keywords", "plan"]}))
        })
        .await;
    let share_page = shared.json["url"]
        .as_str()
        .and_then(|url| url.find("/share/").map(|at| url[at..].to_string()))
        .expect("a share URL");
    let share_link_id = shared.json["id"].as_str().unwrap().to_string();
    service
        .api_ok("GET", &share_links, |c| c.api_key(&jobs_key))
        .await;

    // ---------------------------------------------------------------- locales
    for path in [
        "/api/v1/languages",
        "/api/v1/locations",
        "/api/v1/openapi.json",
        "/api/v1/docs",
    ] {
        service.api_ok("GET", path, |c| c).await;
    }

    // ---------------------------------------------------------------- the dashboard
    let signed_in = ok(
        service
            .page(
                Call::post("/login")
                    .header("content-type", "application/x-www-form-urlencoded")
                    .header("origin", &origin)
                    .raw_body(
                        serde_urlencoded::to_string([
                            ("email", email.as_str()),
                            ("password", TEST_PASSWORD),
                        ])
                        .unwrap(),
                    ),
            )
            .await,
        "sign in",
    );
    let session = cookie(&signed_in);
    let page = |path: String| Call::get(&path).header("cookie", &session);
    for path in [
        "/",
        "/jobs",
        "/jobs?status=completed",
        "/jobs/new",
        "/settings/api-keys",
        // The stored connection, read without the credentials key this function may not read.
        "/settings/search-console",
    ] {
        ok(service.page(page(path.to_string())).await, path);
    }
    // A job seen through its share link, and its owner's share page.
    // Under the agency's name and logo, the logo served through the link.
    service
        .api_ok("PATCH", "/api/v1/users/me/branding", |c| {
            c.api_key(&account).json(json!({"name": "Northwind SEO"}))
        })
        .await;
    service
        .api_ok("PUT", "/api/v1/users/me/branding/logo", |c| {
            c.api_key(&account)
                .header("content-type", "image/png")
                .raw_body(PIXEL_PNG.to_vec())
        })
        .await;
    service
        .api_ok("GET", "/api/v1/users/me/branding", |c| c.api_key(&account))
        .await;
    ok(service.page(Call::get(&share_page)).await, "a shared job");
    ok(
        service.page(Call::get(&format!("{share_page}/logo"))).await,
        "the agency's logo",
    );
    service
        .api_ok("DELETE", "/api/v1/users/me/branding/logo", |c| {
            c.api_key(&account)
        })
        .await;
    ok(
        service.page(page(format!("/jobs/{completes}/share"))).await,
        "the share page",
    );
    service
        .api_ok("DELETE", &format!("{share_links}/{share_link_id}"), |c| {
            c.api_key(&jobs_key)
        })
        .await;
    // Not found when the demo account has no completed job, as in this test's stack.
    let demo = service.page(Call::get("/demo")).await;
    assert!(demo.status < 500, "/demo: {} {}", demo.status, demo.text);
    for tab in ["keywords", "clusters", "plan", "personas", "overview"] {
        ok(
            service
                .page(page(format!("/jobs/{completes}?tab={tab}")))
                .await,
            tab,
        );
    }
    // A brief the API made, and one not made yet (an absent object).
    let unmade = clusters.json["clusters"][2]["id"].as_str().unwrap();
    for id in [cluster.as_str(), unmade] {
        ok(
            service
                .page(page(format!("/jobs/{completes}/clusters/{id}/brief")))
                .await,
            "brief page",
        );
    }
    let made = ok(
        service
            .page(form(
                "/jobs/new",
                &origin,
                &session,
                &[
                    ("primaryDomain", DEMO_PRIMARY),
                    ("competitorDomains", DEMO_COMPETITOR),
                    ("languageCode", "en"),
                    ("locationCode", "2840"),
                    ("idempotencyKey", &uuid::Uuid::new_v4().to_string()),
                ],
            ))
            .await,
        "new job",
    );
    let location = made
        .header("location")
        .expect("a redirect to the new job")
        .to_string();
    let dashboard_job: JobId = location.trim_start_matches("/jobs/").parse().unwrap();
    ok(
        service.page(page(location.clone())).await,
        "a new job's page",
    );
    // Something stored for it, so deleting it has objects to remove.
    objects
        .put_artifact(dashboard_job, "references.json", b"[null, null]".to_vec())
        .await
        .unwrap();
    ok(
        service.page(page(format!("{location}/delete"))).await,
        "confirm delete",
    );
    ok(
        service
            .page(form(&format!("{location}/delete"), &origin, &session, &[]))
            .await,
        "delete",
    );
    ok(
        service
            .page(form(
                "/settings/api-keys",
                &origin,
                &session,
                &[("name", "from the dashboard")],
            ))
            .await,
        "create a key",
    );
    let from_dashboard = store
        .list_api_keys(user.id)
        .await
        .unwrap()
        .into_iter()
        .find(|k| k.name == "from the dashboard")
        .expect("the dashboard's key");
    let revoke = format!("/settings/api-keys/{}/revoke", from_dashboard.id);
    ok(service.page(page(revoke.clone())).await, "confirm revoke");
    ok(
        service.page(form(&revoke, &origin, &session, &[])).await,
        "revoke",
    );
    ok(
        service.page(form("/logout", &origin, &session, &[])).await,
        "sign out",
    );

    // ---------------------------------------------------------------- deleting jobs
    for id in [completes, waiting, fails, dead] {
        service
            .api_ok("DELETE", &format!("/api/v1/jobs/{id}"), |c| {
                c.api_key(&jobs_key)
            })
            .await;
    }

    // ---------------------------------------------------------------- the proof
    let mut resources = Resources::new(&template, |name| std::env::var(name).ok()).unwrap();
    resources.alias_queue(&rig.queue_url, "JobsQueue");
    resources.alias_queue(&rig.webhooks_queue_url, "WebhooksQueue");
    let parameters = BTreeMap::from([
        ("DataForSeoSecretArn".to_string(), secret_arn.clone()),
        ("BedrockPersonaModel".to_string(), BEDROCK_MODEL.to_string()),
        (
            "WebhookSigningKey".to_string(),
            aws.webhook_signing_key_arn.clone().unwrap(),
        ),
        (
            "CredentialsKey".to_string(),
            aws.credentials_key_arn.clone().unwrap(),
        ),
    ]);
    let policies = iam::function_policies(&template, &parameters).unwrap();

    let mut failures = Vec::new();
    let uncalled: Vec<String> = ROUTES
        .iter()
        .filter(|r| {
            !service
                .called
                .lock()
                .unwrap()
                .contains(&(r.method.as_str(), r.path))
        })
        .map(|r| format!("{} {}", r.method.as_str(), r.path))
        .collect();
    if !uncalled.is_empty() {
        failures.push(format!(
            "routes this test never calls (add them above): {uncalled:?}"
        ));
    }
    for binary in service.recorders.keys() {
        if !policies.iter().any(|p| p.binary == *binary) {
            failures.push(format!(
                "{binary}: recorded, but template.yaml deploys no such function"
            ));
        }
    }
    for policy in &policies {
        let Some(recorder) = service.recorders.get(policy.binary.as_str()) else {
            failures.push(format!(
                "{} ({}): template.yaml deploys it but this test does not drive it",
                policy.function, policy.binary
            ));
            continue;
        };
        let mut used: Vec<Access> = Vec::new();
        for call in recorder.calls() {
            match iam::accesses(&call, &resources) {
                Ok(found) => used.extend(found),
                Err(err) => failures.push(format!("{}: {err:#}", policy.function)),
            }
        }
        used.sort();
        used.dedup_by(|a, b| {
            a.action == b.action && a.resource == b.resource && a.context == b.context
        });
        eprintln!("{} used:", policy.function);
        let mut summary: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
        for access in &used {
            summary
                .entry(access.action.as_str())
                .or_default()
                .insert(shape(&access.resource));
        }
        for (action, resources) in summary {
            eprintln!("  {action}: {resources:?}");
        }

        // One line per action refused, with an example or two of what needed it.
        let mut refused: BTreeMap<&str, Vec<&Access>> = BTreeMap::new();
        for access in used.iter().filter(|a| !policy.allows(a)) {
            refused
                .entry(access.action.as_str())
                .or_default()
                .push(access);
        }
        for (action, accesses) in refused {
            let examples: Vec<String> = accesses.iter().take(2).map(|a| a.to_string()).collect();
            failures.push(format!(
                "{}: {action} is used but not allowed by its Policies in template.yaml ({} request(s)), e.g. {}",
                policy.function,
                accesses.len(),
                examples.join("; ")
            ));
        }
        for (action, resource) in policy.unused_grants(&used) {
            failures.push(format!(
                "{}: grants {action} on {resource}, which it never used here: remove the grant, or drive the code that needs it from this test",
                policy.function
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "least privilege does not hold:\n- {}",
        failures.join("\n- ")
    );
}
