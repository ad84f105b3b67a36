//! Schedules and the tick that starts their due runs (`service::schedules`).

use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};
use serde_json::json;

use super::{body, object, request, World};
use crate::domain::{Schedule, ScheduleId, ScheduledRun, UserId};
use crate::service::jobs::create_job;
use crate::service::schedules::{
    parse_schedule, run_due_schedules, set_paused, TickReport, MAX_SCHEDULES,
};
use crate::store::{DueCursor, DuePage, JobStore, ScheduleStore, StoreError};

/// A weekly schedule of `owner` on `domain` whose next run was due an hour ago.
fn due_schedule(owner: UserId, domain: &str) -> Schedule {
    let mut body = body(domain);
    body.extend(object(
        json!({"cadence": "weekly", "dayOfWeek": 1, "hourUtc": 6}),
    ));
    let mut schedule = parse_schedule(&body, owner, Utc::now() - Duration::days(30)).unwrap();
    schedule.next_run_at = Utc::now() - Duration::hours(1);
    schedule
}

impl World {
    async fn add_schedule(&self, schedule: &Schedule) {
        assert!(self
            .store
            .create_schedule(schedule, MAX_SCHEDULES)
            .await
            .unwrap());
    }

    async fn tick(&self, store: &dyn ScheduleStore) -> (TickReport, Vec<(Schedule, ScheduledRun)>) {
        run_due_schedules(store, &self.ports(), Utc::now())
            .await
            .unwrap()
    }

    async fn schedule_now(&self, schedule: &Schedule) -> Schedule {
        self.store
            .schedule(schedule.owner, schedule.id)
            .await
            .unwrap()
            .unwrap()
    }
}

/// The store as a tick sees it that read its due page before another tick recorded the
/// slots: every other call goes to the store.
struct ReadEarlier<'a> {
    store: &'a dyn ScheduleStore,
    page: Vec<Schedule>,
}

#[async_trait]
impl ScheduleStore for ReadEarlier<'_> {
    async fn create_schedule(&self, schedule: &Schedule, limit: usize) -> Result<bool, StoreError> {
        self.store.create_schedule(schedule, limit).await
    }
    async fn list_schedules(&self, owner: UserId) -> Result<Vec<Schedule>, StoreError> {
        self.store.list_schedules(owner).await
    }
    async fn schedule(
        &self,
        owner: UserId,
        id: ScheduleId,
    ) -> Result<Option<Schedule>, StoreError> {
        self.store.schedule(owner, id).await
    }
    async fn set_paused(
        &self,
        owner: UserId,
        id: ScheduleId,
        paused: bool,
        next_run_at: DateTime<Utc>,
    ) -> Result<Option<Schedule>, StoreError> {
        self.store.set_paused(owner, id, paused, next_run_at).await
    }
    async fn delete_schedule(&self, owner: UserId, id: ScheduleId) -> Result<bool, StoreError> {
        self.store.delete_schedule(owner, id).await
    }
    async fn due_schedules(
        &self,
        _: DateTime<Utc>,
        _: Option<&DueCursor>,
        _: u32,
    ) -> Result<DuePage, StoreError> {
        Ok(DuePage {
            schedules: self.page.clone(),
            next: None,
        })
    }
    async fn finish_slot(
        &self,
        schedule: &Schedule,
        run: &ScheduledRun,
        next: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        self.store.finish_slot(schedule, run, next).await
    }
}

#[tokio::test]
async fn a_due_slot_starts_one_job_and_the_schedule_moves_to_its_next_slot() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let schedule = due_schedule(owner, "example.com");
    world.add_schedule(&schedule).await;
    let (report, finished) = world.tick(world.store.as_ref()).await;
    assert_eq!((report.started, report.skipped, report.failed), (1, 0, 0));
    let after = world.schedule_now(&schedule).await;
    let run = after.last_run.clone().unwrap();
    assert_eq!((run.slot, run.skipped), (schedule.next_run_at, None));
    let job = world.store.job(run.job_id.unwrap()).await.unwrap().unwrap();
    assert_eq!(job.schedule_id, Some(schedule.id));
    assert!(after.next_run_at > Utc::now());
    assert_eq!(world.balance(owner).await, (4, 2));
    assert_eq!(world.queue.messages().len(), 1);
    assert_eq!(finished.len(), 1);
}

