//! Schema-only mirrors of kr-core's answer engine types: the Job resource's `aiAnswers`
//! (`kr_core::domain::AiAnswersOutcome`) and one engine's answer
//! (`kr_core::dataset::AiAnswer`), served by `GET /jobs/{jobId}/ai-visibility`. Guarded by
//! the drift test (`src/drift.rs`).

use serde::Serialize;
use utoipa::ToSchema;

/// An AI answer engine, by the name DataForSEO's AI Optimization API gives its platform, or
/// Google's AI Mode.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AiEngine {
    /// ChatGPT (model gpt-4.1-mini, web search on).
    ChatGpt,
    /// Perplexity (model sonar).
    Perplexity,
    /// Gemini (model gemini-2.5-flash, web search on).
    Gemini,
    /// Claude (model claude-haiku-4-5, web search on).
    Claude,
    /// Google AI Mode: the answer Google Search writes in its AI Mode tab, asked as a search in
    /// the job's market (DataForSEO's SERP API; through the Standard queue when SERPs are).
    GoogleAiMode,
}

/// What asking the engines came to.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AiAnswersStatus {
    /// Asked; `reason` names what was left out (an engine that failed, questions past the
    /// budget or the time).
    Completed,
    /// Not asked: the job's provider budget was spent, or it had no cluster to ask about.
    Skipped,
    /// Asked and no engine answered; the job completes anyway.
    Failed,
}

/// The Job resource's `aiAnswers`: what asking AI answer engines the job's questions came to.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AiAnswersOutcome {
    pub status: AiAnswersStatus,
    /// What was skipped or failed, in the owner's words; `null` when everything was asked.
    pub reason: Option<String>,
    /// The engines configured, in order.
    pub engines: Vec<AiEngine>,
    /// Questions put to each engine (derived from the job's clusters).
    #[schema(example = 20)]
    pub prompts: u32,
    /// What the answers cost, USD (cached answers cost nothing); part of the job's `usage`.
    #[schema(example = 0.124)]
    pub cost_usd: f64,
}

/// One engine's answer to one of the job's questions.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AiAnswer {
    pub engine: AiEngine,
    /// The question as sent: derived from a cluster (its primary keyword, dominant intent and
    /// main persona's goal), never written by hand.
    #[schema(example = "What are the best options for cold brew maker?")]
    pub prompt: String,
    /// The cluster the question was phrased from.
    #[schema(example = "c-3")]
    pub cluster_id: String,
    /// The site's brand or domain is named in the answer (case-insensitive, whole words).
    pub mentions_site: bool,
    /// The answer cites a page on the site (registrable domain, subdomains included).
    pub cites_site: bool,
    /// The job's competitors (as the job lists them) named or cited, in the job's order.
    pub competitors: Vec<String>,
    /// The addresses the answer cites, in order, each once, at most 20.
    pub cited_urls: Vec<String>,
    /// The answer, at most 2,000 characters. Model text: hostile, escaped wherever it is shown.
    pub text: String,
    /// Taken from the cross-job cache: it cost this job nothing.
    pub cached: bool,
}
