//! Topics: clusters grouped as a pillar page and its supporting pages would be.
//!
//! # Rule
//!
//! Clusters are taken by descending volume (ties in input order).
//!
//! - **By results**, for clusters with shared result URLs (SERP clusters): hub and spoke as
//!   for keywords, one level up. Each cluster not yet placed becomes a pillar and takes every
//!   unplaced SERP cluster whose shared URLs have at least [`TOPIC_OVERLAP`] in common with the
//!   pillar's. URLs that are in the shared lists of more than [`common_limit`] clusters
//!   (encyclopedias, marketplaces, video sites) say nothing about a topic and are left out.
//! - **By head term**, for the others (lexical clusters): a cluster's *head* is the cluster
//!   whose name's core (content stems without generic words, as the lexical clustering reads
//!   it) is the largest proper subset of its own, at least two words long ("sump pump" for
//!   "zoeller sump pump"; ties to the higher volume). One word is too broad a head ("pump"
//!   would hold every pump). A cluster that is some other's head is a pillar; every other
//!   cluster joins its head's topic (a head placed by results keeps its SERP topic), or is
//!   alone. So "sump pump alarm battery" is under "sump pump alarm", which is a pillar of its
//!   own rather than a member of "sump pump": on a one-niche list, a topic is one head term
//!   and its direct variants, not every keyword with the niche's two words.
//!
//! A topic is named after its pillar.
//!
//! # Cost
//!
//! By results: an inverted index URL → clusters, so only clusters sharing a URL are compared.
//! By head term: a hash map from core to cluster and the subsets of each core (cores longer
//! than [`MAX_HEAD_SEARCH_WORDS`] look for no head), so the work is linear in the clusters.

use std::collections::HashMap;

use super::ids::IdRegistry;
use super::profile::Profiles;
use super::serp::normalize_url;
use crate::text::Language;

/// Shared URLs two SERP clusters must have in common to be one topic: fewer than the three
/// that join keywords, since supporting pages answer neighbouring questions, not the same one.
pub const TOPIC_OVERLAP: usize = 2;

/// Cores longer than this look for no head term (up to 2^n subsets).
pub const MAX_HEAD_SEARCH_WORDS: usize = 10;

/// What topic grouping reads of a cluster.
#[derive(Debug, Clone, Copy)]
pub struct TopicInput<'a> {
    pub name: &'a str,
    /// Total search volume of its keywords (ranks pillars).
    pub volume: f64,
    /// Its shared result URLs; empty for a cluster made by words.
    pub shared_urls: &'a [String],
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topic {
    /// "t-" and a slug of the name.
    pub id: String,
    pub name: String,
    /// Indexes into the input, pillar first, then by descending volume.
    pub clusters: Vec<usize>,
}

/// A URL in more shared lists than this is everywhere and links nothing.
pub fn common_limit(serp_clusters: usize) -> usize {
    (serp_clusters / 50).max(8)
}

/// Groups `clusters` into topics; every cluster is in exactly one. Topics come in pillar
/// order (descending volume, ties in input order).
pub fn group_topics(clusters: &[TopicInput], language: &Language) -> Vec<Topic> {
    let mut order: Vec<usize> = (0..clusters.len()).collect();
    order.sort_by(|&a, &b| {
        clusters[b]
            .volume
            .total_cmp(&clusters[a].volume)
            .then(a.cmp(&b))
    });
    let mut rank = vec![0; clusters.len()];
    for (position, &cluster) in order.iter().enumerate() {
        rank[cluster] = position;
    }
    // topic_of[cluster] = index of its pillar
    let mut pillar_of: Vec<Option<usize>> = vec![None; clusters.len()];
    by_results(clusters, &order, &mut pillar_of);
    by_head_term(clusters, &rank, language, &mut pillar_of);

    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    for &cluster in &order {
        let pillar = pillar_of[cluster].unwrap_or(cluster);
        members.entry(pillar).or_default().push(cluster);
    }
    let mut pillars: Vec<usize> = members.keys().copied().collect();
    pillars.sort_by_key(|&p| rank[p]);
    let mut ids = IdRegistry::with_prefix("t", "topic");
    pillars
        .into_iter()
        .map(|pillar| {
            let mut list = members.remove(&pillar).unwrap_or_default();
            list.retain(|&c| c != pillar);
            list.insert(0, pillar);
            let name = clusters[pillar].name.to_string();
            Topic {
                id: ids.issue(&name),
                name,
                clusters: list,
            }
        })
        .collect()
}

