//! Schema-only mirrors of `kr_core::domain`'s types that responses serialise as they are
//! (ids, `JobStatus`, `Stage`, `Progress`, `Plan`, `Cadence`, `SharedTab`, `WebhookEvent`).
//!
//! GUARDED BY THE DRIFT TEST (`src/drift.rs`): it serialises real core values and checks the
//! JSON against these schemas. A field or variant added to a core type goes here too, with
//! its doc comment word for word (it is the OpenAPI description) and its serde attributes.
//! `Serialize` is derived only so those serde attributes, which the schema derive reads, can
//! be written; nothing serialises a mirror.

use serde::Serialize;
use utoipa::ToSchema;

macro_rules! uuid_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Serialize, ToSchema)]
        pub struct $name(pub uuid::Uuid);
    };
}

uuid_id!(
    /// Identifies a user account.
    UserId
);
uuid_id!(
    /// Identifies a keyword research job.
    JobId
);
uuid_id!(
    /// Identifies a schedule of repeated jobs.
    ScheduleId
);
uuid_id!(
    /// Identifies an API key (not the secret).
    ApiKeyId
);
uuid_id!(
    /// Identifies a webhook (an account's endpoint for job events).
    WebhookId
);

/// Where a job is in its life. It only ever moves forward:
/// `queued → running → completed | failed` (and `queued → failed` when it cannot start).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum JobStatus {
    Queued,
    Running,
    Completed,
    Failed,
}

/// The pipeline's stages, in the order they run. Their names appear in `progress.stage`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// `references`: fetch the home page of every site for its preview.
    References,
    /// `crawl`: crawl the primary and competitor sites (robots.txt, sitemaps, links).
    Crawl,
    /// `discovery`: find candidate keywords in the crawled content.
    Discovery,
    /// `metrics`: search volume, CPC, competition and difficulty of every keyword.
    Metrics,
    /// `analysis`: intent, clusters, personas and opportunity scores; then the results are
    /// published and the job completes.
    Analysis,
}

/// How far a job has come, as the API shows it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    /// The stage running now (or that failed); `null` before the first stage and once completed.
    pub stage: Option<Stage>,
    pub completed_stages: u32,
    pub total_stages: u32,
    /// 0 to 100.
    pub percent: u32,
    pub message: Option<String>,
}

/// The account's subscription plan. Only `agency` includes API access.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Plan {
    Free,
    Pro,
    Agency,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Cadence {
    Weekly,
    Monthly,
}

/// A tab of a job's results that a link can show.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SharedTab {
    Keywords,
    Clusters,
    Plan,
    Personas,
    Overview,
    /// What changed since the previous run of the same domain and market.
    Changes,
    /// The job's Search Console data: striking-distance, decaying and cannibalized queries
    /// (a job that imported none shows no such tab).
    #[serde(rename = "search_console")]
    SearchConsole,
    /// The job's AI visibility: AI Overviews' share of voice against each competitor, the
    /// clusters to earn citations in, the keywords' AI Overviews and answer engines' answers
    /// with their cited sources (a job with neither an AI Overview nor answers shows no such
    /// tab).
    #[serde(rename = "ai_visibility")]
    AiVisibility,
}

/// What a webhook can be told.
#[derive(Serialize, ToSchema)]
pub enum WebhookEvent {
    /// A job completed; its results can be read.
    #[serde(rename = "job.completed")]
    JobCompleted,
    /// A job failed (`errorMessage` says why; its run was given back).
    #[serde(rename = "job.failed")]
    JobFailed,
    /// A scheduled run completed: what changed since the run before (summary and counts).
    #[serde(rename = "job.changes")]
    JobChanges,
    /// A schedule's run was skipped (no runs left, domain allowance used up, ...).
    #[serde(rename = "schedule.run_skipped")]
    ScheduleRunSkipped,
}

/// What a job's Search Console import came to (the Job resource's `searchConsole`).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchConsoleImport {
    pub status: ImportStatus,
    /// Why it was skipped, in the owner's words; `null` when imported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Rows (query, page, day) read from Search Console.
    #[serde(default)]
    pub rows: u64,
    /// Distinct queries among them.
    #[serde(default)]
    pub queries: u64,
    /// The job's keywords that got Search Console figures.
    #[serde(default)]
    pub keywords: u64,
    /// Queries only Search Console knew, added to the job (`source: search_console`).
    #[serde(default)]
    pub added_keywords: u64,
    /// The window read, `YYYY-MM-DD`; `null` when nothing was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_date: Option<String>,
    /// The last day the property had data for (Search Console lags two or three days);
    /// `null` when it had none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_date: Option<String>,
}

/// Whether a job's Search Console data was imported.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ImportStatus {
    /// Read (possibly no rows: the property has no data for the job's country).
    Imported,
    /// Not read: the grant lapsed, Google failed, the connection is gone; see `reason`.
    Skipped,
}
