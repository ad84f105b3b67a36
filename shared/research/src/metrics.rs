//! Keyword metrics: the record a data provider (DataForSEO) fills with measured figures, and
//! an offline estimator that fills it from what the crawl shows.
//!
//! # The estimate (not measured data)
//!
//! Without a data provider the engine has no search volumes, bids or SERPs. The estimator
//! derives plausible, *relative* figures from the crawl so that keywords can be ranked and
//! compared within a job; they are not measurements and must not be presented as such
//! (records carry `metricsSource: "estimate"`). For a candidate with
//!
//! - `n`: words in the keyword (1 to 5),
//! - `share`: share of the crawled sites using it (0 to 1),
//! - `q = ln(1 + weighted_prominence / sites_using_it)`: how prominently each site uses it,
//!   `weighted_prominence` being its field-weighted occurrence count (`Prominence::weighted`),
//! - `m`: modifier strength, 1.0 with a transactional cue ("buy", "price", "near me"), else
//!   0.6 with a commercial cue ("best", "vs", "review"), else 0,
//!
//! the figures are:
//!
//! ```text
//! search_volume = min(1900, bucket(BASE[n] × (0.5 + share) × (1 + 0.25 × q))),
//!                 BASE = 1900, 590, 210, 90, 40
//! cpc (USD)     = round₂(0.25 × (1 + 3m) × (0.5 + share) × (1 + 0.1 × (n − 1)))
//! competition   = round₂(clamp₀₁(0.05 + 0.45m + 0.35 × share + 0.15 × q / (1 + q)))
//! difficulty    = round(100 × clamp₀₁(0.10 + 0.40 × share + 0.25 × v + 0.15m
//!                                      + 0.10 × q / (1 + q) − 0.05 × (n − 1)))
//! ```
//!
//! where `v = ln(1 + search_volume) / ln(1 + 110000)` and `bucket` rounds to the nearest (in
//! log scale) of Google Keyword Planner's published volume steps (10, 20, 30, 40, 50, 70, 90,
//! 110, 140, ..., 90500, 110000). The reasoning: longer phrases are searched less (the long
//! tail), terms that more sites use prominently are more in demand and more contested, and
//! commercial modifiers attract advertisers (higher CPC and competition). `monthlySearches`
//! stays empty: an estimate has no history.
//!
//! Two rules hold every estimate honest. None exceeds 1,900 a month, the one-word base: the
//! crawl cannot tell a niche word from a generic one ("cleaning"), whose real volume is far
//! higher. And across a job's keywords ([`estimate_all`]), none estimates above a keyword of
//! the job that its words contain in a row: "roof repair irvington nj" ≤ "roof repair
//! irvington" ≤ "roof repair" ≤ "roof". (Difficulty is figured from the volume before that
//! hold.)

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

pub use kr_core::dataset::MonthlySearch;

use crate::discovery::Candidate;
use crate::intent::IntentClassifier;
use crate::text::Language;

pub use kr_core::dataset::ESTIMATE_SOURCE;

/// Search metrics of a keyword. `None` means unknown (a provider had no data).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeywordMetrics {
    /// Average monthly searches.
    pub search_volume: Option<i64>,
    /// Average cost per click, USD.
    pub cpc: Option<f64>,
    /// Advertiser competition, 0 to 1.
    pub competition: Option<f64>,
    /// Organic ranking difficulty, 0 to 100.
    pub difficulty: Option<i64>,
    /// Searches per month, oldest first; empty when unknown.
    pub monthly_searches: Vec<MonthlySearch>,
}

const BASE_VOLUME: [f64; 5] = [1900.0, 590.0, 210.0, 90.0, 40.0];
/// The crawl cannot tell a niche word from a generic one: no estimate claims more.
const MAX_ESTIMATED_VOLUME: i64 = 1900;

/// Google Keyword Planner's volume steps.
const VOLUME_BUCKETS: [i64; 42] = [
    10, 20, 30, 40, 50, 70, 90, 110, 140, 170, 210, 260, 320, 390, 480, 590, 720, 880, 1000, 1300,
    1600, 1900, 2400, 2900, 3600, 4400, 5400, 6600, 8100, 9900, 12100, 14800, 18100, 22200, 27100,
    33100, 40500, 49500, 60500, 74000, 90500, 110000,
];

/// A served place's share of its offering's searches, in the estimate of "offering + place"
/// (module docs, "Places").
const LOCAL_SHARE: f64 = 0.5;

