use kr_core::dataset::export::write_csv;
use kr_core::dataset::{objects, ResultsDataset, DATASET_FORMAT};
use kr_core::domain::Job;
use kr_core::domain::Stage;
use kr_core::store::put_job_json;
use kr_research::personas::{OfflinePersonaGenerator, SiteProfile};
use kr_research::research::{assemble, Measured, ResearchInput};
use kr_research::text::Language;
use kr_research::PageContent;

use super::{storage_failure, Discovered, ResearchRunner};
use crate::runner::{ProgressReporter, StageError, StageOutcome};

impl ResearchRunner {
    /// Intent, clusters, personas and scores over the measured candidates, then the one
    /// dataset the results API serves.
    pub(super) async fn analysis(
        &self,
        job: &Job,
        progress: &ProgressReporter,
    ) -> Result<StageOutcome, StageError> {
        let Discovered { candidates, .. } = self.load(job, Stage::Discovery).await?;
        let measured: Vec<Measured> = self.load(job, Stage::Metrics).await?;
        // Personas start from who the primary site serves, read from its crawled pages.
        let pages: Vec<PageContent> = self.load(job, Stage::Crawl).await?;
        let language = Language::new(&job.language_code);
        let site = SiteProfile::from_pages(&pages, &language);
        drop(pages);
        progress
            .report(0.1, format!("Analysing {} keywords", candidates.len()))
            .await;
        let brand_terms = std::iter::once(&job.primary_domain)
            .chain(&job.competitor_domains)
            .flat_map(|d| {
                let brand = d.brand();
                let spaced = brand.replace('-', " ");
                if spaced == brand {
                    vec![brand]
                } else {
                    vec![brand, spaced]
                }
            });
        let input = ResearchInput {
            language,
            brand_terms: brand_terms.collect(),
            max_keywords: self.settings.max_keywords,
            cluster_threshold: self.settings.cluster_threshold,
            primary_domain: Some(job.primary_domain.to_string()),
            serp_overlap: self.settings.serp_overlap,
            site,
            ..ResearchInput::default()
        };
        let output = assemble(&candidates, &measured, &input, &OfflinePersonaGenerator);
        let dataset = ResultsDataset {
            format: DATASET_FORMAT,
            job_id: job.id,
            keywords: output.keywords,
            clusters: output.clusters,
            personas: output.personas,
        };
        let mut csv = Vec::new();
        write_csv(&dataset.keywords, &mut csv).map_err(|err| {
            tracing::error!(%err, "csv export");
            StageError::transient("Writing the CSV export failed.")
        })?;
        // The export first: the dataset's presence is what makes the results complete.
        self.objects
            .put_job_artifact(job, &objects::export(), csv)
            .await
            .map_err(storage_failure)?;
        put_job_json(self.objects.as_ref(), job, &objects::dataset(), &dataset)
            .await
            .map_err(storage_failure)?;
        Ok(StageOutcome::Completed {
            keyword_count: dataset.keywords.len() as i64,
        })
    }
}
