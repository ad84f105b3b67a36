//! The jobs function against the emulator: validation, runs and domain allowance under
//! concurrency, idempotency, listing, access and deletion.

use std::sync::Arc;

use axum::Router;
use futures_util::future::join_all;
use kr_aws::dynamo::DynamoStore;
use kr_aws::sqs::SqsJobQueue;
use kr_core::domain::{JobId, Plan};
use kr_core::service::jobs::requeue_stale_jobs;
use kr_core::store::{JobStore, UserStore};
use kr_jobs::{router, JobsState};
use kr_tests::harness::{self, Call, Reply};
use serde_json::{json, Value};

struct Fixture {
    app: Router,
    store: Arc<DynamoStore>,
    queue_url: String,
    clients: kr_aws::AwsClients,
}

async fn fixture_with(demo: Option<kr_core::domain::UserId>) -> Fixture {
    let clients = harness::clients().await;
    let queue_url = harness::fresh_queue(&clients).await;
    let mut config = harness::config();
    let mut resources = harness::resources();
    resources.jobs_queue_url = queue_url.clone();
    config.demo_user_id = demo.map(|id| id.as_uuid());
    Fixture {
        app: router(JobsState::from_config(config, resources).await),
        store: harness::store().await,
        queue_url,
        clients,
    }
}

async fn fixture() -> Fixture {
    fixture_with(None).await
}

fn job_body(primary: &str) -> Value {
    json!({"primaryDomain": primary, "competitorDomains": ["competitor.com"], "languageCode": "en", "locationCode": 2840})
}

async fn create(app: &Router, key: &str, body: Value) -> Reply {
    Call::post("/api/v1/jobs")
        .api_key(key)
        .json(body)
        .send(app)
        .await
}

#[tokio::test]
async fn create_answers_201_with_location_and_enqueues_the_first_stage() {
    let f = fixture().await;
    let (user, key) = harness::user_with_key(&f.store, 3, 3).await;
    let reply = create(&f.app, &key, job_body("https://www.Example.com/about"))
        .await
        .expect(201);
    let job = &reply.json["job"];
    let id = job["id"].as_str().unwrap();
    assert_eq!(job["status"], "queued");
    assert_eq!(
        job.as_object().unwrap().len(),
        3,
        "only id, status, createdAt: {job}"
    );
    assert!(job["createdAt"].as_str().unwrap().ends_with('Z'));
    assert_eq!(
        reply.header("location"),
        Some(format!("/api/v1/jobs/{id}").as_str())
    );

    let messages = harness::drain_queue(&f.clients, &f.queue_url).await;
    assert_eq!(messages, vec![json!({"jobId": id, "stage": "references"})]);

    let fetched = Call::get(&format!("/api/v1/jobs/{id}"))
        .api_key(&key)
        .send(&f.app)
        .await
        .expect(200);
    let job = &fetched.json["job"];
    assert_eq!(job["primaryDomain"], "example.com");
    assert_eq!(job["competitorDomains"], json!(["competitor.com"]));
    assert_eq!(job["languageCode"], "en");
    assert_eq!(job["locationCode"], 2840);
    for absent in [
        "startedAt",
        "completedAt",
        "errorMessage",
        "keywordCount",
        "usage",
    ] {
        assert!(
            job.get(absent).is_some_and(Value::is_null),
            "{absent} must be present and null: {job}"
        );
    }
    assert_eq!(job["progress"]["completedStages"], 0);
    assert_eq!(
        job["progress"]["totalStages"],
        kr_core::domain::Stage::ALL.len()
    );
    assert_eq!(job["progress"]["percent"], 0);
    assert!(job["progress"]["stage"].is_null());

    let user = f.store.user(user.id).await.unwrap().unwrap();
    assert_eq!((user.credits_balance, user.domains_balance), (2, 2));
}

