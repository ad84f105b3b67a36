//! Schedules cannot be jammed (issue 46): no client's `Idempotency-Key` takes a scheduled
//! run's place, and a tick goes past schedules it cannot run or record, page after page, so
//! they never hold back the ones behind them.

use std::sync::Arc;

use async_trait::async_trait;
use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, Duration, DurationRound, SecondsFormat, Utc};
use kr_aws::dynamo::DynamoStore;
use kr_core::domain::{
    DomainName, JobId, LanguageCode, LocationCode, NewJob, Schedule, ScheduleId, ScheduledRun,
    UserId,
};
use kr_core::service::jobs::JobPorts;
use kr_core::service::schedules::{parse_schedule, run_due_schedules, TickReport};
use kr_core::store::{
    CreateJobOutcome, DueCursor, DuePage, Idempotency, IdempotencyScope, JobStore, ScheduleStore,
    StoreError,
};
use kr_tests::harness::{self, Call};
use kr_tests::pipeline_rig::{rig, Rig};
use kr_tests::sites::DEMO_PRIMARY;
use serde_json::{json, Value};

use super::{app, create, time, weekly};

/// The tick's slot key once was `schedule:<id>:<epoch>` among clients' keys: a client sending
/// it with another body made the slot's run fail, and the slot stayed due for every tick.
pub(super) async fn a_client_key_never_takes_a_scheduled_runs_place() {
    let rig = rig(None, &[]).await;
    let app = app().await;
    let (user, key) = harness::user_with_key(&rig.store, 2, 1).await;
    let created = create(&app, &key, weekly(), 201).await;
    let id: ScheduleId = created["schedule"]["id"].as_str().unwrap().parse().unwrap();
    let slot = time(&created["schedule"]["nextRunAt"]);

    let other = json!({"primaryDomain": DEMO_PRIMARY, "languageCode": "en", "locationCode": 2840});
    let theirs = Call::post("/api/v1/jobs")
        .api_key(&key)
        .header(
            "idempotency-key",
            &format!("schedule:{id}:{}", slot.timestamp()),
        )
        .json(other)
        .send(&app)
        .await
        .expect(201);
    let theirs: JobId = theirs.json["job"]["id"].as_str().unwrap().parse().unwrap();

    let (report, _) = rig
        .pipeline
        .start_due_schedules(slot + Duration::minutes(5))
        .await
        .unwrap();
    assert_eq!((report.started, report.skipped), (1, 0), "{report:?}");
    let schedule = rig.store.schedule(user.id, id).await.unwrap().unwrap();
    let run = schedule.last_run.unwrap();
    assert_eq!(run.slot, slot);
    assert!(run.job_id.is_some_and(|job| job != theirs), "{run:?}");
    assert_eq!(schedule.next_run_at, slot + Duration::days(7));
    assert!(rig.store.delete_schedule(user.id, id).await.unwrap());
}

/// 150 due schedules (more than a page) behind an unreadable index entry, a schedule whose
/// slot key is already held by another request, one whose owner has no runs left and one
/// whose slot can never be recorded: the first tick starts or skips, with its reason, every
/// one it can record; the second starts nothing new and only retries the unrecorded slot.
pub(super) async fn a_tick_pages_past_schedules_it_cannot_run() {
    let rig = rig(None, &[]).await;
    // Past every other part's ticks, so their schedules and these never meet.
    let tick = (Utc::now() + Duration::days(60))
        .duration_trunc(Duration::hours(1))
        .unwrap();
    let (owner, _) = harness::user_with_key(&rig.store, 200, 1).await;
    let (broke, _) = harness::user_with_key(&rig.store, 0, 1).await;
    let never_recorded = due(&rig, owner.id, tick - Duration::hours(3)).await;
    let unreadable = unreadable_entry(&rig, tick - Duration::hours(3)).await;
    let held = due(&rig, owner.id, tick - Duration::hours(2)).await;
    hold_slot_key(&rig.store, &held).await;
    let no_runs = due(&rig, broke.id, tick - Duration::hours(2)).await;
    let mut started = Vec::new();
    for _ in 0..147 {
        started.push(due(&rig, owner.id, tick - Duration::hours(1)).await.id);
    }

    let store = FailsToRecord {
        inner: rig.store.clone(),
        schedule: never_recorded.id,
    };
    let ports = JobPorts {
        jobs: rig.pipeline.jobs.as_ref(),
        queue: rig.pipeline.queue.as_ref(),
        artifacts: rig.pipeline.artifacts.as_ref(),
        removals: rig.pipeline.objects.as_ref(),
    };
    let (first, finished) = run_due_schedules(&store, &ports, tick).await.unwrap();
    let expected = TickReport {
        started: 147,
        skipped: 2,
        already_done: 0,
        failed: 1,
    };
    assert_eq!(first, expected);
    assert_eq!(finished.len(), 149);

    let mut schedules = rig.store.list_schedules(owner.id).await.unwrap();
    schedules.extend(rig.store.list_schedules(broke.id).await.unwrap());
    assert_eq!(schedules.len(), 150);
    let run_of = |id: ScheduleId| -> (DateTime<Utc>, Option<ScheduledRun>) {
        let schedule = schedules.iter().find(|s| s.id == id).unwrap();
        (schedule.next_run_at, schedule.last_run.clone())
    };
    for id in &started {
        let (next, run) = run_of(*id);
        let run = run.unwrap();
        assert!(next > tick && run.job_id.is_some() && run.skipped.is_none());
    }
    for (id, reason) in [
        (held.id, "already made from a different request"),
        (no_runs.id, "no runs left"),
    ] {
        let (next, run) = run_of(id);
        let run = run.unwrap();
        assert!(next > tick && run.job_id.is_none(), "{run:?}");
        assert!(run.skipped.as_deref().unwrap().contains(reason), "{run:?}");
    }
    let (next, run) = run_of(never_recorded.id);
    assert_eq!((next, run), (never_recorded.next_run_at, None), "left open");

    let (second, finished) = run_due_schedules(&store, &ports, tick).await.unwrap();
    let expected = TickReport {
        failed: 1,
        ..TickReport::default()
    };
    assert_eq!(second, expected, "only the unrecorded slot is due again");
    assert!(finished.is_empty());
    let jobs = rig.store.list_jobs(owner.id, None, 200, 0).await.unwrap();
    let of_never_recorded = jobs
        .jobs
        .iter()
        .filter(|job| job.schedule_id == Some(never_recorded.id))
        .count();
    assert_eq!(of_never_recorded, 1, "its retry replays the slot's one job");
    assert_eq!(
        jobs.jobs.len(),
        147 + 1 + 1,
        "and the one holding a slot key"
    );

    for schedule in &schedules {
        assert!(rig
            .store
            .delete_schedule(schedule.owner, schedule.id)
            .await
            .unwrap());
    }
    remove_entry(&rig, unreadable).await;
}

