//! In-memory fakes of the store ports, for tests that run the use cases without AWS or an
//! emulator. Compiled for kr-core's own tests and, with the `testing` feature, for other
//! crates' tests (`kr-core = { workspace = true, features = ["testing"] }` under
//! `[dev-dependencies]`).
//!
//! - [`MemoryStore`]: the DynamoDB table's ports (users, jobs, transitions, the outbox,
//!   schedules, share links), all state behind one lock, so every call is one atomic step
//!   as each DynamoDB transaction is. Where the use cases rely on a conditional write, the
//!   fake keeps the adapter's condition (`shared/aws/src/dynamo`); each port's file says which.
//! - [`MemoryQueue`]: the SQS queues (pipeline messages and webhook messages), recorded.
//! - [`MemoryObjects`]: the S3 objects of jobs (artifacts, results, the export).
//!
//! Each fake can be told to fail an operation ([`MemoryStore::fail`]): every call of the
//! port method of that name then returns a [`StoreError`] until [`MemoryStore::heal`].
//!
//! Not modelled: eventual consistency (the adapter's reads that matter are strongly
//! consistent, and its index reads re-check the item), DynamoDB's TTL deletion (expired jobs
//! stay stored and are hidden from readers, as they are between expiry and deletion), and
//! transaction conflicts (one lock serialises every call).

mod jobs;
mod objects;
mod queue;
mod schedules;
mod search_console;
mod share_links;
mod transitions;
mod users;

pub use objects::MemoryObjects;
pub use queue::{Enqueued, MemoryQueue};

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Mutex, MutexGuard, PoisonError};

use chrono::{DateTime, SecondsFormat, Utc};

use super::{OwedEvent, StoreError};
use crate::domain::{
    DomainName, Email, Job, JobId, ScheduleId, SecretHash, ShareLink, UserId, WebhookEvent,
};
use crate::store::User;

/// Operations told to fail, by port method name (`"create_job"`, `"finish_slot"`…).
#[derive(Debug, Default)]
pub(crate) struct Faults(Mutex<HashSet<&'static str>>);

impl Faults {
    fn set(&self) -> MutexGuard<'_, HashSet<&'static str>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn fail(&self, operation: &'static str) {
        self.set().insert(operation);
    }

    pub(crate) fn heal(&self, operation: &'static str) {
        self.set().remove(operation);
    }

    /// `Err` while `operation` is told to fail.
    pub(crate) fn check(&self, operation: &'static str) -> Result<(), StoreError> {
        if self.set().contains(operation) {
            return Err(StoreError::new(format!("{operation}: injected failure")));
        }
        Ok(())
    }
}

/// A user's profile, domain allowance and registered domains (the adapter's `PROFILE`,
/// `QUOTA#DOMAINS` and `DOMAIN#…` items).
#[derive(Debug, Clone)]
struct Account {
    user: User,
    password_hash: String,
    /// Each primary domain the user has paid the allowance for, with the job that paid it.
    domains: BTreeMap<DomainName, JobId>,
}

/// A stored job with what the adapter keeps beside it on the item.
#[derive(Debug, Clone)]
struct JobRecord {
    job: Job,
    /// GSI3's sort time: while queued the last enqueue (creation at first), while running the
    /// last heartbeat; `None` once finished (the job leaves the sweepers' index).
    swept_at: Option<DateTime<Utc>>,
    /// The stage claim: its holder's token and when it lapses.
    lease: Option<(String, DateTime<Utc>)>,
}

/// Which idempotency record: a client's keys and the tick's slot keys are kept apart, as the
/// adapter keeps them (hashed client keys against `SCHEDULE#…`), so no client key can take
/// or block a scheduled run's place.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum IdempotencyKey {
    Client(String),
    /// A schedule's slot, in epoch seconds as the adapter keys it.
    ScheduledRun(ScheduleId, i64),
}

