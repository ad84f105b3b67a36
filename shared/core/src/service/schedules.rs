//! Schedule use cases: create (the body of `POST /jobs` and when to run it), read, pause,
//! delete, and the tick that starts the runs that are due.
//!
//! A run happens once per slot: its job is created with an idempotency key made of the
//! schedule and the slot, in a namespace of its own (no client's `Idempotency-Key` can take
//! it), so two ticks handling one slot create one job, and the slot is then closed by a
//! write conditional on the schedule still waiting for that slot.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::domain::{JobId, Recurrence, Schedule, ScheduleId, ScheduledRun, UserId};
use crate::service::jobs::{
    create_job_of, imported_phrases, CreateJobError, CreateJobRequest, JobPorts,
};
use crate::store::{DueCursor, IdempotencyScope, ScheduleStore, StoreError};
use crate::validation::FieldError;

/// Schedules one account may hold.
pub const MAX_SCHEDULES: usize = 20;
/// A schedule's own keywords are stored with it, so their number is bounded lower than a
/// job's.
pub const MAX_SCHEDULED_KEYWORDS: usize = 1_000;
/// Due schedules read at once.
pub const SCHEDULES_PER_PAGE: u32 = 100;
/// Pages one tick reads at most (1,000 runs): a run is a few store writes, so a full tick
/// stays well inside the sweeper's 300 s beside its other sweeps; the rest wait for the next
/// tick, 5 minutes later.
pub const PAGES_PER_TICK: u32 = 10;

/// The job body a schedule keeps: what was validated, in the API's own names.
fn stored_request(request: &CreateJobRequest) -> Map<String, Value> {
    let mut body = json!({
        "primaryDomain": request.primary_domain.as_str(),
        "competitorDomains": request.competitor_domains.iter().map(|d| d.as_str()).collect::<Vec<_>>(),
        "languageCode": request.language_code.as_str(),
        "locationCode": request.location_code.get(),
        "discoverKeywords": request.discover_keywords,
    });
    if let Some(list) = &request.keywords {
        body["keywords"] = json!(imported_phrases(list));
    }
    if let Some(property) = &request.search_console_property {
        body["searchConsoleProperty"] = json!(property.as_str());
    }
    match body {
        Value::Object(map) => map,
        _ => unreachable!("a JSON object literal"),
    }
}

/// A schedule from a request body: every problem of every field at once.
pub fn parse_schedule(
    body: &Map<String, Value>,
    owner: UserId,
    now: DateTime<Utc>,
) -> Result<Schedule, Vec<FieldError>> {
    let mut errors = Vec::new();
    let request = CreateJobRequest::parse(body)
        .map_err(|e| errors.extend(e))
        .ok();
    let recurrence = Recurrence::parse(body).map_err(|e| errors.extend(e)).ok();
    if body.get("callbackUrl").is_some_and(|v| !v.is_null()) {
        errors.push(FieldError::new(
            "callbackUrl",
            "is not taken by a schedule: its runs' events go to the account's webhooks (POST /webhooks)",
        ));
    }
    if let Some(Value::Array(keywords)) = body.get("keywords") {
        if keywords.len() > MAX_SCHEDULED_KEYWORDS {
            errors.push(FieldError::new(
                "keywords",
                format!("a schedule takes at most {MAX_SCHEDULED_KEYWORDS} keywords"),
            ));
        }
    }
    match (request, recurrence) {
        (Some(request), Some(recurrence)) if errors.is_empty() => Ok(Schedule {
            id: ScheduleId::new(),
            owner,
            request: stored_request(&request),
            recurrence,
            paused: false,
            next_run_at: recurrence.next_after(now),
            created_at: now,
            last_run: None,
        }),
        _ => Err(errors),
    }
}

/// `paused` from a `PATCH` body.
pub fn parse_paused(body: &Map<String, Value>) -> Result<bool, FieldError> {
    match body.get("paused") {
        Some(Value::Bool(paused)) => Ok(*paused),
        None | Some(Value::Null) => Err(FieldError::new("paused", "is required: true or false")),
        Some(_) => Err(FieldError::new("paused", "must be true or false")),
    }
}

/// Pauses or resumes; a resumed schedule runs next at its first slot after `now`.
pub async fn set_paused(
    store: &dyn ScheduleStore,
    owner: UserId,
    id: ScheduleId,
    paused: bool,
    now: DateTime<Utc>,
) -> Result<Option<Schedule>, StoreError> {
    let Some(schedule) = store.schedule(owner, id).await? else {
        return Ok(None);
    };
    let next = if paused {
        schedule.next_run_at
    } else {
        schedule.recurrence.next_after(now)
    };
    store.set_paused(owner, id, paused, next).await
}

