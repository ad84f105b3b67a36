//! Schema-only mirrors of `kr_core::dataset`'s result records (keywords, clusters, personas,
//! site references), served as they are.
//!
//! GUARDED BY THE DRIFT TEST (`src/drift.rs`): it serialises real core values and checks the
//! JSON against these schemas. A field or variant added to a core type goes here too, with
//! its doc comment word for word (it is the OpenAPI description) and its serde attributes.
//! `Serialize` is derived only so those serde attributes, which the schema derive reads, can
//! be written; nothing serialises a mirror.

use serde::Serialize;
use utoipa::ToSchema;

use crate::ai_overview::{AiOverview, AiShareOfVoice};
use crate::plan::{ClusterAction, ClusterMethod, PlanBasis, SitePosition};
use crate::serp_page::{SerpFeature, WeakSpot};

/// Where a site ranks for a keyword (from a SERP provider; the offline engine has none).
#[derive(Serialize, ToSchema)]
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

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum RankingKind {
    Organic,
    Paid,
}

#[derive(Serialize, ToSchema)]
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
    /// Other intents the keyword also serves: those whose cue score is within 75 % of the
    /// strongest one's ("best price for a massage": transactional, secondary commercial), never
    /// repeating `intent`; strongest first, usually empty.
    #[serde(default)]
    pub secondary_intents: Vec<Intent>,
    pub persona_avatar_name: Option<String>,
    pub cluster_id: String,
    pub cluster_name: String,
    pub organic_opportunity_score: f64,
    pub paid_opportunity_score: f64,
    pub opportunity_value: f64,
    pub monthly_searches: Vec<MonthlySearch>,
    /// Where the figures come from: `dataforseo` (DataForSEO Labs), `dataforseo_google_ads`
    /// (Google Ads through DataForSEO, where Labs does not cover the market), `search_console`
    /// (no paid provider: `searchVolume` is the keyword's Search Console impressions over the
    /// last 28 days of data, the other figures estimated) or `estimate` (estimated from the
    /// crawl, not measured).
    pub metrics_source: String,
    /// Positions of the primary and competitor domains for this keyword (DataForSEO's ranked
    /// keywords); empty without the data provider.
    pub rankings: Vec<Ranking>,
    /// Competitors cover it and the primary site does not.
    pub content_gap: bool,
    /// Where the keyword came from; `null` in results computed before sources were recorded.
    #[serde(default)]
    pub source: Option<KeywordSource>,
    /// The topic of its cluster; `null` in results computed before topics.
    #[serde(default)]
    pub topic_id: Option<String>,
    /// The SERP features on its first results page; `null` when no SERP was fetched for it
    /// (no data provider, or past the job's SERP budget).
    #[serde(default)]
    pub serp_features: Option<Vec<SerpFeature>>,
    /// The People Also Ask questions on that page, in order; `null` as for `serpFeatures`.
    #[serde(default)]
    pub people_also_ask: Option<Vec<String>>,
    /// Its top-10 organic results from forums, Q&A and social sites, by position; `null` as
    /// for `serpFeatures`.
    #[serde(default)]
    pub weak_spots: Option<Vec<WeakSpot>>,
    /// What Google Search Console measured for it on the job's property
    /// (`searchConsoleProperty`): the last 28 days of data, the 28 before, its pages and a
    /// daily series; `null` when the job names no property or the property has no data for it.
    #[serde(default)]
    pub search_console: Option<SearchConsoleMetrics>,
    /// The AI Overview on its SERP: whether one was shown and whom it cites; `null` as for
    /// `serpFeatures` (no SERP fetched), and in results computed before it was recorded.
    #[serde(default)]
    pub ai_overview: Option<AiOverview>,
}

/// A keyword's Search Console figures on the job's property, for the web search of the job's
/// country. The windows end on the last day the property has data for (Search Console lags
/// two or three days): `clicks`, `impressions`, `ctr`, `position`, `page` and `pages` cover
/// its last 28 days, `previousClicks` and `previousImpressions` the 28 days before, `daily`
/// every day of the imported window (`KR_SEARCH_CONSOLE_DAYS`, 90 by default).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchConsoleMetrics {
    pub clicks: u64,
    pub impressions: u64,
    /// `clicks / impressions`, 0 to 1 (0 without impressions).
    pub ctr: f64,
    /// Average position, weighted by impressions, as Search Console averages it; 0 without
    /// impressions.
    pub position: f64,
    /// The page with the most clicks (ties: the most impressions, then the address); `null`
    /// without impressions in the window.
    pub page: Option<String>,
    /// Clicks in the 28 days before the last 28 (for decay: down 30 % from at least 20).
    pub previous_clicks: u64,
    pub previous_impressions: u64,
    /// The property's pages shown for it in the last 28 days, most clicks first (ties: most
    /// impressions, then address), at most 10: two or more with impressions is cannibalization.
    pub pages: Vec<SearchConsolePage>,
    /// One entry per day with impressions in the imported window, oldest first.
    pub daily: Vec<SearchConsoleDay>,
}

/// One page of the property shown for a keyword, over the last 28 days of data.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchConsolePage {
    pub page: String,
    pub clicks: u64,
    pub impressions: u64,
    pub position: f64,
}

/// One day of a keyword's Search Console data (every page of the property summed).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchConsoleDay {
    /// `YYYY-MM-DD`, as Search Console dates its data (Pacific time).
    pub date: String,
    pub clicks: u64,
    pub impressions: u64,
    pub position: f64,
}

