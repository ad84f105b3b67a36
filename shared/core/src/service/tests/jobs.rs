//! Creating, reading and deleting jobs (`service::jobs`).

use chrono::{Duration, Utc};
use serde_json::json;

use super::{body, job_at, request, World};
use crate::dataset::objects::IMPORTED_KEYWORDS;
use crate::domain::{DomainName, JobStatus, Stage};
use crate::service::jobs::{create_job, delete_job, readable_job, CreateJobError};
use crate::service::webhook_signing::SigningKey;
use crate::store::{JobStore, PipelineMessage, RegisteredDomains};

fn with_keywords(domain: &str) -> crate::service::jobs::CreateJobRequest {
    let mut body = body(domain);
    body.insert(
        "keywords".into(),
        json!(["Cold Brew", "cold  brew", "espresso beans"]),
    );
    request(body)
}

#[tokio::test]
async fn a_created_job_is_queued_charged_a_run_and_sent_to_its_first_stage() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let created = world.create(owner, "example.com", None).await.unwrap();
    assert_eq!(created.status, JobStatus::Queued);
    assert_eq!(world.balance(owner).await, (4, 2));
    let stored = world.store.job(created.id).await.unwrap().unwrap();
    assert_eq!((stored.owner, stored.status), (owner, JobStatus::Queued));
    assert_eq!(
        world.queue.messages(),
        [PipelineMessage {
            job_id: created.id,
            stage: Stage::first()
        }]
    );
}

#[tokio::test]
async fn a_new_primary_domain_costs_one_allowance_once_and_a_known_one_none() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    world.create(owner, "example.com", None).await.unwrap();
    world.create(owner, "example.com", None).await.unwrap();
    assert_eq!(world.balance(owner).await, (3, 2), "two runs, one domain");
    world.create(owner, "other.com", None).await.unwrap();
    assert_eq!(world.balance(owner).await, (2, 1));
    assert_eq!(
        world.store.registered_domains(owner).await.unwrap(),
        [
            DomainName::parse("example.com").unwrap(),
            DomainName::parse("other.com").unwrap()
        ]
    );
}

#[tokio::test]
async fn an_idempotent_replay_returns_the_first_job_and_charges_nothing_more() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let first = world
        .create(owner, "example.com", Some("k1"))
        .await
        .unwrap();
    let again = world
        .create(owner, "example.com", Some("k1"))
        .await
        .unwrap();
    assert_eq!((again.id, again.created_at), (first.id, first.created_at));
    assert_eq!(world.balance(owner).await, (4, 2));
    assert_eq!(world.store.stored_jobs().len(), 1);
    assert_eq!(world.queue.messages().len(), 1, "sent once");
}

#[tokio::test]
async fn a_replay_is_answered_even_once_the_runs_are_spent() {
    let world = World::new();
    let owner = world.store.add_user(1, 1);
    let first = world
        .create(owner, "example.com", Some("k1"))
        .await
        .unwrap();
    let again = world
        .create(owner, "example.com", Some("k1"))
        .await
        .unwrap();
    assert_eq!(again.id, first.id);
    assert!(matches!(
        world.create(owner, "example.com", Some("k2")).await,
        Err(CreateJobError::InsufficientCredits)
    ));
}

#[tokio::test]
async fn the_same_key_with_another_body_is_refused_without_charging() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    world
        .create(owner, "example.com", Some("k1"))
        .await
        .unwrap();
    let reused = world.create(owner, "other.com", Some("k1")).await;
    assert!(matches!(reused, Err(CreateJobError::IdempotencyKeyReused)));
    assert_eq!(world.balance(owner).await, (4, 2));
    assert_eq!(world.store.stored_jobs().len(), 1);
}

#[tokio::test]
async fn idempotency_keys_are_each_accounts_own() {
    let world = World::new();
    let (alice, bob) = (world.store.add_user(5, 3), world.store.add_user(5, 3));
    let a = world
        .create(alice, "example.com", Some("k1"))
        .await
        .unwrap();
    let b = world.create(bob, "example.com", Some("k1")).await.unwrap();
    assert_ne!(a.id, b.id);
    assert_eq!(world.balance(bob).await, (4, 2));
}

#[tokio::test]
async fn no_runs_left_is_refused_and_charges_nothing() {
    let world = World::new();
    let owner = world.store.add_user(0, 3);
    let refused = world.create(owner, "example.com", None).await;
    assert!(matches!(refused, Err(CreateJobError::InsufficientCredits)));
    assert_eq!(world.balance(owner).await, (0, 3));
    assert!(world
        .store
        .registered_domains(owner)
        .await
        .unwrap()
        .is_empty());
    assert!(world.store.stored_jobs().is_empty());
    assert!(world.queue.messages().is_empty());
}

#[tokio::test]
async fn no_runs_is_reported_before_no_domain_allowance() {
    let world = World::new();
    let owner = world.store.add_user(0, 0);
    let refused = world.create(owner, "example.com", None).await;
    assert!(matches!(refused, Err(CreateJobError::InsufficientCredits)));
}

