use futures_util::future::join_all;
use kr_core::dataset::objects;
use kr_core::domain::Job;
use kr_core::store::put_job_json;
use kr_crawler::CrawlError;

use super::{storage_failure, ResearchRunner};
use crate::runner::{StageError, StageOutcome};

impl ResearchRunner {
    /// Previews of the primary and competitor home pages, in request order. The primary goes
    /// first and alone: a primary that cannot be reached at all fails the job here, before
    /// any competitor is fetched or crawled and before any paid call. Any other site that
    /// cannot be fetched leaves `null` and the job goes on.
    pub(super) async fn references(&self, job: &Job) -> Result<StageOutcome, StageError> {
        let primary = match self
            .crawler
            .fetch_reference(job.primary_domain.as_str())
            .await
        {
            Ok(reference) => Some(reference),
            Err(err) if primary_is_lost(&err) => {
                return Err(StageError::permanent(format!(
                    "The primary site could not be crawled: {err}."
                )))
            }
            Err(err) => {
                tracing::info!(job = %job.id, domain = %job.primary_domain, %err, "no preview");
                None
            }
        };
        let competitors = join_all(job.competitor_domains.iter().map(|domain| async move {
            self.crawler
                .fetch_reference(domain.as_str())
                .await
                .inspect_err(|err| tracing::info!(job = %job.id, %domain, %err, "no preview"))
                .ok()
        }))
        .await;
        let fetched: Vec<_> = std::iter::once(primary).chain(competitors).collect();
        put_job_json(self.objects.as_ref(), job, objects::REFERENCES, &fetched)
            .await
            .map_err(storage_failure)?;
        Ok(StageOutcome::Continue)
    }
}

/// Failures that no crawl of the site can get past (its home page answering an error, say,
/// still leaves its sitemaps to try).
fn primary_is_lost(err: &CrawlError) -> bool {
    matches!(
        err,
        CrawlError::InvalidDomain { .. }
            | CrawlError::Unreachable { .. }
            | CrawlError::AddressRefused { .. }
            | CrawlError::RobotsDisallowed { .. }
    )
}
