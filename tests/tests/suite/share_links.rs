//! Share links through the jobs function against the emulator: what a link holds and shows
//! once, validation, who may make, list and revoke them, the limit of live links per job under
//! concurrent creates, expired links giving their place back, and tokens stored only hashed.
//! (The page a link opens is tested in `dashboard_http::share_page`.)

use std::sync::Arc;

use axum::Router;
use chrono::{Duration, Utc};
use futures_util::future::join_all;
use kr_aws::dynamo::DynamoStore;
use kr_core::domain::{
    Job, JobStatus, SecretHash, ShareLink, ShareLinkId, ShareToken, SharedTabs, UserId,
};
use kr_core::service::share_links::MAX_LIVE_SHARE_LINKS;
use kr_core::store::{JobStore, ShareLinkStore};
use kr_jobs::{router, JobsState};
use kr_tests::harness::{self, Call, Reply};
use serde_json::{json, Value};

struct Fixture {
    app: Router,
    store: Arc<DynamoStore>,
}

async fn fixture() -> Fixture {
    Fixture {
        app: router(JobsState::from_config(harness::config(), harness::resources()).await),
        store: harness::store().await,
    }
}

/// A job of `owner` in `status`, stored directly.
async fn job_of(store: &DynamoStore, owner: UserId, status: JobStatus) -> Job {
    let job = Job {
        completed_at: (status == JobStatus::Completed).then(Utc::now),
        ..harness::job_record(owner, status, "brightbrew-coffee.com", &["roastrivals.com"])
    };
    store.import_jobs(std::slice::from_ref(&job)).await.unwrap();
    job
}

fn links_path(job: &Job) -> String {
    format!("/api/v1/jobs/{}/share-links", job.id)
}

async fn create(f: &Fixture, key: &str, job: &Job, body: Value) -> Reply {
    Call::post(&links_path(job))
        .api_key(key)
        .header("host", "app.example.com")
        .json(body)
        .send(&f.app)
        .await
}

/// `GET …/share-links` as the job's owner: the live links.
async fn live_links(f: &Fixture, key: &str, job: &Job) -> Reply {
    Call::get(&links_path(job))
        .api_key(key)
        .send(&f.app)
        .await
        .expect(200)
}

fn token_of(reply: &Reply) -> String {
    let url = reply.json["url"].as_str().expect("a url");
    url.strip_prefix("https://app.example.com/share/")
        .unwrap_or_else(|| panic!("{url}"))
        .to_string()
}

#[tokio::test]
async fn a_link_shows_its_url_once_lists_without_it_and_is_stored_hashed() {
    let f = fixture().await;
    let (user, key) = harness::user_with_key(&f.store, 1, 1).await;
    let job = job_of(&f.store, user.id, JobStatus::Completed).await;
    let before = Utc::now();
    let created = create(&f, &key, &job, json!({})).await.expect(201);
    let body = &created.json;
    assert_eq!(
        body["tabs"],
        json!(["keywords", "clusters", "plan", "personas", "overview"])
    );
    let expires: chrono::DateTime<Utc> = body["expiresAt"].as_str().unwrap().parse().unwrap();
    assert!(expires >= before + Duration::days(30) && expires <= Utc::now() + Duration::days(30));
    let token = token_of(&created);
    assert_eq!(token.len(), 43, "256 random bits in base64url: {token}");

    let chosen = create(
        &f,
        &key,
        &job,
        json!({"tabs": ["overview", "keywords", "overview"], "expiresInDays": 7}),
    )
    .await
    .expect(201);
    assert_eq!(chosen.json["tabs"], json!(["keywords", "overview"]));

    let listed = live_links(&f, &key, &job).await;
    let links = listed.json["shareLinks"].as_array().unwrap();
    assert_eq!(links.len(), 2);
    assert_eq!(links[0]["id"], chosen.json["id"], "newest first");
    assert!(
        !listed.text.contains(&token),
        "a listing never holds a token"
    );
    assert!(links.iter().all(|link| link.get("url").is_none()));

    // Only the hash is stored: no item of the table holds the token itself.
    let items = f
        .store
        .client()
        .scan()
        .table_name(f.store.table())
        .send()
        .await
        .unwrap()
        .items
        .unwrap_or_default();
    assert!(!format!("{items:?}").contains(&token));
    let token = ShareToken::parse(&token).unwrap();
    let resolved = f.store.resolve_share_link(&token.hash()).await.unwrap();
    assert_eq!(resolved.unwrap().job_id, job.id);
}