#[tokio::test]
async fn no_allowance_left_refuses_a_new_domain_but_not_a_known_one() {
    let world = World::new();
    let owner = world.store.add_user(5, 1);
    world.create(owner, "example.com", None).await.unwrap();
    let refused = world.create(owner, "other.com", None).await;
    assert!(matches!(refused, Err(CreateJobError::DomainLimitReached)));
    assert_eq!(
        world.balance(owner).await,
        (4, 0),
        "the refused run is not taken"
    );
    world.create(owner, "example.com", None).await.unwrap();
    assert_eq!(world.balance(owner).await, (3, 0));
}

#[tokio::test]
async fn imported_keywords_are_stored_cleaned_under_the_new_job() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let created = create_job(
        &world.ports(),
        owner,
        with_keywords("example.com"),
        None,
        None,
    )
    .await
    .unwrap();
    let import = created.keyword_import.expect("a keyword import");
    assert_eq!((import.imported, import.duplicates), (2, 1));
    let stored = world.objects.object(created.id, IMPORTED_KEYWORDS).unwrap();
    let phrases: Vec<String> = serde_json::from_slice(&stored).unwrap();
    assert_eq!(phrases, ["cold brew", "espresso beans"]);
    let job = world.store.job(created.id).await.unwrap().unwrap();
    assert_eq!(job.imported_keywords, 2);
    assert_eq!(
        world.objects.is_expiring(created.id, IMPORTED_KEYWORDS),
        Some(false)
    );
}

#[tokio::test]
async fn imported_keywords_expire_with_a_job_that_expires() {
    let world = World::with_retention();
    let owner = world.store.add_user(5, 3);
    let created = create_job(
        &world.ports(),
        owner,
        with_keywords("example.com"),
        None,
        None,
    )
    .await
    .unwrap();
    assert_eq!(
        world.objects.is_expiring(created.id, IMPORTED_KEYWORDS),
        Some(true)
    );
}

#[tokio::test]
async fn imported_keywords_are_removed_again_when_no_job_is_created() {
    let world = World::new();
    let owner = world.store.add_user(0, 3);
    let refused = create_job(
        &world.ports(),
        owner,
        with_keywords("example.com"),
        None,
        None,
    )
    .await;
    assert!(matches!(refused, Err(CreateJobError::InsufficientCredits)));
    assert!(world.objects.is_empty(), "nothing left behind");

    // Stored first: with the removal failing, the list stays behind.
    world.objects.fail("delete_results");
    let refused = create_job(
        &world.ports(),
        owner,
        with_keywords("example.com"),
        None,
        None,
    )
    .await;
    assert!(matches!(refused, Err(CreateJobError::InsufficientCredits)));
    assert!(!world.objects.is_empty());
}

#[tokio::test]
async fn a_replays_imported_keywords_are_removed_and_the_first_jobs_kept() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let ports = world.ports();
    let create = || {
        create_job(
            &ports,
            owner,
            with_keywords("example.com"),
            Some("k1".into()),
            None,
        )
    };
    let first = create().await.unwrap();
    let again = create().await.unwrap();
    assert_eq!(again.id, first.id);
    // The replay's copy went with its unused id: only the first job has objects.
    assert_eq!(world.objects.jobs(), [first.id]);
    assert_eq!(world.objects.names(first.id), [IMPORTED_KEYWORDS]);
}

#[tokio::test]
async fn keywords_that_cannot_be_stored_charge_nothing() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    world.objects.fail("put_artifact");
    let failed = create_job(
        &world.ports(),
        owner,
        with_keywords("example.com"),
        None,
        None,
    )
    .await;
    assert!(matches!(failed, Err(CreateJobError::Store(_))));
    assert_eq!(world.balance(owner).await, (5, 3));
    assert!(world.store.stored_jobs().is_empty());
}

#[tokio::test]
async fn a_lost_first_message_still_creates_the_paid_job_for_the_sweeper() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    world.queue.fail("enqueue");
    let created = world.create(owner, "example.com", None).await.unwrap();
    let stored = world.store.job(created.id).await.unwrap().unwrap();
    assert_eq!(stored.status, JobStatus::Queued);
    assert!(world.queue.messages().is_empty());
    assert_eq!(world.balance(owner).await, (4, 2));
}

#[tokio::test]
async fn a_callback_url_needs_the_signing_key_before_anything_is_charged() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let mut body = body("example.com");
    body.insert(
        "callbackUrl".into(),
        json!("https://hooks.example.com/done"),
    );
    let refused = create_job(&world.ports(), owner, request(body.clone()), None, None).await;
    assert!(matches!(refused, Err(CreateJobError::Store(_))));
    assert_eq!(world.balance(owner).await, (5, 3));

    let key = SigningKey::new([7u8; 32]).unwrap();
    let ports = world.ports();
    let create = || {
        create_job(
            &ports,
            owner,
            request(body.clone()),
            Some("k".into()),
            Some(&key),
        )
    };
    let first = create().await.unwrap();
    let again = create().await.unwrap();
    let secret = first.callback_secret.expect("a callback secret");
    assert!(secret.starts_with("whsec_"));
    assert_eq!(again.callback_secret, Some(secret), "the same on a replay");
}

