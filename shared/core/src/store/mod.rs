//! Store ports: one small trait per group of store operations. Handlers and the pipeline
//! depend on these traits; `kr-aws` implements them on DynamoDB, S3 and SQS.

mod branding;
/// In-memory fakes of these ports, for tests (the `testing` feature for other crates').
#[cfg(any(test, feature = "testing"))]
pub mod memory;
mod message;
mod models;
mod schedules;
mod search_console;
mod share_links;
mod webhooks;

pub use branding::{Branding, BrandingStore, LogoInfo};
pub use message::PipelineMessage;
pub use models::*;
pub use schedules::{DueCursor, DuePage, ScheduleStore};
pub use search_console::{PendingAuthorization, SearchConsoleConnection, SearchConsoleStore};
pub use share_links::ShareLinkStore;
pub use webhooks::{
    CreateWebhookOutcome, DeliveryAttempt, DeliveryTarget, EventSubject, FanOutLog, OwedEvent,
    OwedEvents, SkippedRun, Webhook, WebhookMessage, WebhookQueue, WebhookStore,
};

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::{
    AiAnswersOutcome, ApiKeyId, DomainName, Email, Job, JobChange, JobId, JobStatus, NewJob, Plan,
    Progress, SearchConsoleImport, SecretHash, Stage, UserId,
};

/// A store call failed for a reason the caller cannot act on (network, throttling, a bug).
#[derive(Debug, thiserror::Error)]
#[error("store: {0}")]
pub struct StoreError(pub String);