#[tokio::test]
async fn every_validation_rule_names_its_field() {
    let f = fixture().await;
    let (user, key) = harness::user_with_key(&f.store, 5, 5).await;
    let base = job_body("example.com");
    let with = |field: &str, value: Value| {
        let mut body = base.clone();
        body[field] = value;
        body
    };
    let without = |field: &str| {
        let mut body = base.clone();
        body.as_object_mut().unwrap().remove(field);
        body
    };
    let cases: Vec<(Value, &str)> = vec![
        (without("primaryDomain"), "primaryDomain"),
        (with("primaryDomain", json!(42)), "primaryDomain"),
        (with("primaryDomain", json!("")), "primaryDomain"),
        (with("primaryDomain", json!("192.168.0.1")), "primaryDomain"),
        (with("primaryDomain", json!("localhost")), "primaryDomain"),
        (with("primaryDomain", json!("intranet")), "primaryDomain"),
        (
            with("primaryDomain", json!("example.com:8080")),
            "primaryDomain",
        ),
        (with("primaryDomain", json!("co.uk")), "primaryDomain"),
        (
            with("competitorDomains", json!("competitor.com")),
            "competitorDomains",
        ),
        (
            with("competitorDomains", json!([7])),
            "competitorDomains[0]",
        ),
        (
            with("competitorDomains", json!(["ok.com", "not a domain"])),
            "competitorDomains[1]",
        ),
        (
            with("competitorDomains", json!(["https://www.example.com/"])),
            "competitorDomains[0]",
        ),
        (
            with(
                "competitorDomains",
                json!((0..11).map(|i| format!("c{i}.com")).collect::<Vec<_>>()),
            ),
            "competitorDomains",
        ),
        (without("languageCode"), "languageCode"),
        (with("languageCode", json!("xx")), "languageCode"),
        (with("languageCode", json!(1)), "languageCode"),
        (without("locationCode"), "locationCode"),
        (with("locationCode", json!("2840")), "locationCode"),
        (with("locationCode", json!(2840.5)), "locationCode"),
        (with("locationCode", json!(9999)), "locationCode"),
    ];
    for (body, field) in cases {
        let reply = create(&f.app, &key, body.clone()).await;
        assert_eq!(reply.status, 400, "{body}: {}", reply.text);
        assert_eq!(reply.code(), "validation_failed");
        assert_eq!(reply.invalid_fields(), [field], "{body}");
    }
    let all_wrong = json!({"primaryDomain": "", "languageCode": "xx", "locationCode": "us"});
    let reply = create(&f.app, &key, all_wrong).await.expect(400);
    assert_eq!(
        reply.invalid_fields(),
        ["primaryDomain", "languageCode", "locationCode"]
    );
    create(&f.app, &key, json!([1, 2])).await.expect(400);
    Call::post("/api/v1/jobs")
        .api_key(&key)
        .raw_body("{oops")
        .send(&f.app)
        .await
        .expect(400);
    let huge = with("competitorDomains", json!(["x".repeat(70 * 1024)]));
    assert_eq!(
        create(&f.app, &key, huge).await.expect(413).code(),
        "payload_too_large"
    );
    let reply = Call::post("/api/v1/jobs")
        .api_key(&key)
        .header("idempotency-key", &"k".repeat(256))
        .json(base.clone())
        .send(&f.app)
        .await
        .expect(400);
    assert_eq!(reply.invalid_fields(), ["Idempotency-Key"]);

    // Nothing was charged by any of it.
    let user = f.store.user(user.id).await.unwrap().unwrap();
    assert_eq!((user.credits_balance, user.domains_balance), (5, 5));

    // Duplicates after normalisation collapse; unknown fields are ignored.
    let body = json!({"primaryDomain": "example.com", "competitorDomains": ["a.com", "WWW.A.com", "http://a.com/x"], "languageCode": "EN", "locationCode": 2840, "extra": true});
    let reply = create(&f.app, &key, body).await.expect(201);
    let id = reply.json["job"]["id"].as_str().unwrap();
    let job = Call::get(&format!("/api/v1/jobs/{id}"))
        .api_key(&key)
        .send(&f.app)
        .await
        .expect(200);
    assert_eq!(job.json["job"]["competitorDomains"], json!(["a.com"]));
    assert_eq!(job.json["job"]["languageCode"], "en");
}

