//! Webhooks against the emulator and a local receiver: the endpoints of the account function,
//! a real job whose completion the notifier delivers signed (verified here independently),
//! retries after a 500 recorded attempt by attempt, duplicates carrying one `webhook-id`, a
//! redirect to a private address refused, a hanging receiver, a job's `callbackUrl`, and a
//! delivery handled twice after its log write failed, whose retries do not fork, an event
//! whose send was lost, raised again from the outbox by the sweeper, a fan-out delivered again
//! after a failed send that repeats no first attempt, and a delivery failing on every receive,
//! given up with its job and event named.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use hmac::{Hmac, KeyInit, Mac};
use kr_account::{router as account_router, AccountState};
use kr_aws::signing_key::SigningKeySource;
use kr_aws::sqs::SqsWebhookQueue;
use kr_core::domain::{
    DomainName, JobStatus, LanguageCode, LocationCode, UserId, WebhookEvent, WebhookId, WebhookUrl,
};
use kr_core::service::jobs::CreateJobRequest;
use kr_core::service::webhooks::RetrySchedule;
use kr_core::store::{
    CreateWebhookOutcome, DeliveryAttempt, StoreError, UserStore, Webhook, WebhookMessage,
    WebhookQueue, WebhookStore,
};
use kr_crawler::GuardedClient;
use kr_notifier::{ChangeDigests, Notifier, StoredChangeDigests, MAX_RECEIVES};
use kr_tests::harness::{self, Call, Reply};
use kr_tests::pipeline_rig::{rig, Rig};
use kr_tests::sites::{DEMO_COMPETITOR, DEMO_PRIMARY};
use serde_json::{json, Value};
use sha2::Sha256;

/// What the receiver answers, in turn (the last one from then on).
#[derive(Clone)]
pub(crate) enum Answer {
    Status(u16),
    Redirect(String),
    Hang,
}

/// One request as the receiver saw it: headers, body, path.
pub(crate) type Received = (HeaderMap, Vec<u8>, String);

#[derive(Clone, Default)]
pub(crate) struct Receiver {
    answers: Arc<Mutex<Vec<Answer>>>,
    pub(crate) received: Arc<Mutex<Vec<Received>>>,
}

