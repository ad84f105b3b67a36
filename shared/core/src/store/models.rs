use chrono::{DateTime, Utc};

use crate::domain::{ApiKeyId, Email, Job, JobId, Plan, ScheduleId, UserId};

#[derive(Debug, Clone, PartialEq)]
pub struct User {
    pub id: UserId,
    pub email: Email,
    pub plan: Plan,
    pub credits_balance: i64,
    pub domains_balance: i64,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Clone)]
pub struct NewUser {
    pub id: UserId,
    pub email: Email,
    pub password_hash: String,
    pub plan: Plan,
    pub credits_balance: i64,
    pub domains_balance: i64,
}

#[derive(Debug, Clone)]
pub struct LoginCredentials {
    pub user_id: UserId,
    pub password_hash: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ApiKeyRecord {
    pub id: ApiKeyId,
    pub user_id: UserId,
    pub name: String,
    pub prefix: String,
    pub created_at: DateTime<Utc>,
    pub last_used_at: Option<DateTime<Utc>>,
}

/// What the auth lookup of an API key yields.
#[derive(Debug, Clone)]
pub struct ApiKeyOwner {
    pub user_id: UserId,
    pub key_id: ApiKeyId,
    pub last_used_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone)]
pub struct Session {
    pub user_id: UserId,
    pub expires_at: DateTime<Utc>,
}

/// Whose idempotency key it is. The two are stored apart, so no `Idempotency-Key` a client
/// sends can take, or block, the place of a scheduled run's job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdempotencyScope {
    /// A client's `Idempotency-Key` header value (or the MCP tool's argument).
    Client(String),
    /// The tick's key for one slot of a schedule: the same for every tick handling the slot.
    ScheduledRun {
        schedule: ScheduleId,
        slot: DateTime<Utc>,
    },
}

/// An idempotency key with a fingerprint of the request it came with.
#[derive(Debug, Clone)]
pub struct Idempotency {
    pub scope: IdempotencyScope,
    pub fingerprint: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum CreateJobOutcome {
    Created(Box<Job>),
    /// The same idempotency key and request were seen before: the first job.
    Replayed {
        id: JobId,
        created_at: DateTime<Utc>,
    },
    IdempotencyKeyReused,
    InsufficientCredits,
    DomainLimitReached,
}

#[derive(Debug, Clone)]
pub struct JobPage {
    pub jobs: Vec<Job>,
    pub total: u64,
    /// Store requests and items read to serve the page, for the benchmark.
    pub reads: ReadCost,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadCost {
    pub requests: u32,
    pub items: u32,
}
