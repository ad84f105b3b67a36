use crate::extract::Viewer;
use crate::ApiError;
use kr_core::config::Config;
use kr_core::domain::Job;
use kr_core::domain::JobId;
use kr_core::service::jobs::readable_job;
use kr_core::store::JobStore;

/// The job a job-scoped `GET` is about, if the caller may read it: its owner, or anyone for
/// a demo job. Everything else (including a malformed id) is 404, so a job's existence never
/// leaks.
pub async fn viewable_job(
    jobs: &dyn JobStore,
    config: &Config,
    viewer: Viewer,
    raw_id: &str,
) -> Result<Job, ApiError> {
    let id: JobId = raw_id.parse().map_err(|_| ApiError::not_found("Job"))?;
    let demo = config.demo_user_id.map(Into::into);
    readable_job(jobs, id, viewer.0.map(|p| p.user_id), demo)
        .await?
        .ok_or_else(|| ApiError::not_found("Job"))
}
