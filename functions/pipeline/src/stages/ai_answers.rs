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
use kr_dataforseo::{JobSession, ProviderError, SerpMethod};
use kr_research::ai_prompts::{ai_prompts, AiPrompt};
use kr_research::text::Language;

use super::ai_mode_queue::{AiModeQueue, QueueRound};
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
    /// Some questions have no answer, for the reason given.
    Short(String),
}

/// Where the step stands: done (with the outcome, if any engine is configured), or waiting
/// for Google AI Mode's queued answers.
pub(super) enum AnswersStep {
    Done(Option<AiAnswersOutcome>),
    Waiting(std::time::Duration),
}

impl ResearchRunner {
    /// Asks the configured engines; `Done(None)` when none is configured (or no provider is).
    pub(super) async fn ai_answers(
        &self,
        job: &Job,
        analysed: Analysed<'_>,
        progress: &ProgressReporter,
    ) -> Result<AnswersStep, StageError> {
        let Some(provider) = &self.provider else {
            return Ok(AnswersStep::Done(None));
        };
        let plan = &provider.settings().answers;
        if plan.engines.is_empty() {
            return Ok(AnswersStep::Done(None));
        }
        let kept_name = objects::stage(KEPT_OUTCOME);
        let kept: Option<AiAnswersOutcome> = get_json(self.objects.as_ref(), job.id, &kept_name)
            .await
            .map_err(storage_failure)?;
        if let Some(kept) = kept {
            return Ok(AnswersStep::Done(Some(kept)));
        }
        let engines = &plan.engines;
        let session = provider.for_job(progress.usage(), progress);
        let market = provider::market(job);
        // Google AI Mode goes through the Standard queue when SERPs do, with their poll and
        // wait; the questions it was asked are saved with the queue.
        let timing = match provider.settings().serp_method {
            SerpMethod::Standard { poll, wait } if engines.contains(&AiEngine::GoogleAiMode) => {
                Some((poll, wait))
            }
            _ => None,
        };
        let queued = timing.is_some();
        let saved = if queued {
            self.saved_ai_mode_queue(job).await?
        } else {
            None
        };
        let prompts = match &saved {
            Some(saved) => saved.prompts(),
            None => {
                let left = session.budget_left();
                if left.is_some_and(|left| left <= 0.0) {
                    return Ok(AnswersStep::Done(Some(AiAnswersOutcome::skipped(
                        engines,
                        "The job's DataForSEO budget is spent: no answer engine was asked.",
                    ))));
                }
                let affordable = plan.affordable(left);
                if affordable == 0 {
                    return Ok(AnswersStep::Done(Some(AiAnswersOutcome::skipped(
                        engines,
                        format!(
                            "What is left of the job's DataForSEO budget is less than one question to each answer engine costs (USD {:.4}): no engine was asked.",
                            plan.per_question()
                        ),
                    ))));
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
                    return Ok(AnswersStep::Done(Some(AiAnswersOutcome::skipped(
                        engines,
                        "The job has no cluster to ask answer engines about.",
                    ))));
                }
                prompts
            }
        };
        let queue = if let Some((poll, wait)) = timing {
            let round = match saved {
                Some(saved) => {
                    self.collect_ai_mode(job, saved, &session, &market, wait)
                        .await?
                }
                None => {
                    progress
                        .report(
                            0.8,
                            format!("Asking Google AI Mode {} questions", prompts.len()),
                        )
                        .await;
                    self.post_ai_mode(job, &prompts, &session, &market).await?
                }
            };
            match round {
                QueueRound::Waiting => return Ok(AnswersStep::Waiting(poll)),
                QueueRound::Done(queue) => Some(queue),
            }
        } else {
            None
        };
        let live: Vec<AiEngine> = engines
            .iter()
            .copied()
            .filter(|engine| !(queued && *engine == AiEngine::GoogleAiMode))
            .collect();
        if !live.is_empty() {
            progress
                .report(
                    0.85,
                    format!(
                        "Asking {} answer engines {} questions",
                        live.len(),
                        prompts.len()
                    ),
                )
                .await;
        }
        let sites = Sites {
            site: SiteNames::of(&job.primary_domain),
            competitors: job.competitor_domains.iter().map(SiteNames::of).collect(),
        };
        let mut runs: Vec<(AiEngine, EngineRun)> = join_all(live.iter().map(|engine| async {
            (
                *engine,
                ask_engine(&session, job, *engine, &prompts, &sites, progress).await,
            )
        }))
        .await;
        if let Some(queue) = &queue {
            runs.push((AiEngine::GoogleAiMode, queued_run(queue, &sites)));
        }
        // In the configured order.
        runs.sort_by_key(|(engine, _)| engines.iter().position(|e| e == engine));
        let mut document = AiAnswersDocument {
            format: AI_ANSWERS_FORMAT,
            ..AiAnswersDocument::default()
        };
        let mut reasons = Vec::new();
        for (engine, run) in runs {
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
                Some(Stop::Short(reason)) => reasons.push(format!("{engine}: {reason}")),
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
        Ok(AnswersStep::Done(Some(outcome)))
    }
}

/// Google AI Mode's queued answers as an engine's run.
fn queued_run(queue: &AiModeQueue, sites: &Sites) -> EngineRun {
    EngineRun {
        answers: queue
            .answered()
            .map(|(question, reply, cost)| {
                (
                    AiAnswer::read(
                        AiEngine::GoogleAiMode,
                        &question.prompt,
                        &question.cluster_id,
                        reply,
                        &sites.site,
                        &sites.competitors,
                        question.cached,
                    ),
                    cost,
                )
            })
            .collect(),
        stopped: queue.shortfall().map(Stop::Short),
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
