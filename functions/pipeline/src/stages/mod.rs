//! The real stages: crawl the job's sites, then run the research engine on what was found.
//! Each stage reads the previous stage's output from the job's artifacts and writes its own,
//! so any stage can be retried on its own.

mod ai_answers;
mod ai_mode_queue;
mod analysis;
pub mod crawl;
mod provider;
mod references;
pub mod search_console;
mod settings;

use std::sync::Arc;

use async_trait::async_trait;
use kr_core::dataset::objects;
use kr_core::domain::Job;
use kr_core::domain::Stage;
use kr_core::store::{get_json, put_job_json, ArtifactStore, StoreError};
use kr_crawler::Crawler;
use kr_dataforseo::{DataForSeo, SerpMethod};
use kr_research::discovery::{Candidate, DiscoveryConfig};
use kr_research::metrics::estimate_all_serving;
use kr_research::offline::offline_keywords_of;
use kr_research::personas::model::PersonaModel;
use kr_research::personas::SiteProfile;
use kr_research::research::Measured;
use kr_research::text::Language;
use kr_research::PageContent;
use serde::{Deserialize, Serialize};

pub use settings::ResearchSettings;

use provider::{Round, SerpQueue, SerpQueueStore, Wanted};

use crate::runner::{ProgressReporter, StageError, StageOutcome, StageRunner};

/// The metrics stage's SERP tasks in DataForSEO's queue, between its messages.
const SERP_QUEUE: &str = "metrics-serp-queue";

/// The discovery stage's output: the job's keywords, best first, and what the data
/// provider already said about each (`facts` is empty without a provider).
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Discovered {
    pub candidates: Vec<Candidate>,
    pub facts: Vec<provider::KeywordFacts>,
    /// The places the primary site serves (its profile's, as written), for the metrics
    /// stage's estimate: an offering with one is a local buying query. Empty in an output
    /// saved before it was kept.
    #[serde(default)]
    pub places: Vec<String>,
}

