use futures_util::future::join_all;
use kr_core::dataset::{objects, PreviewImage, Reference, PREVIEW_IMAGE_LIMITS};
use kr_core::domain::{Job, RasterImage};
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
        let images = join_all(
            fetched
                .iter()
                .enumerate()
                .map(|(index, reference)| self.keep_preview_image(job, index, reference.as_ref())),
        )
        .await
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;
        // The images and their list before the references: a page that finds the references
        // finds the images they go with.
        put_job_json(self.objects.as_ref(), job, objects::PREVIEW_IMAGES, &images)
            .await
            .map_err(storage_failure)?;
        put_job_json(self.objects.as_ref(), job, objects::REFERENCES, &fetched)
            .await
            .map_err(storage_failure)?;
        Ok(StageOutcome::Continue)
    }

    /// Fetches a site's preview image through the crawler's guard and keeps it with the job
    /// when it is a whole PNG, JPEG or WebP within [`PREVIEW_IMAGE_LIMITS`], so pages serve it
    /// from our origin. Anything else leaves no image (the page shows a placeholder).
    async fn keep_preview_image(
        &self,
        job: &Job,
        index: usize,
        reference: Option<&Reference>,
    ) -> Result<Option<PreviewImage>, StageError> {
        let Some(url) = reference.and_then(|r| r.image_url.as_deref()) else {
            return Ok(None);
        };
        let download = match self
            .crawler
            .fetch_image(url, PREVIEW_IMAGE_LIMITS.max_bytes)
            .await
        {
            Ok(download) if !download.cut_off => download,
            Ok(_) => {
                tracing::info!(job = %job.id, index, "preview image too large or cut off");
                return Ok(None);
            }
            Err(err) => {
                tracing::info!(job = %job.id, index, %err, "no preview image");
                return Ok(None);
            }
        };
        let image = match RasterImage::parse(download.bytes, PREVIEW_IMAGE_LIMITS) {
            Ok(image) => image,
            Err(reason) => {
                tracing::info!(job = %job.id, index, %reason, "preview image refused");
                return Ok(None);
            }
        };
        let (width, height) = image.dimensions();
        let kept = PreviewImage {
            content_type: image.kind().content_type().to_owned(),
            width: width as u32,
            height: height as u32,
        };
        self.objects
            .put_job_artifact(job, &objects::preview_image(index), image.into_bytes())
            .await
            .map_err(storage_failure)?;
        Ok(Some(kept))
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
