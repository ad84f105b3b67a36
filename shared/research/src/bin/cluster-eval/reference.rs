//! The reference SERP clustering, written from its documented behaviour (not from any tool's
//! code) and kept deliberately plain, O(n × hubs), to check the indexed `cluster_by_serp`:
//!
//! *Soft* clustering: keywords are taken by descending volume, ties in input order; the first
//! keyword not yet in a group opens one and takes every ungrouped keyword whose top 10 URLs
//! share at least `overlap` URLs with its own (each compared with the hub only, never with
//! the other members). URLs compare as the pairwise criterion compares them
//! ([`url_sets`]: normalised top 10; the normalisation has tests of its own, this checks the
//! grouping). A keyword that shares with no hub stays alone, whatever its words.

use super::pairs::url_sets;

/// Group labels per item, in input order.
pub fn soft_serp_clusters(urls: &[Vec<String>], volumes: &[f64], overlap: usize) -> Vec<usize> {
    let top = url_sets(urls);
    let mut order: Vec<usize> = (0..urls.len()).collect();
    order.sort_by(|&a, &b| volumes[b].total_cmp(&volumes[a])); // stable: ties keep input order
    let mut label = vec![usize::MAX; urls.len()];
    for (group, &hub) in order.iter().enumerate() {
        if label[hub] != usize::MAX {
            continue;
        }
        label[hub] = group;
        for &other in &order {
            if label[other] == usize::MAX && shared(&top[hub], &top[other]) >= overlap {
                label[other] = group;
            }
        }
    }
    label
}

fn shared(a: &[String], b: &[String]) -> usize {
    a.iter().filter(|url| b.binary_search(url).is_ok()).count()
}
