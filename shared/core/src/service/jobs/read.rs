//! Reading a job: who may see it.

use crate::domain::{Job, JobId, UserId};
use crate::store::{JobStore, StoreError};

/// The job if `viewer` may read it: its owner, or anyone for a demo job.
pub async fn readable_job(
    jobs: &dyn JobStore,
    id: JobId,
    viewer: Option<UserId>,
    demo_user: Option<UserId>,
) -> Result<Option<Job>, StoreError> {
    let Some(job) = jobs.job(id).await? else {
        return Ok(None);
    };
    let allowed = Some(job.owner) == viewer || Some(job.owner) == demo_user;
    Ok(allowed.then_some(job))
}
