//! The keyword query engine: every filter, bound and sort of the contract, over a job's
//! dataset held in memory. Orders are computed once per sort key and direction, so a page
//! is one pass over a presorted index.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::OnceLock;

use kr_core::dataset::{Intent, KeywordRecord, KeywordSource, ResultsDataset, SerpFeature};
use kr_http::extract::QueryParams;
use kr_http::ApiError;

pub const DEFAULT_LIMIT: u32 = 50;
pub const MAX_LIMIT: u32 = 500;
/// `personaAvatarNames` value selecting keywords without a persona.
pub const NO_PERSONA: &str = "__none__";
/// The most weak spots a keyword can have: one per result of its top 10.
pub const MAX_WEAK_SPOTS: f64 = 10.0;

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
}

impl SortKey {
    pub const ALL: [SortKey; 9] = [
        Self::Keyword,
        Self::SearchVolume,
        Self::Cpc,
        Self::Competition,
        Self::Difficulty,
        Self::Intent,
        Self::OrganicOpportunityScore,
        Self::PaidOpportunityScore,
        Self::OpportunityValue,
    ];

    pub const NAMES: [&'static str; 10] = [
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
            _ => Self::OrganicOpportunityScore,
        }
    }

    fn index(self) -> usize {
        Self::ALL.iter().position(|k| *k == self).expect("listed")
    }

    /// `None` sorts last in both directions.
    fn compare(self, a: &KeywordRecord, b: &KeywordRecord, descending: bool) -> Ordering {
        fn by<T: PartialOrd>(a: Option<T>, b: Option<T>, descending: bool) -> Ordering {
            match (a, b) {
                (Some(a), Some(b)) => {
                    let order = a.partial_cmp(&b).unwrap_or(Ordering::Equal);
                    if descending {
                        order.reverse()
                    } else {
                        order
                    }
                }
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            }
        }
        match self {
            Self::Keyword => by(Some(&a.keyword), Some(&b.keyword), descending),
            Self::SearchVolume => by(a.search_volume, b.search_volume, descending),
            Self::Cpc => by(a.cpc, b.cpc, descending),
            Self::Competition => by(a.competition, b.competition, descending),
            Self::Difficulty => by(a.difficulty, b.difficulty, descending),
            Self::Intent => by(Some(a.intent.as_str()), Some(b.intent.as_str()), descending),
            Self::OrganicOpportunityScore => by(
                Some(a.organic_opportunity_score),
                Some(b.organic_opportunity_score),
                descending,
            ),
            Self::PaidOpportunityScore => by(
                Some(a.paid_opportunity_score),
                Some(b.paid_opportunity_score),
                descending,
            ),
            Self::OpportunityValue => by(
                Some(a.opportunity_value),
                Some(b.opportunity_value),
                descending,
            ),
        }
    }
}

/// A metric a range filter applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Metric {
    Volume,
    Difficulty,
    Cpc,
    Competition,
    Organic,
    Paid,
    Value,
}

impl Metric {
    fn of(self, keyword: &KeywordRecord) -> Option<f64> {
        match self {
            Self::Volume => keyword.search_volume.map(|v| v as f64),
            Self::Difficulty => keyword.difficulty.map(|v| v as f64),
            Self::Cpc => keyword.cpc,
            Self::Competition => keyword.competition,
            Self::Organic => Some(keyword.organic_opportunity_score),
            Self::Paid => Some(keyword.paid_opportunity_score),
            Self::Value => Some(keyword.opportunity_value),
        }
    }
}