async fn receive(
    State(receiver): State<Receiver>,
    uri: axum::http::Uri,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Response {
    receiver
        .received
        .lock()
        .unwrap()
        .push((headers, body.to_vec(), uri.path().to_string()));
    let answer = {
        let mut answers = receiver.answers.lock().unwrap();
        if answers.len() > 1 {
            answers.remove(0)
        } else {
            answers[0].clone()
        }
    };
    match answer {
        Answer::Status(code) => StatusCode::from_u16(code).unwrap().into_response(),
        Answer::Redirect(to) => (StatusCode::FOUND, [("location", to)]).into_response(),
        Answer::Hang => {
            tokio::time::sleep(Duration::from_secs(30)).await;
            StatusCode::OK.into_response()
        }
    }
}

/// A receiver on loopback, reached as `hooks.test` through the notifier's host override.
pub(crate) async fn receiver(answers: Vec<Answer>) -> (Receiver, std::net::SocketAddr) {
    let receiver = Receiver {
        answers: Arc::new(Mutex::new(answers)),
        ..Receiver::default()
    };
    let app = Router::new().fallback(receive).with_state(receiver.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (receiver, address)
}

fn signing(rig: &Rig) -> Arc<SigningKeySource> {
    Arc::new(SigningKeySource::new(
        rig.clients.secrets.clone(),
        harness::resources().webhook_signing_key_arn,
    ))
}

pub(crate) fn notifier(rig: &Rig, receiver: std::net::SocketAddr, timeout: Duration) -> Notifier {
    Notifier {
        changes: Arc::new(StoredChangeDigests::new(
            rig.store.clone(),
            rig.objects.clone(),
        )),
        jobs: rig.store.clone(),
        fan_outs: rig.store.clone(),
        webhooks: rig.store.clone(),
        queue: Arc::new(SqsWebhookQueue::new(
            rig.clients.sqs.clone(),
            rig.webhooks_queue_url.clone(),
        )),
        signing: signing(rig),
        client: GuardedClient::new(&[("hooks.test".into(), receiver)], timeout, "test").unwrap(),
        retries: RetrySchedule::from_vars(|_| Some("1,1".into())).unwrap(),
    }
}

/// A webhook of `user` on every event, straight through the service (no API call).
async fn webhook_on_every_event(rig: &Rig, user: UserId, url: &str) -> kr_core::store::Webhook {
    webhook_and_secret(rig, user, url).await.0
}

/// [`webhook_on_every_event`], with its signing secret.
pub(crate) async fn webhook_and_secret(
    rig: &Rig,
    user: UserId,
    url: &str,
) -> (kr_core::store::Webhook, String) {
    kr_core::service::webhooks::create_webhook(
        rig.store.as_ref(),
        signing(rig).key().await.unwrap(),
        user,
        kr_core::service::webhooks::NewWebhookRequest {
            url: WebhookUrl::parse(url).unwrap(),
            events: WebhookEvent::ALL.to_vec(),
        },
    )
    .await
    .unwrap()
}

/// What the test's stand-in for SQS does with a message whose handling failed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OnFailure {
    /// The test fails: no handling is expected to fail.
    Panic,
    /// It is delivered again, as SQS would, until its handling succeeds.
    DeliverAgain,
}

/// Delivers the rig's webhook messages until the queue stays empty (retries are delayed).
pub(crate) async fn drive(rig: &Rig, notifier: &Notifier) -> Vec<WebhookMessage> {
    deliver(rig, notifier, OnFailure::Panic).await
}

async fn deliver(rig: &Rig, notifier: &Notifier, on_failure: OnFailure) -> Vec<WebhookMessage> {
    let mut handled = Vec::new();
    let mut idle = 0;
    while idle < 3 {
        let output = rig
            .clients
            .sqs
            .receive_message()
            .queue_url(&rig.webhooks_queue_url)
            .max_number_of_messages(10)
            .wait_time_seconds(1)
            .send()
            .await
            .unwrap();
        let messages = output.messages.unwrap_or_default();
        if messages.is_empty() {
            idle += 1;
            continue;
        }
        idle = 0;
        for message in messages {
            let parsed: WebhookMessage = serde_json::from_str(message.body().unwrap()).unwrap();
            match on_failure {
                OnFailure::Panic => notifier.handle(&parsed).await.unwrap(),
                OnFailure::DeliverAgain => while notifier.handle(&parsed).await.is_err() {},
            }
            handled.push(parsed);
            rig.clients
                .sqs
                .delete_message()
                .queue_url(&rig.webhooks_queue_url)
                .receipt_handle(message.receipt_handle().unwrap())
                .send()
                .await
                .unwrap();
        }
    }
    handled
}

async fn add_webhook(app: &Router, key: &str, url: &str, events: Value) -> Reply {
    Call::post("/api/v1/webhooks")
        .api_key(key)
        .json(json!({"url": url, "events": events}))
        .send(app)
        .await
}

/// Verifies a delivery as a receiver would, with nothing but the secret.
pub(crate) fn verify(secret: &str, headers: &HeaderMap, body: &[u8]) {
    let id = headers["webhook-id"].to_str().unwrap();
    let timestamp = headers["webhook-timestamp"].to_str().unwrap();
    let key = STANDARD
        .decode(secret.strip_prefix("whsec_").unwrap())
        .unwrap();
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
    mac.update(format!("{id}.{timestamp}.").as_bytes());
    mac.update(body);
    let expected = format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()));
    assert_eq!(headers["webhook-signature"].to_str().unwrap(), expected);
    let sent: i64 = timestamp.parse().unwrap();
    assert!((chrono::Utc::now().timestamp() - sent).abs() < 120);
}

