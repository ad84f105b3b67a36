use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::domain::{
    ApiKeyId, DomainName, Email, JobId, JobStatus, LanguageCode, LocationCode, Plan, Progress,
    Stage, UserId,
};

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

/// A job as stored. `version` increases with every write, for conditional updates.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    pub id: JobId,
    pub owner: UserId,
    pub status: JobStatus,
    pub primary_domain: DomainName,
    pub competitor_domains: Vec<DomainName>,
    pub language_code: String,
    pub location_code: u32,
    pub created_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub completed_at: Option<DateTime<Utc>>,
    pub progress: Progress,
    pub error_message: Option<String>,
    pub keyword_count: Option<i64>,
    /// The pipeline stage to run next (or running now); `None` before start and once finished.
    pub stage: Option<Stage>,
    pub version: u64,
    /// Set once the run of a failed job has been given back.
    pub refunded: bool,
    /// What the job's paid data provider calls cost; `None` when it made none.
    pub usage: Option<ProviderUsage>,
}

/// Paid data provider calls of one job (the Job resource's `usage`). Stored on the job item
/// as is; fields missing from an older item read as their defaults.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ProviderUsage {
    /// "dataforseo".
    pub provider: String,
    /// Sum of the `cost` of every response, USD.
    pub cost_usd: f64,
    /// Requests sent to the provider (retries included).
    pub requests: u64,
    /// Answers taken from the cross-job cache instead of a paid request.
    pub cache_hits: u64,
    /// The job's spending cap, USD, if one is configured.
    pub cap_usd: Option<f64>,
    /// The cap stopped further paid calls.
    pub cap_reached: bool,
}

#[derive(Debug, Clone)]
pub struct NewJob {
    pub id: JobId,
    pub owner: UserId,
    pub primary_domain: DomainName,
    pub competitor_domains: Vec<DomainName>,
    pub language_code: LanguageCode,
    pub location_code: LocationCode,
    pub created_at: DateTime<Utc>,
}

/// A client's `Idempotency-Key` with a fingerprint of the request it came with.
#[derive(Debug, Clone)]
pub struct Idempotency {
    pub key: String,
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