/// The query parameters of one range filter and the values they may take; parsing and the
/// OpenAPI description (`parameters.rs`) both read them from here.
pub(crate) struct RangeParameters {
    metric: Metric,
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
struct Range {
    metric: Metric,
    min: Option<f64>,
    max: Option<f64>,
}

/// A parsed keyword query (contract: `GET /jobs/{id}/keywords`).
#[derive(Debug, Clone, PartialEq)]
pub struct KeywordQuery {
    pub limit: u32,
    pub offset: u32,
    search: Option<String>,
    intents: Option<Vec<Intent>>,
    sources: Option<Vec<KeywordSource>>,
    personas: Option<Vec<String>>,
    include_no_persona: bool,
    ranges: Vec<Range>,
    serp_features: Option<Vec<SerpFeature>>,
    min_weak_spots: Option<usize>,
    pub sort: SortKey,
    pub descending: bool,
    cluster: Option<String>,
}

fn bound(
    query: &QueryParams,
    name: &str,
    low: f64,
    high: Option<f64>,
    whole: bool,
) -> Result<Option<f64>, ApiError> {
    let Some(raw) = query.value(name) else {
        return Ok(None);
    };
    let value = if whole {
        raw.parse::<i64>()
            .map(|v| v as f64)
            .map_err(|_| ApiError::field(name, format!("must be a whole number, got {raw:?}")))?
    } else {
        raw.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| ApiError::field(name, format!("must be a number, got {raw:?}")))?
    };
    if value < low {
        return Err(ApiError::field(name, format!("must be at least {low}")));
    }
    if let Some(high) = high.filter(|high| value > *high) {
        return Err(ApiError::field(name, format!("must be at most {high}")));
    }
    Ok(Some(value))
}

fn list(raw: &str) -> Vec<String> {
    raw.split(',')
        .map(|item| item.trim().to_lowercase())
        .filter(|item| !item.is_empty())
        .collect()
}