fn request(callback: Option<&str>) -> CreateJobRequest {
    CreateJobRequest {
        primary_domain: DomainName::parse(DEMO_PRIMARY).unwrap(),
        competitor_domains: vec![DomainName::parse(DEMO_COMPETITOR).unwrap()],
        language_code: LanguageCode::parse("en").unwrap(),
        location_code: LocationCode::parse(2840).unwrap(),
        keywords: None,
        discover_keywords: true,
        callback_url: callback.map(|url| WebhookUrl::parse(url).unwrap()),
        search_console_property: None,
    }
}

#[tokio::test]
async fn webhooks_are_per_account_validated_and_capped() {
    let store = harness::store().await;
    let app =
        account_router(AccountState::from_config(harness::config(), harness::resources()).await);
    let (_, key) = harness::new_user_with_key(&store).await;
    let key = key.expose().to_string();
    let (_, other) = harness::new_user_with_key(&store).await;
    let other = other.expose().to_string();

    let invalid = add_webhook(&app, &key, "ftp://hooks.example.com", json!(["job.done"]))
        .await
        .expect(400);
    assert_eq!(invalid.invalid_fields(), ["url", "events[0]"]);
    for url in [
        "http://127.0.0.1/hook",
        "http://[::1]/hook",
        "http://169.254.169.254/latest",
        "https://hooks.example.com:8443/",
        "https://user:pw@hooks.example.com/",
    ] {
        let refused = add_webhook(&app, &key, url, json!(["job.completed"])).await;
        assert_eq!(refused.status, 400, "{url}: {}", refused.text);
    }

    let created = add_webhook(&app, &key, "https://hooks.example.com/kr", Value::Null)
        .await
        .expect(201);
    let secret = created.json["secret"].as_str().unwrap();
    assert!(secret.starts_with("whsec_"), "{secret}");
    let webhook = &created.json["webhook"];
    assert_eq!(
        webhook["events"],
        json!([
            "job.completed",
            "job.failed",
            "job.changes",
            "schedule.run_skipped"
        ]),
        "every event when none is named"
    );
    let id = webhook["id"].as_str().unwrap();

    let listed = Call::get("/api/v1/webhooks")
        .api_key(&key)
        .send(&app)
        .await
        .expect(200);
    assert_eq!(listed.json["webhooks"].as_array().unwrap().len(), 1);
    assert!(!listed.text.contains("whsec_"), "the secret is shown once");

    // Another account sees none of it.
    for call in [
        Call::get(&format!("/api/v1/webhooks/{id}/deliveries")),
        Call::delete(&format!("/api/v1/webhooks/{id}")),
    ] {
        call.api_key(&other).send(&app).await.expect(404);
    }
    let empty = Call::get("/api/v1/webhooks")
        .api_key(&other)
        .send(&app)
        .await
        .expect(200);
    assert_eq!(empty.json["webhooks"], json!([]));
    Call::get(&format!("/api/v1/webhooks/{id}/deliveries"))
        .api_key(&key)
        .send(&app)
        .await
        .expect(200);

    // Ten at most, counted atomically: eleven at once make ten.
    let urls: Vec<String> = (0..10)
        .map(|i| format!("https://hooks.example.com/{i}"))
        .collect();
    let adds = urls
        .iter()
        .map(|url| add_webhook(&app, &key, url, Value::Null));
    let replies = futures_util::future::join_all(adds).await;
    assert_eq!(replies.iter().filter(|r| r.status == 201).count(), 9);
    assert_eq!(replies.iter().filter(|r| r.status == 403).count(), 1);
    Call::delete(&format!("/api/v1/webhooks/{id}"))
        .api_key(&key)
        .send(&app)
        .await
        .expect(204);
    Call::delete(&format!("/api/v1/webhooks/{id}"))
        .api_key(&key)
        .send(&app)
        .await
        .expect(404);
    Call::get("/api/v1/webhooks").send(&app).await.expect(401);
}

