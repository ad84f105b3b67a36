//! A keyword query as the contract reads it from a query string (`GET /jobs/{jobId}/keywords`):
//! its paging, filters, bounds and order, and the constants and range table its OpenAPI
//! description (`parameters.rs`) is built from. The engine (`query.rs`) runs it.

use kr_core::dataset::{Intent, KeywordSource, SerpFeature};
use kr_core::query_params::QueryParams;
use kr_core::validation::FieldError;

use crate::columns::Metric;

pub const DEFAULT_LIMIT: u32 = 50;
pub const MAX_LIMIT: u32 = 500;
/// `personaAvatarNames` value selecting keywords without a persona.
pub const NO_PERSONA: &str = "__none__";
/// The most weak spots a keyword can have: one per result of its top 10.
pub const MAX_WEAK_SPOTS: f64 = 10.0;
/// The lowest `maxPosition`: Search Console's best average position.
pub const MIN_MAX_POSITION: f64 = 1.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    Keyword,
    SearchVolume,
    Cpc,
    Competition,
    Difficulty,
    Intent,
    OrganicOpportunityScore,
    PaidOpportunityScore,
    OpportunityValue,
    /// Search Console's, over the last 28 days of data.
    Impressions,
    Clicks,
    Position,
}

impl SortKey {
    pub const ALL: [SortKey; 12] = [
        Self::Keyword,
        Self::SearchVolume,
        Self::Cpc,
        Self::Competition,
        Self::Difficulty,
        Self::Intent,
        Self::OrganicOpportunityScore,
        Self::PaidOpportunityScore,
        Self::OpportunityValue,
        Self::Impressions,
        Self::Clicks,
        Self::Position,
    ];

    pub const NAMES: [&'static str; 13] = [
        "keyword",
        "searchVolume",
        "volume",
        "cpc",
        "competition",
        "difficulty",
        "intent",
        "organicOpportunityScore",
        "paidOpportunityScore",
        "opportunityValue",
        "impressions",
        "clicks",
        "position",
    ];

    /// A `sortBy` name; unknown names (refused earlier by the parser) sort by the default.
    pub fn parse(name: &str) -> Self {
        match name {
            "keyword" => Self::Keyword,
            "searchVolume" | "volume" => Self::SearchVolume,
            "cpc" => Self::Cpc,
            "competition" => Self::Competition,
            "difficulty" => Self::Difficulty,
            "intent" => Self::Intent,
            "paidOpportunityScore" => Self::PaidOpportunityScore,
            "opportunityValue" => Self::OpportunityValue,
            "impressions" => Self::Impressions,
            "clicks" => Self::Clicks,
            "position" => Self::Position,
            _ => Self::OrganicOpportunityScore,
        }
    }

    /// Its place in [`SortKey::ALL`].
    pub(crate) fn index(self) -> usize {
        Self::ALL.iter().position(|k| *k == self).expect("listed")
    }
}

/// What an `aiOverview` filter value asks of a keyword's AI Overview.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AiOverviewFilter {
    /// Its SERP showed one.
    Present,
    /// Its SERP was fetched and showed none.
    Absent,
    /// One that cites the site.
    CitesSite,
    /// One that cites a competitor of the job.
    CitesCompetitor,
}

/// The `aiOverview` values, as the filter and its description name them.
pub const AI_OVERVIEW_FILTERS: [&str; 4] = ["present", "absent", "cites_site", "cites_competitor"];

impl AiOverviewFilter {
    fn parse(name: &str) -> Result<Self, FieldError> {
        Ok(match name {
            "present" => Self::Present,
            "absent" => Self::Absent,
            "cites_site" => Self::CitesSite,
            "cites_competitor" => Self::CitesCompetitor,
            _ => {
                return Err(FieldError::new(
                    "aiOverview",
                    format!("{name:?} is not one of {}", AI_OVERVIEW_FILTERS.join(", ")),
                ))
            }
        })
    }
}

