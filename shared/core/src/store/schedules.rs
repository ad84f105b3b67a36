//! An account's schedules, and the ones due, for the tick that starts their runs.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::StoreError;
use crate::domain::{Schedule, ScheduleId, ScheduledRun, UserId};

/// Where a page of due schedules ended, in the store's own terms: the next page starts after
/// it. Schedules that stay due (their run could not be recorded) are behind it, not in front.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueCursor(String);

impl DueCursor {
    pub fn new(position: String) -> Self {
        Self(position)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// One page of due schedules.
#[derive(Debug, Clone)]
pub struct DuePage {
    pub schedules: Vec<Schedule>,
    /// Where the next page starts; `None` when no schedule after this page is due.
    pub next: Option<DueCursor>,
}

#[async_trait]
pub trait ScheduleStore: Send + Sync {
    /// Stores the schedule unless its owner already has `limit`; `false` then. Concurrent
    /// creates never pass the limit.
    async fn create_schedule(&self, schedule: &Schedule, limit: usize) -> Result<bool, StoreError>;
    /// The owner's schedules, oldest first.
    async fn list_schedules(&self, owner: UserId) -> Result<Vec<Schedule>, StoreError>;
    async fn schedule(&self, owner: UserId, id: ScheduleId)
        -> Result<Option<Schedule>, StoreError>;
    /// Pauses or resumes; a resumed schedule's next run is `next_run_at`. `None` when the
    /// owner has no such schedule.
    async fn set_paused(
        &self,
        owner: UserId,
        id: ScheduleId,
        paused: bool,
        next_run_at: DateTime<Utc>,
    ) -> Result<Option<Schedule>, StoreError>;
    /// `false` when the owner had no such schedule.
    async fn delete_schedule(&self, owner: UserId, id: ScheduleId) -> Result<bool, StoreError>;
    /// Schedules not paused whose next run is due before `now`, earliest first (the id
    /// breaking ties), at most `limit`, from just after `after` (`None`: the earliest). A
    /// schedule that cannot be read is passed over, so it never holds back the ones behind it.
    async fn due_schedules(
        &self,
        now: DateTime<Utc>,
        after: Option<&DueCursor>,
        limit: u32,
    ) -> Result<DuePage, StoreError>;
    /// Records `run` and moves the schedule to `next`, only while its next run is still
    /// `run.slot` and it is not paused: of two ticks handling one slot, one records it.
    async fn finish_slot(
        &self,
        schedule: &Schedule,
        run: &ScheduledRun,
        next: DateTime<Utc>,
    ) -> Result<bool, StoreError>;
}
