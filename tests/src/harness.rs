//! What the integration tests share: configuration from the environment the test command
//! sets up (`.ci/test`), clients to the emulator, and users to test with.

use std::sync::Arc;

use kr_aws::dynamo::DynamoStore;
use kr_aws::{AwsClients, Resources};
use kr_core::config::Config;
use kr_core::domain::{ApiKeySecret, Email, Password, Plan, UserId};
use kr_core::service::account::{create_account, issue_api_key};
use kr_core::store::{User, UserStore};

/// `count` reddit threads as the weak spots of synthetic keyword `i`, at positions 2, 5, 8, …
pub fn reddit_weak_spots(i: usize, count: usize) -> Vec<kr_core::dataset::WeakSpot> {
    (0..count)
        .map(|n| kr_core::dataset::WeakSpot {
            position: 3 * n as u32 + 2,
            url: format!("https://www.reddit.com/r/coffee/comments/{i}/{n}/"),
            site: "reddit.com".into(),
            kind: kr_core::dataset::WeakSpotKind::Forum,
        })
        .collect()
}

/// A job of `owner` in `status` for `primary` and `competitors`, created now, as a test stores
/// it directly (no queue, no pipeline); adjust the fields a test cares about.
pub fn job_record(
    owner: UserId,
    status: kr_core::domain::JobStatus,
    primary: &str,
    competitors: &[&str],
) -> kr_core::domain::Job {
    use kr_core::domain::{DomainName, Job, JobId, Progress};
    Job {
        id: JobId::new(),
        owner,
        status,
        primary_domain: DomainName::parse(primary).unwrap(),
        competitor_domains: competitors
            .iter()
            .map(|d| DomainName::parse(d).unwrap())
            .collect(),
        language_code: "en".into(),
        location_code: 2840,
        created_at: chrono::Utc::now(),
        started_at: None,
        completed_at: None,
        progress: Progress::waiting(),
        error_message: None,
        keyword_count: None,
        stage: None,
        version: 3,
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
    }
}

/// The configuration the functions would get.
pub fn config() -> Config {
    Config::from_env().unwrap_or_else(|err| {
        panic!("{err}: run the tests through .ci/test, which starts the AWS emulator and sets KR_* variables")
    })
}

/// The AWS resources the functions would get, in the emulator.
pub fn resources() -> Resources {
    let resources = Resources::from_env().unwrap_or_else(|err| {
        panic!("{err}: run the tests through .ci/test, which starts the AWS emulator and sets KR_* variables")
    });
    assert!(
        resources.aws_endpoint.is_some(),
        "KR_AWS_ENDPOINT must point at the AWS emulator, never at AWS"
    );
    resources
}

pub async fn clients() -> AwsClients {
    AwsClients::from_resources(&resources()).await
}

pub async fn store() -> Arc<DynamoStore> {
    let resources = resources();
    Arc::new(DynamoStore::new(
        AwsClients::from_resources(&resources).await.dynamodb,
        resources.table_name,
    ))
}

pub fn unique_email() -> String {
    format!("user-{}@test.example.com", uuid::Uuid::new_v4().simple())
}

pub const TEST_PASSWORD: &str = "a long test password";

/// A fresh user with its own e-mail address.
pub async fn new_user(store: &DynamoStore, plan: Plan, credits: i64, domains: i64) -> User {
    let email = Email::parse(&unique_email()).unwrap();
    let password = Password::parse_new(TEST_PASSWORD).unwrap();
    create_account(
        store,
        UserId::new(),
        email,
        &password,
        plan,
        credits,
        domains,
    )
    .await
    .unwrap()
}

/// A fresh Agency user and an API key for it.
pub async fn new_user_with_key(store: &DynamoStore) -> (User, ApiKeySecret) {
    let user = new_user(store, Plan::Agency, 10, 10).await;
    let (_, secret) = issue_api_key(store, store, user.id, Some("test"))
        .await
        .unwrap();
    (user, secret)
}

/// A fresh Agency user with `credits` runs and `domains` new domains, and its API key's secret.
pub async fn user_with_key(store: &DynamoStore, credits: i64, domains: i64) -> (User, String) {
    let (user, key) = new_user_with_key(store).await;
    let user = store
        .set_balance(user.id, Some(credits), Some(domains))
        .await
        .unwrap()
        .unwrap();
    (user, key.expose().to_string())
}

/// The session cookie (`name=value`) of a signed-in user, through the dashboard's sign-in
/// form; the cookie must be `HttpOnly` and `SameSite=Lax`.
pub async fn web_session(app: &axum::Router, email: &str) -> String {
    let body =
        serde_urlencoded::to_string([("email", email), ("password", TEST_PASSWORD)]).unwrap();
    let reply = Call::post("/login")
        .header("content-type", "application/x-www-form-urlencoded")
        .raw_body(body)
        .send(app)
        .await;
    assert_eq!(reply.status, 303, "{}", reply.text);
    let cookie = reply.header("set-cookie").expect("a session cookie");
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    cookie.split(';').next().unwrap().to_string()
}

/// A request to a router mounted in-process, as API Gateway would deliver it.
pub struct Call {
    builder: axum::http::request::Builder,
    body: Vec<u8>,
}

/// What came back: status, headers and the body (JSON when it parses as JSON).
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: axum::http::HeaderMap,
    pub bytes: Vec<u8>,
    pub text: String,
    pub json: serde_json::Value,
}