pub struct ResearchRunner {
    pub crawler: Crawler,
    pub objects: Arc<dyn ArtifactStore>,
    pub settings: ResearchSettings,
    /// Measured data; `None` (no credentials) means the offline estimate.
    pub provider: Option<Arc<DataForSeo>>,
    /// Personas written by a language model; `None` (no model configured) means the
    /// deterministic ones.
    pub personas_model: Option<Arc<dyn PersonaModel>>,
    /// Search Console for jobs that name a property; `None`: such jobs complete without it
    /// (and say so).
    pub search_console: Option<search_console::SearchConsoleParts>,
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
            self.objects.as_ref(),
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
        put_job_json(
            self.objects.as_ref(),
            job,
            &objects::stage(stage.as_str()),
            value,
        )
        .await
        .map_err(storage_failure)
    }

    async fn discovery(
        &self,
        job: &Job,
        progress: &ProgressReporter,
    ) -> Result<StageOutcome, StageError> {
        let pages: Vec<PageContent> = self.load(job, Stage::Crawl).await?;
        let imported = self.imported_keywords(job).await?;
        let wanted = Wanted {
            imported: &imported,
            discover: job.discover_keywords,
        };
        let config = DiscoveryConfig::new(
            Language::new(&job.language_code),
            self.settings.max_keywords,
        );
        // Profiled once: the crawl's selection reads it, and its places go to the metrics
        // stage's estimate.
        let site = SiteProfile::from_pages(&pages, &config.language);
        let discovered = match &self.provider {
            Some(provider) => {
                let crawl = provider::offered_crawl(&pages, &site, &config);
                let session = provider.for_job(progress.usage(), progress);
                provider::discover_with_provider(
                    job,
                    crawl,
                    wanted,
                    &session,
                    self.settings.max_keywords,
                    progress,
                )
                .await?
            }
            // Without a provider, only queries that name what the site offers (and ideas made
            // from its offerings); their ranking stands unless there is a list to merge it with.
            None => {
                let offline =
                    offline_keywords_of(&pages, &site, &config.language, config.keyword_limit());
                if imported.is_empty() {
                    Discovered {
                        candidates: offline,
                        ..Discovered::default()
                    }
                } else {
                    provider::select(
                        offline,
                        provider::Gathered::default(),
                        wanted,
                        self.settings.max_keywords,
                    )
                }
            }
        };
        let mut discovered = Discovered {
            places: site.places,
            ..discovered
        };
        self.discover_search_console(job, &mut discovered, progress)
            .await?;
        if discovered.candidates.is_empty() {
            let provider_too = if self.provider.is_some() {
                ", and the keyword data provider knows none"
            } else {
                ""
            };
            return Err(StageError::permanent(format!(
                "No keywords could be found for {}: its pages may be empty or rendered by scripts only{provider_too}.",
                job.primary_domain
            )));
        }
        self.save(job, Stage::Discovery, &discovered).await?;
        Ok(StageOutcome::Continue)
    }

    /// The phrases the job was created with; empty when it brought none.
    async fn imported_keywords(&self, job: &Job) -> Result<Vec<String>, StageError> {
        if job.imported_keywords == 0 {
            return Ok(Vec::new());
        }
        get_json(self.objects.as_ref(), job.id, objects::IMPORTED_KEYWORDS)
            .await
            .map_err(storage_failure)?
            .ok_or_else(|| StageError::permanent("The job's imported keywords are missing."))
    }

    async fn metrics(
        &self,
        job: &Job,
        progress: &ProgressReporter,
    ) -> Result<StageOutcome, StageError> {
        let Discovered {
            candidates,
            facts,
            places,
        } = self.load(job, Stage::Discovery).await?;
        let language = Language::new(&job.language_code);
        let Some(provider) = &self.provider else {
            // As `research()` estimates: the site's served places make an offering with one a
            // local buying query.
            let mut measured: Vec<Measured> = estimate_all_serving(&candidates, &language, &places)
                .into_iter()
                .map(Measured::estimated)
                .collect();
            if let Some(saved) = self.saved_search_console(job).await? {
                search_console::impressions_as_volume(&candidates, &mut measured, &saved);
            }
            self.save(job, Stage::Metrics, &measured).await?;
            return Ok(StageOutcome::Continue);
        };
        let session = provider.for_job(progress.usage(), progress);
        let market = provider::market(job);
        let queue_artifact = objects::stage(SERP_QUEUE);
        let queued: Option<SerpQueue> = get_json(self.objects.as_ref(), job.id, &queue_artifact)
            .await
            .map_err(storage_failure)?;
        let store = SavedSerpQueue {
            objects: self.objects.as_ref(),
            job,
        };
        let facts = match (queued, provider.settings().serp_method) {
            (Some(mut queue), SerpMethod::Standard { poll, wait }) => {
                let round = provider::collect(
                    job,
                    &mut queue,
                    &candidates,
                    &session,
                    &market,
                    wait,
                    progress,
                    &store,
                )
                .await?;
                if round == Round::Waiting {
                    store.save(&queue).await?;
                    return Ok(StageOutcome::Unfinished { resume_after: poll });
                }
                queue.facts
            }
            (queued, method) => {
                // A queue saved before the method became Live keeps its facts; its SERPs are
                // then fetched Live (those collected already come from the cache).
                let mut facts = match queued {
                    Some(queue) => queue.facts,
                    None => {
                        provider::measure_with_provider(job, &candidates, facts, &session, progress)
                            .await?
                    }
                };
                let targets = provider::serp_targets(&facts, provider.settings().serp_budget);
                match method {
                    SerpMethod::Standard { poll, .. } if !targets.is_empty() => {
                        // Saved before and after each request: a retry never posts again.
                        let queue = provider::post(
                            job,
                            &candidates,
                            facts,
                            targets,
                            &session,
                            &market,
                            progress,
                            &store,
                        )
                        .await?;
                        if !queue.pending.is_empty() || !queue.unposted.is_empty() {
                            store.save(&queue).await?;
                            return Ok(StageOutcome::Unfinished { resume_after: poll });
                        }
                        queue.facts
                    }
                    _ => {
                        provider::fetch_live(
                            &candidates,
                            &mut facts,
                            targets,
                            &session,
                            &market,
                            progress,
                        )
                        .await?;
                        facts
                    }
                }
            }
        };
        let measured = provider::measured(&candidates, facts, &language, &places);
        self.save(job, Stage::Metrics, &measured).await?;
        Ok(StageOutcome::Continue)
    }
}

/// The metrics stage's SERP queue, saved with the job between (and during) its messages.
struct SavedSerpQueue<'a> {
    objects: &'a dyn ArtifactStore,
    job: &'a Job,
}

#[async_trait]
impl SerpQueueStore for SavedSerpQueue<'_> {
    async fn save(&self, queue: &SerpQueue) -> Result<(), StageError> {
        put_job_json(self.objects, self.job, &objects::stage(SERP_QUEUE), queue)
            .await
            .map_err(storage_failure)
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
            Stage::Discovery => self.discovery(job, progress).await,
            Stage::Metrics => self.metrics(job, progress).await,
            Stage::Analysis => self.analysis(job, progress).await,
        }
    }
}
