//! DataForSEO v3, as this service uses it: a client for the Labs, Google Ads, SERP (Live
//! and Standard queue) AI Mode (Live and Standard queue) and AI Optimization (LLM Responses) endpoints that checks both status levels of every answer, retries only the documented
//! transient codes, keeps to the account's rate limits across all workers, stops at each
//! job's spending cap, records what every response cost, and caches answers across jobs.

mod ai_mode;
mod api;
mod client;
mod endpoint;
mod envelope;
mod error;
mod gate;
mod jitter;
pub mod keywords;
mod lenient;
pub mod llm;
pub mod model;
pub mod pricing;
mod serp_page;
mod serp_queue;
mod settings;
mod spend;
mod status;

pub use ai_mode::AiModeAnswer;
pub use api::{Bulk, Market};
pub use client::{DataForSeo, JobSession};
pub use endpoint::{Endpoint, RateLimit, GOOGLE_ADS, LABS};
pub use error::ProviderError;
pub use llm::LlmAnswer;
pub use serp_page::{read_serp, SerpReading};
pub use serp_queue::{Collected, PostedSerps, ReadySerp, SerpTask};
pub use settings::{
    answer_plan_from_vars, spending_limits_from_vars, ProviderSettings, RetryPolicy, SerpMethod,
    DEFAULT_AI_ANSWERS_PROMPTS, DEFAULT_SERP_BUDGET,
};
pub use spend::{UsageSink, PROVIDER};
