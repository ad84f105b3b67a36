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

use serde::{Deserialize, Serialize};

use crate::text::Language;
use ids::IdRegistry;
use lexical::hub_groups;
use profile::Profiles;
pub use serp::{
    cluster_by_serp, normalize_url, SerpClusterConfig, SerpClusterInput, DEFAULT_SERP_OVERLAP,
    SERP_DEPTH,
};

mod ids;
mod lexical;
mod profile;
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
    /// "c-" and a slug of the name, made unique with "-2", "-3", ...
    pub id: String,
    /// The best-ranked member that starts with a letter or digit (see [`display_name`]).
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
    let keywords: Vec<&str> = items.iter().map(|i| i.keyword.as_str()).collect();
    let profiles = Profiles::build(&keywords, &config.language);
    // Hubs first by value, then by centrality (the plainest form: fewest content words),
    // then by keyword and index so the result does not depend on the input order.
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by(|&a, &b| {
        value_of(&items[b])
            .total_cmp(&value_of(&items[a]))
            .then(profiles.lengths[a].cmp(&profiles.lengths[b]))
            .then_with(|| items[a].keyword.cmp(&items[b].keyword))
            .then(a.cmp(&b))
    });
    let mut rank = vec![0; items.len()];
    for (position, &item) in order.iter().enumerate() {
        rank[item] = position;
    }
    let threshold = config.threshold.clamp(0.01, 1.0);
    let mut groups = hub_groups(&profiles, &order, threshold);
    for members in &mut groups {
        members.sort_by_key(|&m| rank[m]);
    }
    groups
        .into_iter()
        .map(|members| {
            let primary = items[members[0]].keyword.clone();
            let name = display_name(members.iter().map(|&m| items[m].keyword.as_str()));
            Cluster {
                id: ids.issue(&name),
                primary_keyword: primary,
                name,
                members,
            }
        })
        .collect()
}

/// A cluster's name: its best-ranked member that starts with a letter or digit (".75 sump
/// pump" is a spelling, not a name), else the hub with its leading punctuation removed.
pub(crate) fn display_name<'a>(mut ranked: impl Iterator<Item = &'a str> + Clone) -> String {
    let starts_well = |k: &&str| k.trim_start().starts_with(char::is_alphanumeric);
    if let Some(name) = ranked.clone().find(starts_well) {
        return name.trim().to_string();
    }
    let hub = ranked.next().unwrap_or_default();
    let trimmed = hub
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .trim();
    if trimmed.is_empty() { hub } else { trimmed }.to_string()
}

fn value_of(item: &ClusterInput) -> f64 {
    if item.value.is_nan() {
        0.0
    } else {
        item.value
    }
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

#[cfg(test)]
mod tests;