#[tokio::test]
async fn a_finished_job_is_delivered_signed_retried_and_logged() {
    let rig = rig(None, &[]).await;
    let (receiver_state, address) = receiver(vec![Answer::Status(500), Answer::Status(204)]).await;
    let (user, job) = rig.start_request(request(None)).await;
    let app =
        account_router(AccountState::from_config(harness::config(), harness::resources()).await);
    let (_, key) = kr_core::service::account::issue_api_key(
        rig.store.as_ref(),
        rig.store.as_ref(),
        user.id,
        Some("webhooks"),
    )
    .await
    .unwrap();
    let created = add_webhook(
        &app,
        key.expose(),
        "http://hooks.test/kr",
        json!(["job.completed"]),
    )
    .await
    .expect(201);
    let secret = created.json["secret"].as_str().unwrap().to_string();
    let webhook_id = created.json["webhook"]["id"].as_str().unwrap().to_string();

    let done = rig.complete(job.id).await;
    assert_eq!(done.status, JobStatus::Completed);
    let notifier = notifier(&rig, address, Duration::from_secs(5));
    drive(&rig, &notifier).await;

    let received = receiver_state.received.lock().unwrap().clone();
    assert_eq!(received.len(), 2, "a 500, then the retry");
    for (headers, body, path) in &received {
        assert_eq!(path, "/kr");
        verify(&secret, headers, body);
        let payload: Value = serde_json::from_slice(body).unwrap();
        assert_eq!(payload["type"], "job.completed");
        assert_eq!(payload["data"]["job"]["id"], job.id.to_string());
        assert_eq!(payload["data"]["job"]["status"], "completed");
    }
    assert_eq!(received[0].0["webhook-id"], received[1].0["webhook-id"]);

    let log = Call::get(&format!("/api/v1/webhooks/{webhook_id}/deliveries"))
        .api_key(key.expose())
        .send(&app)
        .await
        .expect(200);
    let attempts = log.json["deliveries"].as_array().unwrap();
    assert_eq!(attempts.len(), 2, "{}", log.text);
    // Newest first.
    assert_eq!(attempts[0]["attempt"], 2);
    assert_eq!(attempts[0]["statusCode"], 204);
    assert_eq!(attempts[0]["error"], Value::Null);
    assert_eq!(attempts[0]["nextAttemptAt"], Value::Null);
    assert_eq!(attempts[1]["attempt"], 1);
    assert_eq!(attempts[1]["statusCode"], 500);
    assert!(attempts[1]["nextAttemptAt"].is_string());
    assert_eq!(attempts[1]["messageId"], attempts[0]["messageId"]);
    assert_eq!(attempts[0]["event"], "job.completed");
}

#[tokio::test]
async fn duplicates_share_a_webhook_id_and_redirects_are_not_followed() {
    let rig = rig(None, &[]).await;
    let (receiver_state, address) =
        receiver(vec![Answer::Redirect("http://127.0.0.1:1/internal".into())]).await;
    let (user, job) = rig.start_request(request(None)).await;
    let webhook = webhook_on_every_event(&rig, user.id, "http://hooks.test/hook").await;
    rig.complete(job.id).await;
    let notifier = Notifier {
        // No retries: one attempt per message.
        retries: RetrySchedule::none(),
        ..notifier(&rig, address, Duration::from_secs(5))
    };
    let event = WebhookMessage {
        target: Some(kr_core::store::DeliveryTarget::Webhook(webhook.id)),
        ..WebhookMessage::for_job(job.id, WebhookEvent::JobCompleted)
    };
    // The same message twice, as SQS may deliver it.
    notifier.handle(&event).await.unwrap();
    notifier.handle(&event).await.unwrap();
    let received = receiver_state.received.lock().unwrap().clone();
    let paths: Vec<&str> = received.iter().map(|(_, _, path)| path.as_str()).collect();
    assert_eq!(
        paths,
        ["/hook", "/hook"],
        "the redirect's target is never asked"
    );
    assert_eq!(received[0].0["webhook-id"], received[1].0["webhook-id"]);
    let attempts = kr_core::store::WebhookStore::deliveries(rig.store.as_ref(), webhook.id, 10)
        .await
        .unwrap();
    assert!(attempts
        .iter()
        .all(|a| a.error.as_deref() == Some("answered 302 (redirects are not followed)")));
}

