//! Schedules, and the due ones for the tick.
//!
//! Semantics kept from the adapter (`shared/aws/src/dynamo/schedules.rs`):
//! - An owner never holds more than the limit: a create past it (or for an unknown user) is
//!   refused; a create of an existing id is a store error.
//! - Due schedules are the unpaused ones whose next run is before `now` (to the millisecond),
//!   by next run then id; a page holds at most `limit` index entries counted from the cursor
//!   inclusive (the cursor's own entry, if still due, is dropped from the page), and names a
//!   next page whenever it was full.
//! - `finish_slot` writes only while the schedule is not paused and its next run is still
//!   the slot the run was for: of two ticks on one slot, one records it.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{due_key, MemoryStore};
use crate::domain::{Schedule, ScheduleId, ScheduledRun, UserId};
use crate::store::{DueCursor, DuePage, ScheduleStore, StoreError};

#[async_trait]
impl ScheduleStore for MemoryStore {
    async fn create_schedule(&self, schedule: &Schedule, limit: usize) -> Result<bool, StoreError> {
        self.faults.check("create_schedule")?;
        let mut state = self.state();
        if !state.accounts.contains_key(&schedule.owner) {
            return Ok(false);
        }
        let held = state
            .schedules
            .keys()
            .filter(|(owner, _)| *owner == schedule.owner);
        if held.count() >= limit {
            return Ok(false);
        }
        let key = (schedule.owner, schedule.id);
        if state.schedules.contains_key(&key) {
            return Err(StoreError::new("a schedule with this id exists"));
        }
        state.schedules.insert(key, schedule.clone());
        Ok(true)
    }

    async fn list_schedules(&self, owner: UserId) -> Result<Vec<Schedule>, StoreError> {
        self.faults.check("list_schedules")?;
        let mut schedules: Vec<Schedule> = self
            .state()
            .schedules
            .values()
            .filter(|schedule| schedule.owner == owner)
            .cloned()
            .collect();
        schedules.sort_by_key(|schedule| (schedule.created_at, schedule.id));
        Ok(schedules)
    }

    async fn schedule(
        &self,
        owner: UserId,
        id: ScheduleId,
    ) -> Result<Option<Schedule>, StoreError> {
        self.faults.check("schedule")?;
        Ok(self.state().schedules.get(&(owner, id)).cloned())
    }

    async fn set_paused(
        &self,
        owner: UserId,
        id: ScheduleId,
        paused: bool,
        next_run_at: DateTime<Utc>,
    ) -> Result<Option<Schedule>, StoreError> {
        self.faults.check("set_paused")?;
        Ok(self
            .state()
            .schedules
            .get_mut(&(owner, id))
            .map(|schedule| {
                schedule.paused = paused;
                schedule.next_run_at = next_run_at;
                schedule.clone()
            }))
    }

    async fn delete_schedule(&self, owner: UserId, id: ScheduleId) -> Result<bool, StoreError> {
        self.faults.check("delete_schedule")?;
        Ok(self.state().schedules.remove(&(owner, id)).is_some())
    }

    async fn due_schedules(
        &self,
        now: DateTime<Utc>,
        after: Option<&DueCursor>,
        limit: u32,
    ) -> Result<DuePage, StoreError> {
        self.faults.check("due_schedules")?;
        let before = due_key(now, ScheduleId::from(uuid::Uuid::nil()));
        let from = after.map(DueCursor::as_str);
        if from.is_some_and(|cursor| cursor >= before.as_str()) {
            return Ok(DuePage {
                schedules: Vec::new(),
                next: None,
            });
        }
        let state = self.state();
        let mut index: Vec<(String, &Schedule)> = state
            .schedules
            .values()
            .filter(|schedule| !schedule.paused)
            .map(|schedule| (due_key(schedule.next_run_at, schedule.id), schedule))
            .filter(|(key, _)| *key < before && from.is_none_or(|cursor| key.as_str() >= cursor))
            .collect();
        index.sort_by(|a, b| a.0.cmp(&b.0));
        index.truncate(limit as usize);
        let next = (index.len() == limit as usize)
            .then(|| index.last().map(|(key, _)| DueCursor::new(key.clone())))
            .flatten();
        let schedules = index
            .into_iter()
            .filter(|(key, _)| from != Some(key.as_str()))
            .map(|(_, schedule)| schedule.clone())
            .collect();
        Ok(DuePage { schedules, next })
    }

    async fn finish_slot(
        &self,
        schedule: &Schedule,
        run: &ScheduledRun,
        next: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        self.faults.check("finish_slot")?;
        let mut state = self.state();
        let Some(stored) = state.schedules.get_mut(&(schedule.owner, schedule.id)) else {
            return Ok(false);
        };
        let still_due = !stored.paused
            && due_key(stored.next_run_at, stored.id) == due_key(schedule.next_run_at, schedule.id);
        if still_due {
            stored.next_run_at = next;
            stored.last_run = Some(run.clone());
        }
        Ok(still_due)
    }
}
