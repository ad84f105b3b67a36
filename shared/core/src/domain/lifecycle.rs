//! The Job and its lifecycle: every change a job can go through, as a pure function from
//! the job as it is to the job as it will be. Stores only persist these changes, each
//! conditional on the version it was computed from.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{
    AiAnswersOutcome, DomainName, JobId, JobStatus, LanguageCode, LocationCode, Progress,
    PropertyUrl, ScheduleId, SearchConsoleImport, Stage, UserId, WebhookEvent, WebhookUrl,
};

/// A job as stored. `version` increases with every write, for conditional updates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Job {
    pub id: JobId,
    #[serde(rename = "ownerId")]
    pub owner: UserId,
    pub status: JobStatus,
    pub primary_domain: DomainName,
    pub competitor_domains: Vec<DomainName>,
    pub language_code: String,
    pub location_code: u32,
    pub created_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub completed_at: Option<DateTime<Utc>>,
    pub progress: Progress,
    pub error_message: Option<String>,
    pub keyword_count: Option<i64>,
    /// The pipeline stage to run next (or running now); `None` before start and once finished.
    pub stage: Option<Stage>,
    pub version: u64,
    /// Set once the run of a failed job has been given back.
    #[serde(default)]
    pub refunded: bool,
    /// What the job's paid data provider calls cost; `None` when it made none (and on jobs
    /// stored before the field existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<ProviderUsage>,
    /// The last sign of life of the stage at work: its claim, its progress reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heartbeat_at: Option<DateTime<Utc>>,
    /// Times the sweeper sent the current stage again after it stopped showing life.
    #[serde(default)]
    pub redrives: u32,
    /// When the job and its results are deleted (the results retention); `None`: never.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<DateTime<Utc>>,
    /// Phrases the user brought (stored beside the job as an artifact); 0 when none.
    #[serde(default)]
    pub imported_keywords: u32,
    /// Whether the job adds keywords it finds itself to the imported ones; always true
    /// without imported keywords.
    #[serde(default = "discovering")]
    pub discover_keywords: bool,
    /// Where the job's `job.completed` / `job.failed` event is also sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub callback_url: Option<WebhookUrl>,
    /// Cluster briefs made for the completed job (each once; see `ClusterBrief`). Stored
    /// only once there is one: the brief ledger adds to it, starting from none.
    #[serde(default, skip_serializing_if = "no_briefs")]
    pub briefs: u32,
    /// The schedule that started the job; `None` for a job created by hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule_id: Option<ScheduleId>,
    /// The Search Console property whose searches the job imports; `None`: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_console_property: Option<PropertyUrl>,
    /// What the import came to, set when the job completes; `None` without a property (and
    /// until then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_console: Option<SearchConsoleImport>,
    /// What asking answer engines the job's questions came to, set when the job completes;
    /// `None` when no engine is configured (and until then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai_answers: Option<AiAnswersOutcome>,
}

fn discovering() -> bool {
    true
}

fn no_briefs(briefs: &u32) -> bool {
    *briefs == 0
}

/// Paid data provider calls of one job (the Job resource's `usage`). Stored on the job as
/// is; fields missing from an older job read as their defaults.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ProviderUsage {
    /// "dataforseo".
    pub provider: String,
    /// Sum of the `cost` of every response, USD.
    pub cost_usd: f64,
    /// Requests sent to the provider (retries included).
    pub requests: u64,
    /// Answers taken from the cross-job cache instead of a paid request.
    pub cache_hits: u64,
    /// The job's spending cap, USD, if one is configured.
    pub cap_usd: Option<f64>,
    /// The cap stopped further paid calls.
    pub cap_reached: bool,
}