/// Hub and spoke over the clusters' shared URLs, less the common ones.
fn by_results(clusters: &[TopicInput], order: &[usize], pillar_of: &mut [Option<usize>]) {
    let mut interned: HashMap<String, u32> = HashMap::new();
    let mut sets: Vec<Vec<u32>> = vec![Vec::new(); clusters.len()];
    for (index, cluster) in clusters.iter().enumerate() {
        for url in cluster.shared_urls {
            let next = interned.len() as u32;
            let id = *interned.entry(normalize_url(url)).or_insert(next);
            sets[index].push(id);
        }
        sets[index].sort_unstable();
        sets[index].dedup();
    }
    let serp_clusters = sets.iter().filter(|s| !s.is_empty()).count();
    let mut index: Vec<Vec<usize>> = vec![Vec::new(); interned.len()];
    for &cluster in order {
        for &url in &sets[cluster] {
            index[url as usize].push(cluster);
        }
    }
    let limit = common_limit(serp_clusters);
    for list in &mut index {
        if list.len() > limit {
            list.clear();
        }
    }
    for (cluster, set) in sets.iter_mut().enumerate() {
        set.retain(|&url| !index[url as usize].is_empty());
        // A cluster whose URLs are all common still is a SERP cluster: a topic of its own.
        if set.is_empty() && !clusters[cluster].shared_urls.is_empty() {
            pillar_of[cluster] = Some(cluster);
        }
    }
    let mut shared: HashMap<usize, usize> = HashMap::new();
    for &pillar in order {
        if pillar_of[pillar].is_some() || sets[pillar].is_empty() {
            continue;
        }
        pillar_of[pillar] = Some(pillar);
        shared.clear();
        for &url in &sets[pillar] {
            let list = &mut index[url as usize];
            list.retain(|&other| pillar_of[other].is_none());
            for &other in list.iter() {
                *shared.entry(other).or_default() += 1;
            }
        }
        for (&other, &count) in &shared {
            if count >= TOPIC_OVERLAP {
                pillar_of[other] = Some(pillar);
            }
        }
    }
}

/// The clusters not placed by results, under the head term of their names: each joins the
/// cluster whose core is the largest proper subset of its own (its *head*); a cluster that is
/// some other's head is a pillar itself, so a topic is one head term and its direct
/// specialisations rather than everything that shares two words.
fn by_head_term(
    clusters: &[TopicInput],
    rank: &[usize],
    language: &Language,
    pillar_of: &mut [Option<usize>],
) {
    let names: Vec<&str> = clusters.iter().map(|c| c.name).collect();
    let cores = Profiles::build(&names, language).cores;
    // Core → the highest-volume cluster with it.
    let mut heads: HashMap<&[u32], usize> = HashMap::new();
    for (cluster, core) in cores.iter().enumerate() {
        if core.len() >= 2 {
            let best = heads.entry(core.as_slice()).or_insert(cluster);
            if rank[cluster] < rank[*best] {
                *best = cluster;
            }
        }
    }
    let unplaced: Vec<usize> = (0..clusters.len())
        .filter(|&c| pillar_of[c].is_none())
        .collect();
    let mut subset = Vec::new();
    let head_of: Vec<Option<usize>> = unplaced
        .iter()
        .map(|&cluster| largest_head(&cores[cluster], &heads, rank, &mut subset))
        .collect();
    let mut is_head = vec![false; clusters.len()];
    for head in head_of.iter().flatten() {
        is_head[*head] = true;
    }
    for (&cluster, head) in unplaced.iter().zip(&head_of) {
        pillar_of[cluster] = Some(match head {
            _ if is_head[cluster] => cluster,
            // A head placed by results keeps its topic; an unplaced head is a pillar.
            Some(head) => pillar_of[*head].unwrap_or(*head),
            None => cluster,
        });
    }
}

/// The cluster whose core is the largest proper subset of `core`, two words or more, ties by
/// volume: subsets are tried from the largest size down, and the first size with one wins.
fn largest_head(
    core: &[u32],
    heads: &HashMap<&[u32], usize>,
    rank: &[usize],
    subset: &mut Vec<u32>,
) -> Option<usize> {
    if core.len() <= 2 || core.len() > MAX_HEAD_SEARCH_WORDS {
        return None;
    }
    for size in (2..core.len()).rev() {
        let mut best: Option<usize> = None;
        for_each_subset(core, size, subset, &mut |candidate| {
            if let Some(&found) = heads.get(candidate) {
                if best.is_none_or(|b| rank[found] < rank[b]) {
                    best = Some(found);
                }
            }
        });
        if best.is_some() {
            return best;
        }
    }
    None
}

