//! Groups keywords that mean the same thing, hub and spoke.
//!
//! Each keyword becomes the set of stems of its non-stop words ("best running shoes" →
//! {best, run, shoe}) and a *head* (the stem of its last content word, or the first in
//! French, Spanish, Italian and Portuguese, where the noun comes first). Keywords are taken
//! by descending value; each one not yet assigned becomes a hub and absorbs every unassigned
//! keyword that shares a head with it (one's head is among the other's stems) and
//!
//! - has a Jaccard similarity of stem sets ≥ `threshold` with it, or
//! - contains all of its stems, when the hub has two stems or more ("trail running shoes"
//!   absorbs "waterproof trail running shoes for women").
//!
//! The head condition keeps "waterproof light bags" out of "waterproof light poles" although
//! they share two of four stems.
//!
//! Candidates are found through an inverted index from (stem, set size) to keywords, probed
//! with the hub's rarest stems first. A keyword that shares none of the hub's first k stems
//! can overlap it in at most |hub| − k stems, which bounds the set sizes worth looking at
//! (prefix and length filtering, as in set-similarity joins), so a very common stem such as
//! "software" is only scanned for the few sizes that could still reach the threshold. No
//! pair of keywords is compared unless they share a stem.
//!
//! With search results at hand, [`cluster_by_serp`] groups keywords whose top results overlap
//! first and leaves the rest to this lexical clustering (see [`serp`]).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::text::{Analyzer, Language};
use ids::IdRegistry;
pub use serp::{
    cluster_by_serp, normalize_url, SerpClusterConfig, SerpClusterInput, DEFAULT_SERP_OVERLAP,
    SERP_DEPTH,
};

mod ids;
pub mod serp;

