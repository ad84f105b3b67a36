//! The data provider's stores against the emulator: a job's usage, the shared rate gate, the
//! cross-job response cache, and where the provider credentials come from.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, DurationRound, TimeDelta, Utc};
use futures_util::future::join_all;
use kr_aws::dynamo::DynamoStore;
use kr_aws::s3::S3ObjectStore;
use kr_core::domain::{DomainName, JobId, LanguageCode, LocationCode, Progress, Stage, UserId};
use kr_core::domain::{Job, NewJob, ProviderUsage};
use kr_core::store::{
    ArtifactStore, CachedResponse, CreateJobOutcome, JobStore, JobTransitions, ProviderCache,
    ProviderRateGate, ResultStore, SlotLease, Transition, UsageDelta,
};
use kr_pipeline::provider_credentials::resolve_credentials;
use kr_tests::harness::{self, Call};

fn pool() -> String {
    format!("test-{}", uuid::Uuid::new_v4().simple())
}

async fn results() -> (Arc<S3ObjectStore>, aws_sdk_s3::Client, String) {
    let resources = harness::resources();
    let clients = harness::clients().await;
    (
        Arc::new(S3ObjectStore::new(
            clients.s3.clone(),
            resources.results_bucket.clone(),
        )),
        clients.s3,
        resources.results_bucket,
    )
}

async fn new_job(store: &DynamoStore, owner: UserId) -> Job {
    let new_job = NewJob {
        id: JobId::new(),
        owner,
        primary_domain: DomainName::parse("example.com").unwrap(),
        competitor_domains: vec![],
        language_code: LanguageCode::parse("en").unwrap(),
        location_code: LocationCode::parse(2840).unwrap(),
        created_at: Utc::now(),
        imported_keywords: 0,
        discover_keywords: true,
        callback_url: None,
        schedule_id: None,
        search_console_property: None,
    };
    match store.create_job(&new_job, None).await.unwrap() {
        CreateJobOutcome::Created(job) => *job,
        other => panic!("job not created: {other:?}"),
    }
}

fn applied(transition: Transition) -> Job {
    match transition {
        Transition::Applied(job) => *job,
        other => panic!("transition not applied: {other:?}"),
    }
}

fn spend(cost_usd: f64, requests: u64, cache_hits: u64) -> UsageDelta {
    UsageDelta {
        provider: "dataforseo".into(),
        cost_usd,
        requests,
        cache_hits,
        cap_usd: Some(1.0),
        cap_reached: false,
    }
}

#[tokio::test]
async fn concurrent_usage_adds_are_all_counted_and_transitions_never_overwrite_them() {
    let store = harness::store().await;
    let (user, key) = harness::new_user_with_key(&store).await;
    let queued = new_job(&store, user.id).await;
    assert_eq!(queued.usage, None);
    let running = applied(store.start_job(&queued, Utc::now(), 3).await.unwrap());

    // Twenty calls finishing at once, as a retried stage and its first attempt might.
    let one_call = spend(0.01, 1, 1);
    let adds = join_all((0..20).map(|_| store.add_usage(&running, &one_call))).await;
    assert!(adds.into_iter().all(|added| added.unwrap()));
    let stored = store.job(running.id).await.unwrap().unwrap();
    let usage = stored.usage.clone().unwrap();
    assert_eq!((usage.requests, usage.cache_hits), (20, 20));
    assert!((usage.cost_usd - 0.2).abs() < 1e-9, "{usage:?}");
    assert_eq!(stored.version, running.version, "no version change");

    // The stage's own copy of the job has older figures: its transition keeps the stored ones.
    let mut stale_copy = running.clone();
    stale_copy.usage = Some(ProviderUsage {
        requests: 1,
        ..usage.clone()
    });
    let progress = Progress::within(Stage::ALL[1], 0.0, "next");
    applied(
        store
            .advance_job(&stale_copy, Stage::ALL[1], progress)
            .await
            .unwrap(),
    );
    let reached = UsageDelta {
        cap_reached: true,
        ..spend(0.85, 20, 0)
    };
    assert!(store.add_usage(&running, &reached).await.unwrap());

    let app = kr_jobs::router(
        kr_jobs::JobsState::from_config(harness::config(), harness::resources()).await,
    );
    let reply = Call::get(&format!("/api/v1/jobs/{}", running.id))
        .api_key(key.expose())
        .send(&app)
        .await
        .expect(200);
    let shown = &reply.json["job"]["usage"];
    assert_eq!(shown["requests"], 40);
    assert_eq!(shown["cacheHits"], 20);
    assert_eq!(shown["capReached"], true);
    assert_eq!(shown["capUsd"], 1.0);
    assert!((shown["costUsd"].as_f64().unwrap() - 1.05).abs() < 1e-9);
}