#[tokio::test]
async fn checks_run_in_the_contract_order() {
    let f = fixture().await;
    let bad_body = json!({"primaryDomain": ""});
    let reply = Call::post("/api/v1/jobs")
        .json(bad_body.clone())
        .send(&f.app)
        .await
        .expect(401);
    assert_eq!(reply.code(), "unauthorized");
    let (_, broke) = harness::user_with_key(&f.store, 0, 0).await;
    create(&f.app, &broke, bad_body).await.expect(400);
    assert_eq!(
        create(&f.app, &broke, job_body("example.com"))
            .await
            .expect(402)
            .code(),
        "insufficient_credits"
    );
    let (_, no_domains) = harness::user_with_key(&f.store, 1, 0).await;
    assert_eq!(
        create(&f.app, &no_domains, job_body("example.com"))
            .await
            .expect(403)
            .code(),
        "domain_limit_reached"
    );
}

#[tokio::test]
async fn twenty_parallel_creates_never_overdraw_five_runs() {
    let f = fixture().await;
    let (user, key) = harness::user_with_key(&f.store, 5, 5).await;
    let replies = join_all((0..20).map(|_| create(&f.app, &key, job_body("example.com")))).await;
    let created = replies.iter().filter(|r| r.status == 201).count();
    let refused = replies.iter().filter(|r| r.status == 402).count();
    assert_eq!(
        (created, refused),
        (5, 15),
        "{:?}",
        replies.iter().map(|r| r.status).collect::<Vec<_>>()
    );
    let user = f.store.user(user.id).await.unwrap().unwrap();
    assert_eq!(user.credits_balance, 0);
    assert_eq!(user.domains_balance, 4, "one new domain, charged once");
    let list = Call::get("/api/v1/jobs")
        .api_key(&key)
        .send(&f.app)
        .await
        .expect(200);
    assert_eq!(list.json["total"], 5);
    assert_eq!(list.json["jobs"].as_array().unwrap().len(), 5);
}

#[tokio::test]
async fn parallel_creates_on_new_domains_never_overdraw_the_allowance() {
    let f = fixture().await;
    let (user, key) = harness::user_with_key(&f.store, 10, 2).await;
    let replies =
        join_all((0..10).map(|i| create(&f.app, &key, job_body(&format!("site{i}.com"))))).await;
    let created = replies.iter().filter(|r| r.status == 201).count();
    let refused = replies
        .iter()
        .filter(|r| r.status == 403 && r.code() == "domain_limit_reached")
        .count();
    assert_eq!(
        (created, refused),
        (2, 8),
        "{:?}",
        replies.iter().map(|r| r.status).collect::<Vec<_>>()
    );
    let user = f.store.user(user.id).await.unwrap().unwrap();
    assert_eq!(
        (user.credits_balance, user.domains_balance),
        (8, 0),
        "refused creates consume no run"
    );
}

#[tokio::test]
async fn reusing_a_primary_domain_does_not_touch_the_allowance() {
    let f = fixture().await;
    let (user, key) = harness::user_with_key(&f.store, 5, 1).await;
    for variant in [
        "example.com",
        "www.example.com",
        "https://EXAMPLE.com/pricing",
        "http://www.example.com.",
    ] {
        create(&f.app, &key, job_body(variant)).await.expect(201);
    }
    let user = f.store.user(user.id).await.unwrap().unwrap();
    assert_eq!((user.credits_balance, user.domains_balance), (1, 0));
    // Competitors never count against the allowance.
    let body = json!({"primaryDomain": "example.com", "competitorDomains": ["new1.com", "new2.com"], "languageCode": "en", "locationCode": 2840});
    create(&f.app, &key, body).await.expect(201);
    assert_eq!(
        create(&f.app, &key, job_body("other.com")).await.status,
        402
    );
}

