//! Groups keywords that one page would answer, hub and spoke, from their words alone.
//!
//! # Why close variants only
//!
//! The grouping it imitates is the search engine's: two keywords belong together when their
//! top results overlap (see [`serp`]). That partition is fine-grained. Keywords land together
//! when they are close variants (plural or singular, word order, stop words, spacing, a
//! generic word such as "best"), not because they share a head term: "zoeller sump pump",
//! "sump pump alarm" and "buy sump pump" each get pages of their own. Grouping everything
//! around "sump pump" put 22 % of one niche's keywords in one cluster and agreed with the
//! SERP partition no better than chance (adjusted Rand index 0.008); many small clusters of
//! near-duplicates agree far better.
//!
//! # Rule
//!
//! A keyword joins a group only when it is the same query in other words. Its *core* is the
//! set of stems of its words less stop words (but "how many", "how much", "who", "where",
//! which change the answer, stay), generic words (`best`, `top`, `free`, `online`, `ideas`,
//! `services`, `company`, `manufacturer`, `latest`, ... in English: words that rarely change
//! the results), years ("ai tools 2024") and a state after a town ("asphalt lansing mi",
//! "roofing in newark nj"; a town is a large city, or a word before a state that the input
//! itself places after "in", "near" or "at" at least as often as it ends a keyword, see
//! `profile.rs`). A machine is named by its agent noun in English: "twisting machine", "twister
//! machine" and "twister" are one word. Keywords are taken by
//! descending value, then by centrality (fewest content words: the plainest form), then
//! keyword and index; each one not yet assigned becomes a hub and takes every unassigned
//! keyword that
//!
//! - has the same core: word order, plural or singular, stop words, generic words ("car
//!   accident lawyer", "accident car lawyers", "best lawyer for a car accident"), or
//! - is spelt the same without spaces, hyphens and a final "s" ("sump pump", "sumppumps").
//!
//! Nothing else joins: one more word, even a specific one, is another query ("waterproof
//! trail running shoes" is not "trail running shoes"), an intent modifier ("buy", "price",
//! "how to") or a place is a word like any other, and sharing one word ("water" in "add water
//! to sump pump" and "best sump pump water alarm") is never enough. A keyword that is no close
//! variant of a hub stays alone. Spokes are compared with the hub only, so a cluster cannot
//! drift. The cluster's name is its best-ranked member, exactly as typed, that starts with a letter
//! or digit (the hub unless the hub is spelt like ".75 hp sump pump"), see [`display_name`].
//!
//! # Cost
//!
//! Hash maps from core and spelling to keywords: a hub looks up its own keys only, so no pair
//! of keywords is compared, and the work is linear in the number of keywords times their
//! length (27,665 keywords in about 0.3 s, `.ci/bench clusters`).
//!
//! With search results at hand, [`cluster_by_serp`] groups keywords whose top results overlap
//! first, puts a keyword without a SERP that is a close variant of a SERP-clustered keyword (the
//! same core or spelling) in that keyword's cluster, and leaves the other keywords without a
//! SERP to this lexical clustering (see [`serp`]).

use serde::{Deserialize, Serialize};

use crate::text::Language;
use ids::IdRegistry;
pub use kr_core::dataset::ClusterMethod;
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
pub mod topics;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterInput {
    pub keyword: String,
    /// Ranks hubs: higher values become hubs first (e.g. volume or opportunity value).
    pub value: f64,
}

/// The default is English.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterConfig {
    pub language: Language,
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
    pub method: ClusterMethod,
    /// SERP clusters: the result URLs that at least half of the members with a SERP, and two
    /// or more, have in their top 10 (all of a lone keyword's), by how many members have them,
    /// then by mean position; at most 10.
    pub shared_urls: Vec<String>,
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
    cluster_profiled(items, &profiles, ids)
}

/// [`cluster_with_ids`] with each item's profile already built.
fn cluster_profiled(
    items: &[ClusterInput],
    profiles: &Profiles,
    ids: &mut IdRegistry,
) -> Vec<Cluster> {
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
    let mut groups = hub_groups(profiles, &order);
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
                method: ClusterMethod::Lexical,
                shared_urls: Vec::new(),
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