/// Estimates metrics for one job's candidates (formula in the module docs).
#[derive(Debug, Clone)]
pub struct MetricsEstimator {
    cues: IntentClassifier,
    /// The places the primary site serves, each as its lowercase words.
    places: Vec<Vec<String>>,
}

impl MetricsEstimator {
    pub fn new(language: &Language) -> Self {
        MetricsEstimator {
            cues: IntentClassifier::new(language, &[]),
            places: Vec::new(),
        }
    }

    /// The estimator for a site that serves `places` (as [`crate::personas::SiteProfile`]
    /// names them): an offering with one of them is a local buying query.
    pub fn with_places(mut self, places: &[String]) -> Self {
        self.places = places
            .iter()
            .map(|place| place.split_whitespace().map(str::to_lowercase).collect())
            .filter(|words: &Vec<String>| !words.is_empty())
            .collect();
        self
    }

    /// How many words of `keyword` are a served place, when it also holds other words.
    fn place_words(&self, keyword: &str) -> usize {
        let words: Vec<&str> = keyword.split_whitespace().collect();
        self.places
            .iter()
            .filter(|place| place.len() < words.len())
            .filter(|place| {
                words
                    .windows(place.len())
                    .any(|run| run.iter().zip(place.iter()).all(|(a, b)| a == b))
            })
            .map(Vec::len)
            .max()
            .unwrap_or(0)
    }

    pub fn estimate(&self, candidate: &Candidate) -> KeywordMetrics {
        let cues = self.cues.cues(&candidate.keyword);
        let place_words = self.place_words(&candidate.keyword);
        // A served place asks for a provider there, as "near me" does: a buying query.
        let modifier = if cues.transactional || place_words > 0 {
            1.0
        } else if cues.commercial {
            0.6
        } else {
            0.0
        };
        let words = candidate.word_count.clamp(1, BASE_VOLUME.len());
        if place_words > 0 {
            // Read as its offering, of which the place takes a share.
            let mut metrics = self.estimate_words(candidate, words - place_words, modifier);
            metrics.search_volume = metrics
                .search_volume
                .map(|volume| bucket(volume as f64 * LOCAL_SHARE).min(MAX_ESTIMATED_VOLUME));
            return metrics;
        }
        self.estimate_words(candidate, words, modifier)
    }

    /// The estimate of the module docs for `candidate` read as `words` words long, with
    /// modifier strength `modifier`.
    fn estimate_words(&self, candidate: &Candidate, words: usize, modifier: f64) -> KeywordMetrics {
        let words = words.clamp(1, BASE_VOLUME.len());
        let share = candidate.site_share.clamp(0.0, 1.0);
        let per_site = candidate.prominence.weighted() / candidate.site_count.max(1) as f64;
        let q = per_site.ln_1p();
        let saturation = q / (1.0 + q);
        let extra_words = (words - 1) as f64;

        let volume = bucket(BASE_VOLUME[words - 1] * (0.5 + share) * (1.0 + 0.25 * q))
            .min(MAX_ESTIMATED_VOLUME);
        let cpc = 0.25 * (1.0 + 3.0 * modifier) * (0.5 + share) * (1.0 + 0.1 * extra_words);
        let competition = 0.05 + 0.45 * modifier + 0.35 * share + 0.15 * saturation;
        let relative_volume = (volume as f64).ln_1p() / (110_000f64).ln_1p();
        let difficulty =
            0.10 + 0.40 * share + 0.25 * relative_volume + 0.15 * modifier + 0.10 * saturation
                - 0.05 * extra_words;
        KeywordMetrics {
            search_volume: Some(volume),
            cpc: Some(round2(cpc)),
            competition: Some(round2(competition.clamp(0.0, 1.0))),
            difficulty: Some((100.0 * difficulty.clamp(0.0, 1.0)).round() as i64),
            monthly_searches: Vec::new(),
        }
    }
}

/// Estimated metrics of every candidate, in order, each volume held to those of the shorter
/// keywords of the set it contains (module docs).
pub fn estimate_all(candidates: &[Candidate], language: &Language) -> Vec<KeywordMetrics> {
    estimate_all_serving(candidates, language, &[])
}

/// [`estimate_all`] for a site that serves `places` ([`MetricsEstimator::with_places`]).
pub fn estimate_all_serving(
    candidates: &[Candidate],
    language: &Language,
    places: &[String],
) -> Vec<KeywordMetrics> {
    let estimator = MetricsEstimator::new(language).with_places(places);
    let mut metrics: Vec<KeywordMetrics> =
        candidates.iter().map(|c| estimator.estimate(c)).collect();
    hold_to_heads(candidates, &mut metrics);
    metrics
}

