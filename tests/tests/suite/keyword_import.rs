//! Jobs on the user's own keywords, against the emulator: the `keywords` array of `POST /jobs`,
//! the file upload `POST /jobs/import`, the cost preview `POST /jobs/estimate`, per-entry
//! errors that lose nothing, and the stored list the pipeline reads.

use std::sync::Arc;

use axum::Router;
use kr_aws::dynamo::DynamoStore;
use kr_aws::s3::S3ObjectStore;
use kr_core::dataset::objects;
use kr_core::domain::JobId;
use kr_core::store::{get_json, JobStore, User, UserStore};
use kr_jobs::{router, EstimateSettings, JobsState};
use kr_tests::harness::{self, Call, Reply};
use serde_json::{json, Value};

struct Fixture {
    app: Router,
    store: Arc<DynamoStore>,
    objects: S3ObjectStore,
}

async fn fixture_with(estimates: EstimateSettings) -> Fixture {
    let clients = harness::clients().await;
    let mut resources = harness::resources();
    resources.jobs_queue_url = harness::fresh_queue(&clients).await;
    let objects = S3ObjectStore::new(clients.s3.clone(), resources.results_bucket.clone());
    let mut state = JobsState::from_config(harness::config(), resources).await;
    state.estimates = estimates;
    Fixture {
        app: router(state),
        store: harness::store().await,
        objects,
    }
}

async fn fixture() -> Fixture {
    fixture_with(EstimateSettings {
        max_keywords: 500,
        provider: None,
        answers: Default::default(),
    })
    .await
}

fn body_with(keywords: Value) -> Value {
    json!({"primaryDomain": "brightbrew-coffee.com", "languageCode": "en", "locationCode": 2840,
        "keywords": keywords})
}

async fn post_json(app: &Router, path: &str, key: &str, body: Value) -> Reply {
    Call::post(path).api_key(key).json(body).send(app).await
}

async fn upload(app: &Router, query: &str, key: &str, content_type: &str, file: &str) -> Reply {
    Call::post(&format!("/api/v1/jobs/import?{query}"))
        .api_key(key)
        .header("content-type", content_type)
        .raw_body(file.as_bytes().to_vec())
        .send(app)
        .await
}

async fn stored_list(f: &Fixture, id: &str) -> Vec<String> {
    let id: JobId = id.parse().unwrap();
    get_json(&f.objects, id, objects::IMPORTED_KEYWORDS)
        .await
        .unwrap()
        .expect("the list is stored beside the job")
}

async fn runs_left(store: &DynamoStore, user: &User) -> i64 {
    store.user(user.id).await.unwrap().unwrap().credits_balance
}

#[tokio::test]
async fn a_job_takes_its_own_keywords_cleaned_and_deduplicated() {
    let f = fixture().await;
    let (user, key) = harness::user_with_key(&f.store, 3, 3).await;
    let reply = post_json(
        &f.app,
        "/api/v1/jobs",
        &key,
        body_with(json!([
            "Cold Brew Coffee",
            "cold  brew coffee",
            "espresso beans "
        ])),
    )
    .await
    .expect(201);
    let created = &reply.json["job"];
    assert_eq!(
        created["keywordImport"],
        json!({"imported": 2, "duplicates": 1})
    );
    let id = created["id"].as_str().unwrap();
    assert_eq!(
        stored_list(&f, id).await,
        ["cold brew coffee", "espresso beans"]
    );
    let job = Call::get(&format!("/api/v1/jobs/{id}"))
        .api_key(&key)
        .send(&f.app)
        .await
        .expect(200);
    assert_eq!(job.json["job"]["importedKeywordCount"], 2);
    assert_eq!(job.json["job"]["discoverKeywords"], true);
    assert_eq!(runs_left(&f.store, &user).await, 2);

    // A job without keywords answers exactly as before.
    let plain = post_json(
        &f.app,
        "/api/v1/jobs",
        &key,
        json!({"primaryDomain": "brightbrew-coffee.com", "languageCode": "en", "locationCode": 2840}),
    )
    .await
    .expect(201);
    assert_eq!(plain.json["job"].as_object().unwrap().len(), 3);
}

