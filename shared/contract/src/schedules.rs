//! What the schedules API answers of a schedule and its latest run, built from the stored
//! schedule (`From`). Core types they hold are documented by their mirrors in
//! [`crate::domain`].

use chrono::{DateTime, Utc};
use kr_core::domain::{Cadence, JobId, Schedule, ScheduleId};
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

/// A run of a schedule as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScheduledRunView {
    #[serde(with = "kr_core::time")]
    #[schema(value_type = String, format = DateTime)]
    pub slot: DateTime<Utc>,
    /// The job the run started; `null` when it was skipped.
    #[schema(value_type = Option<crate::domain::JobId>)]
    pub job_id: Option<JobId>,
    /// Why the run was skipped; `null` when it started a job.
    pub skipped: Option<String>,
}

/// The Schedule resource.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScheduleView {
    #[schema(value_type = crate::domain::ScheduleId)]
    pub id: ScheduleId,
    #[schema(value_type = crate::domain::Cadence)]
    pub cadence: Cadence,
    /// Weekly schedules: 1 (Monday) to 7 (Sunday); `null` for monthly ones.
    pub day_of_week: Option<u32>,
    /// Monthly schedules: 1 to 28; `null` for weekly ones.
    pub day_of_month: Option<u32>,
    pub hour_utc: u32,
    pub paused: bool,
    /// When the next run is due; `null` while paused.
    #[serde(with = "kr_core::time::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub next_run_at: Option<DateTime<Utc>>,
    #[serde(with = "kr_core::time")]
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
