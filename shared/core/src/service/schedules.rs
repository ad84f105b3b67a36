//! Schedule use cases: create (the body of `POST /jobs` and when to run it), read, pause,
//! delete, and the tick that starts the runs that are due.
//!
//! A run happens once per slot: its job is created with an idempotency key made of the
//! schedule and the slot, so two ticks handling one slot create one job, and the slot is
//! then closed by a write conditional on the schedule still waiting for that slot.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{json, Map, Value};
use utoipa::ToSchema;

use crate::domain::{Cadence, Recurrence, Schedule, ScheduleId, ScheduledRun, UserId};
use crate::service::jobs::{
    create_job_of, imported_phrases, CreateJobError, CreateJobRequest, JobPorts,
};
use crate::store::{ScheduleStore, StoreError};
use crate::validation::FieldError;

/// Schedules one account may hold.
pub const MAX_SCHEDULES: usize = 20;
/// A schedule's own keywords are stored with it, so their number is bounded lower than a
/// job's.
pub const MAX_SCHEDULED_KEYWORDS: usize = 1_000;
/// Due schedules one tick starts; the rest wait for the next tick (5 minutes later).
pub const SCHEDULES_PER_TICK: u32 = 100;

/// A run of a schedule as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScheduledRunView {
    #[serde(with = "crate::time")]
    #[schema(value_type = String, format = DateTime)]
    pub slot: DateTime<Utc>,
    /// The job the run started; `null` when it was skipped.
    pub job_id: Option<crate::domain::JobId>,
    /// Why the run was skipped; `null` when it started a job.
    pub skipped: Option<String>,
}

/// The Schedule resource.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScheduleView {
    pub id: ScheduleId,
    pub cadence: Cadence,
    /// Weekly schedules: 1 (Monday) to 7 (Sunday); `null` for monthly ones.
    pub day_of_week: Option<u32>,
    /// Monthly schedules: 1 to 28; `null` for weekly ones.
    pub day_of_month: Option<u32>,
    pub hour_utc: u32,
    pub paused: bool,
    /// When the next run is due; `null` while paused.
    #[serde(with = "crate::time::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub next_run_at: Option<DateTime<Utc>>,
    #[serde(with = "crate::time")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: DateTime<Utc>,
    /// The job each run creates, as `POST /jobs` takes it.
    #[schema(value_type = Object)]
    pub job: Map<String, Value>,
    /// The latest run: the job it started, or why it was skipped; `null` before the first.
    pub last_run: Option<ScheduledRunView>,
}

impl From<&Schedule> for ScheduleView {
    fn from(schedule: &Schedule) -> Self {
        let recurrence = schedule.recurrence;
        let weekly = recurrence.cadence == Cadence::Weekly;
        Self {
            id: schedule.id,
            cadence: recurrence.cadence,
            day_of_week: weekly.then_some(recurrence.day),
            day_of_month: (!weekly).then_some(recurrence.day),
            hour_utc: recurrence.hour_utc,
            paused: schedule.paused,
            next_run_at: (!schedule.paused).then_some(schedule.next_run_at),
            created_at: schedule.created_at,
            job: schedule.request.clone(),
            last_run: schedule.last_run.as_ref().map(|run| ScheduledRunView {
                slot: run.slot,
                job_id: run.job_id,
                skipped: run.skipped.clone(),
            }),
        }
    }
}

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
}

/// The idempotency key of one slot's job: the same for every tick that handles the slot.
fn slot_key(schedule: ScheduleId, slot: DateTime<Utc>) -> String {
    format!("schedule:{schedule}:{}", slot.timestamp())
}

/// Starts every run due before `now`. A run whose job cannot be created for the account
/// (no runs left, domain allowance used up, a request no longer valid) is skipped and said
/// so on the schedule; a store failure leaves the slot open for the next tick. Slots missed
/// while nothing ticked are not made up: the next run is the first slot after `now`.
pub async fn run_due_schedules(
    store: &dyn ScheduleStore,
    ports: &JobPorts<'_>,
    now: DateTime<Utc>,
) -> Result<(TickReport, Vec<(Schedule, ScheduledRun)>), StoreError> {
    let mut report = TickReport::default();
    let mut finished = Vec::new();
    for schedule in store.due_schedules(now, SCHEDULES_PER_TICK).await? {
        let slot = schedule.next_run_at;
        let outcome = match CreateJobRequest::parse(&schedule.request) {
            Err(errors) => Err(format!(
                "the job request is no longer valid: {}",
                errors
                    .iter()
                    .map(|e| format!("{} {}", e.field, e.message))
                    .collect::<Vec<_>>()
                    .join("; ")
            )),
            Ok(request) => {
                let key = slot_key(schedule.id, slot);
                match create_job_of(
                    ports,
                    schedule.owner,
                    request,
                    Some(key),
                    None,
                    Some(schedule.id),
                )
                .await
                {
                    Ok(created) => Ok(created.id),
                    Err(CreateJobError::InsufficientCredits) => {
                        Err("the account has no runs left".into())
                    }
                    Err(CreateJobError::DomainLimitReached) => {
                        Err("the account's domain allowance is used up".into())
                    }
                    Err(
                        err @ (CreateJobError::IdempotencyKeyReused | CreateJobError::Store(_)),
                    ) => {
                        tracing::warn!(schedule = %schedule.id, ?err, "a scheduled run could not start; the next tick tries again");
                        continue;
                    }
                }
            }
        };
        let run = ScheduledRun {
            slot,
            job_id: outcome.as_ref().ok().copied(),
            skipped: outcome.err(),
        };
        let next = schedule.recurrence.next_after(now.max(slot));
        if store.finish_slot(&schedule, &run, next).await? {
            if run.skipped.is_some() {
                report.skipped += 1;
            } else {
                report.started += 1;
            }
            finished.push((schedule, run));
        } else {
            report.already_done += 1;
        }
    }
    Ok((report, finished))
}
