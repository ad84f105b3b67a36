//! Creating a job: validated beforehand ([`super::CreateJobRequest`]), here charged, stored
//! with its imported keywords, and sent to its first stage.

use chrono::{DateTime, Utc};

use super::CreateJobRequest;
use crate::dataset::objects;
use crate::domain::{JobId, JobStatus, KeywordList, NewJob, ScheduleId, Stage, UserId};
use crate::service::webhook_signing::SigningKey;
use crate::store::{
    ArtifactStore, CreateJobOutcome, Idempotency, IdempotencyScope, JobQueue, JobStore,
    PipelineMessage, ResultStore, StoreError,
};

/// A job created (or the first one of a replayed request): what the creator is told.
#[derive(Debug, Clone)]
pub struct CreatedJob {
    pub id: JobId,
    pub status: JobStatus,
    pub created_at: DateTime<Utc>,
    /// Only when the request brought keywords: what became of them.
    pub keyword_import: Option<KeywordImport>,
    /// Only with a callback URL: the secret its deliveries are signed with.
    pub callback_secret: Option<String>,
}

/// What became of the keywords a request brought.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeywordImport {
    /// Distinct phrases the job researches.
    pub imported: usize,
    /// Entries dropped as the same phrase as an earlier one once cleaned.
    pub duplicates: usize,
}

impl KeywordImport {
    fn of(list: &KeywordList) -> Self {
        Self {
            imported: list.len(),
            duplicates: list.duplicates(),
        }
    }
}

#[derive(Debug)]
pub enum CreateJobError {
    InsufficientCredits,
    DomainLimitReached,
    IdempotencyKeyReused,
    Store(StoreError),
}

impl From<StoreError> for CreateJobError {
    fn from(err: StoreError) -> Self {
        Self::Store(err)
    }
}

/// What creating a job writes to: the job and its balances, the first pipeline message, and
/// the imported keywords (removed again when no job results).
pub struct JobPorts<'a> {
    pub jobs: &'a dyn JobStore,
    pub queue: &'a dyn JobQueue,
    pub artifacts: &'a dyn ArtifactStore,
    pub removals: &'a dyn ResultStore,
}

/// Stores the job (charging a run and, for a new primary domain, the allowance) and sends
/// its first pipeline message. A failed send leaves the job `queued` for the sweeper
/// ([`requeue_stale_jobs`](super::requeue_stale_jobs)) rather than failing a request whose
/// job is already paid for.
///
/// Imported keywords are stored first, under the new job's id: a list that cannot be stored
/// charges nothing, and one whose job is not created (no runs, a replay) is removed again.
pub async fn create_job(
    ports: &JobPorts<'_>,
    owner: UserId,
    request: CreateJobRequest,
    idempotency_key: Option<String>,
    callback_key: Option<&SigningKey>,
) -> Result<CreatedJob, CreateJobError> {
    let idempotency = idempotency_key.map(IdempotencyScope::Client);
    create_job_of(ports, owner, request, idempotency, callback_key, None).await
}

/// [`create_job`] for a run of `schedule` (`None`: a job created by hand), whose key is the
/// slot's own ([`IdempotencyScope::ScheduledRun`]), out of clients' reach.
pub async fn create_job_of(
    ports: &JobPorts<'_>,
    owner: UserId,
    request: CreateJobRequest,
    idempotency: Option<IdempotencyScope>,
    callback_key: Option<&SigningKey>,
    schedule: Option<ScheduleId>,
) -> Result<CreatedJob, CreateJobError> {
    // Asked for before anything is charged: a job must not be paid for and lack its secret.
    let callback_key = match (&request.callback_url, callback_key) {
        (None, _) => None,
        (Some(_), Some(key)) => Some(key),
        (Some(_), None) => {
            return Err(CreateJobError::Store(StoreError::new(
                "a job with a callbackUrl needs the webhook signing key",
            )))
        }
    };
    let idempotency = idempotency.map(|scope| Idempotency {
        scope,
        fingerprint: request.fingerprint(),
    });
    let keyword_import = request.keywords.as_ref().map(KeywordImport::of);
    let new_job = NewJob {
        id: JobId::new(),
        owner,
        primary_domain: request.primary_domain,
        competitor_domains: request.competitor_domains,
        language_code: request.language_code,
        location_code: request.location_code,
        created_at: Utc::now(),
        imported_keywords: request
            .keywords
            .as_ref()
            .map_or(0, |list| list.len() as u32),
        discover_keywords: request.discover_keywords,
        callback_url: request.callback_url.clone(),
        schedule_id: schedule,
        search_console_property: request.search_console_property.clone(),
    };
    let imported = match &request.keywords {
        Some(list) => {
            let bytes = serde_json::to_vec(&imported_phrases(list)).map_err(StoreError::new)?;
            ports
                .artifacts
                .put_artifact(new_job.id, objects::IMPORTED_KEYWORDS, bytes.clone())
                .await?;
            Some(bytes)
        }
        None => None,
    };
    let outcome = ports.jobs.create_job(&new_job, idempotency.as_ref()).await;
    if imported.is_some() && !matches!(outcome, Ok(CreateJobOutcome::Created(_))) {
        if let Err(err) = ports.removals.delete_results(new_job.id).await {
            tracing::warn!(job = %new_job.id, %err, "could not remove the keywords of a job not created");
        }
    }
    match outcome? {
        CreateJobOutcome::Created(job) => {
            // Stored again with the job known, so it expires with the job's results.
            if let (Some(bytes), Some(_)) = (imported, job.expires_at) {
                if let Err(err) = ports
                    .artifacts
                    .put_job_artifact(&job, objects::IMPORTED_KEYWORDS, bytes)
                    .await
                {
                    tracing::warn!(job = %job.id, %err, "imported keywords not marked to expire");
                }
            }
            let message = PipelineMessage {
                job_id: job.id,
                stage: Stage::first(),
            };
            if let Err(err) = ports.queue.enqueue(&message).await {
                tracing::error!(job = %job.id, %err, "could not enqueue a new job; the sweeper will retry");
            }
            Ok(CreatedJob {
                id: job.id,
                status: job.status,
                created_at: job.created_at,
                keyword_import,
                callback_secret: callback_key.map(|key| key.callback_secret(job.id).reveal()),
            })
        }
        CreateJobOutcome::Replayed { id, created_at } => Ok(CreatedJob {
            id,
            status: JobStatus::Queued,
            created_at,
            keyword_import,
            callback_secret: callback_key.map(|key| key.callback_secret(id).reveal()),
        }),
        CreateJobOutcome::IdempotencyKeyReused => Err(CreateJobError::IdempotencyKeyReused),
        CreateJobOutcome::InsufficientCredits => Err(CreateJobError::InsufficientCredits),
        CreateJobOutcome::DomainLimitReached => Err(CreateJobError::DomainLimitReached),
    }
}

/// The stored form of a job's imported keywords: the cleaned phrases, in order.
pub fn imported_phrases(list: &KeywordList) -> Vec<&str> {
    list.phrases()
        .iter()
        .map(|phrase| phrase.as_str())
        .collect()
}
