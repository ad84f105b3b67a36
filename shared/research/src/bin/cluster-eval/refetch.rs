//! The dev SERP sets against a second fetch of their keywords (`refetch-<name>.tsv` beside the
//! held-out sets; see `tests/fixtures/serp-sets/refetches.tsv`): how much of a keyword's top
//! 10, of the SERP criterion and of our pairs' precision belongs to the day the SERPs were
//! fetched rather than to the keywords.

use std::path::Path;

use super::{halves, lexical_labels, pairs, ratio, serp_set, DevSet};

pub fn report(dev: &[DevSet], folder: &Path) {
    let mut printed_header = false;
    for set in dev {
        let Some(first) = &set.urls else { continue };
        let name = set.name.strip_prefix("serp-").unwrap_or(&set.name);
        let path = folder.join(format!("refetch-{name}.tsv"));
        if !path.exists() {
            continue;
        }
        let again = match serp_set(name, &path) {
            Ok(again) => again,
            Err(message) => {
                eprintln!("cluster-eval: {message}");
                continue;
            }
        };
        if !printed_header {
            header();
            printed_header = true;
        }
        compare(set, &pairs::url_sets(first), &again);
    }
}

fn header() {
    println!();
    println!("## Dev SERPs fetched again (test-retest; keywords whose second top 10 differs)");
    println!("self = median URLs a keyword's two top 10s share; criterion held = of the pairs");
    println!("sharing >= 3 URLs at one fetch, the share still sharing 3 at the other; ours =");
    println!("precision of the lexical pairs among these keywords at the first / second fetch.");
    println!(
        "{:<24} {:>8} {:>5} {:>15} {:>18} {:>18}",
        "set", "keywords", "self", "criterion held", "ours tune", "ours check"
    );
}

fn compare(set: &DevSet, first: &[Vec<String>], again: &DevSet) {
    let index = set.positions();
    let again_sets = pairs::url_sets(again.urls.as_deref().unwrap_or_default());
    // The second fetch by dev index; empty where there is none or it is the same list.
    let mut second = vec![Vec::new(); first.len()];
    let mut shared_with_self = Vec::new();
    for (keyword, urls) in again.keywords.iter().zip(again_sets) {
        let Some(&i) = index.get(&keyword.to_lowercase()) else {
            continue;
        };
        if urls != first[i] {
            shared_with_self.push(urls.iter().filter(|u| first[i].contains(u)).count());
            second[i] = urls;
        }
    }
    let changed: Vec<usize> = (0..first.len())
        .filter(|&i| !second[i].is_empty())
        .collect();
    shared_with_self.sort_unstable();
    let median = shared_with_self
        .get(shared_with_self.len() / 2)
        .map_or("-".to_string(), |m| m.to_string());

    let (mut agreeing, mut held) = (0usize, 0usize);
    for (x, &a) in changed.iter().enumerate() {
        for &b in &changed[x + 1..] {
            let (one, two) = (
                pairs::serp_agrees(first, a, b),
                pairs::serp_agrees(&second, a, b),
            );
            agreeing += usize::from(one) + usize::from(two);
            held += 2 * usize::from(one && two);
        }
    }

    let ours = lexical_labels(set);
    let by_fetch = |part: &[usize]| {
        let at = |sets: &[Vec<String>]| pairs::against_serps(&ours, sets, part);
        let (one, two) = (at(first), at(&second));
        format!(
            "{} / {} ({})",
            ratio(one.precision()),
            ratio(two.precision()),
            one.pairs
        )
    };
    let [(_, tune), (_, check)] = halves(set);
    let only_changed = |half: Vec<usize>| -> Vec<usize> {
        half.into_iter()
            .filter(|&i| !second[i].is_empty())
            .collect()
    };
    println!(
        "{:<24} {:>8} {:>5} {:>15} {:>18} {:>18}",
        set.name,
        changed.len(),
        median,
        ratio((agreeing > 0).then(|| held as f64 / agreeing as f64)),
        by_fetch(&only_changed(tune)),
        by_fetch(&only_changed(check))
    );
}
