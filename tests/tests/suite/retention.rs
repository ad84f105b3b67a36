//! Results retention: a job expires with its results (its item's TTL; its objects tagged for
//! the bucket's lifecycle rule), an expired job is a 404 everywhere before DynamoDB removes
//! it, and the demo account's jobs never expire.

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{Duration, Utc};
use kr_aws::s3::{S3ObjectStore, EXPIRING_TAG};
use kr_core::domain::JobId;
use kr_core::store::{ArtifactStore, JobStore};
use kr_tests::harness::{self, Call};
use serde_json::json;

fn job_body(primary: &str) -> serde_json::Value {
    json!({"primaryDomain": primary, "competitorDomains": [], "languageCode": "en", "locationCode": 2840})
}

async fn item_attribute(id: JobId, name: &str) -> Option<AttributeValue> {
    let clients = harness::clients().await;
    let item = clients
        .dynamodb
        .get_item()
        .table_name(harness::resources().table_name)
        .key("PK", AttributeValue::S(format!("JOB#{id}")))
        .key("SK", AttributeValue::S("JOB".into()))
        .send()
        .await
        .unwrap()
        .item
        .unwrap();
    item.get(name).cloned()
}

#[tokio::test]
async fn a_job_expires_with_its_results_and_the_demo_accounts_never_do() {
    let store = harness::store().await;
    let (_, key) = harness::new_user_with_key(&store).await;
    let (demo, demo_key) = harness::new_user_with_key(&store).await;
    let mut config = harness::config();
    config.results_retention_days = Some(30);
    config.demo_user_id = Some(demo.id.as_uuid());
    let jobs = kr_jobs::router(
        kr_jobs::JobsState::from_config(config.clone(), harness::resources()).await,
    );
    let results = kr_results::router(
        kr_results::ResultsState::from_config(config, harness::resources()).await,
    );
    let create = |key: String| {
        let jobs = jobs.clone();
        async move {
            let reply = Call::post("/api/v1/jobs")
                .api_key(&key)
                .json(job_body("example.com"))
                .send(&jobs)
                .await
                .expect(201);
            reply.json["job"]["id"]
                .as_str()
                .unwrap()
                .parse::<JobId>()
                .unwrap()
        }
    };
    let id = create(key.expose().to_string()).await;
    let demo_id = create(demo_key.expose().to_string()).await;

    let ttl: i64 = item_attribute(id, "ttl")
        .await
        .expect("the item has a TTL")
        .as_n()
        .unwrap()
        .parse()
        .unwrap();
    let in_30_days = (Utc::now() + Duration::days(30)).timestamp();
    assert!((in_30_days - 60..=in_30_days).contains(&ttl), "{ttl}");
    assert_eq!(
        item_attribute(demo_id, "ttl").await,
        None,
        "the demo job is kept"
    );

    // Its objects are tagged for the bucket's expiry; the demo job's are not.
    let clients = harness::clients().await;
    let bucket = harness::resources().results_bucket;
    let objects = S3ObjectStore::new(clients.s3.clone(), bucket.clone());
    for (job, tagged) in [(id, true), (demo_id, false)] {
        let job = store.job(job).await.unwrap().unwrap();
        objects
            .put_job_artifact(&job, "stages/crawl.json", b"[]".to_vec())
            .await
            .unwrap();
        let tags = clients
            .s3
            .get_object_tagging()
            .bucket(&bucket)
            .key(format!("jobs/{}/stages/crawl.json", job.id))
            .send()
            .await
            .unwrap();
        let tags: Vec<String> = tags
            .tag_set()
            .iter()
            .map(|tag| format!("{}={}", tag.key(), tag.value()))
            .collect();
        assert_eq!(tags.contains(&EXPIRING_TAG.to_string()), tagged, "{tags:?}");
    }

    // Past its expiry, before DynamoDB's TTL gets to it: gone for every reader.
    let past = Utc::now() - Duration::minutes(1);
    clients
        .dynamodb
        .update_item()
        .table_name(harness::resources().table_name)
        .key("PK", AttributeValue::S(format!("JOB#{id}")))
        .key("SK", AttributeValue::S("JOB".into()))
        .update_expression("SET expiresAt = :at, #ttl = :ttl")
        .expression_attribute_names("#ttl", "ttl")
        .expression_attribute_values(":at", AttributeValue::S(past.to_rfc3339()))
        .expression_attribute_values(":ttl", AttributeValue::N(past.timestamp().to_string()))
        .send()
        .await
        .unwrap();
    for (router, path) in [
        (&jobs, format!("/api/v1/jobs/{id}")),
        (&results, format!("/api/v1/jobs/{id}/keywords")),
        (&results, format!("/api/v1/jobs/{id}/references")),
    ] {
        let reply = Call::get(&path)
            .api_key(key.expose())
            .send(router)
            .await
            .expect(404);
        assert_eq!(reply.code(), "not_found", "{path}");
    }
    let listed = Call::get("/api/v1/jobs")
        .api_key(key.expose())
        .send(&jobs)
        .await
        .expect(200);
    assert_eq!(listed.json["jobs"], json!([]));
    Call::get(&format!("/api/v1/jobs/{demo_id}"))
        .send(&jobs)
        .await
        .expect(200);
}