#[tokio::test]
async fn two_ticks_on_one_slot_make_one_job() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let schedule = due_schedule(owner, "example.com");
    world.add_schedule(&schedule).await;
    let late = ReadEarlier {
        store: world.store.as_ref(),
        page: vec![schedule.clone()],
    };
    let (first, _) = world.tick(world.store.as_ref()).await;
    let (second, finished) = world.tick(&late).await;
    assert_eq!(first.started, 1);
    assert_eq!((second.started, second.already_done), (0, 1));
    assert!(
        finished.is_empty(),
        "only the tick that recorded the slot reports it"
    );
    assert_eq!(world.store.stored_jobs().len(), 1);
    assert_eq!(world.balance(owner).await, (4, 2));
}

#[tokio::test]
async fn a_run_refused_for_no_runs_is_skipped_with_its_reason_and_the_schedule_moves_on() {
    let world = World::new();
    let owner = world.store.add_user(0, 3);
    let schedule = due_schedule(owner, "example.com");
    world.add_schedule(&schedule).await;
    let (report, finished) = world.tick(world.store.as_ref()).await;
    assert_eq!((report.started, report.skipped), (0, 1));
    let after = world.schedule_now(&schedule).await;
    let run = after.last_run.clone().unwrap();
    assert_eq!(run.job_id, None);
    assert_eq!(run.skipped.as_deref(), Some("the account has no runs left"));
    assert!(after.next_run_at > Utc::now());
    assert_eq!(finished[0].1, run, "returned for its skipped-run event");
    assert!(world.store.stored_jobs().is_empty());
    let (again, _) = world.tick(world.store.as_ref()).await;
    assert_eq!(again, TickReport::default(), "not due again");
}

#[tokio::test]
async fn a_run_refused_for_the_domain_allowance_says_so() {
    let world = World::new();
    let owner = world.store.add_user(5, 0);
    let schedule = due_schedule(owner, "example.com");
    world.add_schedule(&schedule).await;
    world.tick(world.store.as_ref()).await;
    let run = world.schedule_now(&schedule).await.last_run.unwrap();
    assert_eq!(
        run.skipped.as_deref(),
        Some("the account's domain allowance is used up")
    );
    assert_eq!(world.balance(owner).await, (5, 0));
}

#[tokio::test]
async fn a_request_no_longer_valid_is_skipped_naming_its_fields() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let mut schedule = due_schedule(owner, "example.com");
    schedule.request.insert("locationCode".into(), json!(-1));
    world.add_schedule(&schedule).await;
    let (report, _) = world.tick(world.store.as_ref()).await;
    assert_eq!(report.skipped, 1);
    let reason = world
        .schedule_now(&schedule)
        .await
        .last_run
        .unwrap()
        .skipped
        .unwrap();
    assert!(
        reason.starts_with("the job request is no longer valid: locationCode"),
        "{reason}"
    );
}

#[tokio::test]
async fn a_client_key_shaped_like_a_slots_cannot_take_the_runs_place() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let schedule = due_schedule(owner, "example.com");
    world.add_schedule(&schedule).await;
    let epoch = schedule.next_run_at.timestamp();
    let mut client_jobs = Vec::new();
    for key in [
        format!("schedule:{}:{epoch}", schedule.id),
        format!("SCHEDULE#{}#{epoch}", schedule.id),
    ] {
        let created = create_job(
            &world.ports(),
            owner,
            request(body("example.com")),
            Some(key),
            None,
        )
        .await
        .unwrap();
        client_jobs.push(created.id);
    }
    let (report, _) = world.tick(world.store.as_ref()).await;
    assert_eq!(report.started, 1);
    let run = world.schedule_now(&schedule).await.last_run.unwrap();
    let job_id = run.job_id.expect("the run's own job");
    assert!(!client_jobs.contains(&job_id));
    assert_eq!(world.store.stored_jobs().len(), 3);
}

