//! The keyword query engine: every filter, bound and sort of the contract, over a job's
//! dataset held in memory. Orders are computed once per sort key and direction, so a page
//! is one pass over a presorted index. The query it runs is parsed in `keyword_query.rs`.

use std::collections::HashMap;
use std::sync::OnceLock;

use kr_core::dataset::stored::{owned, DatasetBytes, StoredDatasetError};
use kr_core::dataset::{
    ArchivedKeywordRecord, ClusterRecord, Intent, JobResults, KeywordRecord, Persona,
    ResultsDataset, TopicRecord,
};

use crate::columns::{
    feature_bit, Columns, ConsoleFigures, Metric, AI_CITES_COMPETITOR, AI_CITES_SITE, AI_PRESENT,
    AI_SERP, NONE,
};
use crate::keyword_query::{AiOverviewFilter, KeywordQuery, SortKey};

impl KeywordQuery {
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
            || self.ai_overview.is_some()
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
        // A keyword without a SERP (`aiOverview: null`) matches none of its values.
        if let Some(wanted) = &self.ai_overview {
            let overview = &columns.ai_overview;
            keep(&|at| {
                let bits = overview[at];
                wanted.iter().any(|filter| match filter {
                    AiOverviewFilter::Present => bits & AI_PRESENT != 0,
                    AiOverviewFilter::Absent => bits & AI_SERP != 0 && bits & AI_PRESENT == 0,
                    AiOverviewFilter::CitesSite => bits & AI_CITES_SITE != 0,
                    AiOverviewFilter::CitesCompetitor => bits & AI_CITES_COMPETITOR != 0,
                })
            });
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
    /// A dataset read without its job: the AI Overview shares list the competitors cited
    /// somewhere in it ([`Self::for_job`] lists every competitor of the job).
    pub fn new(records: DatasetBytes) -> Self {
        Self::for_job(records, &[])
    }

    /// A job's dataset; `competitors` are the job's competitor domains as it lists them, each
    /// listed in the clusters' and topics' `aiShareOfVoice`.
    pub fn for_job(records: DatasetBytes, competitors: &[String]) -> Self {
        let archived = records.archived();
        let columns = Columns::new(&archived.keywords);
        let mut clusters: Vec<ClusterRecord> = owned(&archived.clusters);
        columns.sum_search_console(&mut clusters);
        let mut topics: Vec<TopicRecord> = owned(&archived.topics);
        crate::ai_share::fill(
            &archived.keywords,
            &columns.cluster_ids,
            &columns.cluster,
            &mut clusters,
            &mut topics,
            competitors,
        );
        Self {
            clusters,
            personas: owned(&archived.personas),
            topics,
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
