//! Jobs: creation charged in one step, reads, listing, deletion and the sweepers' work lists.
//!
//! Semantics kept from the adapter (`shared/aws/src/dynamo/jobs.rs`):
//! - `create_job` is one transaction: the job, a run taken from the profile (refused below
//!   one), a primary domain new to the user registered and paid with one unit of allowance
//!   (refused below one; a registered domain costs nothing), and the idempotency record.
//!   Any refusal writes nothing.
//! - An idempotency record (per user; a client's key and a schedule slot's key apart) lives
//!   24 hours from its job's creation; while it lives, the same key with the same
//!   fingerprint replays the first job and with another is refused, whatever the balances
//!   (the adapter checks the record before the charge). An expired record is overwritten.
//! - Refusals are reported in the contract's order: no runs, then no allowance.
//! - Expired jobs are hidden from `job`, `list_jobs` and `delete_job` but, as before the
//!   table's TTL removes them, still in the sweepers' lists and the list totals.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{millis, IdempotencyKey, IdempotencyRecord, JobRecord, MemoryStore};
use crate::domain::{Job, JobId, JobStatus, NewJob, UserId};
use crate::store::{
    CreateJobOutcome, Idempotency, IdempotencyScope, JobPage, JobStore, ReadCost, StoreError,
};

/// How long a replay of the same idempotency key returns the first job.
const IDEMPOTENCY_WINDOW: chrono::Duration = chrono::Duration::hours(24);

impl From<&IdempotencyScope> for IdempotencyKey {
    fn from(scope: &IdempotencyScope) -> Self {
        match scope {
            IdempotencyScope::Client(key) => Self::Client(key.clone()),
            IdempotencyScope::ScheduledRun { schedule, slot } => {
                Self::ScheduledRun(*schedule, slot.timestamp())
            }
        }
    }
}

impl JobRecord {
    /// As the adapter indexes a job written whole: queued by creation, running by heartbeat.
    pub(super) fn of(job: Job) -> Self {
        let swept_at = match job.status {
            JobStatus::Queued => Some(job.created_at),
            JobStatus::Running => Some(
                job.heartbeat_at
                    .or(job.started_at)
                    .unwrap_or(job.created_at),
            ),
            JobStatus::Completed | JobStatus::Failed => None,
        };
        Self {
            job,
            swept_at,
            lease: None,
        }
    }
}

impl MemoryStore {
    /// Stores jobs as they are, charging nothing (`DynamoStore::import_jobs`): for tests that
    /// need a job in a given state or of a given age.
    pub fn import_jobs(&self, jobs: &[Job]) {
        let mut state = self.state();
        for job in jobs {
            state.jobs.insert(job.id, JobRecord::of(job.clone()));
        }
    }

    /// Jobs of one sweepers' list (`status`) whose sort time is before `before`, oldest first.
    fn swept_before(&self, status: JobStatus, before: DateTime<Utc>, limit: u32) -> Vec<JobId> {
        let state = self.state();
        let mut due: Vec<(i64, JobId)> = state
            .jobs
            .values()
            .filter(|record| record.job.status == status)
            .filter_map(|record| Some((millis(record.swept_at?), record.job.id)))
            .filter(|(at, _)| *at < millis(before))
            .collect();
        due.sort();
        due.into_iter()
            .take(limit as usize)
            .map(|(_, id)| id)
            .collect()
    }
}

#[async_trait]
impl JobStore for MemoryStore {
    async fn create_job(
        &self,
        job: &NewJob,
        idempotency: Option<&Idempotency>,
    ) -> Result<CreateJobOutcome, StoreError> {
        self.faults.check("create_job")?;
        let mut state = self.state();
        let record_key = idempotency.map(|i| (job.owner, IdempotencyKey::from(&i.scope)));
        if let (Some(key), Some(idempotency)) = (&record_key, idempotency) {
            let live = state
                .idempotency
                .get(key)
                .filter(|first| first.ttl >= job.created_at.timestamp());
            if let Some(first) = live {
                return Ok(if first.fingerprint == idempotency.fingerprint {
                    CreateJobOutcome::Replayed {
                        id: first.job_id,
                        created_at: first.created_at,
                    }
                } else {
                    CreateJobOutcome::IdempotencyKeyReused
                });
            }
        }
        if state.jobs.contains_key(&job.id) {
            return Err(StoreError::new(
                "job creation failed an unexpected condition: the job exists",
            ));
        }
        // No profile fails the charge's condition as no runs do.
        let Some(account) = state.accounts.get_mut(&job.owner) else {
            return Ok(CreateJobOutcome::InsufficientCredits);
        };
        if account.user.credits_balance < 1 {
            return Ok(CreateJobOutcome::InsufficientCredits);
        }
        let new_domain = !account.domains.contains_key(&job.primary_domain);
        if new_domain && account.user.domains_balance < 1 {
            return Ok(CreateJobOutcome::DomainLimitReached);
        }
        account.user.credits_balance -= 1;
        if new_domain {
            account.user.domains_balance -= 1;
            account.domains.insert(job.primary_domain.clone(), job.id);
        }
        let mut stored = Job::queued(job);
        stored.expires_at = self.expiry_of(&stored);
        state.jobs.insert(job.id, JobRecord::of(stored.clone()));
        if let (Some(key), Some(idempotency)) = (record_key, idempotency) {
            let record = IdempotencyRecord {
                job_id: job.id,
                created_at: job.created_at,
                fingerprint: idempotency.fingerprint.clone(),
                ttl: (job.created_at + IDEMPOTENCY_WINDOW).timestamp(),
            };
            state.idempotency.insert(key, record);
        }
        Ok(CreateJobOutcome::Created(Box::new(stored)))
    }

