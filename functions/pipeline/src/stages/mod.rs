//! The real stages: crawl the job's sites, then run the research engine on what was found.
//! Each stage reads the previous stage's output from the job's artifacts and writes its own,
//! so any stage can be retried on its own.

mod analysis;
mod crawl;
mod references;
mod settings;

use std::sync::Arc;

use async_trait::async_trait;
use kr_crawler::Crawler;
use kr_research::discovery::{discover, Candidate, DiscoveryConfig};
use kr_research::metrics::{estimate_all, KeywordMetrics, ESTIMATE_SOURCE};
use kr_research::text::Language;
use kr_research::PageContent;
use kr_shared::domain::Stage;
use kr_shared::results::objects;
use kr_shared::store::{get_json, put_json, ArtifactStore, Job, StoreError};
use serde::{Deserialize, Serialize};

pub use settings::ResearchSettings;

use crate::runner::{ProgressReporter, StageError, StageOutcome, StageRunner};

/// Metrics of every candidate, in candidate order, and where they came from.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MeasuredCandidates {
    pub source: String,
    pub metrics: Vec<KeywordMetrics>,
}

pub struct ResearchRunner {
    pub crawler: Crawler,
    pub artifacts: Arc<dyn ArtifactStore>,
    pub settings: ResearchSettings,
}

fn storage_failure(err: StoreError) -> StageError {
    tracing::error!(%err, "artifact store");
    StageError::transient("Saving the job's intermediate results failed.")
}

impl ResearchRunner {
    async fn load<T: serde::de::DeserializeOwned>(
        &self,
        job: &Job,
        stage: Stage,
    ) -> Result<T, StageError> {
        get_json(
            self.artifacts.as_ref(),
            job.id,
            &objects::stage(stage.as_str()),
        )
        .await
        .map_err(storage_failure)?
        .ok_or_else(|| {
            StageError::transient(format!(
                "The output of the {} step is missing.",
                stage.as_str()
            ))
        })
    }

    async fn save<T: Serialize + Sync>(
        &self,
        job: &Job,
        stage: Stage,
        value: &T,
    ) -> Result<(), StageError> {
        put_json(
            self.artifacts.as_ref(),
            job.id,
            &objects::stage(stage.as_str()),
            value,
        )
        .await
        .map_err(storage_failure)
    }

    async fn discovery(&self, job: &Job) -> Result<StageOutcome, StageError> {
        let pages: Vec<PageContent> = self.load(job, Stage::Crawl).await?;
        let config = DiscoveryConfig::new(
            Language::new(&job.language_code),
            self.settings.max_keywords,
        );
        let candidates = discover(&pages, &config);
        if candidates.is_empty() {
            return Err(StageError::permanent(format!(
                "No keywords could be found in the text of {}; its pages may be empty or rendered by scripts only.",
                job.primary_domain
            )));
        }
        self.save(job, Stage::Discovery, &candidates).await?;
        Ok(StageOutcome::Continue)
    }

    async fn metrics(&self, job: &Job) -> Result<StageOutcome, StageError> {
        let candidates: Vec<Candidate> = self.load(job, Stage::Discovery).await?;
        let metrics = estimate_all(&candidates, &Language::new(&job.language_code));
        self.save(
            job,
            Stage::Metrics,
            &MeasuredCandidates {
                source: ESTIMATE_SOURCE.to_string(),
                metrics,
            },
        )
        .await?;
        Ok(StageOutcome::Continue)
    }
}

#[async_trait]
impl StageRunner for ResearchRunner {
    async fn run(
        &self,
        job: &Job,
        stage: Stage,
        progress: &ProgressReporter,
    ) -> Result<StageOutcome, StageError> {
        match stage {
            Stage::References => self.references(job).await,
            Stage::Crawl => self.crawl(job, progress).await,
            Stage::Discovery => self.discovery(job).await,
            Stage::Metrics => self.metrics(job).await,
            Stage::Analysis => self.analysis(job, progress).await,
        }
    }
}
