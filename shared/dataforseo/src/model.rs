//! The parts of DataForSEO's results this service reads. Every field is optional and
//! decoded leniently; unknown fields are ignored.

use serde::Deserialize;

use crate::lenient;

/// Labs' per-keyword record (ranked keywords, keyword ideas, keyword overview).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct KeywordData {
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub keyword: Option<String>,
    #[serde(default)]
    pub keyword_info: Option<KeywordInfo>,
    #[serde(default)]
    pub keyword_properties: Option<KeywordProperties>,
    #[serde(default)]
    pub search_intent_info: Option<SearchIntentInfo>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct KeywordInfo {
    #[serde(default, deserialize_with = "lenient::opt_i64")]
    pub search_volume: Option<i64>,
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub cpc: Option<f64>,
    /// 0 to 1 in Labs.
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub competition: Option<f64>,
    #[serde(default, deserialize_with = "lenient::list")]
    pub monthly_searches: Vec<MonthlyEntry>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct MonthlyEntry {
    #[serde(default, deserialize_with = "lenient::opt_i64")]
    pub year: Option<i64>,
    #[serde(default, deserialize_with = "lenient::opt_i64")]
    pub month: Option<i64>,
    #[serde(default, deserialize_with = "lenient::opt_i64")]
    pub search_volume: Option<i64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct KeywordProperties {
    #[serde(default, deserialize_with = "lenient::opt_i64")]
    pub keyword_difficulty: Option<i64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct SearchIntentInfo {
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub main_intent: Option<String>,
}

/// A result object holding `items` (most Labs endpoints).
#[derive(Debug, Deserialize)]
#[serde(bound = "T: serde::de::DeserializeOwned")]
pub struct ItemsResult<T> {
    #[serde(default, deserialize_with = "lenient::list")]
    pub items: Vec<T>,
}

/// One keyword a domain ranks for.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct RankedItem {
    #[serde(default)]
    pub keyword_data: Option<KeywordData>,
    #[serde(default)]
    pub ranked_serp_element: Option<RankedSerpElement>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct RankedSerpElement {
    #[serde(default)]
    pub serp_item: Option<SerpItem>,
}

/// A result on a search results page (organic, paid, ...).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SerpItem {
    #[serde(default, rename = "type", deserialize_with = "lenient::opt_string")]
    pub item_type: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    pub rank_group: Option<u32>,
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    pub rank_absolute: Option<u32>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub domain: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub url: Option<String>,
    /// The elements of a grouped item (the questions of `people_also_ask`, the videos of
    /// `video`, ...); on an advanced SERP only.
    #[serde(default, deserialize_with = "lenient::list")]
    pub items: Vec<SerpElement>,
    /// An organic result's sitelinks; on an advanced SERP only.
    #[serde(default, deserialize_with = "lenient::list")]
    pub links: Vec<SerpElement>,
    /// The pages an `ai_overview` item cites; a malformed one is skipped.
    #[serde(default, deserialize_with = "lenient::list")]
    pub references: Vec<AiOverviewReference>,
}

/// One element inside a grouped SERP item, or one sitelink.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SerpElement {
    #[serde(default, rename = "type", deserialize_with = "lenient::opt_string")]
    pub element_type: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub title: Option<String>,
    /// The pages an `ai_overview_element` (a part of an AI Overview) cites.
    #[serde(default, deserialize_with = "lenient::list")]
    pub references: Vec<AiOverviewReference>,
}

/// A page an AI Overview cites (`ai_overview_reference`): every field optional, as
/// DataForSEO documents them.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct AiOverviewReference {
    /// The source's name as the overview shows it ("Wikipedia").
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub source: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub domain: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub url: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub title: Option<String>,
    /// The snippet the overview quotes from it (not kept: the crawler reads the page).
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub text: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct DifficultyItem {
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub keyword: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_i64")]
    pub keyword_difficulty: Option<i64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct IntentItem {
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub keyword: Option<String>,
    #[serde(default)]
    pub keyword_intent: Option<IntentLabel>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct IntentLabel {
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub label: Option<String>,
}

/// Google Ads search volume of one keyword.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct AdsVolume {
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub keyword: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub spell: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_i64")]
    pub search_volume: Option<i64>,
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub cpc: Option<f64>,
    /// 0 to 100; the `competition` string beside it is only its band (LOW/MEDIUM/HIGH).
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub competition_index: Option<f64>,
    #[serde(default, deserialize_with = "lenient::list")]
    pub monthly_searches: Vec<MonthlyEntry>,
}

/// An organic SERP.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SerpResult {
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub keyword: Option<String>,
    #[serde(default, deserialize_with = "lenient::list")]
    pub items: Vec<SerpItem>,
}