#[tokio::test]
async fn a_hanging_receiver_costs_one_timeout_and_a_callback_gets_its_own_secret() {
    let rig = rig(None, &[]).await;
    let (receiver_state, address) = receiver(vec![Answer::Hang]).await;
    let (_, job) = rig
        .start_request(request(Some("http://hooks.test/done")))
        .await;
    let done = rig.complete(job.id).await;
    assert!(done.completed_at.is_some(), "the job finished on its own");
    let notifier = Notifier {
        retries: RetrySchedule::none(),
        ..notifier(&rig, address, Duration::from_millis(500))
    };
    let started = std::time::Instant::now();
    let handled = drive(&rig, &notifier).await;
    assert!(started.elapsed() < Duration::from_secs(15));
    assert!(handled
        .iter()
        .any(|m| m.target == Some(kr_core::store::DeliveryTarget::Callback)));
    let received = receiver_state.received.lock().unwrap().clone();
    assert_eq!(received.len(), 1);
    let (headers, body, path) = &received[0];
    assert_eq!(path, "/done");
    let secret = signing(&rig)
        .key()
        .await
        .unwrap()
        .callback_secret(job.id)
        .reveal();
    verify(&secret, headers, body);
}

#[tokio::test]
async fn a_job_request_takes_a_callback_url_and_answers_its_secret_once() {
    let store = harness::store().await;
    let mut resources = harness::resources();
    let clients = harness::clients().await;
    resources.jobs_queue_url = harness::fresh_queue(&clients).await;
    let app = kr_jobs::router(kr_jobs::JobsState::from_config(harness::config(), resources).await);
    let (user, key) = harness::new_user_with_key(&store).await;
    store.set_balance(user.id, Some(5), Some(5)).await.unwrap();
    let key = key.expose().to_string();
    let body = |callback: &str| {
        json!({"primaryDomain": DEMO_PRIMARY, "languageCode": "en", "locationCode": 2840,
            "callbackUrl": callback})
    };
    for bad in [
        "http://10.0.0.1/hook",
        "https://hooks.example.com:8443/x",
        "hooks.example.com",
    ] {
        let refused = Call::post("/api/v1/jobs")
            .api_key(&key)
            .json(body(bad))
            .send(&app)
            .await
            .expect(400);
        assert_eq!(refused.invalid_fields(), ["callbackUrl"], "{bad}");
    }
    let created = Call::post("/api/v1/jobs")
        .api_key(&key)
        .header("idempotency-key", "callback-once")
        .json(body("https://hooks.example.com/done"))
        .send(&app)
        .await
        .expect(201);
    let secret = created.json["job"]["callbackSecret"].as_str().unwrap();
    assert!(secret.starts_with("whsec_"));
    let replay = Call::post("/api/v1/jobs")
        .api_key(&key)
        .header("idempotency-key", "callback-once")
        .json(body("https://hooks.example.com/done"))
        .send(&app)
        .await
        .expect(201);
    assert_eq!(replay.json["job"]["callbackSecret"], secret);
    let id = created.json["job"]["id"].as_str().unwrap();
    let job = Call::get(&format!("/api/v1/jobs/{id}"))
        .api_key(&key)
        .send(&app)
        .await
        .expect(200);
    assert!(!job.text.contains("whsec_"));
}

/// The account's webhook store, whose next `record_delivery` fails once armed: a throttled
/// table, say, after the receiver was already asked.
struct FlakyDeliveryLog {
    inner: Arc<kr_aws::dynamo::DynamoStore>,
    fail_next: std::sync::atomic::AtomicBool,
}

