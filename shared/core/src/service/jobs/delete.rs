//! Deleting a job and everything stored for it.

use crate::domain::{JobId, UserId};
use crate::store::{JobStore, ResultStore, StoreError};

/// Deletes everything stored for the job, then the job. Objects first: if their removal
/// fails part way, the job is still there to answer a retried DELETE, which finishes the
/// removal (a job deleted first would leave its objects unreachable behind a 404). The
/// pipeline checks for the job before every write and removes what it wrote once the job is
/// gone, so a stage in flight cannot leave objects behind either.
pub async fn delete_job(
    jobs: &dyn JobStore,
    results: &dyn ResultStore,
    owner: UserId,
    id: JobId,
) -> Result<bool, StoreError> {
    match jobs.job(id).await? {
        Some(job) if job.owner == owner => {}
        _ => return Ok(false),
    }
    results.delete_results(id).await?;
    Ok(jobs.delete_job(owner, id).await?.is_some())
}