/// A job as requested, before it is stored and charged.
#[derive(Debug, Clone)]
pub struct NewJob {
    pub id: JobId,
    pub owner: UserId,
    pub primary_domain: DomainName,
    pub competitor_domains: Vec<DomainName>,
    pub language_code: LanguageCode,
    pub location_code: LocationCode,
    pub created_at: DateTime<Utc>,
    pub imported_keywords: u32,
    pub discover_keywords: bool,
    pub callback_url: Option<WebhookUrl>,
    pub schedule_id: Option<ScheduleId>,
    pub search_console_property: Option<PropertyUrl>,
}

/// One step of a job's life: the job as it will be, and what the same write must also do.
#[derive(Debug, Clone, PartialEq)]
pub struct JobChange {
    /// The job afterwards; its version is one higher than the job it was computed from.
    pub next: Job,
    /// Give the owner's run back in the same write (a failed job, once).
    pub refund: bool,
}

impl JobChange {
    fn to(next: Job) -> Self {
        Self {
            next,
            refund: false,
        }
    }

    /// The webhook event this change owes the job's receivers: the one of the status that
    /// finishes the job, raised once, by the write that finishes it (`current` is the job
    /// the change was computed from); `None` for every other change.
    pub fn owed_event(&self, current: &Job) -> Option<WebhookEvent> {
        if current.status.is_finished() {
            return None;
        }
        WebhookEvent::for_status(self.next.status)
    }
}

impl Job {
    /// The job as it is stored at creation: queued, waiting for its first stage.
    pub fn queued(new: &NewJob) -> Self {
        Self {
            id: new.id,
            owner: new.owner,
            status: JobStatus::Queued,
            primary_domain: new.primary_domain.clone(),
            competitor_domains: new.competitor_domains.clone(),
            language_code: new.language_code.as_str().to_string(),
            location_code: new.location_code.get(),
            created_at: new.created_at,
            started_at: None,
            completed_at: None,
            progress: Progress::waiting(),
            error_message: None,
            keyword_count: None,
            stage: None,
            version: 1,
            refunded: false,
            usage: None,
            heartbeat_at: None,
            redrives: 0,
            expires_at: None,
            imported_keywords: new.imported_keywords,
            discover_keywords: new.discover_keywords,
            callback_url: new.callback_url.clone(),
            briefs: 0,
            schedule_id: new.schedule_id,
            search_console_property: new.search_console_property.clone(),
            search_console: None,
            ai_answers: None,
        }
    }

    /// Past its retention: gone for every reader, whether or not the store removed it yet.
    pub fn is_expired(&self, now: DateTime<Utc>) -> bool {
        self.expires_at.is_some_and(|at| at <= now)
    }

    fn successor(&self) -> Self {
        Self {
            version: self.version + 1,
            ..self.clone()
        }
    }

    /// `queued → running` at the first stage; `None` when the job is past that.
    pub fn start(&self, at: DateTime<Utc>) -> Option<JobChange> {
        if !self.status.can_become(JobStatus::Running) {
            return None;
        }
        let stage = Stage::first();
        Some(JobChange::to(Self {
            status: JobStatus::Running,
            started_at: Some(at),
            heartbeat_at: Some(at),
            stage: Some(stage),
            progress: Progress::within(stage, 0.0, "Starting"),
            ..self.successor()
        }))
    }

    /// The sweeper sends the current stage again: counted, and the heartbeat restarts so the
    /// job is not swept again before the new attempt had its chance. `None` unless running.
    pub fn redrive(&self, at: DateTime<Utc>) -> Option<JobChange> {
        (self.status == JobStatus::Running).then(|| {
            JobChange::to(Self {
                redrives: self.redrives + 1,
                heartbeat_at: Some(at),
                ..self.successor()
            })
        })
    }

    /// The current stage is done; `next` runs next.
    pub fn advance(&self, next: Stage, progress: Progress) -> JobChange {
        JobChange::to(Self {
            stage: Some(next),
            progress,
            redrives: 0,
            ..self.successor()
        })
    }

    /// `running → completed` with its keyword count; `None` when the job cannot complete.
    pub fn complete(&self, keyword_count: i64, at: DateTime<Utc>) -> Option<JobChange> {
        self.complete_with(keyword_count, None, None, at)
    }

