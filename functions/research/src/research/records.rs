//! The result records, shaped as the API contract's Keyword, Cluster and Persona records.

use serde::{Deserialize, Serialize};

use crate::intent::Intent;
use crate::metrics::MonthlySearch;
pub use crate::personas::Persona;

/// Where a site ranks for a keyword (from a SERP provider; the offline engine has none).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ranking {
    pub domain: String,
    /// Position among results of the same type (organic results, or ads).
    pub position: u32,
    pub url: String,
    /// An organic result or a paid ad; only organic positions count as the site's ranking
    /// in scores.
    #[serde(rename = "type", default)]
    pub kind: RankingKind,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RankingKind {
    #[default]
    Organic,
    Paid,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeywordRecord {
    /// "k-" and the keyword's rank in discovery, from 1.
    pub id: String,
    pub keyword: String,
    pub search_volume: Option<i64>,
    pub cpc: Option<f64>,
    pub competition: Option<f64>,
    pub difficulty: Option<i64>,
    pub intent: Intent,
    pub persona_avatar_name: Option<String>,
    pub cluster_id: String,
    pub cluster_name: String,
    pub organic_opportunity_score: f64,
    pub paid_opportunity_score: f64,
    pub opportunity_value: f64,
    pub monthly_searches: Vec<MonthlySearch>,
    /// Where the figures come from: `dataforseo` (DataForSEO Labs), `dataforseo_google_ads`
    /// (Google Ads through DataForSEO, where Labs does not cover the market) or `estimate`
    /// (estimated from the crawl, not measured).
    pub metrics_source: String,
    /// Positions of the primary and competitor domains for this keyword (DataForSEO's ranked
    /// keywords); empty without the data provider.
    pub rankings: Vec<Ranking>,
    /// Competitors cover it and the primary site does not.
    pub content_gap: bool,
}

#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterRecord {
    pub id: String,
    pub name: String,
    pub primary_keyword: String,
    pub keyword_count: usize,
    /// Sum of the members' known volumes (0 if none is known).
    pub total_search_volume: i64,
    /// Mean of the members' known difficulties, 1 decimal; null if none is known.
    pub avg_difficulty: Option<f64>,
    /// Mean of the members' known CPCs, 2 decimals; null if none is known.
    pub avg_cpc: Option<f64>,
    /// The most common intent among members (ties in the order informational, commercial,
    /// transactional, navigational).
    pub dominant_intent: Intent,
    /// Mean of the members' scores, 2 decimals.
    pub organic_opportunity_score: f64,
    pub paid_opportunity_score: f64,
    /// Sum of the members' values, USD per month.
    pub opportunity_value: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResearchOutput {
    /// Best first (discovery order).
    pub keywords: Vec<KeywordRecord>,
    /// SERP-overlap clusters in hub order (highest volume first), then the lexical ones in
    /// theirs (most relevant first).
    pub clusters: Vec<ClusterRecord>,
    pub personas: Vec<Persona>,
}