/// No keyword estimates above a keyword of the set that its words contain in a row: its head
/// ("roof repair" over "roof repair cost") or itself without the place ("roof repair
/// irvington"). Shortest first, so a cap passes down a chain of heads.
fn hold_to_heads(candidates: &[Candidate], metrics: &mut [KeywordMetrics]) {
    let index: HashMap<&str, usize> = candidates
        .iter()
        .enumerate()
        .map(|(i, c)| (c.keyword.as_str(), i))
        .collect();
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by_key(|&i| candidates[i].word_count);
    for i in order {
        let keyword = candidates[i].keyword.as_str();
        // Word boundaries as byte offsets: every run of words is a slice, no new string.
        let starts: Vec<usize> = std::iter::once(0)
            .chain(keyword.match_indices(' ').map(|(at, _)| at + 1))
            .collect();
        let ends: Vec<usize> = keyword
            .match_indices(' ')
            .map(|(at, _)| at)
            .chain(std::iter::once(keyword.len()))
            .collect();
        let words = starts.len();
        let mut cap: Option<i64> = None;
        for len in 1..words {
            for first in 0..=words - len {
                let head = &keyword[starts[first]..ends[first + len - 1]];
                if let Some(volume) = index.get(head).and_then(|&j| metrics[j].search_volume) {
                    cap = Some(cap.map_or(volume, |c| c.min(volume)));
                }
            }
        }
        if let (Some(cap), Some(volume)) = (cap, metrics[i].search_volume) {
            metrics[i].search_volume = Some(volume.min(cap));
        }
    }
}

/// The volume step nearest to `raw` on a log scale (never below the first step).
fn bucket(raw: f64) -> i64 {
    let target = raw.max(1.0).ln();
    let mut best = VOLUME_BUCKETS[0];
    for &step in &VOLUME_BUCKETS {
        if ((step as f64).ln() - target).abs() < ((best as f64).ln() - target).abs() {
            best = step;
        }
    }
    best
}