    /// [`Self::complete`], with what its Search Console import and its questions to answer
    /// engines came to (each kept as it was when `None`).
    pub fn complete_with(
        &self,
        keyword_count: i64,
        search_console: Option<SearchConsoleImport>,
        ai_answers: Option<AiAnswersOutcome>,
        at: DateTime<Utc>,
    ) -> Option<JobChange> {
        if !self.status.can_become(JobStatus::Completed) {
            return None;
        }
        let search_console = search_console.or_else(|| self.search_console.clone());
        let ai_answers = ai_answers.or_else(|| self.ai_answers.clone());
        Some(JobChange::to(Self {
            status: JobStatus::Completed,
            completed_at: Some(at),
            stage: None,
            progress: Progress::completed(),
            keyword_count: Some(keyword_count),
            search_console,
            ai_answers,
            ..self.successor()
        }))
    }

    /// `queued|running → failed` with the reason, giving the run back unless it already was;
    /// `None` when the job is finished.
    pub fn fail(&self, error_message: &str, at: DateTime<Utc>) -> Option<JobChange> {
        if !self.status.can_become(JobStatus::Failed) {
            return None;
        }
        let mut progress = self.progress.clone();
        progress.message = Some("Failed".into());
        Some(JobChange {
            next: Self {
                status: JobStatus::Failed,
                completed_at: Some(at),
                error_message: Some(error_message.to_string()),
                keyword_count: Some(self.keyword_count.unwrap_or(0)),
                progress,
                refunded: true,
                ..self.successor()
            },
            refund: !self.refunded,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queued() -> Job {
        Job::queued(&NewJob {
            id: JobId::new(),
            owner: UserId::new(),
            primary_domain: DomainName::parse("example.com").unwrap(),
            competitor_domains: vec![DomainName::parse("competitor.com").unwrap()],
            language_code: LanguageCode::parse("en").unwrap(),
            location_code: LocationCode::parse(2840).unwrap(),
            created_at: Utc::now(),
            imported_keywords: 0,
            discover_keywords: true,
            callback_url: None,
            schedule_id: None,
            search_console_property: None,
        })
    }

    #[test]
    fn a_job_runs_its_stages_and_completes() {
        let at = Utc::now();
        let job = queued();
        assert_eq!(
            (job.status, job.version, job.stage),
            (JobStatus::Queued, 1, None)
        );
        let started = job.start(at).unwrap();
        assert!(!started.refund);
        let running = started.next;
        assert_eq!(running.status, JobStatus::Running);
        assert_eq!(running.stage, Some(Stage::first()));
        assert_eq!(running.version, 2);
        assert!(
            running.start(at).is_none(),
            "a running job does not start again"
        );
        let next = Stage::first().next().unwrap();
        let advanced = running.advance(next, Progress::within(next, 0.0, "x")).next;
        assert_eq!((advanced.stage, advanced.version), (Some(next), 3));
        let done = advanced.complete(42, at).unwrap().next;
        assert_eq!(done.status, JobStatus::Completed);
        assert_eq!((done.stage, done.keyword_count), (None, Some(42)));
        assert_eq!(done.progress, Progress::completed());
        assert!(
            done.fail("late", at).is_none(),
            "a completed job never fails"
        );
        assert!(done.complete(1, at).is_none());
    }

    #[test]
    fn failing_gives_the_run_back_once() {
        let at = Utc::now();
        let failed = queued().fail("unreachable", at).unwrap();
        assert!(failed.refund);
        assert_eq!(failed.next.status, JobStatus::Failed);
        assert_eq!(failed.next.error_message.as_deref(), Some("unreachable"));
        assert_eq!(failed.next.keyword_count, Some(0));
        assert!(failed.next.refunded);
        assert!(failed.next.fail("again", at).is_none());
        let refunded_already = Job {
            refunded: true,
            ..queued()
        };
        assert!(!refunded_already.fail("x", at).unwrap().refund);
    }
}