    async fn job(&self, id: JobId) -> Result<Option<Job>, StoreError> {
        self.faults.check("job")?;
        Ok(self
            .state()
            .jobs
            .get(&id)
            .map(|record| record.job.clone())
            .filter(|job| !job.is_expired(Utc::now())))
    }

    /// Newest first; the total counts every stored job of the owner (and status), as the
    /// adapter's counters do.
    async fn list_jobs(
        &self,
        owner: UserId,
        status: Option<JobStatus>,
        limit: u32,
        offset: u32,
    ) -> Result<JobPage, StoreError> {
        self.faults.check("list_jobs")?;
        let state = self.state();
        let mut jobs: Vec<Job> = state
            .jobs
            .values()
            .map(|record| &record.job)
            .filter(|job| job.owner == owner && status.is_none_or(|s| job.status == s))
            .cloned()
            .collect();
        let total = jobs.len() as u64;
        let mut reads = ReadCost {
            requests: 1,
            items: 1,
        };
        if u64::from(offset) >= total || limit == 0 {
            return Ok(JobPage {
                jobs: Vec::new(),
                total,
                reads,
            });
        }
        jobs.sort_by_key(|job| std::cmp::Reverse((millis(job.created_at), job.id)));
        let now = Utc::now();
        let page: Vec<Job> = jobs
            .into_iter()
            .filter(|job| !job.is_expired(now))
            .skip(offset as usize)
            .take(limit as usize)
            .collect();
        reads.requests += 1;
        reads.items += offset + page.len() as u32;
        Ok(JobPage {
            jobs: page,
            total,
            reads,
        })
    }

    /// Nothing else goes with the job: not the runs or allowance it was charged, not its
    /// domain's registration, not its share links (as in the adapter).
    async fn delete_job(&self, owner: UserId, id: JobId) -> Result<Option<Job>, StoreError> {
        self.faults.check("delete_job")?;
        let mut state = self.state();
        let deletable = state
            .jobs
            .get(&id)
            .is_some_and(|r| r.job.owner == owner && !r.job.is_expired(Utc::now()));
        Ok(if deletable {
            state.jobs.remove(&id).map(|record| record.job)
        } else {
            None
        })
    }

    /// Queued jobs by their last enqueue (their creation until [`Self::mark_enqueued`]),
    /// strictly before `before` to the millisecond.
    async fn stale_queued_jobs(
        &self,
        before: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<JobId>, StoreError> {
        self.faults.check("stale_queued_jobs")?;
        tokio::task::yield_now().await;
        Ok(self.swept_before(JobStatus::Queued, before, limit))
    }

    /// Only while the job is queued; nothing otherwise.
    async fn mark_enqueued(&self, id: JobId, at: DateTime<Utc>) -> Result<(), StoreError> {
        self.faults.check("mark_enqueued")?;
        if let Some(record) = self.state().jobs.get_mut(&id) {
            if record.job.status == JobStatus::Queued {
                record.swept_at = Some(at);
            }
        }
        Ok(())
    }

    /// Running jobs by their last heartbeat (start, progress, a stage claim).
    async fn stalled_running_jobs(
        &self,
        before: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<JobId>, StoreError> {
        self.faults.check("stalled_running_jobs")?;
        // A query waits on the network: a caller that loops on it can be timed out.
        tokio::task::yield_now().await;
        Ok(self.swept_before(JobStatus::Running, before, limit))
    }

    async fn oldest_queued_job(&self, owner: UserId) -> Result<Option<JobId>, StoreError> {
        self.faults.check("oldest_queued_job")?;
        Ok(self
            .state()
            .jobs
            .values()
            .map(|record| &record.job)
            .filter(|job| job.owner == owner && job.status == JobStatus::Queued)
            .min_by_key(|job| (millis(job.created_at), job.id))
            .map(|job| job.id))
    }
}
