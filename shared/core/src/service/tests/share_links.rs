//! Share links to a job's results (`service::share_links`).

use chrono::{Duration, Utc};

use super::{job_at, World};
use crate::domain::{Job, JobStatus, ShareLifetime, SharedTabs};
use crate::service::jobs::delete_job;
use crate::service::share_links::{
    create_share_link, list_share_links, revoke_share_link, shared_job, ShareError,
    MAX_LIVE_SHARE_LINKS,
};

impl World {
    /// A completed job of a new user.
    fn completed_job(&self) -> Job {
        let owner = self.store.add_user(5, 3);
        let job = job_at(owner, Utc::now() - Duration::hours(1), JobStatus::Completed);
        self.store.import_jobs(std::slice::from_ref(&job));
        job
    }
}

fn one_day() -> ShareLifetime {
    ShareLifetime::days(1).unwrap()
}

#[tokio::test]
async fn a_completed_jobs_link_opens_it_until_the_link_expires() {
    let world = World::new();
    let job = world.completed_job();
    let (jobs, links) = (world.store.as_ref(), world.store.as_ref());
    let now = Utc::now();
    let (link, token) = create_share_link(
        jobs,
        links,
        job.owner,
        job.id,
        SharedTabs::all(),
        one_day(),
        now,
    )
    .await
    .unwrap();
    assert_eq!(link.expires_at, now + Duration::days(1));
    let (opened, shown) = shared_job(jobs, links, token.expose(), now)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((opened.id, shown.id), (link.id, job.id));
    let later = link.expires_at;
    assert!(shared_job(jobs, links, token.expose(), later)
        .await
        .unwrap()
        .is_none());
    assert!(list_share_links(jobs, links, job.owner, job.id, later)
        .await
        .unwrap()
        .is_empty());
}

#[tokio::test]
async fn only_a_completed_job_can_be_shared() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let queued = world.create(owner, "example.com", None).await.unwrap();
    let store = world.store.as_ref();
    let made = create_share_link(
        store,
        store,
        owner,
        queued.id,
        SharedTabs::all(),
        one_day(),
        Utc::now(),
    )
    .await;
    assert!(matches!(made, Err(ShareError::NotCompleted)));
}

#[tokio::test]
async fn anyone_but_the_owner_is_told_there_is_no_such_job() {
    let world = World::new();
    let job = world.completed_job();
    let other = world.store.add_user(5, 3);
    let store = world.store.as_ref();
    let now = Utc::now();
    let (link, _) = create_share_link(
        store,
        store,
        job.owner,
        job.id,
        SharedTabs::all(),
        one_day(),
        now,
    )
    .await
    .unwrap();
    let made = create_share_link(
        store,
        store,
        other,
        job.id,
        SharedTabs::all(),
        one_day(),
        now,
    )
    .await;
    assert!(matches!(made, Err(ShareError::NoSuchJob)));
    let listed = list_share_links(store, store, other, job.id, now).await;
    assert!(matches!(listed, Err(ShareError::NoSuchJob)));
    let revoked = revoke_share_link(store, store, other, job.id, link.id).await;
    assert!(matches!(revoked, Err(ShareError::NoSuchJob)));
    let unknown = list_share_links(store, store, job.owner, crate::domain::JobId::new(), now).await;
    assert!(matches!(unknown, Err(ShareError::NoSuchJob)));
}

#[tokio::test]
async fn a_job_has_at_most_its_limit_of_live_links_and_expired_ones_free_their_place() {
    let world = World::new();
    let job = world.completed_job();
    let store = world.store.as_ref();
    let now = Utc::now();
    let create = |at| {
        create_share_link(
            store,
            store,
            job.owner,
            job.id,
            SharedTabs::all(),
            one_day(),
            at,
        )
    };
    for _ in 0..MAX_LIVE_SHARE_LINKS {
        create(now).await.unwrap();
    }
    assert!(matches!(create(now).await, Err(ShareError::TooManyLinks)));
    let listed = list_share_links(store, store, job.owner, job.id, now)
        .await
        .unwrap();
    assert_eq!(listed.len(), MAX_LIVE_SHARE_LINKS as usize);
    let a_day_later = now + Duration::days(1);
    create(a_day_later).await.unwrap();
    let live = list_share_links(store, store, job.owner, job.id, a_day_later)
        .await
        .unwrap();
    assert_eq!(live.len(), 1);
}

#[tokio::test]
async fn a_revoked_link_stops_opening_at_once_and_frees_its_place() {
    let world = World::new();
    let job = world.completed_job();
    let store = world.store.as_ref();
    let now = Utc::now();
    let create = || {
        create_share_link(
            store,
            store,
            job.owner,
            job.id,
            SharedTabs::all(),
            one_day(),
            now,
        )
    };
    let (link, token) = create().await.unwrap();
    for _ in 1..MAX_LIVE_SHARE_LINKS {
        create().await.unwrap();
    }
    assert!(revoke_share_link(store, store, job.owner, job.id, link.id)
        .await
        .unwrap());
    assert!(shared_job(store, store, token.expose(), now)
        .await
        .unwrap()
        .is_none());
    assert!(!revoke_share_link(store, store, job.owner, job.id, link.id)
        .await
        .unwrap());
    create().await.unwrap();
}

#[tokio::test]
async fn links_are_listed_newest_first() {
    let world = World::new();
    let job = world.completed_job();
    let store = world.store.as_ref();
    let now = Utc::now();
    let tabs = SharedTabs::shared_by_default();
    let (older, _) = create_share_link(
        store,
        store,
        job.owner,
        job.id,
        tabs.clone(),
        one_day(),
        now,
    )
    .await
    .unwrap();
    let (newer, _) = create_share_link(
        store,
        store,
        job.owner,
        job.id,
        tabs,
        one_day(),
        now + Duration::seconds(1),
    )
    .await
    .unwrap();
    let listed = list_share_links(store, store, job.owner, job.id, now + Duration::seconds(2))
        .await
        .unwrap();
    let ids: Vec<_> = listed.iter().map(|link| link.id).collect();
    assert_eq!(ids, [newer.id, older.id]);
}

#[tokio::test]
async fn a_link_to_a_deleted_job_opens_nothing() {
    let world = World::new();
    let job = world.completed_job();
    let store = world.store.as_ref();
    let now = Utc::now();
    let (_, token) = create_share_link(
        store,
        store,
        job.owner,
        job.id,
        SharedTabs::all(),
        one_day(),
        now,
    )
    .await
    .unwrap();
    assert!(delete_job(store, world.objects.as_ref(), job.owner, job.id)
        .await
        .unwrap());
    assert!(shared_job(store, store, token.expose(), now)
        .await
        .unwrap()
        .is_none());
}

#[tokio::test]
async fn a_token_never_made_opens_nothing() {
    let world = World::new();
    world.completed_job();
    let store = world.store.as_ref();
    let now = Utc::now();
    assert!(shared_job(store, store, "not a token", now)
        .await
        .unwrap()
        .is_none());
    let unknown = crate::domain::ShareToken::generate();
    assert!(shared_job(store, store, unknown.expose(), now)
        .await
        .unwrap()
        .is_none());
}