impl Call {
    pub fn new(method: &str, path: &str) -> Self {
        Self {
            builder: axum::http::Request::builder().method(method).uri(path),
            body: Vec::new(),
        }
    }

    pub fn get(path: &str) -> Self {
        Self::new("GET", path)
    }

    pub fn post(path: &str) -> Self {
        Self::new("POST", path)
    }

    pub fn delete(path: &str) -> Self {
        Self::new("DELETE", path)
    }

    pub fn patch(path: &str) -> Self {
        Self::new("PATCH", path)
    }

    pub fn put(path: &str) -> Self {
        Self::new("PUT", path)
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.builder = self.builder.header(name, value);
        self
    }

    pub fn api_key(self, key: &str) -> Self {
        self.header("x-api-key", key)
    }

    pub fn bearer(self, key: &str) -> Self {
        self.header("authorization", &format!("Bearer {key}"))
    }

    pub fn json(mut self, body: serde_json::Value) -> Self {
        self.builder = self.builder.header("content-type", "application/json");
        self.body = body.to_string().into_bytes();
        self
    }

    pub fn raw_body(mut self, body: impl Into<Vec<u8>>) -> Self {
        self.body = body.into();
        self
    }

    /// Sent from `address`, as API Gateway's HTTP API reports it (`requestContext.http.sourceIp`).
    pub fn from_address(mut self, address: &str) -> Self {
        use lambda_http::aws_lambda_events::apigw::{
            ApiGatewayV2httpRequestContext, ApiGatewayV2httpRequestContextHttpDescription,
        };
        let mut http = ApiGatewayV2httpRequestContextHttpDescription::default();
        http.source_ip = Some(address.to_string());
        let mut context = ApiGatewayV2httpRequestContext::default();
        context.http = http;
        self.builder = self
            .builder
            .extension(lambda_http::request::RequestContext::ApiGatewayV2(context));
        self
    }

    async fn respond(self, router: &axum::Router) -> axum::response::Response {
        use tower::ServiceExt;
        let request = self
            .builder
            .body(axum::body::Body::from(self.body))
            .expect("valid test request");
        router
            .clone()
            .oneshot(request)
            .await
            .expect("routers are infallible")
    }

    /// The answer's status, its body read and dropped frame by frame as Lambda streams it out:
    /// for benchmarks, where a large answer held whole would count as the function's memory.
    pub async fn send_streamed(self, router: &axum::Router) -> u16 {
        use http_body_util::BodyExt;
        let response = self.respond(router).await;
        let status = response.status().as_u16();
        let mut body = response.into_body();
        while let Some(frame) = body.frame().await {
            frame.expect("body");
        }
        status
    }

    pub async fn send(self, router: &axum::Router) -> Reply {
        use http_body_util::BodyExt;
        let response = self.respond(router).await;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let json = serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null);
        Reply {
            status,
            headers,
            bytes: bytes.to_vec(),
            text,
            json,
        }
    }
}

impl Reply {
    /// Asserts the status and, for errors, the contract's error body.
    pub fn expect(self, status: u16) -> Self {
        assert_eq!(
            self.status, status,
            "unexpected status; body: {}",
            self.text
        );
        if status >= 400 {
            assert!(
                self.json["error"].is_string(),
                "error body lacks `error`: {}",
                self.text
            );
            assert!(
                self.json["code"].is_string(),
                "error body lacks `code`: {}",
                self.text
            );
        }
        self
    }

    pub fn code(&self) -> &str {
        self.json["code"].as_str().unwrap_or("")
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The field names in a validation error's details.
    pub fn invalid_fields(&self) -> Vec<String> {
        self.json["details"]["fields"]
            .as_array()
            .map(|fields| {
                fields
                    .iter()
                    .filter_map(|f| f["field"].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// Removes a user's profile behind the API's back, as an operator clean-up would.
pub async fn delete_profile(store: &DynamoStore, user: UserId) {
    use aws_sdk_dynamodb::types::AttributeValue;
    store
        .client()
        .delete_item()
        .table_name(store.table())
        .key("PK", AttributeValue::S(format!("USER#{user}")))
        .key("SK", AttributeValue::S("PROFILE".into()))
        .send()
        .await
        .unwrap();
}

/// A queue of the test's own, so its messages are not consumed by other tests.
pub async fn fresh_queue(clients: &AwsClients) -> String {
    clients
        .sqs
        .create_queue()
        .queue_name(format!("test-{}", uuid::Uuid::new_v4().simple()))
        .send()
        .await
        .expect("create a test queue")
        .queue_url
        .expect("queue URL")
}

/// Message bodies waiting in `queue_url`, parsed as JSON (received and left invisible).
pub async fn drain_queue(clients: &AwsClients, queue_url: &str) -> Vec<serde_json::Value> {
    let mut bodies = Vec::new();
    loop {
        let output = clients
            .sqs
            .receive_message()
            .queue_url(queue_url)
            .max_number_of_messages(10)
            .wait_time_seconds(0)
            .send()
            .await
            .expect("receive");
        let messages = output.messages.unwrap_or_default();
        if messages.is_empty() {
            return bodies;
        }
        for message in messages {
            bodies.push(
                serde_json::from_str(message.body().unwrap_or("null"))
                    .unwrap_or(serde_json::Value::Null),
            );
        }
    }
}

/// A 1×1 PNG, as image editors write it.
pub const PIXEL_PNG: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
    0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0,
    0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF, 0x89, 0x99, 0x3D, 0x1D, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
    0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
];
