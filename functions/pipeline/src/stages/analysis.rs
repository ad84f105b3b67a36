use kr_core::dataset::export::write_csv;
use kr_core::dataset::stored;
use kr_core::dataset::{objects, ResultsDataset, RunSummary, DATASET_FORMAT};
use kr_core::domain::Job;
use kr_core::domain::ProviderUsage;
use kr_core::domain::Stage;
use kr_core::store::get_json;
use kr_core::store::put_job_json;
use kr_dataforseo::UsageSink;
use kr_research::personas::model::{Origin, PersonaModel};
use kr_research::personas::{OfflinePersonaGenerator, PersonaInput, PersonaSet, SiteProfile};
use kr_research::plan::PageOutline;
use kr_research::research::{assemble, persona_input, replace_personas, Measured, ResearchInput};
use kr_research::text::Language;
use kr_research::PageContent;
use serde::{Deserialize, Serialize};

use super::ai_answers::AnswersStep;
use super::{storage_failure, Discovered, ResearchRunner};
use crate::runner::{ProgressReporter, StageError, StageOutcome};

/// What the model's one paid request for a job gave, kept so that a retried analysis does
/// not pay again.
const MODEL_PERSONAS: &str = "personas-model";

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct KeptPersonas {
    /// `None`: the answer was refused; the job has the deterministic personas.
    personas: Option<PersonaSet>,
}

impl ResearchRunner {
    /// The language model's personas for `input`, or `None` for the deterministic ones
    /// (`assemble`'s). A job pays for one answered request at most; its cost is added to the
    /// job's usage.
    async fn model_personas(
        &self,
        job: &Job,
        model: &dyn PersonaModel,
        input: &PersonaInput,
        pages: &[PageContent],
        progress: &ProgressReporter,
    ) -> Result<Option<PersonaSet>, StageError> {
        let name = objects::stage(MODEL_PERSONAS);
        let kept: Option<KeptPersonas> = get_json(self.objects.as_ref(), job.id, &name)
            .await
            .map_err(storage_failure)?;
        if let Some(kept) = kept {
            return Ok(kept
                .personas
                .filter(|set| set.assignments.len() == input.keywords.len()));
        }
        let outcome = model.generate(input, pages).await;
        let personas = match outcome.origin {
            Origin::Model => Some(outcome.personas),
            Origin::Fallback(_) => None,
        };
        let Some(spend) = outcome.spend else {
            return Ok(personas);
        };
        // Kept before the usage is written: a retry after a failure here must not pay again.
        let kept = KeptPersonas { personas };
        put_job_json(self.objects.as_ref(), job, &name, &kept)
            .await
            .map_err(storage_failure)?;
        let mut usage = progress.usage().unwrap_or_else(|| ProviderUsage {
            provider: model.provider().to_string(),
            ..ProviderUsage::default()
        });
        usage.cost_usd += spend.cost_usd;
        usage.requests += 1;
        progress.usage_changed(&usage).await;
        Ok(kept.personas)
    }

    /// Intent, clusters, personas and scores over the measured candidates, then the one
    /// dataset the results API serves.
    pub(super) async fn analysis(
        &self,
        job: &Job,
        progress: &ProgressReporter,
    ) -> Result<StageOutcome, StageError> {
        let Discovered { candidates, .. } = self.load(job, Stage::Discovery).await?;
        let mut measured: Vec<Measured> = self.load(job, Stage::Metrics).await?;
        // Personas start from who the primary site serves, read from its crawled pages.
        let pages: Vec<PageContent> = self.load(job, Stage::Crawl).await?;
        let language = Language::new(&job.language_code);
        let site = SiteProfile::from_pages(&pages, &language);
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
            primary_domain: Some(job.primary_domain.to_string()),
            serp_overlap: self.settings.serp_overlap,
            site,
            competitor_domains: job
                .competitor_domains
                .iter()
                .map(|d| d.to_string())
                .collect(),
            primary_pages: PageOutline::primary_pages(&pages),
            ..ResearchInput::default()
        };
        // The job's Search Console figures go on the records as they are made: the plan
        // reads them first.
        let search_console = self.saved_search_console(job).await?;
        if let Some(saved) = &search_console {
            super::search_console::attach(&candidates, &mut measured, saved);
        }
        let mut output = assemble(&candidates, &measured, &input, &OfflinePersonaGenerator);
        if let Some(model) = &self.personas_model {
            let set = self
                .model_personas(
                    job,
                    model.as_ref(),
                    &persona_input(&output.keywords, &input),
                    &pages,
                    progress,
                )
                .await?;
            if let Some(set) = set {
                replace_personas(&mut output, set);
            }
        }
        drop(pages);
        let ai_answers = self
            .ai_answers(
                job,
                super::ai_answers::Analysed {
                    clusters: &output.clusters,
                    keywords: &output.keywords,
                    personas: &output.personas,
                },
                progress,
            )
            .await?;
        let ai_answers = match ai_answers {
            AnswersStep::Done(outcome) => outcome,
            // The clusters are made again when the stage comes back: the same inputs give the
            // same clusters, and nothing paid is asked twice.
            AnswersStep::Waiting(poll) => {
                return Ok(StageOutcome::Unfinished { resume_after: poll })
            }
        };
        let dataset = ResultsDataset {
            format: DATASET_FORMAT,
            job_id: job.id,
            keywords: output.keywords,
            clusters: output.clusters,
            personas: output.personas,
            topics: output.topics,
        };
        let mut csv = Vec::new();
        write_csv(&dataset, &mut csv).map_err(|err| {
            tracing::error!(%err, "csv export");
            StageError::transient("Writing the CSV export failed.")
        })?;
        // The export first: the stored dataset's presence is what makes the results complete.
        self.objects
            .put_job_artifact(job, &objects::export(), csv)
            .await
            .map_err(storage_failure)?;
        // Before the dataset, whose presence completes the results: the history chart of a
        // later run reads this instead of decoding the whole dataset.
        let summary = RunSummary::of(&dataset.keywords, job.primary_domain.as_str());
        put_job_json(
            self.objects.as_ref(),
            job,
            &objects::run_summary(),
            &summary,
        )
        .await
        .map_err(storage_failure)?;
        let stored = stored::encode(&dataset).map_err(|err| {
            tracing::error!(%err, "stored dataset");
            StageError::transient("Writing the results failed.")
        })?;
        self.objects
            .put_job_artifact(job, &objects::stored_dataset(), stored)
            .await
            .map_err(storage_failure)?;
        Ok(StageOutcome::Completed {
            keyword_count: dataset.keywords.len() as i64,
            search_console: search_console.map(|saved| saved.record),
            ai_answers,
        })
    }
}
