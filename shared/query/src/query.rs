//! The keyword query engine: every filter, bound and sort of the contract, over a job's
//! dataset held in memory. Orders are computed once per sort key and direction, so a page
//! is one pass over a presorted index.

use std::collections::HashMap;
use std::sync::OnceLock;

use kr_core::dataset::stored::{owned, DatasetBytes, StoredDatasetError};
use kr_core::dataset::{
    ArchivedKeywordRecord, ClusterRecord, ClusterSearchConsole, Intent, JobResults, KeywordRecord,
    KeywordSource, Persona, ResultsDataset, SerpFeature, TopicRecord,
};
use kr_core::query_params::QueryParams;
use kr_core::validation::FieldError;

use crate::columns::{feature_bit, Columns, ConsoleFigures, NONE};

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

    fn index(self) -> usize {
        Self::ALL.iter().position(|k| *k == self).expect("listed")
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
    /// Its column in [`Columns::metrics`].
    fn column(self) -> usize {
        self as usize
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
    /// `strikingDistance`: in it (`true`), or with Search Console data and not (`false`).
    striking_distance: Option<bool>,
    /// `decaying`, the same way.
    decaying: Option<bool>,
    min_impressions: Option<u64>,
    max_position: Option<f64>,
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

    /// Which keywords it admits, by position; `None` when it filters nothing.
    fn mask(&self, columns: &Columns) -> Option<Vec<bool>> {
        let filters = self.cluster.is_some()
            || self.search.is_some()
            || self.intents.is_some()
            || self.sources.is_some()
            || self.personas.is_some()
            || self.serp_features.is_some()
            || self.min_weak_spots.is_some()
            || self.striking_distance.is_some()
            || self.decaying.is_some()
            || self.min_impressions.is_some()
            || self.max_position.is_some()
            || !self.ranges.is_empty();
        if !filters {
            return None;
        }
        let mut mask = vec![true; columns.len()];
        let mut keep = |admits: &dyn Fn(usize) -> bool| {
            for (at, keep) in mask.iter_mut().enumerate() {
                *keep = *keep && admits(at);
            }
        };
        if let Some(cluster) = &self.cluster {
            let wanted = columns.cluster_ids.get(cluster).copied().unwrap_or(NONE);
            keep(&|at| columns.cluster[at] == wanted && wanted != NONE);
        }
        if let Some(intents) = &self.intents {
            keep(&|at| intents.contains(&columns.intent[at]));
        }
        if let Some(sources) = &self.sources {
            keep(&|at| columns.source[at].is_some_and(|s| sources.contains(&s)));
        }
        if let Some(names) = &self.personas {
            let wanted: Vec<u32> = (0..columns.persona_names.len() as u32)
                .filter(|p| names.contains(&columns.persona_names[*p as usize]))
                .collect();
            keep(&|at| match columns.persona[at] {
                NONE => self.include_no_persona,
                persona => wanted.contains(&persona),
            });
        }
        // A keyword without a SERP has no features and no weak spots to match.
        if let Some(features) = &self.serp_features {
            let bits = features.iter().fold(0, |bits, f| bits | feature_bit(*f));
            keep(&|at| columns.serp_features[at] & bits != 0);
        }
        if let Some(min) = self.min_weak_spots {
            keep(&|at| columns.weak_spots[at] != NONE && columns.weak_spots[at] as usize >= min);
        }
        // A keyword without Search Console data matches none of its filters.
        let console = &columns.search_console;
        if let Some(wanted) = self.striking_distance {
            keep(&|at| console[at].is_some_and(|figures| figures.striking == wanted));
        }
        if let Some(wanted) = self.decaying {
            keep(&|at| console[at].is_some_and(|figures| figures.decaying == wanted));
        }
        if let Some(min) = self.min_impressions {
            keep(&|at| console[at].is_some_and(|figures| figures.impressions >= min));
        }
        if let Some(max) = self.max_position {
            // NaN (no impressions, so no position) is never at or above a position.
            keep(&|at| console[at].is_some_and(|figures| figures.position <= max));
        }
        for range in &self.ranges {
            let values = &columns.metrics[range.metric.column()];
            keep(&|at| {
                let value = values[at];
                !value.is_nan()
                    && range.min.is_none_or(|min| value >= min)
                    && range.max.is_none_or(|max| value <= max)
            });
        }
        if let Some(search) = &self.search {
            columns.keep_containing(search, &mut mask);
        }
        Some(mask)
    }
}

impl Columns {
    /// Each cluster's `searchConsole`: its keywords' figures summed (not stored; computed
    /// once per load).
    fn sum_search_console(&self, clusters: &mut [ClusterRecord]) {
        let mut figures: Vec<Vec<(u64, u64, f64)>> = vec![Vec::new(); self.cluster_ids.len()];
        for (at, found) in self.search_console.iter().enumerate() {
            if let Some(found) = found {
                let position = if found.position.is_nan() {
                    0.0
                } else {
                    found.position
                };
                figures[self.cluster[at] as usize].push((
                    found.clicks,
                    found.impressions,
                    position,
                ));
            }
        }
        for cluster in clusters {
            cluster.search_console = self
                .cluster_ids
                .get(&cluster.id)
                .and_then(|&index| ClusterSearchConsole::sum(figures[index as usize].drain(..)));
        }
    }
}

/// A job's dataset ready for queries: the clusters, topics and personas in memory, the
/// keywords read in place from their stored bytes, and the columns filters and sorts read.
pub struct IndexedDataset {
    pub clusters: Vec<ClusterRecord>,
    pub personas: Vec<Persona>,
    pub topics: Vec<TopicRecord>,
    records: DatasetBytes,
    columns: Columns,
    /// Per sort key and direction, keyword positions in order; built on first use.
    orders: [OnceLock<Vec<u32>>; SortKey::ALL.len() * 2],
}

/// One page of a query and how many keywords matched in all.
pub struct Page {
    pub keywords: Vec<KeywordRecord>,
    pub total: usize,
}

impl IndexedDataset {
    pub fn new(records: DatasetBytes) -> Self {
        let archived = records.archived();
        let columns = Columns::new(&archived.keywords);
        let mut clusters: Vec<ClusterRecord> = owned(&archived.clusters);
        columns.sum_search_console(&mut clusters);
        Self {
            clusters,
            personas: owned(&archived.personas),
            topics: owned(&archived.topics),
            columns,
            records,
            orders: std::array::from_fn(|_| OnceLock::new()),
        }
    }

    /// A dataset whose records are in memory: a job stored before the binary form, or a test's.
    pub fn from_dataset(dataset: &ResultsDataset) -> Result<Self, StoredDatasetError> {
        DatasetBytes::from_dataset(dataset).map(Self::new)
    }

    fn archived(&self) -> &[ArchivedKeywordRecord] {
        &self.records.archived().keywords
    }

    pub fn keyword_count(&self) -> usize {
        self.columns.len()
    }

    /// The keyword at `position` in the dataset's order.
    pub fn keyword(&self, position: usize) -> KeywordRecord {
        owned(&self.archived()[position])
    }

    /// Every keyword in the dataset's order, each copied out as it is reached.
    pub fn keywords(&self) -> impl Iterator<Item = KeywordRecord> + '_ {
        self.archived().iter().map(owned)
    }

    /// How many keywords have estimated rather than measured figures.
    pub fn estimated_count(&self) -> usize {
        self.columns.estimated
    }

    /// Each keyword's place under `key` as one number, smaller first: unknown values last in
    /// both directions. `None` for the keyword sort, which compares the text itself.
    fn sort_keys(&self, key: SortKey, descending: bool) -> Option<Vec<u128>> {
        const UNKNOWN: u128 = 1 << 64;
        let direct = |key: u64| u128::from(if descending { !key } else { key });
        let values = |values: &mut dyn Iterator<Item = f64>| {
            values
                .map(|value| match value.is_nan() {
                    true => UNKNOWN,
                    // Flipping the sign bit (negative: every bit) orders floats as integers.
                    false => {
                        let bits = (value + 0.0).to_bits();
                        let ordered = if bits >> 63 == 1 {
                            !bits
                        } else {
                            bits | 1 << 63
                        };
                        direct(ordered)
                    }
                })
                .collect::<Vec<u128>>()
        };
        let metric =
            |metric: Metric| values(&mut self.columns.metrics[metric.column()].iter().copied());
        // Unknown without Search Console data (and a position without impressions).
        let console = |read: fn(&ConsoleFigures) -> f64| {
            values(
                &mut self
                    .columns
                    .search_console
                    .iter()
                    .map(|figures| figures.as_ref().map_or(f64::NAN, read)),
            )
        };
        Some(match key {
            SortKey::Keyword => return None,
            SortKey::SearchVolume => metric(Metric::Volume),
            SortKey::Difficulty => metric(Metric::Difficulty),
            SortKey::Cpc => metric(Metric::Cpc),
            SortKey::Competition => metric(Metric::Competition),
            SortKey::OrganicOpportunityScore => metric(Metric::Organic),
            SortKey::PaidOpportunityScore => metric(Metric::Paid),
            SortKey::OpportunityValue => metric(Metric::Value),
            SortKey::Impressions => console(|figures| figures.impressions as f64),
            SortKey::Clicks => console(|figures| figures.clicks as f64),
            SortKey::Position => console(|figures| figures.position),
            SortKey::Intent => {
                let mut names = Intent::ALL.map(Intent::as_str);
                names.sort_unstable();
                self.columns
                    .intent
                    .iter()
                    .map(|intent| {
                        let rank = names.iter().position(|n| *n == intent.as_str());
                        direct(rank.unwrap_or_default() as u64)
                    })
                    .collect()
            }
        })
    }

    fn order(&self, key: SortKey, descending: bool) -> &[u32] {
        self.orders[key.index() * 2 + usize::from(descending)].get_or_init(|| {
            let keywords = self.archived();
            let text = |at: u32| keywords[at as usize].keyword.as_str();
            let id = |at: u32| keywords[at as usize].id.as_str();
            let mut order: Vec<u32> = (0..keywords.len() as u32).collect();
            // Ties break by keyword, then id, ascending in both directions: pages never overlap.
            let ties = |a: &u32, b: &u32| text(*a).cmp(text(*b)).then_with(|| id(*a).cmp(id(*b)));
            match self.sort_keys(key, descending) {
                None if descending => order.sort_unstable_by(|a, b| {
                    text(*b).cmp(text(*a)).then_with(|| id(*a).cmp(id(*b)))
                }),
                None => order.sort_unstable_by(ties),
                Some(keys) => {
                    order.sort_unstable_by_key(|at| keys[*at as usize]);
                    // Only keywords with the same value are compared by their text.
                    for run in order.chunk_by_mut(|a, b| keys[*a as usize] == keys[*b as usize]) {
                        if run.len() > 1 {
                            run.sort_unstable_by(ties);
                        }
                    }
                }
            }
            order
        })
    }

    pub fn query(&self, query: &KeywordQuery) -> Page {
        let order = self.order(query.sort, query.descending);
        let start = query.offset as usize;
        let end = start.saturating_add(query.limit as usize);
        let (positions, total): (Vec<u32>, usize) = match query.mask(&self.columns) {
            None => {
                let n = order.len();
                (order[start.min(n)..end.min(n)].to_vec(), n)
            }
            Some(mask) => {
                let total = mask.iter().filter(|admitted| **admitted).count();
                let positions = order
                    .iter()
                    .filter(|&&position| mask[position as usize])
                    .take(end.min(total))
                    .skip(start)
                    .copied()
                    .collect();
                (positions, total)
            }
        };
        Page {
            keywords: positions
                .iter()
                .map(|&p| self.keyword(p as usize))
                .collect(),
            total,
        }
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
    ) -> Vec<Vec<KeywordRecord>> {
        let slots: HashMap<u32, usize> = cluster_ids
            .iter()
            .enumerate()
            .filter_map(|(slot, id)| Some((*self.columns.cluster_ids.get(*id)?, slot)))
            .collect();
        let mut heads: Vec<Vec<KeywordRecord>> = vec![Vec::new(); cluster_ids.len()];
        let mut full = 0;
        for &position in self.order(sort, descending) {
            if full == slots.len() {
                break;
            }
            let Some(&slot) = slots.get(&self.columns.cluster[position as usize]) else {
                continue;
            };
            if heads[slot].len() < per_cluster {
                heads[slot].push(self.keyword(position as usize));
                if heads[slot].len() == per_cluster {
                    full += 1;
                }
            }
        }
        heads
    }

    /// Whether some keyword has a fetched results page, known since the dataset was loaded.
    pub fn has_serps(&self) -> bool {
        self.columns.has_serps
    }

    pub fn has_cluster(&self, cluster_id: &str) -> bool {
        self.clusters.iter().any(|c| c.id == cluster_id)
    }
}

impl JobResults for IndexedDataset {
    fn clusters(&self) -> &[ClusterRecord] {
        &self.clusters
    }

    fn topics(&self) -> &[TopicRecord] {
        &self.topics
    }

    fn personas(&self) -> &[Persona] {
        &self.personas
    }

    fn cluster_keywords(&self, cluster_id: &str) -> Vec<KeywordRecord> {
        let Some(&wanted) = self.columns.cluster_ids.get(cluster_id) else {
            return Vec::new();
        };
        (0..self.keyword_count())
            .filter(|&at| self.columns.cluster[at] == wanted)
            .map(|at| self.keyword(at))
            .collect()
    }
}
