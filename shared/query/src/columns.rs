//! The keyword fields filters and sorts read, one array each, built once when a dataset is
//! loaded: a filter is a pass over a compact array, not a walk through every record.

use std::collections::HashMap;

use kr_core::dataset::stored::owned;
use kr_core::dataset::{
    ArchivedKeywordRecord, ClusterRecord, ClusterSearchConsole, Intent, KeywordSource,
    SearchConsoleMetrics, SerpFeature,
};
use memchr::memmem;

/// A keyword's SERP was fetched (`aiOverview` is not null)…
pub(crate) const AI_SERP: u8 = 1;
/// …and showed an AI Overview…
pub(crate) const AI_PRESENT: u8 = 2;
/// …citing the site…
pub(crate) const AI_CITES_SITE: u8 = 4;
/// …or one of the job's competitors.
pub(crate) const AI_CITES_COMPETITOR: u8 = 8;

/// Marks a keyword without a value in the small-number columns.
pub(crate) const NONE: u32 = u32::MAX;
/// Separates keywords in the search text; cleaned keywords never hold it.
const SEPARATOR: u8 = b'\n';

pub(crate) struct Columns {
    /// Lowercase keywords, each followed by [`SEPARATOR`].
    text: Vec<u8>,
    /// Where each keyword starts in `text`, and the end of the text last.
    starts: Vec<u32>,
    /// Volume, difficulty, CPC, competition, organic, paid, value; NaN where unknown.
    pub(crate) metrics: [Vec<f64>; 7],
    pub(crate) intent: Vec<Intent>,
    pub(crate) source: Vec<Option<KeywordSource>>,
    /// Index into `persona_names`, or [`NONE`].
    pub(crate) persona: Vec<u32>,
    /// Each persona name lowercased, as filters compare them.
    pub(crate) persona_names: Vec<String>,
    /// Index into `cluster_ids`, or [`NONE`].
    pub(crate) cluster: Vec<u32>,
    pub(crate) cluster_ids: HashMap<String, u32>,
    /// A bit per [`SerpFeature`]; 0 without a SERP.
    pub(crate) serp_features: Vec<u16>,
    /// Weak spots on its SERP, or [`NONE`] without a SERP.
    pub(crate) weak_spots: Vec<u32>,
    /// Its Search Console figures; `None` without data.
    pub(crate) search_console: Vec<Option<ConsoleFigures>>,
    /// [`AI_SERP`] and the other `AI_` bits of its AI Overview; 0 without a SERP.
    pub(crate) ai_overview: Vec<u8>,
    pub(crate) estimated: usize,
    pub(crate) has_serps: bool,
}

/// What the Search Console filters and sorts read of a keyword's figures (the last 28 days).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ConsoleFigures {
    pub(crate) clicks: u64,
    pub(crate) impressions: u64,
    /// Its average position; NaN without impressions (Search Console gives none then).
    pub(crate) position: f64,
    pub(crate) striking: bool,
    pub(crate) decaying: bool,
}

impl ConsoleFigures {
    fn new(metrics: &SearchConsoleMetrics) -> Self {
        Self {
            clicks: metrics.clicks,
            impressions: metrics.impressions,
            position: if metrics.impressions == 0 {
                f64::NAN
            } else {
                metrics.position
            },
            striking: metrics.in_striking_distance(),
            decaying: metrics.is_decaying(),
        }
    }
}

pub(crate) fn feature_bit(feature: SerpFeature) -> u16 {
    1 << SerpFeature::ALL
        .iter()
        .position(|f| *f == feature)
        .expect("listed")
}

fn index_of(names: &mut Vec<String>, name: String) -> u32 {
    match names.iter().position(|n| *n == name) {
        Some(at) => at as u32,
        None => {
            names.push(name);
            (names.len() - 1) as u32
        }
    }
}

impl Columns {
    pub(crate) fn new(keywords: &[ArchivedKeywordRecord]) -> Self {
        let n = keywords.len();
        let mut columns = Columns {
            text: Vec::new(),
            starts: Vec::with_capacity(n + 1),
            metrics: std::array::from_fn(|_| Vec::with_capacity(n)),
            intent: Vec::with_capacity(n),
            source: Vec::with_capacity(n),
            persona: Vec::with_capacity(n),
            persona_names: Vec::new(),
            cluster: Vec::with_capacity(n),
            cluster_ids: HashMap::new(),
            serp_features: Vec::with_capacity(n),
            weak_spots: Vec::with_capacity(n),
            search_console: Vec::with_capacity(n),
            ai_overview: Vec::with_capacity(n),
            estimated: 0,
            has_serps: false,
        };
        for keyword in keywords {
            columns.push(keyword);
        }
        columns.starts.push(columns.text.len() as u32);
        columns
    }