/// The query parameters of one range filter and the values they may take; parsing and the
/// OpenAPI description (`parameters.rs`) both read them from here.
pub(crate) struct RangeParameters {
    pub(crate) metric: Metric,
    pub(crate) min: &'static str,
    pub(crate) max: &'static str,
    pub(crate) lowest: f64,
    pub(crate) highest: Option<f64>,
    pub(crate) whole_numbers: bool,
}

impl RangeParameters {
    /// What the filter bounds, for the parameter's description.
    pub(crate) fn label(&self) -> &'static str {
        match self.metric {
            Metric::Volume => "monthly search volume",
            Metric::Difficulty => "difficulty",
            Metric::Cpc => "cost per click, USD",
            Metric::Competition => "advertiser competition",
            Metric::Organic => "organic opportunity score",
            Metric::Paid => "paid opportunity score",
            Metric::Value => "opportunity value, USD per month",
        }
    }
}

const fn range(
    metric: Metric,
    min: &'static str,
    max: &'static str,
    highest: Option<f64>,
    whole_numbers: bool,
) -> RangeParameters {
    RangeParameters {
        metric,
        min,
        max,
        lowest: 0.0,
        highest,
        whole_numbers,
    }
}

pub(crate) const RANGES: [RangeParameters; 7] = [
    range(Metric::Volume, "minVolume", "maxVolume", None, true),
    range(
        Metric::Difficulty,
        "minDifficulty",
        "maxDifficulty",
        Some(100.0),
        true,
    ),
    range(Metric::Cpc, "minCpc", "maxCpc", None, false),
    range(
        Metric::Competition,
        "minCompetition",
        "maxCompetition",
        Some(1.0),
        false,
    ),
    range(
        Metric::Organic,
        "minOrganicOpportunityScore",
        "maxOrganicOpportunityScore",
        None,
        false,
    ),
    range(
        Metric::Paid,
        "minPaidOpportunityScore",
        "maxPaidOpportunityScore",
        None,
        false,
    ),
    range(
        Metric::Value,
        "minOpportunityValue",
        "maxOpportunityValue",
        None,
        false,
    ),
];

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Range {
    pub(crate) metric: Metric,
    pub(crate) min: Option<f64>,
    pub(crate) max: Option<f64>,
}

/// A parsed keyword query (contract: `GET /jobs/{id}/keywords`).
#[derive(Debug, Clone, PartialEq)]
pub struct KeywordQuery {
    pub limit: u32,
    pub offset: u32,
    pub(crate) search: Option<String>,
    pub(crate) intents: Option<Vec<Intent>>,
    pub(crate) sources: Option<Vec<KeywordSource>>,
    pub(crate) personas: Option<Vec<String>>,
    pub(crate) include_no_persona: bool,
    pub(crate) ranges: Vec<Range>,
    pub(crate) serp_features: Option<Vec<SerpFeature>>,
    pub(crate) min_weak_spots: Option<usize>,
    /// `strikingDistance`: in it (`true`), or with Search Console data and not (`false`).
    pub(crate) striking_distance: Option<bool>,
    /// `decaying`, the same way.
    pub(crate) decaying: Option<bool>,
    pub(crate) min_impressions: Option<u64>,
    pub(crate) max_position: Option<f64>,
    /// `aiOverview`: keywords matching any of them.
    pub(crate) ai_overview: Option<Vec<AiOverviewFilter>>,
    pub sort: SortKey,
    pub descending: bool,
    pub(crate) cluster: Option<String>,
}

fn bound(
    query: &QueryParams,
    name: &str,
    low: f64,
    high: Option<f64>,
    whole: bool,
) -> Result<Option<f64>, FieldError> {
    let Some(raw) = query.value(name) else {
        return Ok(None);
    };
    let value = if whole {
        raw.parse::<i64>()
            .map(|v| v as f64)
            .map_err(|_| FieldError::new(name, format!("must be a whole number, got {raw:?}")))?
    } else {
        raw.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| FieldError::new(name, format!("must be a number, got {raw:?}")))?
    };
    if value < low {
        return Err(FieldError::new(name, format!("must be at least {low}")));
    }
    if let Some(high) = high.filter(|high| value > *high) {
        return Err(FieldError::new(name, format!("must be at most {high}")));
    }
    Ok(Some(value))
}

