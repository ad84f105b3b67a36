//! The greedy hub-and-spoke pass over an inverted index of SERP prefixes (see [`super`]).

use super::urls::UrlSets;
use super::{hub_order, SerpClusterInput};
use crate::clusters::intersection_size;

const UNSEEN: u32 = u32::MAX;

/// The hub-and-spoke groups of every keyword with at least `overlap` URLs, in hub order, each
/// hub first and then its members by hub order; a hub that absorbed nobody is a group of one.
pub(super) fn serp_groups(
    items: &[SerpClusterInput],
    sets: &UrlSets,
    overlap: usize,
) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..items.len())
        .filter(|&i| sets.get(i).len() >= overlap)
        .collect();
    // Ties in input order, as the reference rule takes them (a stable sort by volume).
    order.sort_by(|&a, &b| hub_order(items, a, b));
    let mut rank = vec![u32::MAX; items.len()];
    for (position, &item) in order.iter().enumerate() {
        rank[item] = position as u32;
    }

    let mut frequency = vec![0u32; sets.url_count];
    for &item in &order {
        for &url in sets.get(item) {
            frequency[url as usize] += 1;
        }
    }
    // Prefixes, flat: the rarest `len + 1 - overlap` URLs of each eligible keyword.
    let mut prefix_ids = Vec::new();
    let mut prefix_starts = vec![0u32; items.len() + 1];
    for item in 0..items.len() {
        if rank[item] != u32::MAX {
            let start = prefix_ids.len();
            prefix_ids.extend_from_slice(sets.get(item));
            let prefix = &mut prefix_ids[start..];
            prefix.sort_unstable_by_key(|&url| (frequency[url as usize], url));
            prefix_ids.truncate(start + sets.get(item).len() + 1 - overlap);
        }
        prefix_starts[item + 1] = prefix_ids.len() as u32;
    }
    let prefix =
        |item: usize| &prefix_ids[prefix_starts[item] as usize..prefix_starts[item + 1] as usize];

    // Postings in one array (counting sort by URL), each list in hub order so members are
    // met in a stable order; `live_end` shrinks as assigned keywords are compacted out.
    let mut list_start = vec![0u32; sets.url_count + 1];
    for &url in &prefix_ids {
        list_start[url as usize + 1] += 1;
    }
    for url in 0..sets.url_count {
        list_start[url + 1] += list_start[url];
    }
    let mut live_end: Vec<u32> = list_start[..sets.url_count].to_vec();
    let mut postings = vec![0u32; prefix_ids.len()];
    for &item in &order {
        for &url in prefix(item) {
            postings[live_end[url as usize] as usize] = item as u32;
            live_end[url as usize] += 1;
        }
    }

    let mut assigned = vec![false; items.len()];
    // The hub that last verified each keyword, so a candidate met twice is judged once.
    let mut judged_by = vec![UNSEEN; items.len()];
    let mut groups = Vec::new();
    for &hub in &order {
        if assigned[hub] {
            continue;
        }
        assigned[hub] = true;
        let mut members = vec![hub];
        let hub_set = sets.get(hub);
        for &url in prefix(hub) {
            let (start, end) = (list_start[url as usize], live_end[url as usize]);
            let mut kept = start;
            for read in start..end {
                let item = postings[read as usize] as usize;
                if assigned[item] {
                    continue;
                }
                postings[kept as usize] = item as u32;
                kept += 1;
                if judged_by[item] == hub as u32 {
                    continue;
                }
                judged_by[item] = hub as u32;
                if intersection_size(hub_set, sets.get(item)) >= overlap {
                    members.push(item);
                }
            }
            live_end[url as usize] = kept;
        }
        for &member in &members {
            assigned[member] = true;
        }
        members.sort_by_key(|&m| rank[m]);
        groups.push(members);
    }
    groups
}