impl StoreError {
    pub fn new(cause: impl std::fmt::Display) -> Self {
        Self(cause.to_string())
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CreateUserError {
    #[error("a user with this e-mail address exists")]
    EmailTaken,
    #[error(transparent)]
    Store(#[from] StoreError),
}

#[async_trait]
pub trait UserStore: Send + Sync {
    async fn create_user(&self, user: NewUser) -> Result<User, CreateUserError>;
    async fn user(&self, id: UserId) -> Result<Option<User>, StoreError>;
    async fn user_by_email(&self, email: &Email) -> Result<Option<User>, StoreError>;
    async fn set_balance(
        &self,
        id: UserId,
        credits: Option<i64>,
        domains: Option<i64>,
    ) -> Result<Option<User>, StoreError>;
    async fn set_plan(&self, id: UserId, plan: Plan) -> Result<Option<User>, StoreError>;
}

/// A port of its own, so functions that never list domains do not link their parsing (the
/// public suffix list) through `UserStore`'s vtable.
#[async_trait]
pub trait RegisteredDomains: Send + Sync {
    /// The primary domains the user has paid the allowance for: new jobs on them cost no
    /// allowance. Sorted.
    async fn registered_domains(&self, id: UserId) -> Result<Vec<DomainName>, StoreError>;
}

#[async_trait]
pub trait CredentialStore: Send + Sync {
    /// The password hash and owner for a login attempt.
    async fn login_credentials(
        &self,
        email: &Email,
    ) -> Result<Option<LoginCredentials>, StoreError>;
}

#[async_trait]
pub trait ApiKeyStore: Send + Sync {
    /// Stores the key unless the user already holds `max_keys`; `false` then.
    async fn create_api_key(
        &self,
        key: &ApiKeyRecord,
        secret_hash: &SecretHash,
        max_keys: u32,
    ) -> Result<bool, StoreError>;
    async fn list_api_keys(&self, user: UserId) -> Result<Vec<ApiKeyRecord>, StoreError>;
    /// Returns false when the user has no such key.
    async fn revoke_api_key(&self, user: UserId, key: ApiKeyId) -> Result<bool, StoreError>;
    /// The one read behind every API-key-authenticated request.
    async fn resolve_api_key(
        &self,
        secret_hash: &SecretHash,
    ) -> Result<Option<ApiKeyOwner>, StoreError>;
    async fn touch_api_key(
        &self,
        secret_hash: &SecretHash,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError>;
}

#[async_trait]
pub trait SessionStore: Send + Sync {
    async fn create_session(
        &self,
        token_hash: &SecretHash,
        session: &Session,
    ) -> Result<(), StoreError>;
    /// The one read behind every cookie-authenticated request; expired sessions are `None`.
    async fn resolve_session(
        &self,
        token_hash: &SecretHash,
        now: DateTime<Utc>,
    ) -> Result<Option<Session>, StoreError>;
    async fn delete_session(&self, token_hash: &SecretHash) -> Result<(), StoreError>;
}

#[async_trait]
pub trait JobStore: Send + Sync {
    /// Stores the job, consumes a run and, for a primary domain new to the user, one unit of
    /// domain allowance, all in one transaction.
    async fn create_job(
        &self,
        job: &NewJob,
        idempotency: Option<&Idempotency>,
    ) -> Result<CreateJobOutcome, StoreError>;
    async fn job(&self, id: JobId) -> Result<Option<Job>, StoreError>;
    /// Newest first; reads `offset + limit` index entries, never the whole history.
    async fn list_jobs(
        &self,
        owner: UserId,
        status: Option<JobStatus>,
        limit: u32,
        offset: u32,
    ) -> Result<JobPage, StoreError>;
    /// Removes the job if `owner` owns it; returns what was removed.
    async fn delete_job(&self, owner: UserId, id: JobId) -> Result<Option<Job>, StoreError>;
    /// Jobs still `queued` whose last enqueue is older than `before`, oldest first.
    async fn stale_queued_jobs(
        &self,
        before: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<JobId>, StoreError>;
    /// Records that the job's first message was (re)sent at `at`.
    async fn mark_enqueued(&self, id: JobId, at: DateTime<Utc>) -> Result<(), StoreError>;
    /// Jobs `running` whose last heartbeat is older than `before`, oldest first.
    async fn stalled_running_jobs(
        &self,
        before: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<JobId>, StoreError>;
    /// The owner's oldest job still `queued`, next in line for a running slot.
    async fn oldest_queued_job(&self, owner: UserId) -> Result<Option<JobId>, StoreError>;
}

/// Messages that drive the pipeline.
#[async_trait]
pub trait JobQueue: Send + Sync {
    async fn enqueue(&self, message: &PipelineMessage) -> Result<(), StoreError>;
    /// Sends `message` to be delivered no sooner than `delay` from now (at most 15 minutes,
    /// SQS's longest delay; longer ones are cut to it).
    async fn enqueue_after(
        &self,
        message: &PipelineMessage,
        delay: std::time::Duration,
    ) -> Result<(), StoreError>;
}

/// How many cluster briefs a completed job has had made, each counted once within a bound,
/// who is making one right now, and what their wording cost.
#[async_trait]
pub trait BriefLedger: Send + Sync {
    /// Claims the making of `cluster_id`'s brief for `token` until `until`. The first claim
    /// counts the brief against the job's `max` in the same write; a claim whose holder let
    /// its lease run out (a maker that stopped) is taken over without counting again.
    async fn claim_brief(&self, claim: &BriefClaim<'_>) -> Result<ClaimOutcome, StoreError>;
    /// Ends `token`'s claim early (the making failed), so the next request makes the brief at
    /// once, uncounted; nothing when another holds it now.
    async fn release_brief(
        &self,
        job: JobId,
        cluster_id: &str,
        token: &str,
    ) -> Result<(), StoreError>;
    /// Adds a brief's model spend to the job's usage; `false` when the job is gone.
    async fn add_brief_usage(&self, job: &Job, delta: &UsageDelta) -> Result<bool, StoreError>;
}

/// A request to make one cluster's brief.
#[derive(Debug, Clone, Copy)]
pub struct BriefClaim<'a> {
    pub job: &'a Job,
    /// The dataset's own id of the cluster.
    pub cluster_id: &'a str,
    /// Briefs the job may have made.
    pub max: u32,
    pub token: &'a str,
    pub now: DateTime<Utc>,
    /// When the claim lapses if its holder never finishes.
    pub until: DateTime<Utc>,
}

/// Outcome of [`BriefLedger::claim_brief`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimOutcome {
    /// The caller makes the brief; `counted` when this claim counted it.
    Claimed { counted: bool },
    /// Another caller is making it, until `until` at the latest.
    Held { until: DateTime<Utc> },
    /// The job has had its bound of briefs made (or is gone).
    LimitReached,
}

/// Everything stored for a job outside DynamoDB.
#[async_trait]
pub trait ResultStore: Send + Sync {
    async fn delete_results(&self, job: JobId) -> Result<(), StoreError>;
}

/// Outcome of a conditional job transition.
#[derive(Debug, Clone, PartialEq)]
pub enum Transition {
    /// Written; the job as it now is.
    Applied(Box<Job>),
    /// Someone else moved the job first (a duplicate message, a concurrent worker).
    Superseded,
    /// The job no longer exists.
    Gone,
    /// A start refused because the owner already has their cap of jobs running.
    AtCapacity,
}

/// Outcome of claiming the job's current stage before running it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageClaim {
    /// This worker holds the stage until the lease ends or it is released.
    Claimed,
    /// Another worker holds it: this copy of the message must not run the stage.
    Held,
    /// The job moved on (or is gone) since it was read.
    Moved,
}

/// What one batch of provider calls added to a job's usage.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UsageDelta {
    pub provider: String,
    pub cost_usd: f64,
    pub requests: u64,
    pub cache_hits: u64,
    pub cap_usd: Option<f64>,
    pub cap_reached: bool,
}

/// The pipeline's writes to a job. Each is conditional on the job's `version`, so stale or
/// duplicate work can never move a job backwards or resurrect a deleted one. What each step
/// does to the job is the domain's ([`Job::start`] and its siblings); a store only writes it.
#[async_trait]
pub trait JobTransitions: Send + Sync {
    /// Writes `change.next` if the job is still at `current.version`, moving the owner's
    /// status counters (and giving the run back when `change.refund`) in the same write.
    async fn apply(&self, current: &Job, change: JobChange) -> Result<Transition, StoreError>;
    /// Progress inside the current stage; no version change, so it never conflicts with
    /// the stage's own transition. `false` when the job has moved on or is gone.
    async fn report_progress(&self, job: &Job, progress: Progress) -> Result<bool, StoreError>;
    /// Adds to the job's provider usage atomically, without a version change: concurrent
    /// calls and retried stages are all counted, and transitions never write usage. `false`
    /// when the job is gone.
    async fn add_usage(&self, job: &Job, delta: &UsageDelta) -> Result<bool, StoreError>;
    /// Claims the job's current stage until `until`, if the job is still at its version and
    /// no other worker holds an unexpired claim; refreshes the heartbeat.
    async fn claim_stage(
        &self,
        job: &Job,
        token: &str,
        until: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<StageClaim, StoreError>;
    /// Gives a claim back early (a stage that will be retried), if it is still `token`'s.
    async fn release_stage(&self, job: &Job, token: &str) -> Result<(), StoreError>;

    /// `queued → running` at the first stage, unless the owner already has `running_cap`
    /// jobs running ([`Transition::AtCapacity`]).
    async fn start_job(
        &self,
        job: &Job,
        at: DateTime<Utc>,
        running_cap: u32,
    ) -> Result<Transition, StoreError>;
    /// The current stage is done; `next` runs next.
    async fn advance_job(
        &self,
        job: &Job,
        next: Stage,
        progress: Progress,
    ) -> Result<Transition, StoreError> {
        self.apply(job, job.advance(next, progress)).await
    }
    /// `running → completed`, with what its Search Console import and its questions to answer
    /// engines came to, if anything.
    async fn complete_job(
        &self,
        job: &Job,
        keyword_count: i64,
        search_console: Option<SearchConsoleImport>,
        ai_answers: Option<AiAnswersOutcome>,
        at: DateTime<Utc>,
    ) -> Result<Transition, StoreError> {
        self.apply_if(
            job,
            job.complete_with(keyword_count, search_console, ai_answers, at),
        )
        .await
    }
    /// `queued|running → failed`, giving the run back. The refund happens at most once: the
    /// transition is conditional on the job not being finished.
    async fn fail_job(
        &self,
        job: &Job,
        error_message: &str,
        at: DateTime<Utc>,
    ) -> Result<Transition, StoreError> {
        self.apply_if(job, job.fail(error_message, at)).await
    }
    /// A change the lifecycle refused (`None`) means the job has already moved on.
    async fn apply_if(
        &self,
        current: &Job,
        change: Option<JobChange>,
    ) -> Result<Transition, StoreError> {
        match change {
            Some(change) => self.apply(current, change).await,
            None => Ok(Transition::Superseded),
        }
    }
}

/// Named objects stored for a job (stage outputs, references, the results dataset).
#[async_trait]
pub trait ArtifactStore: Send + Sync {
    async fn put_artifact(&self, job: JobId, name: &str, bytes: Vec<u8>) -> Result<(), StoreError>;
    /// Stores an object of `job` to be deleted with it: a store with its own expiry marks it
    /// unless the job never expires (the demo account's).
    async fn put_job_artifact(
        &self,
        job: &Job,
        name: &str,
        bytes: Vec<u8>,
    ) -> Result<(), StoreError> {
        self.put_artifact(job.id, name, bytes).await
    }
    async fn get_artifact(&self, job: JobId, name: &str) -> Result<Option<Vec<u8>>, StoreError>;
}

pub async fn put_json<T: serde::Serialize + Sync>(
    store: &dyn ArtifactStore,
    job: JobId,
    name: &str,
    value: &T,
) -> Result<(), StoreError> {
    store
        .put_artifact(
            job,
            name,
            serde_json::to_vec(value).map_err(StoreError::new)?,
        )
        .await
}

/// [`put_json`] for an object that expires with its job ([`ArtifactStore::put_job_artifact`]).
pub async fn put_job_json<T: serde::Serialize + Sync>(
    store: &dyn ArtifactStore,
    job: &Job,
    name: &str,
    value: &T,
) -> Result<(), StoreError> {
    store
        .put_job_artifact(
            job,
            name,
            serde_json::to_vec(value).map_err(StoreError::new)?,
        )
        .await
}

/// A completed job's dataset, checked and ready to read in place: from its stored form, else
/// from the stored form of format 3, 2 or 1 (converted once), else from the JSON of a job
/// completed before the stored form existed.
pub async fn get_stored_dataset(
    store: &dyn ArtifactStore,
    job: JobId,
) -> Result<Option<crate::dataset::stored::DatasetBytes>, StoreError> {
    use crate::dataset::stored::DatasetBytes;
    use crate::dataset::{objects, ResultsDataset};
    if let Some(bytes) = store.get_artifact(job, &objects::stored_dataset()).await? {
        return DatasetBytes::decode(&bytes)
            .map(Some)
            .map_err(StoreError::new);
    }
    type Decode = fn(&[u8]) -> Result<ResultsDataset, crate::dataset::stored::StoredDatasetError>;
    let older: [(String, Decode); 3] = [
        (
            objects::stored_dataset_v3(),
            crate::dataset::stored::decode_v3,
        ),
        (
            objects::stored_dataset_v2(),
            crate::dataset::stored::decode_v2,
        ),
        (
            objects::stored_dataset_v1(),
            crate::dataset::stored::decode_v1,
        ),
    ];
    for (name, decode) in older {
        if let Some(bytes) = store.get_artifact(job, &name).await? {
            let dataset = decode(&bytes).map_err(StoreError::new)?;
            return DatasetBytes::from_dataset(&dataset)
                .map(Some)
                .map_err(StoreError::new);
        }
    }
    match get_json::<ResultsDataset>(store, job, &objects::json_dataset()).await? {
        Some(dataset) => DatasetBytes::from_dataset(&dataset)
            .map(Some)
            .map_err(StoreError::new),
        None => Ok(None),
    }
}

/// A completed job's dataset with every record in memory (see [`get_stored_dataset`]).
pub async fn get_dataset(
    store: &dyn ArtifactStore,
    job: JobId,
) -> Result<Option<crate::dataset::ResultsDataset>, StoreError> {
    Ok(get_stored_dataset(store, job).await?.map(|records| {
        let mut dataset: crate::dataset::ResultsDataset =
            crate::dataset::stored::owned(records.archived());
        dataset.job_id = job;
        dataset
    }))
}

/// Stores `dataset` as the pipeline does, in the form readers load.
pub async fn put_dataset(
    store: &dyn ArtifactStore,
    dataset: &crate::dataset::ResultsDataset,
) -> Result<(), StoreError> {
    use crate::dataset::{objects, stored};
    let bytes = stored::encode(dataset).map_err(StoreError::new)?;
    store
        .put_artifact(dataset.job_id, &objects::stored_dataset(), bytes)
        .await
}

pub async fn get_json<T: serde::de::DeserializeOwned>(
    store: &dyn ArtifactStore,
    job: JobId,
    name: &str,
) -> Result<Option<T>, StoreError> {
    match store.get_artifact(job, name).await? {
        Some(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(StoreError::new),
        None => Ok(None),
    }
}

/// A stored object read piece by piece, so serving it never holds it whole in memory.
pub type ObjectStream = futures_util::stream::BoxStream<'static, Result<bytes::Bytes, StoreError>>;

/// A data provider's raw response, kept so later jobs asking the same question do not pay
/// again.
#[derive(Debug, Clone, PartialEq)]
pub struct CachedResponse {
    pub stored_at: DateTime<Utc>,
    pub body: Vec<u8>,
}

/// Provider responses shared across jobs, keyed by a digest of endpoint and parameters.
#[async_trait]
pub trait ProviderCache: Send + Sync {
    async fn cached_response(&self, key: &str) -> Result<Option<CachedResponse>, StoreError>;
    async fn store_response(&self, key: &str, response: &CachedResponse) -> Result<(), StoreError>;
}

/// One of a pool's concurrent slots, held until released or until `expires_at`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlotLease {
    pub pool: String,
    pub slot: u32,
    /// Proves ownership on release, so an expired lease cannot free someone else's slot.
    pub token: String,
    pub expires_at: DateTime<Utc>,
}

/// Provider rate limits shared by every worker of the deployment (one provider account).
#[async_trait]
pub trait ProviderRateGate: Send + Sync {
    /// Takes a free one of `limit` slots of `pool` for at most `lease`; `None` when all are held.
    async fn try_acquire_slot(
        &self,
        pool: &str,
        limit: u32,
        lease: std::time::Duration,
        now: DateTime<Utc>,
    ) -> Result<Option<SlotLease>, StoreError>;
    async fn release_slot(&self, lease: &SlotLease) -> Result<(), StoreError>;
    /// Counts one request against `limit` per calendar minute of `pool`; `false` when that
    /// minute is already full.
    async fn try_take_minute_token(
        &self,
        pool: &str,
        limit: u32,
        now: DateTime<Utc>,
    ) -> Result<bool, StoreError>;
}

/// Request counters shared by every function instance (rate limits): per subject, one item
/// holding a count per time bucket (`service::rate_limits::window` sums them into a sliding
/// window).
#[async_trait]
pub trait RequestCounters: Send + Sync {
    /// Adds one request to `subject`'s bucket starting at `bucket_start` (epoch seconds), in
    /// one atomic write that returns every bucket right after it. The subject is kept at least
    /// until `expires_at`.
    async fn add_to_bucket(
        &self,
        subject: &str,
        bucket_start: i64,
        expires_at: i64,
    ) -> Result<Vec<RequestBucket>, StoreError>;
    /// Takes one request back out of `subject`'s bucket starting at `bucket_start`; nothing
    /// once that bucket has been dropped.
    async fn take_back(&self, subject: &str, bucket_start: i64) -> Result<(), StoreError>;
    /// Drops `subject`'s buckets starting at `starts`.
    async fn drop_buckets(&self, subject: &str, starts: &[i64]) -> Result<(), StoreError>;
    /// Every bucket of `subject` as of every add that has returned.
    async fn buckets(&self, subject: &str) -> Result<Vec<RequestBucket>, StoreError>;
}

/// How many requests one time bucket of a subject holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestBucket {
    /// Epoch seconds the bucket starts at.
    pub start: i64,
    pub count: u64,
}

#[async_trait]
pub trait ExportStore: Send + Sync {
    /// The job's CSV export as a stream; `None` when it was never written.
    async fn open_export(&self, job: JobId) -> Result<Option<ObjectStream>, StoreError>;
}
