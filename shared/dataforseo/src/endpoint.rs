//! The endpoints this service calls and the account-wide limit each falls under.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Endpoint {
    RankedKeywords,
    KeywordIdeas,
    KeywordOverview,
    BulkKeywordDifficulty,
    SearchIntent,
    AdsSearchVolume,
    SerpOrganic,
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
            Endpoint::SerpOrganic => "/v3/serp/google/organic/live/regular",
        }
    }

    pub fn rate_limit(self) -> RateLimit {
        match self {
            Endpoint::AdsSearchVolume => GOOGLE_ADS,
            Endpoint::SerpOrganic => RateLimit::None,
            _ => LABS,
        }
    }

    /// Keywords one request may carry.
    pub fn batch_size(self) -> usize {
        match self {
            Endpoint::KeywordOverview => 700,
            Endpoint::KeywordIdeas => 200,
            Endpoint::RankedKeywords | Endpoint::SerpOrganic => 1,
            _ => 1000,
        }
    }
}