/// A weekly schedule of `owner` due at `slot`.
async fn due(rig: &Rig, owner: UserId, slot: DateTime<Utc>) -> Schedule {
    let body = weekly();
    let Value::Object(body) = body else {
        unreachable!("a JSON object")
    };
    let mut schedule = parse_schedule(&body, owner, Utc::now()).unwrap();
    schedule.next_run_at = slot;
    assert!(rig.store.create_schedule(&schedule, 1_000).await.unwrap());
    schedule
}

/// A job made for the schedule's due slot from another request, holding the slot's key.
async fn hold_slot_key(store: &DynamoStore, schedule: &Schedule) {
    let job = NewJob {
        id: JobId::new(),
        owner: schedule.owner,
        primary_domain: DomainName::parse(DEMO_PRIMARY).unwrap(),
        competitor_domains: vec![],
        language_code: LanguageCode::parse("en").unwrap(),
        location_code: LocationCode::parse(2840).unwrap(),
        created_at: Utc::now(),
        imported_keywords: 0,
        discover_keywords: true,
        callback_url: None,
        schedule_id: Some(schedule.id),
        search_console_property: None,
    };
    let key = Idempotency {
        scope: IdempotencyScope::ScheduledRun {
            schedule: schedule.id,
            slot: schedule.next_run_at,
        },
        fingerprint: "another request".into(),
    };
    let made = store.create_job(&job, Some(&key)).await.unwrap();
    assert!(matches!(made, CreateJobOutcome::Created(_)), "{made:?}");
}

/// An entry among the due schedules whose item is no schedule (keys only); its key.
async fn unreadable_entry(rig: &Rig, slot: DateTime<Utc>) -> (String, String) {
    let id = ScheduleId::new();
    let keys = (format!("USER#{}", UserId::new()), format!("SCHEDULE#{id}"));
    let due = format!("{}#{id}", slot.to_rfc3339_opts(SecondsFormat::Millis, true));
    rig.clients
        .dynamodb
        .put_item()
        .table_name(harness::resources().table_name)
        .item("PK", AttributeValue::S(keys.0.clone()))
        .item("SK", AttributeValue::S(keys.1.clone()))
        .item("GSI3PK", AttributeValue::S("SCHEDULES".into()))
        .item("GSI3SK", AttributeValue::S(due))
        .send()
        .await
        .unwrap();
    keys
}

async fn remove_entry(rig: &Rig, (pk, sk): (String, String)) {
    rig.clients
        .dynamodb
        .delete_item()
        .table_name(harness::resources().table_name)
        .key("PK", AttributeValue::S(pk))
        .key("SK", AttributeValue::S(sk))
        .send()
        .await
        .unwrap();
}

/// The store, except that one schedule's slot is never recorded (a store that keeps failing
/// on it).
struct FailsToRecord {
    inner: Arc<DynamoStore>,
    schedule: ScheduleId,
}

#[async_trait]
impl ScheduleStore for FailsToRecord {
    async fn create_schedule(&self, schedule: &Schedule, limit: usize) -> Result<bool, StoreError> {
        self.inner.create_schedule(schedule, limit).await
    }

    async fn list_schedules(&self, owner: UserId) -> Result<Vec<Schedule>, StoreError> {
        self.inner.list_schedules(owner).await
    }

    async fn schedule(
        &self,
        owner: UserId,
        id: ScheduleId,
    ) -> Result<Option<Schedule>, StoreError> {
        self.inner.schedule(owner, id).await
    }

    async fn set_paused(
        &self,
        owner: UserId,
        id: ScheduleId,
        paused: bool,
        next_run_at: DateTime<Utc>,
    ) -> Result<Option<Schedule>, StoreError> {
        self.inner.set_paused(owner, id, paused, next_run_at).await
    }

    async fn delete_schedule(&self, owner: UserId, id: ScheduleId) -> Result<bool, StoreError> {
        self.inner.delete_schedule(owner, id).await
    }

    async fn due_schedules(
        &self,
        now: DateTime<Utc>,
        after: Option<&DueCursor>,
        limit: u32,
    ) -> Result<DuePage, StoreError> {
        self.inner.due_schedules(now, after, limit).await
    }

    async fn finish_slot(
        &self,
        schedule: &Schedule,
        run: &ScheduledRun,
        next: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        if schedule.id == self.schedule {
            return Err(StoreError::new("the store is failing on this schedule"));
        }
        self.inner.finish_slot(schedule, run, next).await
    }
}
