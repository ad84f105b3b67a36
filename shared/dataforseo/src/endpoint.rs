//! The endpoints this service calls and the account-wide limit each falls under.

use kr_core::domain::AiEngine;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Endpoint {
    RankedKeywords,
    KeywordIdeas,
    KeywordOverview,
    BulkKeywordDifficulty,
    SearchIntent,
    AdsSearchVolume,
    SerpOrganic,
    /// The Standard queue: SERP tasks posted (up to 100 a request) and paid for here ...
    SerpTaskPost,
    /// ... the account's finished tasks not yet collected (free) ...
    SerpTasksReady,
    /// ... and one task's results, by id (free; the id follows the path).
    SerpTaskGet,
    /// AI Optimization, LLM Responses (Live): one question to one answer engine; for Google's
    /// AI Mode, the SERP API's AI Mode (Live).
    LlmResponses(AiEngine),
    /// Google AI Mode through the Standard queue, as organic SERPs: posted (paid) ...
    AiModeTaskPost,
    /// ... listed when finished (free) ...
    AiModeTasksReady,
    /// ... and collected by id (free).
    AiModeTaskGet,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
}

/// An account-wide limit, shared by every job and worker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RateLimit {
    /// At most `limit` requests of the pool in flight at once.
    Concurrent {
        pool: &'static str,
        limit: u32,
    },
    /// At most `limit` requests of the pool started per minute.
    PerMinute {
        pool: &'static str,
        limit: u32,
    },
    None,
}

/// DataForSEO Labs: "the maximum number of requests that can be sent simultaneously is
/// limited to 30".
pub const LABS: RateLimit = RateLimit::Concurrent {
    pool: "dataforseo-labs",
    limit: 30,
};
/// Google Ads Live endpoints: 12 requests a minute per account.
pub const GOOGLE_ADS: RateLimit = RateLimit::PerMinute {
    pool: "dataforseo-google-ads",
    limit: 12,
};

/// LLM Responses: "The number of concurrent Live tasks is currently limited to 30 per account
/// for each platform".
const fn llm_pool(pool: &'static str) -> RateLimit {
    RateLimit::Concurrent { pool, limit: 30 }
}

impl Endpoint {
    pub fn path(self) -> &'static str {
        match self {
            Endpoint::RankedKeywords => "/v3/dataforseo_labs/google/ranked_keywords/live",
            Endpoint::KeywordIdeas => "/v3/dataforseo_labs/google/keyword_ideas/live",
            Endpoint::KeywordOverview => "/v3/dataforseo_labs/google/keyword_overview/live",
            Endpoint::BulkKeywordDifficulty => {
                "/v3/dataforseo_labs/google/bulk_keyword_difficulty/live"
            }
            Endpoint::SearchIntent => "/v3/dataforseo_labs/google/search_intent/live",
            Endpoint::AdsSearchVolume => "/v3/keywords_data/google_ads/search_volume/live",
            Endpoint::SerpOrganic => "/v3/serp/google/organic/live/advanced",
            Endpoint::SerpTaskPost => "/v3/serp/google/organic/task_post",
            Endpoint::SerpTasksReady => "/v3/serp/google/organic/tasks_ready",
            Endpoint::SerpTaskGet => "/v3/serp/google/organic/task_get/advanced",
            Endpoint::LlmResponses(engine) => match engine {
                AiEngine::ChatGpt => "/v3/ai_optimization/chat_gpt/llm_responses/live",
                AiEngine::Perplexity => "/v3/ai_optimization/perplexity/llm_responses/live",
                AiEngine::Gemini => "/v3/ai_optimization/gemini/llm_responses/live",
                AiEngine::Claude => "/v3/ai_optimization/claude/llm_responses/live",
                AiEngine::GoogleAiMode => "/v3/serp/google/ai_mode/live/advanced",
            },
            Endpoint::AiModeTaskPost => "/v3/serp/google/ai_mode/task_post",
            Endpoint::AiModeTasksReady => "/v3/serp/google/ai_mode/tasks_ready",
            Endpoint::AiModeTaskGet => "/v3/serp/google/ai_mode/task_get/advanced",
        }
    }

    pub fn method(self) -> Method {
        match self {
            Endpoint::SerpTasksReady
            | Endpoint::SerpTaskGet
            | Endpoint::AiModeTasksReady
            | Endpoint::AiModeTaskGet => Method::Get,
            _ => Method::Post,
        }
    }

    /// Whether a request is charged; free ones are still made once the job's cap is reached
    /// (collecting tasks already paid for).
    pub fn is_paid(self) -> bool {
        self.method() == Method::Post
    }

    /// Whether sending a request twice does what sending it once does. A `task_post` creates
    /// (and charges) new tasks each time it arrives, so one whose answer was lost is not
    /// sent again: its tasks are looked up by their `tag` instead.
    pub fn is_idempotent(self) -> bool {
        !matches!(self, Endpoint::SerpTaskPost | Endpoint::AiModeTaskPost)
    }

    pub fn rate_limit(self) -> RateLimit {
        match self {
            Endpoint::AdsSearchVolume => GOOGLE_ADS,
            Endpoint::SerpOrganic
            | Endpoint::SerpTaskPost
            | Endpoint::SerpTasksReady
            | Endpoint::SerpTaskGet
            | Endpoint::AiModeTaskPost
            | Endpoint::AiModeTasksReady
            | Endpoint::AiModeTaskGet => RateLimit::None,
            Endpoint::LlmResponses(engine) => match engine {
                AiEngine::ChatGpt => llm_pool("dataforseo-llm-chat_gpt"),
                AiEngine::Perplexity => llm_pool("dataforseo-llm-perplexity"),
                AiEngine::Gemini => llm_pool("dataforseo-llm-gemini"),
                AiEngine::Claude => llm_pool("dataforseo-llm-claude"),
                AiEngine::GoogleAiMode => RateLimit::None,
            },
            _ => LABS,
        }
    }

    /// Keywords one request may carry.
    pub fn batch_size(self) -> usize {
        match self {
            Endpoint::KeywordOverview => 700,
            Endpoint::KeywordIdeas => 200,
            // "each POST call containing no more than 100 tasks" (task_post docs).
            Endpoint::SerpTaskPost | Endpoint::AiModeTaskPost => 100,
            Endpoint::RankedKeywords
            | Endpoint::SerpOrganic
            | Endpoint::SerpTasksReady
            | Endpoint::SerpTaskGet
            | Endpoint::AiModeTasksReady
            | Endpoint::AiModeTaskGet
            | Endpoint::LlmResponses(_) => 1,
            _ => 1000,
        }
    }
}
