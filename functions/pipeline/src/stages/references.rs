use futures_util::future::join_all;
use kr_core::dataset::objects;
use kr_core::domain::Job;
use kr_core::store::put_json;

use super::{storage_failure, ResearchRunner};
use crate::runner::{StageError, StageOutcome};

impl ResearchRunner {
    /// Previews of the primary and competitor home pages, in request order. A site that
    /// cannot be fetched leaves `null`; the job goes on (the crawl decides whether the
    /// primary site is usable).
    pub(super) async fn references(&self, job: &Job) -> Result<StageOutcome, StageError> {
        let domains = std::iter::once(&job.primary_domain).chain(&job.competitor_domains);
        let fetched = join_all(domains.map(|domain| async move {
            match self.crawler.fetch_reference(domain.as_str()).await {
                Ok(reference) => Some(reference),
                Err(err) => {
                    tracing::info!(job = %job.id, %domain, %err, "no preview");
                    None
                }
            }
        }))
        .await;
        put_json(self.objects.as_ref(), job.id, objects::REFERENCES, &fetched)
            .await
            .map_err(storage_failure)?;
        Ok(StageOutcome::Continue)
    }
}