pub const DEFAULT_THRESHOLD: f64 = 0.5;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterInput {
    pub keyword: String,
    /// Ranks hubs: higher values become hubs first (e.g. volume or opportunity value).
    pub value: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterConfig {
    pub language: Language,
    /// Minimum Jaccard similarity of stem sets to join a hub, clamped to 0.01..=1.
    pub threshold: f64,
}

impl Default for ClusterConfig {
    fn default() -> Self {
        ClusterConfig {
            language: Language::english(),
            threshold: DEFAULT_THRESHOLD,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cluster {
    /// "c-" and a slug of the primary keyword, made unique with "-2", "-3", ...
    pub id: String,
    pub name: String,
    /// The hub.
    pub primary_keyword: String,
    /// Indexes into the input, hub first, then by descending value.
    pub members: Vec<usize>,
}

/// Clusters `items`; every item is in exactly one cluster. Clusters come in hub order
/// (descending value, ties by keyword then index).
pub fn cluster(items: &[ClusterInput], config: &ClusterConfig) -> Vec<Cluster> {
    cluster_with_ids(items, config, &mut IdRegistry::default())
}

/// [`cluster`], taking ids from `ids` so they stay unique beside clusters made elsewhere.
pub(crate) fn cluster_with_ids(
    items: &[ClusterInput],
    config: &ClusterConfig,
    ids: &mut IdRegistry,
) -> Vec<Cluster> {
    let threshold = config.threshold.clamp(0.01, 1.0);
    let profiles = Profiles::build(items, &config.language);
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by(|&a, &b| {
        value_of(&items[b])
            .total_cmp(&value_of(&items[a]))
            .then_with(|| items[a].keyword.cmp(&items[b].keyword))
            .then(a.cmp(&b))
    });
    let mut rank = vec![0; items.len()];
    for (position, &item) in order.iter().enumerate() {
        rank[item] = position;
    }

    // Postings in hub order, so scans visit likely members in a stable order.
    let mut postings: HashMap<(u32, usize), Vec<usize>> = HashMap::new();
    let mut largest = 0;
    for &item in &order {
        let size = profiles.sets[item].len();
        largest = largest.max(size);
        for &stem in &profiles.sets[item] {
            postings.entry((stem, size)).or_default().push(item);
        }
    }

    let mut assigned = vec![false; items.len()];
    let mut clusters = Vec::new();
    for &hub in &order {
        if assigned[hub] {
            continue;
        }
        assigned[hub] = true;
        let mut members = vec![hub];
        let hub_set = &profiles.sets[hub];
        let hub_size = hub_set.len();
        let probes = profiles.rare_first(hub);
        for (k, &stem) in probes.iter().enumerate() {
            let min_size = (threshold * hub_size as f64).ceil() as usize;
            let jaccard_max = ((hub_size - k) as f64 / threshold - k as f64).floor() as usize;
            let max_size = if k == 0 && hub_size >= 2 {
                largest // a keyword containing the whole hub also contains its rarest stem
            } else {
                jaccard_max.min(largest)
            };
            for size in min_size.max(1)..=max_size {
                let Some(list) = postings.get_mut(&(stem, size)) else {
                    continue;
                };
                list.retain(|&item| !assigned[item]);
                for &item in list.iter() {
                    let set = &profiles.sets[item];
                    if probes[..k]
                        .iter()
                        .any(|earlier| set.binary_search(earlier).is_ok())
                    {
                        continue; // already judged while probing an earlier stem
                    }
                    if joins(&profiles, hub, item, threshold) {
                        members.push(item);
                    }
                }
            }
            for &member in &members[1..] {
                assigned[member] = true;
            }
        }
        members.sort_by_key(|&m| rank[m]);
        members.dedup();
        let name = items[hub].keyword.clone();
        clusters.push(Cluster {
            id: ids.issue(&name),
            primary_keyword: name.clone(),
            name,
            members,
        });
    }
    clusters
}

fn value_of(item: &ClusterInput) -> f64 {
    if item.value.is_nan() {
        0.0
    } else {
        item.value
    }
}

fn joins(profiles: &Profiles, hub: usize, item: usize, threshold: f64) -> bool {
    let (a, b) = (&profiles.sets[hub], &profiles.sets[item]);
    let contains =
        |set: &[u32], head: Option<u32>| head.is_some_and(|h| set.binary_search(&h).is_ok());
    let shares_head = contains(b, profiles.heads[hub]) || contains(a, profiles.heads[item]);
    if !shares_head {
        return false;
    }
    let shared = intersection_size(a, b);
    let jaccard = shared as f64 / (a.len() + b.len() - shared) as f64;
    jaccard >= threshold || (a.len() >= 2 && shared == a.len())
}

/// Common elements of two sorted, deduplicated lists.
pub(crate) fn intersection_size(a: &[u32], b: &[u32]) -> usize {
    let (mut i, mut j, mut shared) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    shared
}

/// Stem sets and heads of all keywords.
struct Profiles {
    /// Sorted, deduplicated stem ids per keyword.
    sets: Vec<Vec<u32>>,
    heads: Vec<Option<u32>>,
    /// Keywords containing each stem id.
    frequency: Vec<usize>,
}

impl Profiles {
    fn build(items: &[ClusterInput], language: &Language) -> Profiles {
        let analyzer = Analyzer::new(language);
        let mut ids: HashMap<String, u32> = HashMap::new();
        let mut sets = Vec::with_capacity(items.len());
        let mut heads = Vec::with_capacity(items.len());
        for item in items {
            let words = analyzer.tokenizer().words(&item.keyword);
            let content: Vec<&String> =
                words.iter().filter(|w| !analyzer.is_stop_word(w)).collect();
            // A keyword of stop words only ("the who") still needs a profile.
            let content = if content.is_empty() {
                words.iter().collect()
            } else {
                content
            };
            let stems: Vec<u32> = content
                .iter()
                .map(|word| {
                    let stem = analyzer.stem(word);
                    let next = ids.len() as u32;
                    match ids.get(stem.as_ref()) {
                        Some(&id) => id,
                        None => {
                            ids.insert(stem.into_owned(), next);
                            next
                        }
                    }
                })
                .collect();
            let head = if language.head_is_first() {
                stems.first()
            } else {
                stems.last()
            };
            heads.push(head.copied());
            let mut set = stems;
            set.sort_unstable();
            set.dedup();
            sets.push(set);
        }
        let mut frequency = vec![0; ids.len()];
        for set in &sets {
            for &stem in set {
                frequency[stem as usize] += 1;
            }
        }
        Profiles {
            sets,
            heads,
            frequency,
        }
    }

    /// A keyword's stems, rarest across all keywords first.
    fn rare_first(&self, item: usize) -> Vec<u32> {
        let mut stems = self.sets[item].clone();
        stems.sort_by_key(|&stem| (self.frequency[stem as usize], stem));
        stems
    }
}

#[cfg(test)]
mod tests;