#[tokio::test]
async fn every_unusable_phrase_is_named_and_nothing_is_created_or_charged() {
    let f = fixture().await;
    let (user, key) = harness::user_with_key(&f.store, 3, 3).await;
    let long = "a".repeat(81);
    let reply = post_json(
        &f.app,
        "/api/v1/jobs",
        &key,
        body_with(json!([
            "fine",
            "",
            "best (cold) brew?",
            long,
            7,
            "one two three four five six seven eight nine ten eleven"
        ])),
    )
    .await
    .expect(400);
    assert_eq!(reply.code(), "validation_failed");
    assert_eq!(
        reply.invalid_fields(),
        [
            "keywords[1]",
            "keywords[2]",
            "keywords[3]",
            "keywords[4]",
            "keywords[5]"
        ]
    );
    let messages = reply.json["details"]["fields"].to_string();
    assert!(
        messages.contains("refuses") && messages.contains("81 characters"),
        "{messages}"
    );
    assert_eq!(runs_left(&f.store, &user).await, 3);
    assert_eq!(
        f.store.list_jobs(user.id, None, 10, 0).await.unwrap().total,
        0
    );

    let not_a_list = post_json(&f.app, "/api/v1/jobs", &key, body_with(json!("cold brew")))
        .await
        .expect(400);
    assert_eq!(not_a_list.invalid_fields(), ["keywords"]);
    let only_without_list = post_json(
        &f.app,
        "/api/v1/jobs",
        &key,
        json!({"primaryDomain": "brightbrew-coffee.com", "languageCode": "en", "locationCode": 2840,
            "discoverKeywords": false}),
    )
    .await
    .expect(400);
    assert_eq!(only_without_list.invalid_fields(), ["discoverKeywords"]);
    let too_many: Vec<String> = (0..10_001).map(|i| format!("kw {i}")).collect();
    let capped = post_json(&f.app, "/api/v1/jobs", &key, body_with(json!(too_many)))
        .await
        .expect(400);
    assert_eq!(capped.invalid_fields(), ["keywords"]);
}

#[tokio::test]
async fn a_list_may_fill_a_megabyte_but_other_bodies_keep_the_64_kib_limit() {
    let f = fixture().await;
    let (_, key) = harness::user_with_key(&f.store, 3, 3).await;
    let list: Vec<String> = (0..10_000)
        .map(|i| format!("cold brew coffee variant number {i:05} for testing"))
        .collect();
    let body = body_with(json!(list));
    assert!(body.to_string().len() > 400 * 1024);
    let reply = post_json(&f.app, "/api/v1/jobs", &key, body)
        .await
        .expect(201);
    assert_eq!(reply.json["job"]["keywordImport"]["imported"], 10_000);

    let padded = format!(
        "{{\"primaryDomain\": \"brightbrew-coffee.com\", \"languageCode\": \"en\", \"locationCode\": 2840, \"note\": \"{}\"}}",
        "x".repeat(70 * 1024)
    );
    let refused = Call::post("/api/v1/jobs")
        .api_key(&key)
        .header("content-type", "application/json")
        .raw_body(padded.into_bytes())
        .send(&f.app)
        .await
        .expect(413);
    assert_eq!(refused.code(), "payload_too_large");
    assert!(refused.json["error"].as_str().unwrap().contains("64 KiB"));
}