#[tokio::test]
async fn a_slot_left_open_by_a_store_failure_is_retried_next_tick_with_the_same_job() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let schedule = due_schedule(owner, "example.com");
    world.add_schedule(&schedule).await;
    world.store.fail("finish_slot");
    let (report, finished) = world.tick(world.store.as_ref()).await;
    assert_eq!((report.started, report.failed), (0, 1));
    assert!(finished.is_empty());
    assert_eq!(
        world.schedule_now(&schedule).await.next_run_at,
        schedule.next_run_at,
        "open"
    );
    let made = world.store.stored_jobs();
    world.store.heal("finish_slot");
    let (report, _) = world.tick(world.store.as_ref()).await;
    assert_eq!(report.started, 1);
    let run = world.schedule_now(&schedule).await.last_run.unwrap();
    assert_eq!(run.job_id, Some(made[0].id), "the job of the first try");
    assert_eq!(world.store.stored_jobs().len(), 1);
    assert_eq!(world.balance(owner).await, (4, 2));
}

#[tokio::test]
async fn paused_schedules_do_not_run_and_resume_at_their_next_slot_after_now() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let schedule = due_schedule(owner, "example.com");
    world.add_schedule(&schedule).await;
    let store = world.store.as_ref();
    let now = Utc::now();
    set_paused(store, owner, schedule.id, true, now)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(world.tick(store).await.0, TickReport::default());
    let resumed = set_paused(store, owner, schedule.id, false, now)
        .await
        .unwrap()
        .unwrap();
    assert!(!resumed.paused);
    assert_eq!(resumed.next_run_at, schedule.recurrence.next_after(now));
    assert!(set_paused(store, UserId::new(), schedule.id, true, now)
        .await
        .unwrap()
        .is_none());
}

#[tokio::test]
async fn missed_slots_are_not_made_up() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let mut schedule = due_schedule(owner, "example.com");
    schedule.next_run_at = Utc::now() - Duration::weeks(3);
    world.add_schedule(&schedule).await;
    let (report, _) = world.tick(world.store.as_ref()).await;
    assert_eq!(report.started, 1);
    let after = world.schedule_now(&schedule).await;
    assert!(after.next_run_at > Utc::now());
    assert!(after.next_run_at <= Utc::now() + Duration::weeks(1));
    assert_eq!(
        world.tick(world.store.as_ref()).await.0,
        TickReport::default()
    );
}

#[tokio::test]
async fn due_schedules_are_all_run_page_after_page() {
    let world = World::new();
    for i in 0..150 {
        let owner = world.store.add_user(1, 1);
        let mut schedule = due_schedule(owner, "example.com");
        schedule.next_run_at = Utc::now() - Duration::minutes(i);
        world.add_schedule(&schedule).await;
    }
    let (report, finished) = world.tick(world.store.as_ref()).await;
    assert_eq!((report.started, report.failed), (150, 0));
    assert_eq!(finished.len(), 150);
    assert_eq!(world.store.stored_jobs().len(), 150);
}

#[tokio::test]
async fn an_account_holds_at_most_its_limit_of_schedules() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    for _ in 0..MAX_SCHEDULES {
        world
            .add_schedule(&due_schedule(owner, "example.com"))
            .await;
    }
    let one_more = due_schedule(owner, "example.com");
    assert!(!world
        .store
        .create_schedule(&one_more, MAX_SCHEDULES)
        .await
        .unwrap());
    let listed = world.store.list_schedules(owner).await.unwrap();
    assert_eq!(listed.len(), MAX_SCHEDULES);
    assert!(world
        .store
        .delete_schedule(owner, listed[0].id)
        .await
        .unwrap());
    assert!(world
        .store
        .create_schedule(&one_more, MAX_SCHEDULES)
        .await
        .unwrap());
}