impl KeywordQuery {
    pub fn parse(query: &QueryParams) -> Result<Self, ApiError> {
        let (limit, offset) = query.paging(MAX_LIMIT, DEFAULT_LIMIT)?;
        let intents = match query.str("intent") {
            None => None,
            Some(raw) => Some(
                list(raw)
                    .iter()
                    .map(|name| {
                        Intent::ALL.into_iter().find(|i| i.as_str() == name).ok_or_else(|| {
                            ApiError::field("intent", format!("{name:?} is not one of informational, commercial, transactional, navigational"))
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
                    return Err(ApiError::field(
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
                            ApiError::field(
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
                            .map_err(|err| ApiError::field("serpFeature", err))
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        let min_weak_spots =
            bound(query, "minWeakSpots", 0.0, Some(MAX_WEAK_SPOTS), true)?.map(|min| min as usize);
        let descending = query.choice("sortOrder", &["asc", "desc"], Some("desc"))? != Some("asc");
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

    fn matches(&self, keyword: &KeywordRecord, lowercase: &str) -> bool {
        if self
            .cluster
            .as_deref()
            .is_some_and(|c| c != keyword.cluster_id)
        {
            return false;
        }
        if self
            .search
            .as_deref()
            .is_some_and(|s| !lowercase.contains(s))
        {
            return false;
        }
        if self
            .intents
            .as_ref()
            .is_some_and(|i| !i.contains(&keyword.intent))
        {
            return false;
        }
        if self
            .sources
            .as_ref()
            .is_some_and(|wanted| !keyword.source.is_some_and(|s| wanted.contains(&s)))
        {
            return false;
        }
        if let Some(names) = &self.personas {
            let fits = match &keyword.persona_avatar_name {
                Some(name) => {
                    let name = name.to_lowercase();
                    names.contains(&name)
                }
                None => self.include_no_persona,
            };
            if !fits {
                return false;
            }
        }
        // A keyword without a SERP has no features and no weak spots to match.
        if let Some(wanted) = &self.serp_features {
            let shown = keyword
                .serp_features
                .as_ref()
                .is_some_and(|shown| shown.iter().any(|feature| wanted.contains(feature)));
            if !shown {
                return false;
            }
        }
        if let Some(min) = self.min_weak_spots {
            if keyword
                .weak_spots
                .as_ref()
                .is_none_or(|spots| spots.len() < min)
            {
                return false;
            }
        }
        self.ranges
            .iter()
            .all(|range| match range.metric.of(keyword) {
                None => false,
                Some(value) => {
                    range.min.is_none_or(|min| value >= min)
                        && range.max.is_none_or(|max| value <= max)
                }
            })
    }
}

/// A job's dataset ready for queries.
pub struct IndexedDataset {
    pub dataset: ResultsDataset,
    lowercase: Vec<String>,
    /// Some keyword has a fetched results page (the job had a data provider).
    has_serps: bool,
    /// Per sort key and direction, keyword positions in order; built on first use.
    orders: [OnceLock<Vec<u32>>; 18],
}

/// One page of a query and how many keywords matched in all.
pub struct Page<'a> {
    pub keywords: Vec<&'a KeywordRecord>,
    pub total: usize,
}

impl IndexedDataset {
    pub fn new(dataset: ResultsDataset) -> Self {
        let lowercase = dataset
            .keywords
            .iter()
            .map(|k| k.keyword.to_lowercase())
            .collect();
        let has_serps = dataset.keywords.iter().any(|k| k.serp_features.is_some());
        Self {
            dataset,
            lowercase,
            has_serps,
            orders: std::array::from_fn(|_| OnceLock::new()),
        }
    }

    fn order(&self, key: SortKey, descending: bool) -> &[u32] {
        self.orders[key.index() * 2 + usize::from(descending)].get_or_init(|| {
            let keywords = &self.dataset.keywords;
            let mut order: Vec<u32> = (0..keywords.len() as u32).collect();
            // Ties break by keyword, then id, ascending in both directions: pages never overlap.
            order.sort_by(|&a, &b| {
                let (a, b) = (&keywords[a as usize], &keywords[b as usize]);
                key.compare(a, b, descending)
                    .then_with(|| a.keyword.cmp(&b.keyword))
                    .then_with(|| a.id.cmp(&b.id))
            });
            order
        })
    }

    pub fn query(&self, query: &KeywordQuery) -> Page<'_> {
        let mut total = 0usize;
        let mut keywords = Vec::with_capacity(query.limit as usize);
        let start = query.offset as usize;
        let end = start + query.limit as usize;
        for &position in self.order(query.sort, query.descending) {
            let position = position as usize;
            let keyword = &self.dataset.keywords[position];
            if !query.matches(keyword, &self.lowercase[position]) {
                continue;
            }
            if total >= start && total < end {
                keywords.push(keyword);
            }
            total += 1;
        }
        Page { keywords, total }
    }

    /// The first `per_cluster` keywords of each of `cluster_ids` (answered in the same order)
    /// in `sort`'s order, as the keyword list of that cluster would begin: one pass over the
    /// presorted index for all of them, rather than one query per cluster.
    pub fn cluster_heads(
        &self,
        cluster_ids: &[&str],
        sort: SortKey,
        descending: bool,
        per_cluster: usize,
    ) -> Vec<Vec<&KeywordRecord>> {
        let slots: HashMap<&str, usize> = cluster_ids
            .iter()
            .enumerate()
            .map(|(slot, id)| (*id, slot))
            .collect();
        let mut heads: Vec<Vec<&KeywordRecord>> = vec![Vec::new(); cluster_ids.len()];
        let mut full = 0;
        for &position in self.order(sort, descending) {
            if full == slots.len() {
                break;
            }
            let keyword = &self.dataset.keywords[position as usize];
            let Some(&slot) = slots.get(keyword.cluster_id.as_str()) else {
                continue;
            };
            if heads[slot].len() < per_cluster {
                heads[slot].push(keyword);
                if heads[slot].len() == per_cluster {
                    full += 1;
                }
            }
        }
        heads
    }

    /// Whether some keyword has a fetched results page, known since the dataset was loaded.
    pub fn has_serps(&self) -> bool {
        self.has_serps
    }

    pub fn has_cluster(&self, cluster_id: &str) -> bool {
        self.dataset.clusters.iter().any(|c| c.id == cluster_id)
    }
}
