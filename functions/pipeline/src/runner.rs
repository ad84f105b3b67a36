//! What a stage is to the engine: some work on a job that either lets the job go on,
//! finishes it, or fails with a message its owner can understand.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use async_trait::async_trait;
use kr_core::domain::{AiAnswersOutcome, Job, ProviderUsage, SearchConsoleImport};
use kr_core::domain::{Progress, Stage};
use kr_core::store::{JobTransitions, UsageDelta};
use kr_dataforseo::UsageSink;
use tokio::sync::Mutex;

#[derive(Debug, Clone, PartialEq)]
pub enum StageOutcome {
    /// Go on with the next stage.
    Continue,
    /// The last stage published the results; with what the job's Search Console import came
    /// to, when it named a property, and its questions to answer engines, when any is
    /// configured.
    Completed {
        keyword_count: i64,
        search_console: Option<SearchConsoleImport>,
        ai_answers: Option<AiAnswersOutcome>,
    },
    /// The stage saved where it stands and goes on in another message, delivered
    /// `resume_after` from now: at once for a long crawl, later when it waits for something
    /// outside (SERP tasks in DataForSEO's queue), with no function running meanwhile.
    Unfinished { resume_after: Duration },
}

/// Why a stage did not finish. `message` is shown to the job's owner as `errorMessage`,
/// so it says what failed in their words, never internals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageError {
    pub kind: FailureKind,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    /// Retrying cannot help (the primary site does not exist, say): fail the job now.
    Permanent,
    /// May succeed on another attempt (a timeout, a throttled store).
    Transient,
}

impl StageError {
    pub fn permanent(message: impl Into<String>) -> Self {
        Self {
            kind: FailureKind::Permanent,
            message: message.into(),
        }
    }

    pub fn transient(message: impl Into<String>) -> Self {
        Self {
            kind: FailureKind::Transient,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for StageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

#[async_trait]
pub trait StageRunner: Send + Sync {
    async fn run(
        &self,
        job: &Job,
        stage: Stage,
        progress: &ProgressReporter,
    ) -> Result<StageOutcome, StageError>;
}

/// Lets a long stage report how far it is, without writing on every small step, and keeps
/// the job's provider usage current as paid calls are made.
pub struct ProgressReporter {
    transitions: Arc<dyn JobTransitions>,
    job: Job,
    stage: Stage,
    last: Mutex<Option<Instant>>,
    stopped: AtomicBool,
    usage: std::sync::Mutex<Option<ProviderUsage>>,
    deadline: DateTime<Utc>,
    /// The figures whose additions are stored: one write at a time adds what is new since.
    stored_usage: Mutex<ProviderUsage>,
}

/// Progress writes inside a stage are at most this frequent.
const MIN_INTERVAL: Duration = Duration::from_millis(500);

impl ProgressReporter {
    pub fn new(transitions: Arc<dyn JobTransitions>, job: Job, stage: Stage) -> Self {
        Self::until(
            transitions,
            job,
            stage,
            Utc::now() + chrono::Duration::minutes(5),
        )
    }

    /// A reporter for a stage that must be done (or have saved where it stands) by `deadline`.
    pub fn until(
        transitions: Arc<dyn JobTransitions>,
        job: Job,
        stage: Stage,
        deadline: DateTime<Utc>,
    ) -> Self {
        Self {
            deadline,
            transitions,
            stage,
            last: Mutex::new(None),
            stopped: AtomicBool::new(false),
            usage: std::sync::Mutex::new(job.usage.clone()),
            stored_usage: Mutex::new(job.usage.clone().unwrap_or_default()),
            job,
        }
    }

    /// When the stage must have finished or saved where it stands.
    pub fn deadline(&self) -> DateTime<Utc> {
        self.deadline
    }

    /// The job's provider usage so far, this stage's calls included.
    pub fn usage(&self) -> Option<ProviderUsage> {
        self.usage.lock().expect("usage lock").clone()
    }

    /// The job as the stage leaves it, for the transition that follows (which does not write
    /// usage: the figures here are for the caller's reading).
    pub fn job_after_stage(&self) -> Job {
        Job {
            usage: self.usage(),
            ..self.job.clone()
        }
    }

    /// `fraction` of the stage is done. Returns false once the job has been deleted or
    /// taken over by another worker: the stage should stop. Failures to record progress are
    /// logged, not fatal.
    pub async fn report(&self, fraction: f64, message: impl Into<String>) -> bool {
        let mut last = self.last.lock().await;
        if last.is_some_and(|at| at.elapsed() < MIN_INTERVAL) {
            return !self.stopped.load(Ordering::Relaxed);
        }
        *last = Some(Instant::now());
        let progress = Progress::within(self.stage, fraction, message);
        match self.transitions.report_progress(&self.job, progress).await {
            Ok(true) => {}
            Ok(false) => self.stopped.store(true, Ordering::Relaxed),
            Err(err) => tracing::warn!(job = %self.job.id, %err, "could not record progress"),
        }
        !self.stopped.load(Ordering::Relaxed)
    }

    /// True once a progress write found the job deleted or moved on.
    pub fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }
}

#[async_trait]
impl UsageSink for ProgressReporter {
    /// Every change is written at once: the money is spent, and a worker that dies next
    /// must not take the record of it along.
    async fn usage_changed(&self, usage: &ProviderUsage) {
        {
            // Concurrent calls may report out of order; every change adds a request, a
            // cache hit or a cost (tasks found again), or reaches the cap, so the later
            // figures are the larger ones.
            let progress = |u: &ProviderUsage| {
                (
                    u.requests + u.cache_hits,
                    (u.cost_usd * 1e6).round() as i64,
                    u.cap_reached,
                )
            };
            let mut current = self.usage.lock().expect("usage lock");
            if current
                .as_ref()
                .is_none_or(|c| progress(usage) >= progress(c))
            {
                *current = Some(usage.clone());
            }
        }
        let mut stored = self.stored_usage.lock().await;
        let Some(newest) = self.usage() else {
            return;
        };
        let delta = UsageDelta {
            provider: newest.provider.clone(),
            cost_usd: newest.cost_usd - stored.cost_usd,
            requests: newest.requests.saturating_sub(stored.requests),
            cache_hits: newest.cache_hits.saturating_sub(stored.cache_hits),
            cap_usd: newest.cap_usd,
            cap_reached: newest.cap_reached && !stored.cap_reached,
        };
        if delta.requests == 0
            && delta.cache_hits == 0
            && delta.cost_usd.abs() < 1e-9
            && !delta.cap_reached
        {
            return;
        }
        match self.transitions.add_usage(&self.job, &delta).await {
            Ok(true) => *stored = newest,
            Ok(false) => self.stopped.store(true, Ordering::Relaxed),
            Err(err) => tracing::warn!(job = %self.job.id, %err, "could not record provider usage"),
        }
    }
}
