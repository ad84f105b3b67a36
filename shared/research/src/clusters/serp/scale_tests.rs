//! Generated SERPs: the index against an all-pairs comparison, and order independence.

use super::tests::{assert_partition, item, named, with_overlap};
use std::collections::HashSet;

use super::*;

/// A few hundred keywords in topics of related SERPs, some common URLs everywhere, some
/// keywords without a SERP; `seed` varies the data.
fn generated(seed: u64) -> Vec<SerpClusterInput> {
    let mut state = seed | 1;
    let mut next = move |bound: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound
    };
    (0..400)
        .map(|i| {
            let topic = next(40) as u32;
            let urls: Vec<u32> = (0..10)
                .map(|_| match next(10) {
                    0..=1 => 1000 + next(4) as u32,
                    2..=6 => 2000 + topic * 12 + next(12) as u32,
                    _ => 10_000 + next(5000) as u32,
                })
                .collect();
            let volume = next(50) as f64 * 10.0;
            let keyword = format!("topic{topic} word{} kw{i}", next(30));
            item(&keyword, volume, (next(8) != 0).then_some(&urls[..]))
        })
        .collect()
}

/// The rule of the module docs, by comparing every pair: every keyword with enough URLs is in
/// a group, a hub that matched nobody in a group of its own.
fn naive_groups(input: &[SerpClusterInput], overlap: usize) -> Vec<Vec<usize>> {
    let sets: Vec<HashSet<String>> = input
        .iter()
        .map(|item| {
            let urls = item.serp_urls.iter().flatten().take(SERP_DEPTH);
            urls.map(|url| normalize_url(url)).collect()
        })
        .collect();
    let mut order: Vec<usize> = (0..input.len())
        .filter(|&i| sets[i].len() >= overlap)
        .collect();
    order.sort_by(|&a, &b| input[b].volume.total_cmp(&input[a].volume).then(a.cmp(&b)));
    let mut assigned = vec![false; input.len()];
    let mut groups = Vec::new();
    for (position, &hub) in order.iter().enumerate() {
        if assigned[hub] {
            continue;
        }
        let mut members = vec![hub];
        for &other in &order[position + 1..] {
            if !assigned[other] && sets[hub].intersection(&sets[other]).count() >= overlap {
                members.push(other);
            }
        }
        for &m in &members {
            assigned[m] = true;
        }
        groups.push(members);
    }
    groups
}

#[test]
fn the_index_finds_exactly_the_groups_of_an_all_pairs_comparison() {
    for seed in [7, 99, 12345] {
        let input = generated(seed);
        for overlap in [1, 2, 3, 5] {
            let clusters = cluster_by_serp(&input, &with_overlap(overlap));
            assert_partition(&clusters, input.len());
            let expected = naive_groups(&input, overlap);
            assert!(expected.len() > 5, "seed {seed}: too few groups to test");
            let found: Vec<Vec<usize>> = clusters[..expected.len()]
                .iter()
                .map(|c| c.members.clone())
                .collect();
            assert_eq!(found, expected, "seed {seed}, overlap {overlap}");
        }
    }
}

#[test]
fn is_deterministic_whatever_the_input_order_when_volumes_differ() {
    let mut forward = generated(42);
    for (i, item) in forward.iter_mut().enumerate() {
        item.volume += i as f64 / 1000.0; // no ties: only ties are taken in input order
    }
    let mut backward = forward.clone();
    backward.reverse();
    let config = SerpClusterConfig::default();
    let sorted = |mut n: Vec<(String, Vec<String>)>| {
        n.iter_mut().for_each(|(_, members)| members.sort());
        n
    };
    assert_eq!(
        sorted(named(&cluster_by_serp(&forward, &config), &forward)),
        sorted(named(&cluster_by_serp(&backward, &config), &backward))
    );
    let first = cluster_by_serp(&forward, &config);
    for _ in 0..3 {
        assert_eq!(cluster_by_serp(&forward, &config), first);
    }
    let ids: std::collections::HashSet<&str> = first.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids.len(), first.len());
}