#[tokio::test]
async fn bad_tabs_and_expiries_are_400_naming_the_field() {
    let f = fixture().await;
    let (user, key) = harness::user_with_key(&f.store, 1, 1).await;
    let job = job_of(&f.store, user.id, JobStatus::Completed).await;
    for (body, field) in [
        (json!({"tabs": []}), "tabs"),
        (json!({"tabs": ["keywords", "secrets"]}), "tabs"),
        (json!({"tabs": ["Keywords"]}), "tabs"),
        (json!({"tabs": "keywords"}), "tabs"),
        (json!({"tabs": [1]}), "tabs"),
        (json!({"expiresInDays": 0}), "expiresInDays"),
        (json!({"expiresInDays": 366}), "expiresInDays"),
        (json!({"expiresInDays": -3}), "expiresInDays"),
        (json!({"expiresInDays": 1.5}), "expiresInDays"),
        (json!({"expiresInDays": "30"}), "expiresInDays"),
    ] {
        let reply = create(&f, &key, &job, body.clone()).await.expect(400);
        assert_eq!(reply.code(), "validation_failed", "{body}");
        assert_eq!(reply.invalid_fields(), [field], "{body}");
    }
    let both = create(&f, &key, &job, json!({"tabs": [], "expiresInDays": 0})).await;
    assert_eq!(both.expect(400).invalid_fields(), ["tabs", "expiresInDays"]);
    let listed = live_links(&f, &key, &job).await;
    assert_eq!(listed.json["shareLinks"], json!([]), "nothing was made");
    let one_day = create(&f, &key, &job, json!({"expiresInDays": 1})).await;
    one_day.expect(201);
    let a_year = create(&f, &key, &job, json!({"expiresInDays": 365})).await;
    a_year.expect(201);
    // An integer in JSON Schema's sense.
    let written_as_float = create(&f, &key, &job, json!({"expiresInDays": 30.0})).await;
    written_as_float.expect(201);
}

#[tokio::test]
async fn only_the_owner_of_a_completed_job_makes_lists_and_revokes_its_links() {
    let f = fixture().await;
    let (owner, key) = harness::user_with_key(&f.store, 1, 1).await;
    let (_, other_key) = harness::user_with_key(&f.store, 1, 1).await;
    let job = job_of(&f.store, owner.id, JobStatus::Completed).await;
    let running = job_of(&f.store, owner.id, JobStatus::Running).await;
    let created = create(&f, &key, &job, json!({})).await.expect(201);
    let link = created.json["id"].as_str().unwrap().to_string();
    let one = format!("{}/{link}", links_path(&job));

    assert_eq!(
        create(&f, &other_key, &job, json!({}))
            .await
            .expect(404)
            .code(),
        "not_found"
    );
    Call::get(&links_path(&job))
        .api_key(&other_key)
        .send(&f.app)
        .await
        .expect(404);
    Call::delete(&one)
        .api_key(&other_key)
        .send(&f.app)
        .await
        .expect(404);
    Call::post(&links_path(&job))
        .json(json!({}))
        .send(&f.app)
        .await
        .expect(401);
    let unknown = format!("/api/v1/jobs/{}/share-links", uuid::Uuid::new_v4());
    Call::post(&unknown)
        .api_key(&key)
        .json(json!({}))
        .send(&f.app)
        .await
        .expect(404);
    Call::get("/api/v1/jobs/not-a-uuid/share-links")
        .api_key(&key)
        .send(&f.app)
        .await
        .expect(404);
    let not_done = create(&f, &key, &running, json!({})).await.expect(409);
    assert_eq!(not_done.code(), "job_not_ready");

    // Someone else's link id on one's own job is no link at all.
    let mine = job_of(&f.store, owner.id, JobStatus::Completed).await;
    let elsewhere = format!("{}/{link}", links_path(&mine));
    Call::delete(&elsewhere)
        .api_key(&key)
        .send(&f.app)
        .await
        .expect(404);

    Call::delete(&one)
        .api_key(&key)
        .send(&f.app)
        .await
        .expect(204);
    Call::delete(&one)
        .api_key(&key)
        .send(&f.app)
        .await
        .expect(404);
    let token = ShareToken::parse(&token_of(&created)).unwrap();
    assert!(f
        .store
        .resolve_share_link(&token.hash())
        .await
        .unwrap()
        .is_none());
    let listed = live_links(&f, &key, &job).await;
    assert_eq!(listed.json["shareLinks"], json!([]));
    let bad_id = format!("{}/nope", links_path(&job));
    Call::delete(&bad_id)
        .api_key(&key)
        .send(&f.app)
        .await
        .expect(404);
}