fn round2(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discovery::Prominence;
    use kr_core::dataset::KeywordSource;

    fn candidate(keyword: &str, site_share: f64, title_mentions: usize) -> Candidate {
        Candidate {
            keyword: keyword.to_string(),
            score: 1.0,
            word_count: keyword.split(' ').count(),
            primary_occurrences: 1,
            competitor_occurrences: 0,
            page_count: 1,
            site_count: 1,
            site_share,
            in_primary: true,
            competitor_sites: 0,
            content_gap: false,
            source: KeywordSource::Crawl,
            prominence: Prominence {
                title: title_mentions,
                body: 1,
                ..Prominence::default()
            },
        }
    }

    fn estimate(candidate: &Candidate) -> KeywordMetrics {
        MetricsEstimator::new(&Language::english()).estimate(candidate)
    }

    #[test]
    fn an_offering_with_a_served_place_is_a_local_buying_query_never_above_the_offering() {
        let places = ["Staten Island".to_string(), "Irvington".to_string()];
        let set = [
            candidate("wedding cakes", 0.5, 2),
            candidate("wedding cakes staten island", 0.5, 0),
            candidate("roof repair irvington nj", 0.5, 0),
        ];
        let local = estimate_all_serving(&set, &Language::english(), &places);
        let plain = estimate_all(&set, &Language::english());
        let volume = |m: &KeywordMetrics| m.search_volume.unwrap();
        // Read as its offering, of which the place takes a share: more than a four-word
        // phrase of the long tail, never more than the offering alone.
        assert!(volume(&local[1]) > volume(&plain[1]), "{local:?}");
        assert!(volume(&local[1]) <= volume(&local[0]), "{local:?}");
        // A provider asked for in a place is bought, as "near me" is.
        assert!(local[1].cpc.unwrap() > plain[1].cpc.unwrap());
        assert!(volume(&local[2]) > volume(&plain[2]));
        // A place alone is no offering with a place.
        let alone = estimate_all_serving(
            &[candidate("irvington", 0.5, 1)],
            &Language::english(),
            &places,
        );
        assert_eq!(
            alone,
            estimate_all(&[candidate("irvington", 0.5, 1)], &Language::english())
        );
    }

    #[test]
    fn follows_the_documented_formula() {
        // One word, one site of two, one title and one body mention:
        // q = ln(1 + 6) ; volume = 1900 × 1.0 × (1 + 0.25 q) = 2824.3 → bucket 2900, held
        // to 1900.
        let metrics = estimate(&candidate("tents", 0.5, 1));
        assert_eq!(metrics.search_volume, Some(1900));
        assert_eq!(metrics.cpc, Some(0.25));
        let q = 7f64.ln();
        let competition = 0.05 + 0.35 * 0.5 + 0.15 * q / (1.0 + q);
        assert_eq!(metrics.competition, Some(round2(competition)));
        let v = 1901f64.ln() / 110_001f64.ln();
        let difficulty = 0.10 + 0.40 * 0.5 + 0.25 * v + 0.10 * q / (1.0 + q);
        assert_eq!(
            metrics.difficulty,
            Some((difficulty * 100.0).round() as i64)
        );
        assert!(metrics.monthly_searches.is_empty());
    }

    #[test]
    fn longer_tails_have_lower_volume() {
        let volumes: Vec<i64> = [
            "tents",
            "alpine tents",
            "alpine tents for two",
            "light alpine tents for two",
        ]
        .iter()
        .map(|k| estimate(&candidate(k, 0.5, 1)).search_volume.unwrap())
        .collect();
        assert!(
            volumes.windows(2).all(|pair| pair[0] > pair[1]),
            "{volumes:?}"
        );
    }

    #[test]
    fn commercial_modifiers_raise_cpc_and_competition() {
        let plain = estimate(&candidate("alpine tents", 0.5, 1));
        let commercial = estimate(&candidate("best alpine tents", 0.5, 1));
        let transactional = estimate(&candidate("buy alpine tents", 0.5, 1));
        assert!(commercial.cpc > plain.cpc && transactional.cpc > commercial.cpc);
        assert!(commercial.competition > plain.competition);
        assert!(transactional.competition > commercial.competition);
    }

    #[test]
    fn wider_spread_raises_volume_competition_and_difficulty() {
        let narrow = estimate(&candidate("alpine tents", 0.2, 1));
        let wide = estimate(&candidate("alpine tents", 1.0, 1));
        assert!(wide.search_volume > narrow.search_volume);
        assert!(wide.competition > narrow.competition);
        assert!(wide.difficulty > narrow.difficulty);
    }

    #[test]
    fn values_stay_in_range() {
        for share in [0.0, 0.3, 1.0] {
            for mentions in [0, 3, 500] {
                for keyword in ["x", "buy cheap tents near me now"] {
                    let m = estimate(&candidate(keyword, share, mentions));
                    assert!((10..=110_000).contains(&m.search_volume.unwrap()));
                    assert!((0.0..=1.0).contains(&m.competition.unwrap()));
                    assert!((0..=100).contains(&m.difficulty.unwrap()));
                    assert!(m.cpc.unwrap() > 0.0);
                }
            }
        }
    }

    #[test]
    fn no_keyword_estimates_above_a_shorter_one_it_contains_nor_above_1900() {
        // The longer ones are spread wider and used more prominently: on their own they would
        // estimate above their heads.
        let set = [
            candidate("roof repair", 0.1, 0),
            candidate("roof repair irvington", 1.0, 50),
            candidate("roof repair irvington nj", 1.0, 500),
            candidate("cleaning", 1.0, 500),
        ];
        let alone: Vec<i64> = set
            .iter()
            .map(|c| estimate(c).search_volume.unwrap())
            .collect();
        assert!(alone[1] > alone[0], "{alone:?}");
        let held: Vec<i64> = estimate_all(&set, &Language::english())
            .iter()
            .map(|m| m.search_volume.unwrap())
            .collect();
        assert!(held[0] >= held[1] && held[1] >= held[2], "{held:?}");
        assert_eq!(held[3], MAX_ESTIMATED_VOLUME);
    }

    #[test]
    fn buckets_snap_to_planner_steps() {
        assert_eq!(bucket(0.0), 10);
        assert_eq!(bucket(1_000_000.0), 110_000);
        assert_eq!(bucket(1400.0), 1300); // the log-midpoint of 1300 and 1600 is 1442
        assert_eq!(bucket(1500.0), 1600);
    }

    #[test]
    fn serialises_camel_case_with_nulls() {
        let json = serde_json::to_value(KeywordMetrics::default()).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"searchVolume": null, "cpc": null, "competition": null,
                               "difficulty": null, "monthlySearches": []})
        );
    }
}