#[async_trait::async_trait]
impl WebhookStore for FlakyDeliveryLog {
    async fn create_webhook(
        &self,
        webhook: &Webhook,
        limit: usize,
    ) -> Result<CreateWebhookOutcome, StoreError> {
        self.inner.create_webhook(webhook, limit).await
    }

    async fn list_webhooks(&self, owner: UserId) -> Result<Vec<Webhook>, StoreError> {
        self.inner.list_webhooks(owner).await
    }

    async fn webhook(&self, owner: UserId, id: WebhookId) -> Result<Option<Webhook>, StoreError> {
        self.inner.webhook(owner, id).await
    }

    async fn delete_webhook(&self, owner: UserId, id: WebhookId) -> Result<bool, StoreError> {
        self.inner.delete_webhook(owner, id).await
    }

    async fn record_delivery(&self, attempt: &DeliveryAttempt) -> Result<(), StoreError> {
        if self
            .fail_next
            .swap(false, std::sync::atomic::Ordering::SeqCst)
        {
            return Err(StoreError::new("injected: the delivery log is unavailable"));
        }
        self.inner.record_delivery(attempt).await
    }

    async fn deliveries(
        &self,
        id: WebhookId,
        limit: u32,
    ) -> Result<Vec<DeliveryAttempt>, StoreError> {
        self.inner.deliveries(id, limit).await
    }
}

/// A delivery whose attempt could not be logged is handled again (SQS delivers it again);
/// the retries that follow are one chain, not two: every attempt is sent and logged once,
/// the failed one sent twice with one `webhook-id`.
#[tokio::test]
async fn a_delivery_handled_twice_after_a_failed_log_write_does_not_fork_its_retries() {
    let rig = rig(None, &[]).await;
    let (receiver_state, address) = receiver(vec![Answer::Status(500)]).await;
    let (user, job) = rig.start_request(request(None)).await;
    let webhook = webhook_on_every_event(&rig, user.id, "http://hooks.test/forks").await;
    rig.complete(job.id).await;
    let log = Arc::new(FlakyDeliveryLog {
        inner: rig.store.clone(),
        fail_next: std::sync::atomic::AtomicBool::new(true),
    });
    let notifier = Notifier {
        webhooks: log,
        // Three attempts, a second apart.
        ..notifier(&rig, address, Duration::from_secs(5))
    };
    let handled = deliver(&rig, &notifier, OnFailure::DeliverAgain).await;
    let attempts: Vec<u32> = handled
        .iter()
        .filter(|m| m.target.is_some())
        .map(|m| m.attempt)
        .collect();
    assert_eq!(attempts, [1, 2, 3], "one chain of retries");
    let received = receiver_state.received.lock().unwrap().clone();
    assert_eq!(received.len(), 4, "three attempts, the first sent twice");
    assert!(received
        .iter()
        .all(|(headers, _, _)| headers["webhook-id"] == received[0].0["webhook-id"]));
    let logged = WebhookStore::deliveries(rig.store.as_ref(), webhook.id, 10)
        .await
        .unwrap();
    let mut numbers: Vec<u32> = logged.iter().map(|a| a.attempt).collect();
    numbers.sort_unstable();
    assert_eq!(numbers, [1, 2, 3], "each attempt logged once");
}