#[tokio::test]
async fn a_file_upload_creates_the_same_job_and_names_bad_lines() {
    let f = fixture().await;
    let (_, key) = harness::user_with_key(&f.store, 5, 5).await;
    let query = "primaryDomain=brightbrew-coffee.com&competitorDomains=roastery-rivals.com&languageCode=en&locationCode=2840";
    let csv = "Top queries,Clicks,Impressions\nCold Brew Coffee,12,300\nespresso beans,3,90\ncold brew coffee,1,5\n\n";
    let reply = upload(&f.app, query, &key, "text/csv; charset=utf-8", csv)
        .await
        .expect(201);
    assert!(reply
        .header("location")
        .unwrap()
        .starts_with("/api/v1/jobs/"));
    assert_eq!(
        reply.json["job"]["keywordImport"],
        json!({"imported": 2, "duplicates": 1})
    );
    let id = reply.json["job"]["id"].as_str().unwrap();
    assert_eq!(
        stored_list(&f, id).await,
        ["cold brew coffee", "espresso beans"]
    );
    let job = f.store.job(id.parse().unwrap()).await.unwrap().unwrap();
    assert_eq!(job.competitor_domains[0].as_str(), "roastery-rivals.com");
    assert!(job.callback_url.is_none());
    assert!(reply.json["job"].get("callbackSecret").is_none());

    // A file job can be called back too, as a JSON one can.
    let called_back = upload(
        &f.app,
        &format!("{query}&callbackUrl=https%3A%2F%2Fhooks.example.com%2Fdone"),
        &key,
        "text/plain",
        "pour over kettle\n",
    )
    .await
    .expect(201);
    assert!(called_back.json["job"]["callbackSecret"]
        .as_str()
        .unwrap()
        .starts_with("whsec_"));
    let id: JobId = called_back.json["job"]["id"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let job = f.store.job(id).await.unwrap().unwrap();
    assert_eq!(
        job.callback_url.map(|url| url.to_string()),
        Some("https://hooks.example.com/done".to_string())
    );
    let private = upload(
        &f.app,
        &format!("{query}&callbackUrl=http%3A%2F%2F127.0.0.1%2Fdone"),
        &key,
        "text/plain",
        "pour over kettle\n",
    )
    .await
    .expect(400);
    assert_eq!(private.invalid_fields(), ["callbackUrl"]);

    let text = upload(
        &f.app,
        &format!("{query}&discoverKeywords=false"),
        &key,
        "text/plain",
        "pour over kettle\n\nbest beans!\n",
    )
    .await
    .expect(400);
    assert_eq!(text.invalid_fields(), ["line 3"]);

    let bad_query = upload(
        &f.app,
        "languageCode=xx&locationCode=abc",
        &key,
        "text/plain",
        "beans\n",
    )
    .await
    .expect(400);
    assert_eq!(
        bad_query.invalid_fields(),
        ["primaryDomain", "languageCode", "locationCode"]
    );
    let wrong_type = upload(&f.app, query, &key, "application/pdf", "beans")
        .await
        .expect(415);
    assert_eq!(wrong_type.status, 415);
    Call::post(&format!("/api/v1/jobs/import?{query}"))
        .header("content-type", "text/plain")
        .raw_body(b"beans\n".to_vec())
        .send(&f.app)
        .await
        .expect(401);
}

#[tokio::test]
async fn the_estimate_charges_nothing_and_bounds_the_provider_spend() {
    let f = fixture_with(EstimateSettings {
        max_keywords: 500,
        provider: Some((5.0, 100)),
        answers: Default::default(),
    })
    .await;
    let (user, key) = harness::user_with_key(&f.store, 1, 0).await;
    let body = json!({"primaryDomain": "brightbrew-coffee.com", "competitorDomains": ["a-rival.com", "b-rival.com", "c-rival.com"],
        "languageCode": "en", "locationCode": 2840, "keywords": ["cold brew", "Cold Brew", "espresso"]});
    let reply = post_json(&f.app, "/api/v1/jobs/estimate", &key, body.clone())
        .await
        .expect(200);
    let estimate = &reply.json["estimate"];
    assert_eq!(estimate["runs"], 1);
    assert_eq!(estimate["runsBalance"], 1);
    assert_eq!(estimate["newDomain"], true);
    // No domain allowance left: creating it now would be refused, and the preview says so.
    assert_eq!(estimate["refusal"], "domain_limit_reached");
    assert_eq!(
        estimate["keywords"],
        json!({"imported": 2, "duplicates": 1, "discoveredAtMost": 500, "totalAtMost": 502})
    );
    let bound = estimate["provider"]["maxCostUsd"].as_f64().unwrap();
    assert!(bound > 0.3 && bound <= 5.0, "{bound}");
    assert_eq!(estimate["provider"]["capUsd"], 5.0);
    assert_eq!(runs_left(&f.store, &user).await, 1);
    post_json(&f.app, "/api/v1/jobs", &key, body)
        .await
        .expect(403);

    // The same preview for a file, with the fields in the query string.
    let file = upload(
        &f.app,
        "primaryDomain=brightbrew-coffee.com&languageCode=en&locationCode=2840&discoverKeywords=false",
        &key,
        "text/plain",
        "cold brew\nespresso\n",
    )
    .await;
    assert_eq!(
        file.status, 403,
        "the import itself is refused: {}",
        file.text
    );
    let preview = Call::post("/api/v1/jobs/estimate?primaryDomain=brightbrew-coffee.com&languageCode=en&locationCode=2840&discoverKeywords=false")
        .api_key(&key)
        .header("content-type", "text/plain")
        .raw_body(b"cold brew\nespresso\n".to_vec())
        .send(&f.app)
        .await
        .expect(200);
    let list_only = &preview.json["estimate"];
    assert_eq!(list_only["keywords"]["totalAtMost"], 2);
    assert!(list_only["provider"]["maxCostUsd"].as_f64().unwrap() < bound);

    let invalid = post_json(
        &f.app,
        "/api/v1/jobs/estimate",
        &key,
        body_with(json!(["a|b"])),
    )
    .await
    .expect(400);
    assert_eq!(invalid.invalid_fields(), ["keywords[0]"]);
    let (_, rich_key) = harness::user_with_key(&f.store, 5, 5).await;
    let fine = post_json(
        &f.app,
        "/api/v1/jobs/estimate",
        &rich_key,
        body_with(json!(["espresso"])),
    )
    .await
    .expect(200);
    assert_eq!(fine.json["estimate"]["refusal"], Value::Null);
}