/// What one tick did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TickReport {
    pub started: u32,
    pub skipped: u32,
    /// Slots another tick recorded first.
    pub already_done: u32,
    /// Slots a store failure left open; the next tick tries them again.
    pub failed: u32,
}

/// Starts every run due before `now`, page after page, earliest first. A run refused for the
/// account (no runs left, domain allowance used up, a request no longer valid) is skipped and
/// said so on the schedule, which moves on; only a store failure leaves its slot open for the
/// next tick, and the tick goes on past it, so a schedule that keeps failing never holds back
/// the ones behind it. Slots missed while nothing ticked are not made up: the next run is the
/// first slot after `now`.
pub async fn run_due_schedules(
    store: &dyn ScheduleStore,
    ports: &JobPorts<'_>,
    now: DateTime<Utc>,
) -> Result<(TickReport, Vec<(Schedule, ScheduledRun)>), StoreError> {
    let mut report = TickReport::default();
    let mut finished = Vec::new();
    let mut cursor: Option<DueCursor> = None;
    for page in 0..PAGES_PER_TICK {
        let due = match store
            .due_schedules(now, cursor.as_ref(), SCHEDULES_PER_PAGE)
            .await
        {
            Ok(due) => due,
            Err(err) if page == 0 => return Err(err),
            // What was recorded is still returned: its skipped runs' events are owed.
            Err(err) => {
                tracing::error!(%err, "due schedules could not be read; the next tick goes on");
                return Ok((report, finished));
            }
        };
        for schedule in due.schedules {
            match run_slot(store, ports, &schedule, now).await {
                Ok(Some(run)) => {
                    if run.skipped.is_some() {
                        report.skipped += 1;
                    } else {
                        report.started += 1;
                    }
                    finished.push((schedule, run));
                }
                Ok(None) => report.already_done += 1,
                Err(err) => {
                    tracing::warn!(schedule = %schedule.id, %err, "a scheduled run could not be recorded; the next tick tries again");
                    report.failed += 1;
                }
            }
        }
        match due.next {
            Some(next) => cursor = Some(next),
            None => return Ok((report, finished)),
        }
    }
    tracing::warn!("more schedules are due than a tick starts; the next tick starts the rest");
    Ok((report, finished))
}

/// Runs the due slot of `schedule` and records it: `None` when another tick recorded it
/// first, an error (the slot left open) only when the store failed.
async fn run_slot(
    store: &dyn ScheduleStore,
    ports: &JobPorts<'_>,
    schedule: &Schedule,
    now: DateTime<Utc>,
) -> Result<Option<ScheduledRun>, StoreError> {
    let slot = schedule.next_run_at;
    let outcome = start_run(ports, schedule).await?;
    let run = ScheduledRun {
        slot,
        job_id: outcome.as_ref().ok().copied(),
        skipped: outcome.err(),
    };
    let next = schedule.recurrence.next_after(now.max(slot));
    Ok(store
        .finish_slot(schedule, &run, next)
        .await?
        .then_some(run))
}

/// The job of the schedule's due slot, or why the account cannot have it, in words for the
/// account. Two ticks on one slot make one job: its key is the slot's.
async fn start_run(
    ports: &JobPorts<'_>,
    schedule: &Schedule,
) -> Result<Result<JobId, String>, StoreError> {
    let request = match CreateJobRequest::parse(&schedule.request) {
        Ok(request) => request,
        Err(errors) => {
            return Ok(Err(format!(
                "the job request is no longer valid: {}",
                errors
                    .iter()
                    .map(|e| format!("{} {}", e.field, e.message))
                    .collect::<Vec<_>>()
                    .join("; ")
            )))
        }
    };
    let key = IdempotencyScope::ScheduledRun {
        schedule: schedule.id,
        slot: schedule.next_run_at,
    };
    let created = create_job_of(
        ports,
        schedule.owner,
        request,
        Some(key),
        None,
        Some(schedule.id),
    )
    .await;
    Ok(match created {
        Ok(created) => Ok(created.id),
        Err(CreateJobError::InsufficientCredits) => Err("the account has no runs left".into()),
        Err(CreateJobError::DomainLimitReached) => {
            Err("the account's domain allowance is used up".into())
        }
        // No client can write a slot's key: only a job made for this slot from another
        // request (say, one an earlier release fingerprinted otherwise) holds it, and trying
        // again next tick would not change that.
        Err(CreateJobError::IdempotencyKeyReused) => {
            Err("a job for this slot was already made from a different request".into())
        }
        Err(CreateJobError::Store(err)) => return Err(err),
    })
}