/// The write that finishes a job records its event as owed (an outbox). When the send that
/// follows is lost (here it fails; a worker that dies in between is the same to the store),
/// the sweeper raises the event once its grace is over, and it is delivered once.
#[tokio::test]
async fn an_event_whose_send_was_lost_is_raised_by_the_sweeper_and_delivered_once() {
    use aws_sdk_dynamodb::types::AttributeValue;
    let rig = rig(None, &[]).await;
    let (receiver_state, address) = receiver(vec![Answer::Status(204)]).await;
    let (_, job) = rig
        .start_request(request(Some("http://hooks.test/owed")))
        .await;
    rig.webhook_queue.fail_next(1);
    let done = rig.complete(job.id).await;
    let notifier = Notifier {
        retries: RetrySchedule::none(),
        ..notifier(&rig, address, Duration::from_secs(5))
    };
    assert!(
        drive(&rig, &notifier).await.is_empty(),
        "the event was lost with its send"
    );

    // Past the sweeper's grace: the event has been owed for an hour.
    let an_hour_ago = (done.completed_at.unwrap() - chrono::Duration::hours(1))
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    rig.clients
        .dynamodb
        .update_item()
        .table_name(harness::resources().table_name)
        .key("PK", AttributeValue::S(format!("OUTBOX#{}", job.id)))
        .key("SK", AttributeValue::S("EVENT#job.completed".into()))
        .update_expression("SET GSI3SK = :then")
        .condition_expression("attribute_exists(PK)")
        .expression_attribute_values(
            ":then",
            AttributeValue::S(format!("{an_hour_ago}#{}", job.id)),
        )
        .send()
        .await
        .expect("the finishing write recorded the event as owed");
    let swept = rig.sweep().await;
    assert!(swept["eventsRaised"].as_u64().unwrap_or(0) >= 1, "{swept}");
    let handled = drive(&rig, &notifier).await;
    assert!(handled
        .iter()
        .any(|m| m.subject.job_id() == Some(job.id) && m.event == WebhookEvent::JobCompleted));
    let ours = |received: &[Received]| {
        received
            .iter()
            .filter(|(_, _, path)| path == "/owed")
            .count()
    };
    assert_eq!(ours(&receiver_state.received.lock().unwrap()), 1);

    // Settled once sent: the next sweep raises it no more.
    rig.sweep().await;
    let again = drive(&rig, &notifier).await;
    assert!(
        again.iter().all(|m| m.subject.job_id() != Some(job.id)),
        "{again:?}"
    );
    assert_eq!(ours(&receiver_state.received.lock().unwrap()), 1);
}

/// The webhooks queue whose `failing`th send fails: a fan-out's queue throttled part-way.
struct NthSendFails {
    inner: SqsWebhookQueue,
    sends: std::sync::atomic::AtomicU32,
    failing: u32,
}

#[async_trait::async_trait]
impl WebhookQueue for NthSendFails {
    async fn send(&self, message: &WebhookMessage, delay_seconds: u32) -> Result<(), StoreError> {
        let send = self.sends.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        if send == self.failing {
            return Err(StoreError::new(
                "injected: the webhooks queue is unreachable",
            ));
        }
        self.inner.send(message, delay_seconds).await
    }
}

/// An event fanned out to two endpoints whose second send fails is delivered again (as SQS
/// would): the endpoint whose first attempt went out before the failure gets it once, and
/// the other gets its own once.
#[tokio::test]
async fn a_fan_out_delivered_again_after_a_failed_send_repeats_no_first_attempt() {
    let rig = rig(None, &[]).await;
    let (receiver_state, address) = receiver(vec![Answer::Status(204)]).await;
    let (user, job) = rig.start_request(request(None)).await;
    let hooks = [
        webhook_on_every_event(&rig, user.id, "http://hooks.test/first").await,
        webhook_on_every_event(&rig, user.id, "http://hooks.test/second").await,
    ];
    let notifier = Notifier {
        queue: Arc::new(NthSendFails {
            inner: SqsWebhookQueue::new(rig.clients.sqs.clone(), rig.webhooks_queue_url.clone()),
            sends: std::sync::atomic::AtomicU32::new(0),
            failing: 2,
        }),
        ..notifier(&rig, address, Duration::from_secs(5))
    };
    let event = WebhookMessage::for_job(job.id, WebhookEvent::JobFailed);
    assert!(
        notifier.handle(&event).await.is_err(),
        "the second send failed"
    );
    notifier.handle(&event).await.unwrap();
    drive(&rig, &notifier).await;

    let received = receiver_state.received.lock().unwrap().clone();
    let mut paths: Vec<&str> = received.iter().map(|(_, _, path)| path.as_str()).collect();
    paths.sort_unstable();
    assert_eq!(paths, ["/first", "/second"], "each endpoint once");
    for hook in &hooks {
        let logged = WebhookStore::deliveries(rig.store.as_ref(), hook.id, 10)
            .await
            .unwrap();
        assert_eq!(logged.len(), 1, "{logged:?}");
    }
}

