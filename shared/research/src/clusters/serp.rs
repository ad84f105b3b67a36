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
//! Keywords without a SERP, or with fewer than `overlap` URLs (which no hub could reach): one
//! that is a close variant of a keyword in a SERP cluster by the lexical rule (the same core or
//! the same spelling without spaces: "sump pumps", "pumps sump" beside "sump pump") joins that
//! cluster, the first in hub order when several hold one; the same query in other words has the
//! same results, and a job past its SERP budget would otherwise show one query as two clusters,
//! two pages to write. The others go to the lexical clustering, with their `lexical_value` as its
//! hub rank. Profiles (towns, stems) are built once over every keyword. Ids come from one
//! registry for both, so they stay unique. `.ci/bench clusters` ("Past the SERP budget") hides
//! one half's SERPs: the hidden keywords' pairs agree with their SERPs about as often as the SERP
//! clusters' own pairs do.
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
mod variants;

use serde::{Deserialize, Serialize};

use super::profile::Profiles;
use super::{
    cluster_profiled, display_name, Cluster, ClusterConfig, ClusterInput, ClusterMethod, IdRegistry,
};
use groups::serp_groups;
pub use urls::normalize_url;
use urls::UrlSets;
use variants::serp_group_of_variants;

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
    let groups = serp_groups(items, &sets, overlap);
    let mut grouped = vec![false; items.len()];
    for &member in groups.iter().flatten() {
        grouped[member] = true;
    }
    let rest: Vec<usize> = (0..items.len()).filter(|&i| !grouped[i]).collect();
    let mut ids = IdRegistry::default();
    let mut clusters: Vec<Cluster> = groups
        .iter()
        .map(|members| {
            let name = display_name(members.iter().map(|&m| items[m].keyword.as_str()));
            Cluster {
                id: ids.issue(&name),
                primary_keyword: items[members[0]].keyword.clone(),
                name,
                shared_urls: shared_urls(items, members),
                members: members.clone(),
                method: ClusterMethod::Serp,
            }
        })
        .collect();
    if rest.is_empty() {
        return clusters;
    }

    // One profile per keyword, SERP or not: the towns and spellings the words show are the
    // whole list's.
    let keywords: Vec<&str> = items.iter().map(|i| i.keyword.as_str()).collect();
    let profiles = Profiles::build(&keywords, &config.lexical.language);
    let mut left = Vec::with_capacity(rest.len());
    for (&item, group) in rest
        .iter()
        .zip(serp_group_of_variants(&profiles, &groups, &rest))
    {
        match group {
            Some(group) => clusters[group].members.push(item),
            None => left.push(item),
        }
    }
    // Members after the hub in hub order, as the SERP groups list them.
    for cluster in &mut clusters[..groups.len()] {
        cluster.members[1..].sort_by(|&a, &b| hub_order(items, a, b));
    }

    let lexical: Vec<ClusterInput> = left
        .iter()
        .map(|&i| ClusterInput {
            keyword: items[i].keyword.clone(),
            value: items[i].lexical_value,
        })
        .collect();
    for mut found in cluster_profiled(&lexical, &profiles.select(&left), &mut ids) {
        for member in &mut found.members {
            *member = left[*member];
        }
        clusters.push(found);
    }
    clusters
}

/// The order hubs are taken in: descending volume (unknown is 0), ties in input order.
fn hub_order(items: &[SerpClusterInput], a: usize, b: usize) -> std::cmp::Ordering {
    let volume = |i: usize| {
        let v = items[i].volume;
        if v.is_nan() {
            0.0
        } else {
            v
        }
    };
    volume(b).total_cmp(&volume(a)).then(a.cmp(&b))
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
