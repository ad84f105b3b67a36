//! The pipeline's writes to a job, and the outbox of owed webhook events.
//!
//! Semantics kept from the adapter (`shared/aws/src/dynamo/transitions.rs`, `outbox.rs`):
//! - A transition writes only while the stored job is at the version it was computed from:
//!   otherwise `Superseded`, or `Gone` when the job is not there (or expired).
//! - A start is refused (`AtCapacity`) while the owner has `running_cap` jobs running.
//! - A refund gives the owner's run back in the same step; the write that finishes a job
//!   records its event as owed in that step too.
//! - Usage and brief counts are never written by a transition: the stored ones stay.
//! - A transition ends any stage claim; progress and claims are heartbeats (they move the
//!   job in the stalled list) and need the job's version; a claim is taken only when none is
//!   held or it lapsed or it is the caller's.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{millis, JobRecord, MemoryStore, OwedKey};
use crate::domain::{Job, JobChange, JobStatus, Progress};
use crate::store::{
    EventSubject, JobTransitions, OwedEvent, OwedEvents, StageClaim, StoreError, Transition,
    UsageDelta,
};

impl OwedKey {
    fn of(owed: &OwedEvent) -> Self {
        match &owed.subject {
            EventSubject::Job { job_id } => Self::Job(*job_id, owed.event),
            EventSubject::SkippedRun(run) => {
                Self::SkippedRun(run.schedule_id, run.slot.timestamp_millis())
            }
        }
    }
}

impl MemoryStore {
    fn transition(
        &self,
        current: &Job,
        change: JobChange,
        running_cap: Option<u32>,
    ) -> Result<Transition, StoreError> {
        let owed_event = change.owed_event(current);
        let JobChange { next, refund } = change;
        let mut state = self.state();
        let stored = match state.jobs.get(&current.id) {
            None => return Ok(Transition::Gone),
            Some(record) if record.job.version != current.version => {
                return Ok(if record.job.is_expired(Utc::now()) {
                    Transition::Gone
                } else {
                    Transition::Superseded
                });
            }
            Some(record) => record.job.clone(),
        };
        let moves_status = current.status != next.status;
        if moves_status || refund {
            let running = state
                .jobs
                .values()
                .filter(|r| r.job.owner == current.owner && r.job.status == JobStatus::Running)
                .count();
            let at_cap = running_cap.is_some_and(|cap| {
                next.status == JobStatus::Running && moves_status && running >= cap as usize
            });
            // The adapter's counter update needs the owner's profile: without one its
            // condition fails, which it reads as the start's capacity check.
            let Some(account) = state.accounts.get_mut(&current.owner) else {
                return Ok(Transition::AtCapacity);
            };
            if at_cap {
                return Ok(Transition::AtCapacity);
            }
            if refund {
                account.user.credits_balance += 1;
            }
        }
        let mut written = JobRecord::of(Job {
            usage: stored.usage.clone(),
            briefs: stored.briefs,
            ..next.clone()
        });
        written.lease = None;
        state.jobs.insert(current.id, written);
        if let Some(event) = owed_event {
            let owed = OwedEvent {
                subject: EventSubject::Job { job_id: next.id },
                event,
                owed_since: next.completed_at.unwrap_or_else(Utc::now),
            };
            state.owed.insert(OwedKey::of(&owed), owed);
        }
        Ok(Transition::Applied(Box::new(next)))
    }
}

#[async_trait]
impl JobTransitions for MemoryStore {
    async fn apply(&self, current: &Job, change: JobChange) -> Result<Transition, StoreError> {
        self.faults.check("apply")?;
        self.transition(current, change, None)
    }

    async fn report_progress(&self, job: &Job, progress: Progress) -> Result<bool, StoreError> {
        self.faults.check("report_progress")?;
        let now = Utc::now();
        let mut state = self.state();
        match state.jobs.get_mut(&job.id) {
            Some(record) if record.job.version == job.version => {
                record.job.progress = progress;
                record.job.heartbeat_at = Some(now);
                if record.swept_at.is_some() {
                    record.swept_at = Some(now);
                }
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    async fn add_usage(&self, job: &Job, delta: &UsageDelta) -> Result<bool, StoreError> {
        self.faults.check("add_usage")?;
        let mut state = self.state();
        let Some(record) = state.jobs.get_mut(&job.id) else {
            return Ok(false);
        };
        let usage = record
            .job
            .usage
            .get_or_insert_with(|| crate::domain::ProviderUsage {
                provider: delta.provider.clone(),
                ..Default::default()
            });
        usage.cost_usd += delta.cost_usd;
        usage.requests += delta.requests;
        usage.cache_hits += delta.cache_hits;
        if delta.cap_usd.is_some() {
            usage.cap_usd = delta.cap_usd;
        }
        if delta.cap_reached {
            usage.cap_reached = true;
        }
        Ok(true)
    }

    async fn claim_stage(
        &self,
        job: &Job,
        token: &str,
        until: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<StageClaim, StoreError> {
        self.faults.check("claim_stage")?;
        let mut state = self.state();
        let Some(record) = state.jobs.get_mut(&job.id) else {
            return Ok(StageClaim::Moved);
        };
        if record.job.version != job.version {
            return Ok(StageClaim::Moved);
        }
        let free = match &record.lease {
            None => true,
            Some((holder, lapses)) => millis(*lapses) < millis(now) || holder == token,
        };
        if !free {
            return Ok(if record.job.is_expired(Utc::now()) {
                StageClaim::Moved
            } else {
                StageClaim::Held
            });
        }
        record.lease = Some((token.to_string(), until));
        record.job.heartbeat_at = Some(now);
        if record.swept_at.is_some() {
            record.swept_at = Some(now);
        }
        Ok(StageClaim::Claimed)
    }

    async fn release_stage(&self, job: &Job, token: &str) -> Result<(), StoreError> {
        self.faults.check("release_stage")?;
        if let Some(record) = self.state().jobs.get_mut(&job.id) {
            if record
                .lease
                .as_ref()
                .is_some_and(|(holder, _)| holder == token)
            {
                record.lease = None;
            }
        }
        Ok(())
    }

    async fn start_job(
        &self,
        job: &Job,
        at: DateTime<Utc>,
        running_cap: u32,
    ) -> Result<Transition, StoreError> {
        self.faults.check("start_job")?;
        match job.start(at) {
            Some(change) => self.transition(job, change, Some(running_cap)),
            None => Ok(Transition::Superseded),
        }
    }
}

#[async_trait]
impl OwedEvents for MemoryStore {
    /// One per job and event, one per skipped slot: owing it again overwrites.
    async fn owe_event(&self, owed: &OwedEvent) -> Result<(), StoreError> {
        self.faults.check("owe_event")?;
        self.state().owed.insert(OwedKey::of(owed), owed.clone());
        Ok(())
    }

    /// Owed since before `before` to the millisecond, oldest first.
    async fn owed_events(
        &self,
        before: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<OwedEvent>, StoreError> {
        self.faults.check("owed_events")?;
        let mut owed: Vec<OwedEvent> = self
            .state()
            .owed
            .values()
            .filter(|owed| millis(owed.owed_since) < millis(before))
            .cloned()
            .collect();
        owed.sort_by_key(|owed| millis(owed.owed_since));
        owed.truncate(limit as usize);
        Ok(owed)
    }

    async fn settle_event(&self, owed: &OwedEvent) -> Result<(), StoreError> {
        self.faults.check("settle_event")?;
        self.state().owed.remove(&OwedKey::of(owed));
        Ok(())
    }
}