#[tokio::test]
async fn a_job_is_read_by_its_owner_and_a_demo_job_by_anyone() {
    let world = World::new();
    let (owner, other, demo) = (
        world.store.add_user(5, 3),
        world.store.add_user(5, 3),
        world.store.add_user(5, 3),
    );
    let job = world.create(owner, "example.com", None).await.unwrap().id;
    let demo_job = world.create(demo, "example.com", None).await.unwrap().id;
    let read = |id, viewer| readable_job(world.store.as_ref(), id, viewer, Some(demo));
    assert!(read(job, Some(owner)).await.unwrap().is_some());
    assert!(read(job, Some(other)).await.unwrap().is_none());
    assert!(read(job, None).await.unwrap().is_none());
    assert!(read(demo_job, Some(other)).await.unwrap().is_some());
    assert!(read(demo_job, None).await.unwrap().is_some());
}

#[tokio::test]
async fn an_expired_job_is_gone_for_readers_and_for_delete() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let mut job = job_at(owner, Utc::now() - Duration::days(40), JobStatus::Completed);
    job.expires_at = Some(Utc::now() - Duration::days(10));
    world.store.import_jobs(std::slice::from_ref(&job));
    let store = world.store.as_ref();
    assert!(readable_job(store, job.id, Some(owner), None)
        .await
        .unwrap()
        .is_none());
    assert!(!delete_job(store, world.objects.as_ref(), owner, job.id)
        .await
        .unwrap());
}

#[tokio::test]
async fn deleting_removes_the_job_and_every_object_of_it() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let created = create_job(
        &world.ports(),
        owner,
        with_keywords("example.com"),
        None,
        None,
    )
    .await
    .unwrap();
    let (jobs, objects) = (world.store.as_ref(), world.objects.as_ref());
    assert!(delete_job(jobs, objects, owner, created.id).await.unwrap());
    assert!(jobs.job(created.id).await.unwrap().is_none());
    assert!(world.objects.names(created.id).is_empty());
    assert!(
        !delete_job(jobs, objects, owner, created.id).await.unwrap(),
        "gone already"
    );
}

#[tokio::test]
async fn only_the_owner_deletes_a_job_and_others_touch_nothing() {
    let world = World::new();
    let (owner, other) = (world.store.add_user(5, 3), world.store.add_user(5, 3));
    let created = create_job(
        &world.ports(),
        owner,
        with_keywords("example.com"),
        None,
        None,
    )
    .await
    .unwrap();
    let (jobs, objects) = (world.store.as_ref(), world.objects.as_ref());
    assert!(!delete_job(jobs, objects, other, created.id).await.unwrap());
    assert!(jobs.job(created.id).await.unwrap().is_some());
    assert_eq!(world.objects.names(created.id), [IMPORTED_KEYWORDS]);
    assert!(
        !delete_job(jobs, objects, owner, crate::domain::JobId::new())
            .await
            .unwrap()
    );
}

#[tokio::test]
async fn objects_that_cannot_be_removed_keep_the_job_for_a_retried_delete() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let created = world.create(owner, "example.com", None).await.unwrap();
    let (jobs, objects) = (world.store.as_ref(), world.objects.as_ref());
    world.objects.fail("delete_results");
    assert!(delete_job(jobs, objects, owner, created.id).await.is_err());
    assert!(jobs.job(created.id).await.unwrap().is_some(), "still there");
    world.objects.heal("delete_results");
    assert!(delete_job(jobs, objects, owner, created.id).await.unwrap());
}

#[tokio::test]
async fn deleting_a_job_gives_back_neither_its_run_nor_its_domain() {
    let world = World::new();
    let owner = world.store.add_user(5, 1);
    let created = world.create(owner, "example.com", None).await.unwrap();
    let (jobs, objects) = (world.store.as_ref(), world.objects.as_ref());
    assert!(delete_job(jobs, objects, owner, created.id).await.unwrap());
    assert_eq!(world.balance(owner).await, (4, 0));
    world.create(owner, "example.com", None).await.unwrap();
    assert_eq!(
        world.balance(owner).await,
        (3, 0),
        "the domain stays paid for"
    );
}

#[tokio::test]
async fn the_owners_jobs_are_listed_newest_first_with_their_total() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let now = Utc::now();
    let old = job_at(owner, now - Duration::hours(2), JobStatus::Completed);
    let new = job_at(owner, now - Duration::hours(1), JobStatus::Queued);
    let others = job_at(world.store.add_user(1, 1), now, JobStatus::Queued);
    world.store.import_jobs(&[old.clone(), new.clone(), others]);
    let page = world.store.list_jobs(owner, None, 10, 0).await.unwrap();
    let ids: Vec<_> = page.jobs.iter().map(|job| job.id).collect();
    assert_eq!((ids, page.total), (vec![new.id, old.id], 2));
    let queued = world
        .store
        .list_jobs(owner, Some(JobStatus::Queued), 10, 0)
        .await
        .unwrap();
    assert_eq!(queued.total, 1);
    let second = world.store.list_jobs(owner, None, 1, 1).await.unwrap();
    assert_eq!(second.jobs[0].id, old.id);
}