/// Calls `visit` with every `size`-element subset of `items`, in order, through `buffer`.
fn for_each_subset(
    items: &[u32],
    size: usize,
    buffer: &mut Vec<u32>,
    visit: &mut dyn FnMut(&[u32]),
) {
    fn walk(items: &[u32], size: usize, buffer: &mut Vec<u32>, visit: &mut dyn FnMut(&[u32])) {
        if buffer.len() == size {
            visit(buffer);
            return;
        }
        let needed = size - buffer.len();
        for i in 0..items.len() {
            if items.len() - i < needed {
                break;
            }
            buffer.push(items[i]);
            walk(&items[i + 1..], size, buffer, visit);
            buffer.pop();
        }
    }
    buffer.clear();
    walk(items, size, buffer, visit);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lexical(name: &str, volume: f64) -> TopicInput<'_> {
        TopicInput {
            name,
            volume,
            shared_urls: &[],
        }
    }

    fn names(topics: &[Topic], inputs: &[TopicInput]) -> Vec<Vec<String>> {
        topics
            .iter()
            .map(|t| {
                t.clusters
                    .iter()
                    .map(|&c| inputs[c].name.to_string())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_cluster_joins_its_largest_head_a_head_is_a_pillar_and_one_word_is_no_head() {
        let inputs = [
            lexical("sump pump", 500.0),
            lexical("pump", 900.0),
            lexical("sump pump alarm", 100.0),
            lexical("zoeller sump pump", 300.0),
            lexical("sump pump alarm battery", 50.0),
            lexical("water heater", 200.0),
        ];
        let topics = group_topics(&inputs, &Language::english());
        assert_eq!(
            names(&topics, &inputs),
            vec![
                vec!["pump"],
                vec!["sump pump", "zoeller sump pump"],
                vec!["water heater"],
                vec!["sump pump alarm", "sump pump alarm battery"],
            ]
        );
        assert_eq!(topics[1].id, "t-sump-pump");
        assert_eq!(topics[1].name, "sump pump");
    }

    #[test]
    fn serp_clusters_sharing_two_uncommon_urls_are_one_topic() {
        let urls = |list: &[&str]| {
            list.iter()
                .map(|u| format!("https://{u}"))
                .collect::<Vec<_>>()
        };
        let a = urls(&["a.com/1", "b.com/2", "c.com/3"]);
        let b = urls(&["a.com/1", "b.com/2", "d.com/4"]);
        let c = urls(&["a.com/1", "e.com/5", "f.com/6"]);
        let inputs = [
            TopicInput {
                name: "running shoes",
                volume: 900.0,
                shared_urls: &a,
            },
            TopicInput {
                name: "trail shoes",
                volume: 400.0,
                shared_urls: &b,
            },
            TopicInput {
                name: "shoe laces",
                volume: 300.0,
                shared_urls: &c,
            },
            lexical("running shoes for women", 10.0),
        ];
        let topics = group_topics(&inputs, &Language::english());
        assert_eq!(
            names(&topics, &inputs),
            vec![
                vec!["running shoes", "trail shoes", "running shoes for women"],
                vec!["shoe laces"],
            ]
        );
    }

    #[test]
    fn a_url_in_most_shared_lists_links_nothing() {
        let lists: Vec<Vec<String>> = (0..20)
            .map(|i| {
                vec![
                    "https://en.wikipedia.org/wiki/Shoe".to_string(),
                    "https://www.amazon.com/shoes".to_string(),
                    format!("https://site{i}.com/"),
                ]
            })
            .collect();
        let names: Vec<String> = (0..20).map(|i| format!("shoe kind {i}")).collect();
        let inputs: Vec<TopicInput> = (0..20)
            .map(|i| TopicInput {
                name: &names[i],
                volume: 100.0 - i as f64,
                shared_urls: &lists[i],
            })
            .collect();
        let topics = group_topics(&inputs, &Language::english());
        assert_eq!(topics.len(), 20);
        assert!(topics.iter().all(|t| t.clusters.len() == 1));
    }
}