#[tokio::test]
async fn an_idempotent_retry_returns_the_first_response_and_charges_once() {
    let f = fixture().await;
    let (user, key) = harness::user_with_key(&f.store, 5, 5).await;
    let send = |body: Value| {
        Call::post("/api/v1/jobs")
            .api_key(&key)
            .header("idempotency-key", "retry-42")
            .json(body)
            .send(&f.app)
    };
    let first = send(job_body("example.com")).await.expect(201);
    let replays = join_all((0..3).map(|_| send(job_body("www.example.com")))).await;
    for replay in replays {
        assert_eq!(replay.status, 201, "{}", replay.text);
        assert_eq!(replay.json, first.json);
        assert_eq!(replay.header("location"), first.header("location"));
    }
    let user = f.store.user(user.id).await.unwrap().unwrap();
    assert_eq!(user.credits_balance, 4);
    let reply = send(job_body("different.com")).await.expect(400);
    assert_eq!(reply.invalid_fields(), ["Idempotency-Key"]);
    assert_eq!(
        harness::drain_queue(&f.clients, &f.queue_url).await.len(),
        1,
        "one job, one message"
    );
}

/// Ages every idempotency record of `user` past its window, as time would; DynamoDB keeps
/// such items for a while before its TTL deletes them.
async fn expire_idempotency_records(f: &Fixture, user: kr_core::domain::UserId) {
    use aws_sdk_dynamodb::types::AttributeValue;
    let table = harness::resources().table_name;
    let records = f
        .clients
        .dynamodb
        .scan()
        .table_name(&table)
        .filter_expression("begins_with(PK, :prefix)")
        .expression_attribute_values(":prefix", AttributeValue::S(format!("IDEMP#{user}#")))
        .send()
        .await
        .unwrap();
    let records = records.items.unwrap_or_default();
    assert!(!records.is_empty());
    for record in records {
        f.clients
            .dynamodb
            .update_item()
            .table_name(&table)
            .key("PK", record["PK"].clone())
            .key("SK", record["SK"].clone())
            .update_expression("SET #ttl = :past")
            .expression_attribute_names("#ttl", "ttl")
            .expression_attribute_values(
                ":past",
                AttributeValue::N((chrono::Utc::now().timestamp() - 60).to_string()),
            )
            .send()
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn an_expired_idempotency_key_starts_a_new_job() {
    let f = fixture().await;
    let (user, key) = harness::user_with_key(&f.store, 5, 5).await;
    let send = |body: Value| {
        Call::post("/api/v1/jobs")
            .api_key(&key)
            .header("idempotency-key", "monthly-report")
            .json(body)
            .send(&f.app)
    };
    let first = send(job_body("example.com")).await.expect(201);
    expire_idempotency_records(&f, user.id).await;
    let second = send(job_body("different.com")).await.expect(201);
    assert_ne!(second.json["job"]["id"], first.json["job"]["id"]);
    let replay = send(job_body("different.com")).await.expect(201);
    assert_eq!(replay.json, second.json, "the new record replays");
    let user = f.store.user(user.id).await.unwrap().unwrap();
    assert_eq!(user.credits_balance, 3);
}

#[tokio::test]
async fn lists_are_newest_first_paged_and_filtered() {
    let f = fixture().await;
    let (_, key) = harness::user_with_key(&f.store, 10, 10).await;
    let mut ids = Vec::new();
    for i in 0..5 {
        let reply = create(&f.app, &key, job_body(&format!("site{i}.com")))
            .await
            .expect(201);
        ids.push(reply.json["job"]["id"].as_str().unwrap().to_string());
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    ids.reverse();
    let page = |query: &str| {
        Call::get(&format!("/api/v1/jobs{query}"))
            .api_key(&key)
            .send(&f.app)
    };
    let all = page("").await.expect(200);
    assert_eq!(
        (
            all.json["total"].as_u64(),
            all.json["limit"].as_u64(),
            all.json["offset"].as_u64()
        ),
        (Some(5), Some(20), Some(0))
    );
    let listed: Vec<&str> = all.json["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, ids);
    let second = page("?limit=2&offset=2").await.expect(200);
    let listed: Vec<&str> = second.json["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, ids[2..4]);
    assert_eq!(page("?offset=5").await.expect(200).json["jobs"], json!([]));
    let queued = page("?status=queued&limit=1").await.expect(200);
    assert_eq!(queued.json["total"], 5);
    assert_eq!(queued.json["jobs"][0]["id"], ids[0].as_str());
    assert_eq!(page("?status=completed").await.expect(200).json["total"], 0);
    assert!(
        all.json["jobs"][0].get("progress").is_some(),
        "list items are full Job resources"
    );
    assert!(
        all.json["jobs"][0].get("usage").is_some_and(Value::is_null),
        "a job that made no provider call has usage null"
    );
    for bad in [
        "?limit=0",
        "?limit=101",
        "?limit=ten",
        "?offset=-1",
        "?status=done",
        "?limit=1&limit=2",
    ] {
        let reply = page(bad).await;
        assert_eq!(reply.status, 400, "{bad}: {}", reply.text);
    }
    assert_eq!(page("?limit=0").await.invalid_fields(), ["limit"]);
    assert_eq!(page("?unknown=1").await.status, 200);
}

#[tokio::test]
async fn other_users_see_404_and_demo_jobs_are_readable_by_anyone() {
    let store = harness::store().await;
    let demo = harness::new_user(&store, Plan::Agency, 5, 5).await;
    let f = fixture_with(Some(demo.id)).await;
    let (_, owner_key) = harness::user_with_key(&f.store, 5, 5).await;
    let (_, other_key) = harness::user_with_key(&f.store, 5, 5).await;
    let demo_key =
        kr_core::service::account::issue_api_key(f.store.as_ref(), f.store.as_ref(), demo.id, None)
            .await
            .unwrap()
            .1;

    let private = create(&f.app, &owner_key, job_body("private.com"))
        .await
        .expect(201);
    let private_id = private.json["job"]["id"].as_str().unwrap();
    let path = format!("/api/v1/jobs/{private_id}");
    for call in [
        Call::get(&path).api_key(&other_key),
        Call::get(&path),
        Call::get(&path).api_key("kr_invalidinvalidinvalidinvalidinvalidinvalid"),
        Call::delete(&path).api_key(&other_key),
    ] {
        assert_eq!(call.send(&f.app).await.expect(404).code(), "not_found");
    }
    let theirs = Call::get("/api/v1/jobs")
        .api_key(&other_key)
        .send(&f.app)
        .await
        .expect(200);
    assert_eq!(theirs.json["total"], 0);
    Call::get("/api/v1/jobs/not-a-uuid")
        .api_key(&owner_key)
        .send(&f.app)
        .await
        .expect(404);

    let demo_job = create(&f.app, demo_key.expose(), job_body("demo-site.com"))
        .await
        .expect(201);
    let demo_path = format!(
        "/api/v1/jobs/{}",
        demo_job.json["job"]["id"].as_str().unwrap()
    );
    for call in [
        Call::get(&demo_path),
        Call::get(&demo_path).api_key(&other_key),
        Call::get(&demo_path).bearer("kr_invalidinvalidinvalidinvalidinvalidinvalid"),
    ] {
        call.send(&f.app).await.expect(200);
    }
    Call::delete(&demo_path)
        .api_key(&other_key)
        .send(&f.app)
        .await
        .expect(404);
    Call::delete(&demo_path).send(&f.app).await.expect(401);
    Call::get(&demo_path).send(&f.app).await.expect(200);
}

#[tokio::test]
async fn delete_removes_the_job_its_results_and_its_count() {
    let f = fixture().await;
    let (_, key) = harness::user_with_key(&f.store, 5, 5).await;
    let created = create(&f.app, &key, job_body("example.com"))
        .await
        .expect(201);
    let id: JobId = created.json["job"]["id"].as_str().unwrap().parse().unwrap();
    let bucket = harness::resources().results_bucket;
    let object_key = format!("jobs/{id}/keywords.bin");
    f.clients
        .s3
        .put_object()
        .bucket(&bucket)
        .key(&object_key)
        .body(b"data".to_vec().into())
        .send()
        .await
        .unwrap();

    Call::delete(&format!("/api/v1/jobs/{id}"))
        .api_key(&key)
        .send(&f.app)
        .await
        .expect(204);
    Call::get(&format!("/api/v1/jobs/{id}"))
        .api_key(&key)
        .send(&f.app)
        .await
        .expect(404);
    Call::delete(&format!("/api/v1/jobs/{id}"))
        .api_key(&key)
        .send(&f.app)
        .await
        .expect(404);
    let listed = Call::get("/api/v1/jobs")
        .api_key(&key)
        .send(&f.app)
        .await
        .expect(200);
    assert_eq!(listed.json["total"], 0);
    let versions = f
        .clients
        .s3
        .list_object_versions()
        .bucket(&bucket)
        .prefix(format!("jobs/{id}/"))
        .send()
        .await
        .unwrap();
    assert!(
        versions.versions().is_empty() && versions.delete_markers().is_empty(),
        "no version of any result survives"
    );
}

/// Removes nothing the first time, as when S3 refuses some keys; then does its job.
struct FailsFirstDelete {
    inner: Arc<dyn kr_core::store::ResultStore>,
    calls: std::sync::atomic::AtomicUsize,
}

#[async_trait::async_trait]
impl kr_core::store::ResultStore for FailsFirstDelete {
    async fn delete_results(&self, job: JobId) -> Result<(), kr_core::store::StoreError> {
        if self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 {
            return Err(kr_core::store::StoreError::new("1 object was not deleted"));
        }
        self.inner.delete_results(job).await
    }
}

#[tokio::test]
async fn a_delete_that_fails_part_way_keeps_the_job_and_a_retry_finishes_it() {
    let f = fixture().await;
    let mut state = JobsState::from_config(harness::config(), harness::resources()).await;
    state.objects = Arc::new(FailsFirstDelete {
        inner: state.objects.clone(),
        calls: Default::default(),
    });
    let app = router(state);
    let (_, key) = harness::user_with_key(&f.store, 5, 5).await;
    let created = create(&app, &key, job_body("example.com"))
        .await
        .expect(201);
    let id: JobId = created.json["job"]["id"].as_str().unwrap().parse().unwrap();
    let bucket = harness::resources().results_bucket;
    f.clients
        .s3
        .put_object()
        .bucket(&bucket)
        .key(format!("jobs/{id}/keywords.bin"))
        .body(b"data".to_vec().into())
        .send()
        .await
        .unwrap();
    let path = format!("/api/v1/jobs/{id}");

    let failed = Call::delete(&path)
        .api_key(&key)
        .send(&app)
        .await
        .expect(500);
    assert_eq!(failed.code(), "internal");
    Call::get(&path).api_key(&key).send(&app).await.expect(200);
    Call::delete(&path)
        .api_key(&key)
        .send(&app)
        .await
        .expect(204);
    Call::get(&path).api_key(&key).send(&app).await.expect(404);
    let left = f
        .clients
        .s3
        .list_objects_v2()
        .bucket(&bucket)
        .prefix(format!("jobs/{id}/"))
        .send()
        .await
        .unwrap();
    assert_eq!(left.key_count(), Some(0), "the retry removed the objects");
}

#[tokio::test]
async fn a_lost_send_is_healed_by_the_sweeper() {
    let clients = harness::clients().await;
    let mut resources = harness::resources();
    resources.jobs_queue_url = format!(
        "{}/123456789012/no-such-queue",
        resources.aws_endpoint.clone().unwrap()
    );
    let app = router(JobsState::from_config(harness::config(), resources).await);
    let store = harness::store().await;
    let (_, key) = harness::user_with_key(&store, 1, 1).await;

    let created = create(&app, &key, job_body("example.com"))
        .await
        .expect(201);
    let id = created.json["job"]["id"].as_str().unwrap().to_string();
    let job = store.job(id.parse().unwrap()).await.unwrap().unwrap();
    assert_eq!(
        job.status,
        kr_core::domain::JobStatus::Queued,
        "paid for and waiting, not lost"
    );

    let queue_url = harness::fresh_queue(&clients).await;
    let queue = SqsJobQueue::new(clients.sqs.clone(), queue_url.clone());
    let later = chrono::Utc::now() + chrono::Duration::seconds(1);
    let give_up_before = chrono::Utc::now() - chrono::Duration::hours(24);
    let resent = requeue_stale_jobs(
        store.as_ref(),
        store.as_ref(),
        &queue,
        later,
        give_up_before,
    )
    .await
    .unwrap();
    assert!(resent >= 1);
    let messages = harness::drain_queue(&clients, &queue_url).await;
    assert!(
        messages.contains(&json!({"jobId": id, "stage": "references"})),
        "{messages:?}"
    );
    // Re-enqueued jobs are not re-sent again until they are stale once more.
    let again = store
        .stale_queued_jobs(chrono::Utc::now() - chrono::Duration::seconds(30), 100)
        .await
        .unwrap();
    assert!(!again.iter().any(|j| j.to_string() == id));
}

/// API Gateway hands the function header values as JSON text; one that is not ASCII (as a
/// client's raw bytes arrive) must reach the handler and get the service's own 400, both in
/// the REST payload AWS sends and the HTTP payload of the local runtime.
#[tokio::test]
async fn a_header_value_that_is_not_ascii_in_a_gateway_event_gets_the_services_400() {
    use tower::ServiceExt;
    let f = fixture().await;
    let (_, key) = harness::new_user_with_key(&f.store).await;
    let headers = json!({
        "x-api-key": key.expose(),
        "content-type": "application/json",
        "idempotency-key": "\u{d7}\u{f8}\u{9b}",
    });
    let body = r#"{"primaryDomain":"example.com","languageCode":"en","locationCode":2840}"#;
    let rest = json!({
        "resource": "/api/v1/jobs", "path": "/api/v1/jobs", "httpMethod": "POST",
        "headers": headers, "multiValueHeaders": {}, "queryStringParameters": null,
        "multiValueQueryStringParameters": null, "pathParameters": null,
        "stageVariables": null, "body": body, "isBase64Encoded": false,
        "requestContext": {"resourcePath": "/api/v1/jobs", "httpMethod": "POST", "path": "/api/v1/jobs",
            "stage": "v1", "requestId": "r", "accountId": "1", "apiId": "a",
            "identity": {"sourceIp": "203.0.113.5"}},
    });
    let http = json!({
        "version": "2.0", "routeKey": "$default", "rawPath": "/api/v1/jobs", "rawQueryString": "",
        "headers": headers, "body": body, "isBase64Encoded": false,
        "requestContext": {"routeKey": "$default", "accountId": "1", "apiId": "a",
            "domainName": "localhost", "domainPrefix": "localhost", "stage": "$default",
            "requestId": "r", "time": "29/Nov/2026:00:00:00 +0000", "timeEpoch": 0,
            "http": {"method": "POST", "path": "/api/v1/jobs", "protocol": "HTTP/1.1",
                "sourceIp": "203.0.113.5", "userAgent": "curl"}},
    });
    for event in [rest, http] {
        let request = lambda_http::request::from_str(&event.to_string())
            .expect("lambda_http takes the event, header and all");
        let request = request.map(|body| axum::body::Body::from(body.to_vec()));
        let response = f.app.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), 400);
        let bytes = http_body_util::BodyExt::collect(response.into_body())
            .await
            .unwrap()
            .to_bytes();
        let reply: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(reply["code"], "validation_failed", "{reply}");
        assert_eq!(
            reply["details"]["fields"][0]["field"], "Idempotency-Key",
            "{reply}"
        );
    }
}
