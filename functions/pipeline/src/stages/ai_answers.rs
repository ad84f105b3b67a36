//! The analysis stage's last paid step: the job's clusters' questions put to the configured
//! answer engines (`KR_AI_ANSWERS`), within the job's provider budget. It runs inside the
//! analysis stage because the questions come from the clusters made there, and before the
//! dataset is stored, whose presence completes the results. An engine's failure leaves the
//! job completing, with the reason in its `aiAnswers`.

use chrono::Utc;
use futures_util::future::join_all;
use kr_core::dataset::{
    objects, AiAnswer, AiAnswersDocument, ClusterRecord, KeywordRecord, Persona, SiteNames,
    AI_ANSWERS_FORMAT,
};
use kr_core::domain::{AiAnswersOutcome, AiAnswersStatus, AiEngine, Job};
use kr_core::store::{get_json, put_job_json};
use kr_dataforseo::{JobSession, ProviderError};
use kr_research::ai_prompts::{ai_prompts, AiPrompt};
use kr_research::text::Language;

use super::{provider, storage_failure, ResearchRunner};
use crate::runner::{ProgressReporter, StageError};

/// What the step decided, kept once the answers are stored: a retried analysis returns it
/// instead of asking again.
const KEPT_OUTCOME: &str = "ai-answers-outcome";
/// Questions to one engine in flight at once (each engine has its own limit of 30 per
/// account); a failing engine stops after the round it failed in.
const IN_FLIGHT: usize = 8;
/// A round is started only with this much time left before the stage's deadline: a Live
/// answer takes up to 120 seconds.
const ROUND_TIME: chrono::Duration = chrono::Duration::seconds(130);

/// The job's clusters, keywords and personas, as the analysis made them.
pub(super) struct Analysed<'a> {
    pub clusters: &'a [ClusterRecord],
    pub keywords: &'a [KeywordRecord],
    pub personas: &'a [Persona],
}

/// One engine's answers, in the questions' order, and why it stopped early, if it did.
struct EngineRun {
    answers: Vec<(AiAnswer, f64)>,
    stopped: Option<Stop>,
}

enum Stop {
    Failed(ProviderError),
    OutOfTime(usize),
}

