//! Clusters from search results: keywords whose top organic results overlap.
//!
//! # Why
//!
//! Two queries for which Google returns mostly the same pages are answered by the same page,
//! whatever their words: "sneakers for running" and "running shoes" belong together, while
//! "apple pie" and "apple watch" do not. Shared results measure that directly; the lexical
//! clustering ([`super::cluster`]) can only guess it from words. So keywords with a SERP are
//! grouped by overlap first, and only the others are left to the words.
//!
//! # Rule
//!
//! The *soft* SERP clustering that SEO tools default to (Topvisor's "soft"
//! mode, Wikipedia's "Keyword clustering"; `.ci/bench clusters` checks it against a plain
//! re-statement of that rule), at 3 shared URLs of the top 10 by default:
//!
//! - a keyword's SERP is the set of its first [`SERP_DEPTH`] result URLs, compared after
//!   [`normalize_url`];
//! - keywords are taken by descending search volume, ties in input order; each one not yet
//!   assigned becomes a hub and absorbs every unassigned keyword whose SERP shares at least
//!   `overlap` URLs with the hub's (hub and spoke: spokes are compared with the hub, never with
//!   each other, so a cluster cannot drift away from its hub's topic);
//! - a hub that absorbs nobody stays a cluster of one: the search engine answers it with other
//!   pages than any higher keyword, so its words must not pull it into one (the reference
//!   leaves it alone too);
//! - the highest-volume keyword names the cluster, being the query that page should target.
//!
//! Keywords without a SERP, or with fewer than `overlap` URLs (which no hub could reach), go to
//! the lexical clustering, with their `lexical_value` as its hub rank. Ids come from one
//! registry for both, so they stay unique.
//!
//! # Cost
//!
//! For `n` keywords with `d` ≤ 10 URLs each and overlap `t`: URLs are interned to integers and
//! each SERP becomes a sorted list, O(n·d log d). Candidate pairs come from an inverted index
//! URL → keywords, so keywords sharing no URL are never compared. The index holds only each
//! SERP's *prefix*: its d − t + 1 rarest URLs in one global order (by frequency). Two SERPs
//! sharing t URLs share one inside both prefixes (the rarest shared URL has t − 1 shared ones
//! after it in each list), so this loses no pair, and it keeps the t − 1 most common URLs of
//! every SERP (encyclopedias, video sites, marketplaces that appear everywhere) out of the
//! index, where their long lists would make the probing quadratic. A hub probes its own prefix,
//! drops assigned keywords from the lists as it goes, and verifies each new candidate once with
//! a merge of two sorted lists, O(d). The total is O(n·d log d + n log n + d·C), C being the
//! index entries probed, which is near-linear unless most SERPs share d − t + 1 common URLs.
//! Index, prefixes and URL sets are flat arrays (one allocation each, not one per keyword or
//! URL). `serp-cluster-bench` (`.ci/bench serp`): 30,000 keywords × 10 URLs with skewed URL
//! popularity in about 0.2 s on one core, normalisation and the lexical fallback included.

mod groups;
mod urls;

use serde::{Deserialize, Serialize};

use super::{
    cluster_with_ids, display_name, Cluster, ClusterConfig, ClusterInput, ClusterMethod, IdRegistry,
};
use groups::serp_groups;
pub use urls::normalize_url;
use urls::UrlSets;

pub const DEFAULT_SERP_OVERLAP: usize = 3;
/// Results per SERP that count: the top 10.
pub const SERP_DEPTH: usize = 10;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SerpClusterInput {
    pub keyword: String,
    /// Ranks SERP hubs: the search volume (0 when unknown).
    pub volume: f64,
    /// Ranks hubs of the lexical fallback (see [`ClusterInput::value`]).
    pub lexical_value: f64,
    /// Top organic result URLs in rank order; `None` when no SERP was fetched.
    pub serp_urls: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SerpClusterConfig {
    /// Shared top-10 URLs that join a keyword to a hub, clamped to 1..=[`SERP_DEPTH`].
    pub overlap: usize,
    /// The fallback for keywords that no SERP groups.
    pub lexical: ClusterConfig,
}

impl Default for SerpClusterConfig {
    fn default() -> Self {
        SerpClusterConfig {
            overlap: DEFAULT_SERP_OVERLAP,
            lexical: ClusterConfig::default(),
        }
    }
}

/// Clusters `items`; every item is in exactly one cluster. SERP clusters come first, in hub
/// order (descending volume, ties in input order), then the lexical ones in theirs.
pub fn cluster_by_serp(items: &[SerpClusterInput], config: &SerpClusterConfig) -> Vec<Cluster> {
    let overlap = config.overlap.clamp(1, SERP_DEPTH);
    let sets = UrlSets::build(items);
    let mut ids = IdRegistry::default();
    let mut grouped = vec![false; items.len()];
    let mut clusters = Vec::new();
    for members in serp_groups(items, &sets, overlap) {
        for &member in &members {
            grouped[member] = true;
        }
        let name = display_name(members.iter().map(|&m| items[m].keyword.as_str()));
        clusters.push(Cluster {
            id: ids.issue(&name),
            primary_keyword: items[members[0]].keyword.clone(),
            name,
            shared_urls: shared_urls(items, &members),
            members,
            method: ClusterMethod::Serp,
        });
    }

    let rest: Vec<usize> = (0..items.len()).filter(|&i| !grouped[i]).collect();
    let lexical: Vec<ClusterInput> = rest
        .iter()
        .map(|&i| ClusterInput {
            keyword: items[i].keyword.clone(),
            value: items[i].lexical_value,
        })
        .collect();
    for mut found in cluster_with_ids(&lexical, &config.lexical, &mut ids) {
        for member in &mut found.members {
            *member = rest[*member];
        }
        clusters.push(found);
    }
    clusters
}

/// The URLs in the top [`SERP_DEPTH`] of at least half of `members` and at least two of them
/// (all of a lone member's),
/// by how many members have them, then by mean position, then by URL; as first seen.
fn shared_urls(items: &[SerpClusterInput], members: &[usize]) -> Vec<String> {
    // normalised URL → (first spelling, members with it, sum of positions)
    let mut seen: std::collections::HashMap<String, (String, usize, usize)> = Default::default();
    for &member in members {
        let mut own = std::collections::HashSet::new();
        for (rank, url) in items[member]
            .serp_urls
            .iter()
            .flatten()
            .take(SERP_DEPTH)
            .enumerate()
        {
            let key = normalize_url(url);
            if key.is_empty() || !own.insert(key.clone()) {
                continue;
            }
            let entry = seen
                .entry(key)
                .or_insert_with(|| (kr_core::result_url::without_tracking(url), 0, 0));
            entry.1 += 1;
            entry.2 += rank + 1;
        }
    }
    let needed = match members.len() {
        1 => 1,
        count => count.div_ceil(2).max(2),
    };
    let mut shared: Vec<(String, usize, usize)> = seen
        .into_values()
        .filter(|(_, count, _)| *count >= needed)
        .collect();
    // Mean positions compared without division: a/b < c/d ⇔ a·d < c·b.
    shared.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then((a.2 * b.1).cmp(&(b.2 * a.1)))
            .then_with(|| a.0.cmp(&b.0))
    });
    shared.truncate(SERP_DEPTH);
    shared.into_iter().map(|(url, _, _)| url).collect()
}

#[cfg(test)]
mod scale_tests;
#[cfg(test)]
mod tests;
