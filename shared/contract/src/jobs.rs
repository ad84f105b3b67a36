//! What the jobs API answers: `JobView`, `CreatedJobView` and the parts they hold, each built
//! from the core value it shows (`From`). Real types: the functions serialise them, so their
//! schemas cannot drift from what is sent. Core types they hold (ids, `JobStatus`,
//! `Progress`) are documented by their mirrors in [`crate::domain`] (`value_type`).

use chrono::{DateTime, Utc};
use kr_core::domain::{
    AiAnswersOutcome, Job, JobId, JobStatus, Progress, ProviderUsage, ScheduleId,
    SearchConsoleImport,
};
use kr_core::service::jobs::{CreatedJob, KeywordImport};
use serde::Serialize;
use utoipa::ToSchema;

/// The Job resource.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobView {
    #[schema(value_type = crate::domain::JobId)]
    pub id: JobId,
    #[schema(value_type = crate::domain::JobStatus)]
    pub status: JobStatus,
    #[schema(example = "example.com")]
    pub primary_domain: String,
    /// Normalised, in request order; `[]` when none.
    pub competitor_domains: Vec<String>,
    #[schema(example = "en")]
    pub language_code: String,
    #[schema(example = 2840)]
    pub location_code: u32,
    #[serde(with = "kr_core::time")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: DateTime<Utc>,
    /// When the first stage started.
    #[serde(with = "kr_core::time::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub started_at: Option<DateTime<Utc>>,
    /// When the job completed or failed.
    #[serde(with = "kr_core::time::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub completed_at: Option<DateTime<Utc>>,
    #[schema(value_type = crate::domain::Progress)]
    pub progress: Progress,
    /// Why the job failed; `null` unless `status` is `failed`.
    pub error_message: Option<String>,
    /// Number of keywords found; `null` until the job is completed or failed.
    pub keyword_count: Option<i64>,
    /// What the job's paid data provider calls cost so far; `null` when it made none (no
    /// provider configured, or a job that has not reached the provider yet).
    pub usage: Option<UsageView>,
    /// Keywords the request brought (`keywords`), after cleaning; 0 when none.
    pub imported_keyword_count: u32,
    /// Whether the job adds keywords it finds itself to the imported ones (`true` unless the
    /// request said `discoverKeywords: false`).
    pub discover_keywords: bool,
    /// Cluster briefs made for the job (`GET /jobs/{jobId}/clusters/{clusterId}/brief`), each
    /// counted once, at most the configured number per job.
    pub brief_count: u32,
    /// The schedule that started the job (`GET /schedules/{scheduleId}`); `null` for a job
    /// created by hand.
    #[schema(value_type = Option<crate::domain::ScheduleId>)]
    pub schedule_id: Option<ScheduleId>,
    /// The Search Console property the job imports (`searchConsoleProperty` of the request);
    /// `null` when none.
    #[schema(example = "sc-domain:example.com")]
    pub search_console_property: Option<String>,
    /// What the Search Console import came to once the job completed: `imported` (with the
    /// rows and queries read, the keywords that got figures and those added) or `skipped`
    /// with the `reason` (a grant that lapsed or was revoked, Google failing): the job then
    /// completes without Search Console data. `null` without a property, and until the job
    /// completes.
    #[schema(value_type = Option<crate::domain::SearchConsoleImport>)]
    pub search_console: Option<SearchConsoleImport>,
    /// What asking AI answer engines the job's questions came to once it completed
    /// (`completed`, `skipped` when its provider budget was spent, `failed` when no engine
    /// answered: the job completes either way, with the `reason`); the answers are at
    /// `GET /jobs/{jobId}/ai-visibility`. `null` when no engine is configured, and until the
    /// job completes.
    #[schema(value_type = Option<crate::ai_answers::AiAnswersOutcome>)]
    pub ai_answers: Option<AiAnswersOutcome>,
}

/// Paid data provider calls of a job.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UsageView {
    /// The data provider.
    #[schema(example = "dataforseo")]
    pub provider: String,
    /// Sum of the `cost` the provider reported for every response, in USD.
    #[schema(example = 0.1234)]
    pub cost_usd: f64,
    /// Requests sent to the provider, retries included.
    #[schema(example = 17)]
    pub requests: u64,
    /// Answers taken from the cross-job cache instead of a paid request.
    #[schema(example = 3)]
    pub cache_hits: u64,
    /// The per-job spending cap in USD; `null` when none is configured.
    #[schema(example = 5.0)]
    pub cap_usd: Option<f64>,
    /// The cap stopped further paid calls; the job finished with the data it had.
    pub cap_reached: bool,
}

impl From<&ProviderUsage> for UsageView {
    fn from(usage: &ProviderUsage) -> Self {
        Self {
            provider: usage.provider.clone(),
            cost_usd: usage.cost_usd,
            requests: usage.requests,
            cache_hits: usage.cache_hits,
            cap_usd: usage.cap_usd,
            cap_reached: usage.cap_reached,
        }
    }
}

impl From<&Job> for JobView {
    fn from(job: &Job) -> Self {
        Self {
            id: job.id,
            status: job.status,
            primary_domain: job.primary_domain.to_string(),
            competitor_domains: job
                .competitor_domains
                .iter()
                .map(ToString::to_string)
                .collect(),
            language_code: job.language_code.clone(),
            location_code: job.location_code,
            created_at: job.created_at,
            started_at: job.started_at,
            completed_at: job.completed_at,
            progress: job.progress.clone(),
            error_message: job.error_message.clone(),
            keyword_count: if job.status.is_finished() {
                Some(job.keyword_count.unwrap_or(0))
            } else {
                None
            },
            usage: job.usage.as_ref().map(UsageView::from),
            imported_keyword_count: job.imported_keywords,
            discover_keywords: job.discover_keywords,
            brief_count: job.briefs,
            schedule_id: job.schedule_id,
            search_console_property: job
                .search_console_property
                .as_ref()
                .map(ToString::to_string),
            search_console: job.search_console.clone(),
            ai_answers: job.ai_answers.clone(),
        }
    }
}

/// The reply to a create: only what the contract lists.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedJobView {
    #[schema(value_type = crate::domain::JobId)]
    pub id: JobId,
    #[schema(value_type = crate::domain::JobStatus)]
    pub status: JobStatus,
    #[serde(with = "kr_core::time")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: DateTime<Utc>,
    /// Only when the request brought `keywords`: what became of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyword_import: Option<KeywordImportView>,
    /// Only with a `callbackUrl`: the secret its deliveries are signed with (Standard Webhooks,
    /// `whsec_…`). The same for every replay of the request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub callback_secret: Option<String>,
}

/// What became of the keywords a request brought.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct KeywordImportView {
    /// Distinct phrases the job researches.
    #[schema(example = 120)]
    pub imported: usize,
    /// Entries dropped as the same phrase as an earlier one once cleaned ("Cold Brew" and
    /// "cold  brew").
    #[schema(example = 3)]
    pub duplicates: usize,
}

impl From<&KeywordImport> for KeywordImportView {
    fn from(import: &KeywordImport) -> Self {
        Self {
            imported: import.imported,
            duplicates: import.duplicates,
        }
    }
}

impl From<&CreatedJob> for CreatedJobView {
    fn from(created: &CreatedJob) -> Self {
        Self {
            id: created.id,
            status: created.status,
            created_at: created.created_at,
            keyword_import: created.keyword_import.as_ref().map(KeywordImportView::from),
            callback_secret: created.callback_secret.clone(),
        }
    }
}
