//! Read-only links to a job's results: made and revoked by the job's owner, opened by anyone
//! who holds the URL until it expires.

use chrono::{DateTime, Utc};

use crate::domain::{
    Job, JobId, JobStatus, ShareLifetime, ShareLink, ShareLinkId, ShareToken, SharedTabs, UserId,
};
use crate::store::{JobStore, ShareLinkStore, StoreError};

/// Live links a job can have at once.
pub const MAX_LIVE_SHARE_LINKS: u32 = 20;

#[derive(Debug, thiserror::Error)]
pub enum ShareError {
    /// No such job, or not the caller's (the same answer, so a job's existence never leaks).
    #[error("no such job")]
    NoSuchJob,
    #[error("the job has not completed")]
    NotCompleted,
    #[error("the job has {MAX_LIVE_SHARE_LINKS} live share links")]
    TooManyLinks,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The job if `owner` owns it (demo jobs are shared only by the demo account).
pub async fn owned_job(jobs: &dyn JobStore, owner: UserId, id: JobId) -> Result<Job, ShareError> {
    match jobs.job(id).await? {
        Some(job) if job.owner == owner => Ok(job),
        _ => Err(ShareError::NoSuchJob),
    }
}

/// Makes a link to a completed job; the token is returned this once.
pub async fn create_share_link(
    jobs: &dyn JobStore,
    links: &dyn ShareLinkStore,
    owner: UserId,
    job_id: JobId,
    tabs: SharedTabs,
    lifetime: ShareLifetime,
    now: DateTime<Utc>,
) -> Result<(ShareLink, ShareToken), ShareError> {
    let job = owned_job(jobs, owner, job_id).await?;
    if job.status != JobStatus::Completed {
        return Err(ShareError::NotCompleted);
    }
    let token = ShareToken::generate();
    let link = ShareLink {
        id: ShareLinkId::new(),
        job_id,
        owner,
        tabs,
        created_at: now,
        expires_at: lifetime.ends(now),
    };
    if !links
        .create_share_link(&link, &token.hash(), MAX_LIVE_SHARE_LINKS, now)
        .await?
    {
        return Err(ShareError::TooManyLinks);
    }
    Ok((link, token))
}

pub async fn list_share_links(
    jobs: &dyn JobStore,
    links: &dyn ShareLinkStore,
    owner: UserId,
    job_id: JobId,
    now: DateTime<Utc>,
) -> Result<Vec<ShareLink>, ShareError> {
    owned_job(jobs, owner, job_id).await?;
    Ok(links.list_share_links(job_id, now).await?)
}

/// `false` when the job is not the owner's or has no such link.
pub async fn revoke_share_link(
    jobs: &dyn JobStore,
    links: &dyn ShareLinkStore,
    owner: UserId,
    job_id: JobId,
    link: ShareLinkId,
) -> Result<bool, ShareError> {
    owned_job(jobs, owner, job_id).await?;
    Ok(links.revoke_share_link(job_id, link).await?)
}

/// What a share URL shows: the link and its job, while the link is live and the job is still
/// there (and still its owner's). Anything else is `None`, one answer for every reason.
pub async fn shared_job(
    jobs: &dyn JobStore,
    links: &dyn ShareLinkStore,
    raw_token: &str,
    now: DateTime<Utc>,
) -> Result<Option<(ShareLink, Job)>, StoreError> {
    let Some(token) = ShareToken::parse(raw_token) else {
        return Ok(None);
    };
    let Some(link) = links.resolve_share_link(&token.hash()).await? else {
        return Ok(None);
    };
    if !link.is_live(now) {
        return Ok(None);
    }
    Ok(jobs
        .job(link.job_id)
        .await?
        .filter(|job| job.owner == link.owner)
        .map(|job| (link, job)))
}