impl ResearchRunner {
    /// Asks the configured engines; `None` when none is configured (or no provider is).
    pub(super) async fn ai_answers(
        &self,
        job: &Job,
        analysed: Analysed<'_>,
        progress: &ProgressReporter,
    ) -> Result<Option<AiAnswersOutcome>, StageError> {
        let Some(provider) = &self.provider else {
            return Ok(None);
        };
        let plan = &provider.settings().answers;
        if plan.engines.is_empty() {
            return Ok(None);
        }
        let kept_name = objects::stage(KEPT_OUTCOME);
        let kept: Option<AiAnswersOutcome> = get_json(self.objects.as_ref(), job.id, &kept_name)
            .await
            .map_err(storage_failure)?;
        if let Some(kept) = kept {
            return Ok(Some(kept));
        }
        let engines = &plan.engines;
        let session = provider.for_job(progress.usage(), progress);
        let left = session.budget_left();
        if left.is_some_and(|left| left <= 0.0) {
            return Ok(Some(AiAnswersOutcome::skipped(
                engines,
                "The job's DataForSEO budget is spent: no answer engine was asked.",
            )));
        }
        let affordable = plan.affordable(left);
        if affordable == 0 {
            return Ok(Some(AiAnswersOutcome::skipped(
                engines,
                format!(
                    "What is left of the job's DataForSEO budget is less than one question to each answer engine costs (USD {:.4}): no engine was asked.",
                    plan.per_question()
                ),
            )));
        }
        let language = Language::new(&job.language_code);
        let prompts = ai_prompts(
            analysed.clusters,
            analysed.keywords,
            analysed.personas,
            &language,
            affordable,
        );
        if prompts.is_empty() {
            return Ok(Some(AiAnswersOutcome::skipped(
                engines,
                "The job has no cluster to ask answer engines about.",
            )));
        }
        progress
            .report(
                0.8,
                format!(
                    "Asking {} answer engines {} questions",
                    engines.len(),
                    prompts.len()
                ),
            )
            .await;
        let sites = Sites {
            site: SiteNames::of(&job.primary_domain),
            competitors: job.competitor_domains.iter().map(SiteNames::of).collect(),
        };
        let runs = join_all(
            engines
                .iter()
                .map(|engine| ask_engine(&session, job, *engine, &prompts, &sites, progress)),
        )
        .await;
        let mut document = AiAnswersDocument {
            format: AI_ANSWERS_FORMAT,
            ..AiAnswersDocument::default()
        };
        let mut reasons = Vec::new();
        for (engine, run) in engines.iter().zip(runs) {
            for (answer, cost) in run.answers {
                document.cost_usd += cost;
                document.answers.push(answer);
            }
            match run.stopped {
                Some(Stop::Failed(ProviderError::CapReached)) => reasons.push(format!(
                    "{engine}: the job's DataForSEO budget ran out before every question was asked"
                )),
                Some(Stop::Failed(err)) => reasons.push(format!("{engine} failed: {err}")),
                Some(Stop::OutOfTime(left)) => reasons.push(format!(
                    "{engine}: {left} questions were not asked in the time the step has"
                )),
                None => {}
            }
        }
        document.cost_usd = (document.cost_usd * 1e6).round() / 1e6;
        let status = if document.answers.is_empty() {
            AiAnswersStatus::Failed
        } else {
            AiAnswersStatus::Completed
        };
        let outcome = AiAnswersOutcome {
            status,
            reason: (!reasons.is_empty()).then(|| reasons.join("; ")),
            engines: engines.clone(),
            prompts: prompts.len() as u32,
            cost_usd: document.cost_usd,
        };
        // The answers first, then the outcome that says they are stored.
        put_job_json(
            self.objects.as_ref(),
            job,
            &objects::ai_answers(),
            &document,
        )
        .await
        .map_err(storage_failure)?;
        put_job_json(self.objects.as_ref(), job, &kept_name, &outcome)
            .await
            .map_err(storage_failure)?;
        Ok(Some(outcome))
    }
}

struct Sites {
    site: SiteNames,
    competitors: Vec<SiteNames>,
}

/// Every question to `engine`, a round of [`IN_FLIGHT`] at a time, until one fails, the
/// budget runs out or the stage's time does.
async fn ask_engine(
    session: &JobSession<'_>,
    job: &Job,
    engine: AiEngine,
    prompts: &[AiPrompt],
    sites: &Sites,
    progress: &ProgressReporter,
) -> EngineRun {
    let market = provider::market(job);
    let mut run = EngineRun {
        answers: Vec::new(),
        stopped: None,
    };
    for (round, chunk) in prompts.chunks(IN_FLIGHT).enumerate() {
        if Utc::now() + ROUND_TIME > progress.deadline() {
            run.stopped = Some(Stop::OutOfTime(prompts.len() - round * IN_FLIGHT));
            break;
        }
        let replies = join_all(
            chunk
                .iter()
                .map(|prompt| session.llm_response(engine, &prompt.prompt, &market)),
        )
        .await;
        for (prompt, reply) in chunk.iter().zip(replies) {
            match reply {
                Ok(reply) => run.answers.push((
                    AiAnswer::read(
                        engine,
                        &prompt.prompt,
                        &prompt.cluster_id,
                        &reply.reply,
                        &sites.site,
                        &sites.competitors,
                        reply.cached,
                    ),
                    reply.cost_usd,
                )),
                Err(err) => {
                    tracing::warn!(job = %job.id, %engine, %err, "answer engine failed");
                    run.stopped.get_or_insert(Stop::Failed(err));
                }
            }
        }
        if run.stopped.is_some() {
            break;
        }
    }
    run
}