#[tokio::test]
async fn usage_never_brings_a_deleted_job_back() {
    let store = harness::store().await;
    let user = harness::new_user(&store, kr_core::domain::Plan::Agency, 5, 5).await;
    let queued = new_job(&store, user.id).await;
    let running = applied(store.start_job(&queued, Utc::now(), 3).await.unwrap());
    store
        .delete_job(user.id, running.id)
        .await
        .unwrap()
        .unwrap();
    assert!(!store.add_usage(&running, &spend(0.5, 1, 0)).await.unwrap());
    assert_eq!(
        store.job(running.id).await.unwrap(),
        None,
        "recording usage never brings a deleted job back"
    );
}

#[tokio::test]
async fn sixty_concurrent_acquirers_get_exactly_the_thirty_slots() {
    let store = harness::store().await;
    let pool = pool();
    let now = Utc::now();
    let lease = Duration::from_secs(60);
    let attempts = join_all((0..60).map(|_| store.try_acquire_slot(&pool, 30, lease, now))).await;
    let held: Vec<SlotLease> = attempts.into_iter().filter_map(Result::unwrap).collect();
    assert_eq!(held.len(), 30);
    let slots: BTreeSet<u32> = held.iter().map(|lease| lease.slot).collect();
    assert_eq!(slots, (0..30).collect(), "each slot held once");

    // Ten are released while forty more try: never more than thirty held at once.
    let (released, racing) = tokio::join!(
        join_all(held[..10].iter().map(|lease| store.release_slot(lease))),
        join_all((0..40).map(|_| store.try_acquire_slot(&pool, 30, lease, now))),
    );
    released.into_iter().for_each(Result::unwrap);
    let raced = racing.into_iter().filter_map(Result::unwrap).count();
    assert!(raced <= 10, "{raced} acquired while only 10 were released");
    let after = join_all((0..40).map(|_| store.try_acquire_slot(&pool, 30, lease, now))).await;
    let after = after.into_iter().filter_map(Result::unwrap).count();
    assert_eq!(
        raced + after,
        10,
        "every released slot is taken again, once"
    );
}

#[tokio::test]
async fn an_expired_lease_is_reclaimed_and_only_its_holder_releases_a_slot() {
    let store = harness::store().await;
    let pool = pool();
    let now = Utc::now();
    let short = Duration::from_secs(5);
    let first = store
        .try_acquire_slot(&pool, 1, short, now)
        .await
        .unwrap()
        .expect("a free slot");
    assert_eq!(first.expires_at, now + TimeDelta::seconds(5));
    assert_eq!(
        store.try_acquire_slot(&pool, 1, short, now).await.unwrap(),
        None
    );

    let forged = SlotLease {
        token: "not-the-token".into(),
        ..first.clone()
    };
    store.release_slot(&forged).await.unwrap();
    assert_eq!(
        store.try_acquire_slot(&pool, 1, short, now).await.unwrap(),
        None,
        "a wrong token frees nothing"
    );

    let later = now + TimeDelta::seconds(6);
    let second = store
        .try_acquire_slot(&pool, 1, short, later)
        .await
        .unwrap()
        .expect("an expired lease is free again");
    assert_ne!(second.token, first.token);
    store.release_slot(&first).await.unwrap();
    assert_eq!(
        store
            .try_acquire_slot(&pool, 1, short, later)
            .await
            .unwrap(),
        None,
        "the expired holder cannot free the new holder's slot"
    );
    store.release_slot(&second).await.unwrap();
    assert!(store
        .try_acquire_slot(&pool, 1, short, later)
        .await
        .unwrap()
        .is_some());
}

#[tokio::test]
async fn twelve_minute_tokens_then_refusal_until_the_next_minute() {
    let store = harness::store().await;
    let pool = pool();
    let minute: DateTime<Utc> = Utc::now().duration_trunc(TimeDelta::minutes(1)).unwrap();
    let now = minute + TimeDelta::seconds(5);
    let taken = join_all((0..20).map(|_| store.try_take_minute_token(&pool, 12, now))).await;
    let granted = taken.into_iter().filter(|t| *t.as_ref().unwrap()).count();
    assert_eq!(granted, 12, "twelve of twenty concurrent takes");
    let end_of_minute = minute + TimeDelta::seconds(59);
    assert!(!store
        .try_take_minute_token(&pool, 12, end_of_minute)
        .await
        .unwrap());
    let next = minute + TimeDelta::seconds(60);
    assert!(store.try_take_minute_token(&pool, 12, next).await.unwrap());

    let item = store
        .client()
        .get_item()
        .table_name(store.table())
        .key(
            "PK",
            aws_sdk_dynamodb::types::AttributeValue::S(format!("RATE#{pool}")),
        )
        .key(
            "SK",
            aws_sdk_dynamodb::types::AttributeValue::S(format!(
                "MINUTE#{}",
                minute.timestamp() / 60
            )),
        )
        .send()
        .await
        .unwrap()
        .item
        .expect("the minute's counter");
    let ttl: i64 = item[kr_aws::dynamo::TTL_ATTRIBUTE]
        .as_n()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        ttl > minute.timestamp() + 60,
        "the counter outlives its minute, then expires"
    );
}