#[derive(Debug, Clone)]
struct IdempotencyRecord {
    job_id: JobId,
    created_at: DateTime<Utc>,
    fingerprint: String,
    /// Epoch seconds from which the record counts as absent (24 hours after its job).
    ttl: i64,
}

/// Where an owed event is stored: one per job and event, one per skipped slot.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum OwedKey {
    Job(JobId, WebhookEvent),
    SkippedRun(ScheduleId, i64),
}

#[derive(Debug, Clone)]
struct SlotRecord {
    link: ShareLink,
    token_hash: SecretHash,
}

#[derive(Debug, Default)]
struct State {
    accounts: HashMap<UserId, Account>,
    emails: HashMap<Email, UserId>,
    jobs: HashMap<JobId, JobRecord>,
    idempotency: HashMap<(UserId, IdempotencyKey), IdempotencyRecord>,
    schedules: HashMap<(UserId, ScheduleId), crate::domain::Schedule>,
    /// A job's share link slots, `0..max_live`.
    share_slots: BTreeMap<(JobId, u32), SlotRecord>,
    /// Links by their token's hash (kept when a link's expired slot is taken over, as the
    /// adapter's lookup item is, until its TTL).
    share_lookup: HashMap<SecretHash, ShareLink>,
    owed: HashMap<OwedKey, OwedEvent>,
    /// Consent flows by their state's hash.
    search_console_flows: HashMap<SecretHash, crate::store::PendingAuthorization>,
    search_console: HashMap<UserId, crate::store::SearchConsoleConnection>,
}

/// How long new jobs are kept, and whose are kept for ever (the demo account's).
#[derive(Debug, Clone, Copy)]
struct Retention {
    keep_for: chrono::Duration,
    kept_owner: Option<UserId>,
}

/// The DynamoDB table's ports in memory. See the module's documentation.
#[derive(Debug, Default)]
pub struct MemoryStore {
    state: Mutex<State>,
    retention: Option<Retention>,
    faults: Faults,
}

impl MemoryStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// New jobs expire `days` after creation, except those of `kept_owner`, as with
    /// `DynamoStore::with_retention`.
    pub fn with_retention(mut self, days: u32, kept_owner: Option<UserId>) -> Self {
        self.retention = Some(Retention {
            keep_for: chrono::Duration::days(days.into()),
            kept_owner,
        });
        self
    }

    /// Every call of the port method `operation` fails from now on.
    pub fn fail(&self, operation: &'static str) {
        self.faults.fail(operation);
    }

    /// `operation` works again.
    pub fn heal(&self, operation: &'static str) {
        self.faults.heal(operation);
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn expiry_of(&self, job: &Job) -> Option<DateTime<Utc>> {
        let retention = self.retention?;
        (retention.kept_owner != Some(job.owner)).then(|| job.created_at + retention.keep_for)
    }

    /// Every stored job, expired ones included, oldest first: what a test inspects.
    pub fn stored_jobs(&self) -> Vec<Job> {
        let mut jobs: Vec<Job> = self.state().jobs.values().map(|r| r.job.clone()).collect();
        jobs.sort_by_key(|job| (job.created_at, job.id));
        jobs
    }

    /// Every owed event, oldest first.
    pub fn owed_now(&self) -> Vec<OwedEvent> {
        let mut owed: Vec<OwedEvent> = self.state().owed.values().cloned().collect();
        owed.sort_by_key(|owed| owed.owed_since);
        owed
    }
}

/// A time as the adapter's sort keys hold it: milliseconds.
fn millis(at: DateTime<Utc>) -> i64 {
    at.timestamp_millis()
}

/// A schedule's place among the due ones, in the adapter's own form (`DueCursor`s hold it).
fn due_key(next_run_at: DateTime<Utc>, schedule: ScheduleId) -> String {
    format!(
        "{}#{schedule}",
        next_run_at.to_rfc3339_opts(SecondsFormat::Millis, true)
    )
}