#[tokio::test]
async fn concurrent_creates_never_pass_the_limit_and_a_revoked_link_frees_its_place() {
    let f = fixture().await;
    let (user, key) = harness::user_with_key(&f.store, 1, 1).await;
    let job = job_of(&f.store, user.id, JobStatus::Completed).await;
    let tries = MAX_LIVE_SHARE_LINKS as usize + 6;
    let replies = join_all((0..tries).map(|_| create(&f, &key, &job, json!({})))).await;
    let created: Vec<&Reply> = replies.iter().filter(|r| r.status == 201).collect();
    assert_eq!(created.len(), MAX_LIVE_SHARE_LINKS as usize);
    for refused in replies.iter().filter(|r| r.status != 201) {
        assert_eq!(refused.status, 403, "{}", refused.text);
        assert_eq!(refused.code(), "forbidden");
    }
    create(&f, &key, &job, json!({})).await.expect(403);
    let first = created[0].json["id"].as_str().unwrap();
    Call::delete(&format!("{}/{first}", links_path(&job)))
        .api_key(&key)
        .send(&f.app)
        .await
        .expect(204);
    create(&f, &key, &job, json!({})).await.expect(201);
    create(&f, &key, &job, json!({})).await.expect(403);
}

#[tokio::test]
async fn expired_links_neither_count_nor_list_nor_open() {
    let f = fixture().await;
    let (user, key) = harness::user_with_key(&f.store, 1, 1).await;
    let job = job_of(&f.store, user.id, JobStatus::Completed).await;
    let long_ago = Utc::now() - Duration::days(40);
    let mut expired_tokens: Vec<SecretHash> = Vec::new();
    for n in 0..MAX_LIVE_SHARE_LINKS {
        let token = ShareToken::generate();
        let link = ShareLink {
            id: ShareLinkId::new(),
            job_id: job.id,
            owner: user.id,
            tabs: SharedTabs::all(),
            created_at: long_ago,
            // Half expired ten days ago, half a second ago.
            expires_at: if n % 2 == 0 {
                long_ago + Duration::days(30)
            } else {
                Utc::now() - Duration::milliseconds(500)
            },
        };
        assert!(f
            .store
            .create_share_link(&link, &token.hash(), MAX_LIVE_SHARE_LINKS, long_ago)
            .await
            .unwrap());
        expired_tokens.push(token.hash());
    }
    let listed = live_links(&f, &key, &job).await;
    assert_eq!(listed.json["shareLinks"], json!([]));
    let replies =
        join_all((0..MAX_LIVE_SHARE_LINKS).map(|_| create(&f, &key, &job, json!({})))).await;
    assert!(
        replies.iter().all(|r| r.status == 201),
        "expired links give their place back"
    );
    create(&f, &key, &job, json!({})).await.expect(403);
    // An expired link still resolves in the store until DynamoDB's TTL removes it, and the
    // service refuses it by its expiry.
    let expired = f
        .store
        .resolve_share_link(&expired_tokens[1])
        .await
        .unwrap();
    if let Some(link) = expired {
        assert!(!link.is_live(Utc::now()));
    }
    assert!(f.store.job(job.id).await.unwrap().is_some());
}