/// A `job.changes` digest that cannot be made.
struct NoDigests;

#[async_trait::async_trait]
impl ChangeDigests for NoDigests {
    async fn digest(&self, job: &kr_core::domain::Job) -> Result<Value, StoreError> {
        Err(StoreError::new(format!(
            "injected: the results of job {} cannot be read",
            job.id
        )))
    }
}

/// What the notifier logs, while the guard lives (this test's thread only).
fn capture_logs() -> (
    Arc<Mutex<Vec<u8>>>,
    lambda_http::tracing::dispatcher::DefaultGuard,
) {
    use lambda_http::tracing::subscriber::util::SubscriberInitExt;
    struct Sink(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Sink {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let logs = Arc::new(Mutex::new(Vec::new()));
    let sink = logs.clone();
    let guard = lambda_http::tracing::subscriber::fmt()
        .with_ansi(false)
        .with_writer(move || Sink(sink.clone()))
        .finish()
        .set_default();
    (logs, guard)
}

/// A delivery whose handling fails on every receive (its `job.changes` digest cannot be
/// made) is reported failed each time, so SQS delivers it again and, after its last
/// receive, moves it to the dead-letter queue (whose alarm fires); that last receive logs an
/// error naming the job and the event. Nothing reaches the receiver.
#[tokio::test]
async fn a_delivery_failing_on_every_receive_is_given_up_naming_its_job_and_event() {
    let rig = rig(None, &[]).await;
    let (receiver_state, address) = receiver(vec![Answer::Status(204)]).await;
    let (user, job) = rig.start_request(request(None)).await;
    let webhook = webhook_on_every_event(&rig, user.id, "http://hooks.test/changes").await;
    let notifier = Notifier {
        changes: Arc::new(NoDigests),
        ..notifier(&rig, address, Duration::from_secs(5))
    };
    let message = WebhookMessage {
        target: Some(kr_core::store::DeliveryTarget::Webhook(webhook.id)),
        ..WebhookMessage::for_job(job.id, WebhookEvent::JobChanges)
    };
    let (logs, _guard) = capture_logs();
    for receives in 1..=MAX_RECEIVES {
        let batch = serde_json::from_value(json!({"Records": [{
            "messageId": "m-1",
            "body": serde_json::to_string(&message).unwrap(),
            "attributes": {"ApproximateReceiveCount": receives.to_string()},
            "messageAttributes": {},
        }]}))
        .unwrap();
        let response = notifier.handle_batch(batch).await;
        assert_eq!(
            response.batch_item_failures.len(),
            1,
            "receive {receives} is failed back to SQS"
        );
        let text = String::from_utf8(logs.lock().unwrap().clone()).unwrap();
        let given_up: Vec<&str> = text
            .lines()
            .filter(|line| line.contains("given up"))
            .collect();
        if receives < MAX_RECEIVES {
            assert!(given_up.is_empty(), "receive {receives}: {text}");
            continue;
        }
        assert_eq!(given_up.len(), 1, "{text}");
        let line = given_up[0];
        assert!(line.contains("ERROR"), "{line}");
        assert!(line.contains(&job.id.to_string()), "{line}");
        assert!(line.contains("job.changes"), "{line}");
        assert!(line.contains("dead-letter"), "{line}");
    }
    assert!(receiver_state.received.lock().unwrap().is_empty());
}