/// Where a keyword came from. A keyword with several origins names the first that applies in
/// this order: the user's own list, a ranking, the crawl, a keyword idea, Search Console.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum KeywordSource {
    /// In the `keywords` the job was created with.
    Imported,
    /// The primary or a competitor domain ranks for it (data provider).
    Ranked,
    /// Found on the crawled pages.
    Crawl,
    /// A keyword idea the data provider gave for the site's own top phrases.
    Idea,
    /// A query the site is shown for in Google Search Console (the job's
    /// `searchConsoleProperty`) that nothing else found. Last, so stored datasets keep their
    /// values.
    #[serde(rename = "search_console")]
    SearchConsole,
}

#[derive(Serialize, ToSchema)]
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
    /// How its keywords were grouped; `null` in results computed before it was recorded.
    #[serde(default)]
    pub method: Option<ClusterMethod>,
    /// SERP clusters: the result URLs its keywords with results have in common, best first
    /// (see the API reference); empty for lexical clusters.
    #[serde(default)]
    pub shared_urls: Vec<String>,
    /// `null` in results computed before topics.
    #[serde(default)]
    pub topic_id: Option<String>,
    /// What to do on the primary site; `null` in results computed before content plans.
    #[serde(default)]
    pub action: Option<ClusterAction>,
    /// The primary site's page for it: the best-ranking one, else the best-matching crawled
    /// page; when the cluster is a search for the site by its name, the page matching the rest
    /// of the name, else its home page; `null` for `create`.
    #[serde(default)]
    pub target_url: Option<String>,
    /// The target page's best organic position for the cluster's keywords; `null` when it
    /// was chosen by its title, H1 and address, or as the home page, rather than by rankings.
    #[serde(default)]
    pub target_position: Option<u32>,
    /// How well the target page's title, H1 and address match the cluster name (for a search
    /// for the site by its name, the rest of the name), 0 to 1; `null` when the page was chosen
    /// by rankings or as the home page.
    #[serde(default)]
    pub target_score: Option<f64>,
    /// `consolidate`: the primary site's pages that compete for it, best first.
    #[serde(default)]
    pub cannibalizing_urls: Vec<String>,
    /// Each competitor that ranks for its keywords, with its best position and that page.
    #[serde(default)]
    pub competitor_positions: Vec<SitePosition>,
    /// Competitors rank for it and the primary site does not (offline: every member is a
    /// content gap).
    #[serde(default)]
    pub content_gap: bool,
    /// What decided `action` and `targetUrl`: `search_console` (the job's Search Console
    /// data: the page its keywords bring the most impressions to, two or more pages shown for
    /// one of its queries, or impressions only past position 20 with no page for it),
    /// `rankings` (the site's positions from the data provider) or `crawl` (the crawled
    /// pages' titles, headings and addresses, or the site's name; `create` when none serves
    /// it); `null` in results computed before it was recorded.
    #[serde(default)]
    pub basis: Option<PlanBasis>,
    /// The Search Console figures the plan was made on, stored with it: its keywords' clicks,
    /// impressions and position (weighted by impressions) over the last 28 days of data at
    /// job time, what a later run's changes measure it against; `null` when none of its
    /// keywords had data, and in results computed before it was recorded.
    #[serde(default)]
    pub search_console_baseline: Option<ClusterSearchConsole>,
    /// Its keywords' Search Console figures over the last 28 days of data, summed: `clicks`,
    /// `impressions`, and `position` weighted by impressions over its keywords with data;
    /// `null` when none of its keywords has data.
    #[serde(default)]
    pub search_console: Option<ClusterSearchConsole>,
    /// Of its keywords with an AI Overview, the share citing the site and each competitor;
    /// `null` when none of its keywords shows one.
    #[serde(default)]
    pub ai_share_of_voice: Option<AiShareOfVoice>,
    /// AI Overviews on its keywords cite a competitor and none cites the site: a citation to
    /// earn.
    #[serde(default)]
    pub earn_citation: bool,
}

/// A cluster's Search Console figures: its keywords' last 28 days of data, summed.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClusterSearchConsole {
    pub clicks: u64,
    pub impressions: u64,
    /// Average position weighted by impressions over its keywords with data, 2 decimals; 0
    /// without impressions.
    pub position: f64,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Intent {
    /// The default: the first in the order ties are broken in.
    Informational,
    Commercial,
    Transactional,
    Navigational,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MonthlySearch {
    pub year: i32,
    /// 1 to 12.
    pub month: u32,
    pub search_volume: i64,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Persona {
    /// Stable within a job, e.g. "p-budget".
    pub id: String,
    pub avatar_name: String,
    pub title: String,
    pub description: String,
    pub goals: Vec<String>,
    pub pain_points: Vec<String>,
    pub keyword_count: usize,
    /// Its most valuable keywords, best first, at most [`TOP_KEYWORDS`].
    pub top_keywords: Vec<String>,
}

/// A site preview (contract: `GET /jobs/{id}/references`). Missing parts are `null`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Reference {
    /// The site address fetched.
    pub url: String,
    /// `og:title`, else `<title>`.
    pub title: Option<String>,
    /// `og:description`, else the meta description.
    pub description: Option<String>,
    /// Absolute `og:image`, else `twitter:image`, else the site icon.
    pub image_url: Option<String>,
    /// The canonical link, else `og:url`, else the final URL after redirects.
    pub link: Option<String>,
}