    fn push(&mut self, keyword: &ArchivedKeywordRecord) {
        self.starts.push(self.text.len() as u32);
        let text = keyword.keyword.as_str();
        if text.is_ascii() {
            self.text
                .extend(text.bytes().map(|byte| byte.to_ascii_lowercase()));
        } else {
            self.text.extend_from_slice(text.to_lowercase().as_bytes());
        }
        self.text.push(SEPARATOR);
        let known = |value: Option<f64>| value.unwrap_or(f64::NAN);
        let values = [
            known(keyword.search_volume.as_ref().map(|v| v.to_native() as f64)),
            known(keyword.difficulty.as_ref().map(|v| v.to_native() as f64)),
            known(keyword.cpc.as_ref().map(|v| v.to_native())),
            known(keyword.competition.as_ref().map(|v| v.to_native())),
            keyword.organic_opportunity_score.to_native(),
            keyword.paid_opportunity_score.to_native(),
            keyword.opportunity_value.to_native(),
        ];
        for (column, value) in self.metrics.iter_mut().zip(values) {
            column.push(value);
        }
        self.intent.push(owned(&keyword.intent));
        self.source.push(owned(&keyword.source));
        let persona = keyword
            .persona_avatar_name
            .as_ref()
            .map(|name| index_of(&mut self.persona_names, name.as_str().to_lowercase()))
            .unwrap_or(NONE);
        self.persona.push(persona);
        let cluster_id = keyword.cluster_id.as_str();
        let cluster = match self.cluster_ids.get(cluster_id) {
            Some(known) => *known,
            None => {
                let next = self.cluster_ids.len() as u32;
                self.cluster_ids.insert(cluster_id.to_string(), next);
                next
            }
        };
        self.cluster.push(cluster);
        let features = keyword.serp_features.as_ref();
        self.has_serps |= features.is_some();
        self.serp_features.push(features.map_or(0, |features| {
            features
                .iter()
                .fold(0, |bits, f| bits | feature_bit(owned(f)))
        }));
        self.weak_spots.push(
            keyword
                .weak_spots
                .as_ref()
                .map(|spots| spots.len() as u32)
                .unwrap_or(NONE),
        );
        self.search_console
            .push(keyword.search_console.as_ref().map(|figures| {
                // The figures the filters read only: no page or day is copied.
                ConsoleFigures::new(&SearchConsoleMetrics {
                    clicks: figures.clicks.to_native(),
                    impressions: figures.impressions.to_native(),
                    position: figures.position.to_native(),
                    previous_clicks: figures.previous_clicks.to_native(),
                    previous_impressions: figures.previous_impressions.to_native(),
                    ..SearchConsoleMetrics::default()
                })
            }));
        self.ai_overview
            .push(keyword.ai_overview.as_ref().map_or(0, |overview| {
                let flag = |on: bool, bit: u8| if on { bit } else { 0 };
                AI_SERP
                    | flag(overview.present, AI_PRESENT)
                    | flag(overview.cites_site, AI_CITES_SITE)
                    | flag(!overview.cites_competitors.is_empty(), AI_CITES_COMPETITOR)
            }));
        if keyword.metrics_source.as_str() == kr_core::dataset::ESTIMATE_SOURCE {
            self.estimated += 1;
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.intent.len()
    }

    /// Clears `mask` for every keyword whose lowercase text does not contain `needle`.
    pub(crate) fn keep_containing(&self, needle: &str, mask: &mut [bool]) {
        if needle.is_empty() {
            return;
        }
        let mut found = vec![false; self.len()];
        for at in memmem::find_iter(&self.text, needle.as_bytes()) {
            // The keyword the match starts in; a match running into the next one is no match.
            let keyword = self.starts.partition_point(|&start| start as usize <= at) - 1;
            if at + needle.len() < self.starts[keyword + 1] as usize {
                found[keyword] = true;
            }
        }
        for (keep, found) in mask.iter_mut().zip(found) {
            *keep &= found;
        }
    }
}

/// A metric a range filter applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Metric {
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
    pub(crate) fn column(self) -> usize {
        self as usize
    }
}

impl Columns {
    /// Each cluster's `searchConsole`: its keywords' figures summed (not stored; computed
    /// once per load).
    pub(crate) fn sum_search_console(&self, clusters: &mut [ClusterRecord]) {
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