#[tokio::test]
async fn cached_responses_round_trip_and_survive_job_deletion() {
    let (cache, s3, bucket) = results().await;
    let key = hex_key();
    assert_eq!(cache.cached_response(&key).await.unwrap(), None);

    let body = "  {\"cost\": 0.0103, \"tasks\": [{\"keyword\": \"caf\u{e9} cr\u{e8}me\"}]}\n"
        .as_bytes()
        .to_vec();
    let first = CachedResponse {
        stored_at: Utc::now(),
        body,
    };
    cache.store_response(&key, &first).await.unwrap();
    assert_eq!(cache.cached_response(&key).await.unwrap(), Some(first));

    let replaced = CachedResponse {
        stored_at: Utc::now() + TimeDelta::seconds(1),
        body: b"[]".to_vec(),
    };
    cache.store_response(&key, &replaced).await.unwrap();
    assert_eq!(
        cache.cached_response(&key).await.unwrap(),
        Some(replaced.clone())
    );
    assert_eq!(cache.cached_response(&hex_key()).await.unwrap(), None);

    let job = JobId::new();
    cache
        .put_artifact(job, "metrics.json", b"{}".to_vec())
        .await
        .unwrap();
    cache.delete_results(job).await.unwrap();
    assert_eq!(cache.get_artifact(job, "metrics.json").await.unwrap(), None);
    assert_eq!(
        cache.cached_response(&key).await.unwrap(),
        Some(replaced),
        "deleting a job leaves the cache alone"
    );
    let listed = s3
        .list_objects_v2()
        .bucket(&bucket)
        .prefix(format!("provider-cache/{key}"))
        .send()
        .await
        .unwrap();
    let keys: Vec<&str> = listed.contents().iter().filter_map(|o| o.key()).collect();
    assert_eq!(keys, vec![format!("provider-cache/{key}.json").as_str()]);
}

/// Shaped like the client's keys: 64 hex digits.
fn hex_key() -> String {
    let part = || uuid::Uuid::new_v4().simple().to_string();
    format!("{}{}", part(), part())
}

fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let map: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |name| map.get(name).cloned()
}

#[tokio::test]
async fn credentials_come_from_the_environment_first() {
    let sdk = kr_aws::sdk_config(harness::resources().aws_endpoint.as_deref()).await;
    let both = vars(&[
        ("KR_DATAFORSEO_LOGIN", "env-login"),
        ("KR_DATAFORSEO_PASSWORD", "env-password"),
        (
            "KR_DATAFORSEO_SECRET_ARN",
            "arn:aws:secretsmanager:us-east-1:123456789012:secret:absent",
        ),
    ]);
    assert_eq!(
        resolve_credentials(both, &sdk).await,
        Ok(Some(("env-login".into(), "env-password".into())))
    );
    assert_eq!(resolve_credentials(vars(&[]), &sdk).await, Ok(None));
    let blank = vars(&[
        ("KR_DATAFORSEO_LOGIN", " "),
        ("KR_DATAFORSEO_SECRET_ARN", ""),
    ]);
    assert_eq!(resolve_credentials(blank, &sdk).await, Ok(None));
    let half = vars(&[("KR_DATAFORSEO_LOGIN", "env-login")]);
    assert!(resolve_credentials(half, &sdk).await.is_err());
}

#[tokio::test]
async fn credentials_come_from_the_secret_through_the_emulator() {
    let sdk = kr_aws::sdk_config(harness::resources().aws_endpoint.as_deref()).await;
    let secrets = aws_sdk_secretsmanager::Client::new(&sdk);
    let create = |value: &str| {
        secrets
            .create_secret()
            .name(format!("dataforseo-{}", uuid::Uuid::new_v4().simple()))
            .secret_string(value)
            .send()
    };
    let good = create(r#"{"login": "api@example.com", "password": "s3cret-pass"}"#)
        .await
        .unwrap();
    let arn = good.arn().unwrap();
    assert_eq!(
        resolve_credentials(vars(&[("KR_DATAFORSEO_SECRET_ARN", arn)]), &sdk).await,
        Ok(Some(("api@example.com".into(), "s3cret-pass".into())))
    );

    let malformed = create(r#"{"user": "x", "pass": "leaky-password"}"#)
        .await
        .unwrap();
    let err = resolve_credentials(
        vars(&[("KR_DATAFORSEO_SECRET_ARN", malformed.arn().unwrap())]),
        &sdk,
    )
    .await
    .unwrap_err();
    assert!(!err.contains("leaky-password"), "{err}");

    let missing = "arn:aws:secretsmanager:us-east-1:123456789012:secret:no-such-secret-AbCdEf";
    assert!(
        resolve_credentials(vars(&[("KR_DATAFORSEO_SECRET_ARN", missing)]), &sdk)
            .await
            .is_err()
    );
}
