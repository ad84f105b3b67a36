//! What the pipeline knows about a candidate beyond the crawl.

use serde::{Deserialize, Serialize};

use crate::intent::Intent;
use crate::metrics::{KeywordMetrics, ESTIMATE_SOURCE};
use kr_core::dataset::{AiReference, Ranking, SearchConsoleMetrics, SerpFeature};

/// `metricsSource` of a candidate [`super::assemble`] was given no entry for.
pub const NO_DATA_SOURCE: &str = "none";

/// What is known about one candidate beyond the crawl; every part optional.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Measured {
    pub metrics: KeywordMetrics,
    /// `metricsSource` of the record ("estimate", "dataforseo", ...).
    pub source: String,
    pub rankings: Vec<Ranking>,
    /// The provider's intent; the classifier decides when `None`.
    pub intent: Option<Intent>,
    /// Top organic result URLs in rank order, when a SERP was fetched.
    pub serp_urls: Option<Vec<String>>,
    /// The SERP features on that page, when a SERP was fetched.
    #[serde(default)]
    pub serp_features: Option<Vec<SerpFeature>>,
    /// Its People Also Ask questions, when a SERP was fetched.
    #[serde(default)]
    pub people_also_ask: Option<Vec<String>>,
    /// Its Search Console figures on the job's property, when it has some: the record's
    /// `searchConsole`, which the plan reads first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_console: Option<SearchConsoleMetrics>,
    /// The cited pages of the AI Overview on its SERP, in order, when the SERP showed one
    /// (`None`: no overview, or no SERP fetched; `serpFeatures` tells which).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai_overview: Option<Vec<AiReference>>,
}

impl Measured {
    /// Estimated metrics ([`crate::metrics::estimate_all`]) and nothing else.
    pub fn estimated(metrics: KeywordMetrics) -> Measured {
        Measured {
            metrics,
            source: ESTIMATE_SOURCE.to_string(),
            ..Measured::default()
        }
    }
}