/// `true` or `false` (any case); `None` when absent.
fn flag(query: &QueryParams, name: &str) -> Result<Option<bool>, FieldError> {
    Ok(query
        .choice(name, &["true", "false"], None)?
        .map(|value| value == "true"))
}

fn list(raw: &str) -> Vec<String> {
    raw.split(',')
        .map(|item| item.trim().to_lowercase())
        .filter(|item| !item.is_empty())
        .collect()
}

impl KeywordQuery {
    pub fn parse(query: &QueryParams) -> Result<Self, FieldError> {
        let (limit, offset) = query.paging(MAX_LIMIT, DEFAULT_LIMIT)?;
        let intents = match query.str("intent") {
            None => None,
            Some(raw) => Some(
                list(raw)
                    .iter()
                    .map(|name| {
                        Intent::ALL.into_iter().find(|i| i.as_str() == name).ok_or_else(|| {
                            FieldError::new("intent", format!("{name:?} is not one of informational, commercial, transactional, navigational"))
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        let (personas, include_no_persona) = match query.str("personaAvatarNames") {
            None => (None, false),
            Some(raw) => {
                let names = list(raw);
                let none = names.iter().any(|n| n == NO_PERSONA);
                (
                    Some(names.into_iter().filter(|n| n != NO_PERSONA).collect()),
                    none,
                )
            }
        };
        let mut ranges = Vec::new();
        for RangeParameters {
            metric,
            min: min_name,
            max: max_name,
            lowest,
            highest,
            whole_numbers,
        } in RANGES
        {
            let min = bound(query, min_name, lowest, highest, whole_numbers)?;
            let max = bound(query, max_name, lowest, highest, whole_numbers)?;
            if let (Some(min), Some(max)) = (min, max) {
                if min > max {
                    return Err(FieldError::new(
                        min_name,
                        format!("must not be above {max_name}"),
                    ));
                }
            }
            if min.is_some() || max.is_some() {
                ranges.push(Range { metric, min, max });
            }
        }
        let sort = query
            .choice("sortBy", &SortKey::NAMES, Some("organicOpportunityScore"))?
            .map(SortKey::parse)
            .unwrap_or(SortKey::OrganicOpportunityScore);
        let sources = match query.str("source") {
            None => None,
            Some(raw) => Some(
                list(raw)
                    .iter()
                    .map(|name| {
                        name.parse::<KeywordSource>().map_err(|_| {
                            FieldError::new(
                                "source",
                                format!("{name:?} is not one of imported, ranked, crawl, idea"),
                            )
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        let serp_features = match query.str("serpFeature") {
            None => None,
            Some(raw) => Some(
                list(raw)
                    .iter()
                    .map(|name| {
                        name.parse::<SerpFeature>()
                            .map_err(|err| FieldError::new("serpFeature", err))
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        let ai_overview = match query.str("aiOverview") {
            None => None,
            Some(raw) => Some(
                list(raw)
                    .iter()
                    .map(|name| AiOverviewFilter::parse(name))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        let min_weak_spots =
            bound(query, "minWeakSpots", 0.0, Some(MAX_WEAK_SPOTS), true)?.map(|min| min as usize);
        let descending = query.choice("sortOrder", &["asc", "desc"], Some("desc"))? != Some("asc");
        let min_impressions =
            bound(query, "minImpressions", 0.0, None, true)?.map(|min| min as u64);
        let max_position = bound(query, "maxPosition", MIN_MAX_POSITION, None, false)?;
        Ok(Self {
            limit,
            offset,
            search: query.str("search").map(str::to_lowercase),
            intents,
            sources,
            personas,
            include_no_persona,
            ranges,
            serp_features,
            min_weak_spots,
            striking_distance: flag(query, "strikingDistance")?,
            decaying: flag(query, "decaying")?,
            min_impressions,
            max_position,
            ai_overview,
            sort,
            descending,
            cluster: None,
        })
    }

    /// Restricts the query to one cluster's keywords.
    pub fn in_cluster(mut self, cluster_id: &str) -> Self {
        self.cluster = Some(cluster_id.to_string());
        self
    }
}
