//! Held-out SERP sets: every `serp-*.tsv` of a folder outside the repository (`.ci/serp-sets`
//! extracts them from public repositories), never looked at while constants were chosen, so
//! each is scored whole; its halves (by the dev sets' keyword hash) are printed under it, to
//! show a figure is not carried by one half.

use std::fs;
use std::path::Path;

use super::{halves, lexical_labels, pairs, ratio, serp_set, DevSet};

pub fn load(folder: &Path) -> Result<Vec<DevSet>, String> {
    let entries = fs::read_dir(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let mut names: Vec<String> = entries
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter_map(|file| {
            file.strip_suffix(".tsv")
                .filter(|name| name.starts_with("serp-"))
                .map(str::to_string)
        })
        .collect();
    names.sort();
    if names.is_empty() {
        return Err(format!("{}: no serp-*.tsv", folder.display()));
    }
    names
        .iter()
        .map(|name| serp_set(name, &folder.join(format!("{name}.tsv"))))
        .collect()
}

/// The issue-22 figures per held-out set and pooled: share grouped, pairs, precision against
/// the SERP criterion, and recall (the share of all SERP-confirmed pairs we put together).
pub fn report(sets: &[DevSet]) {
    println!();
    println!("## Lexical clustering on held-out SERP sets (whole sets, never tuned on)");
    println!(
        "{:<40} {:>8} {:>8} {:>6} {:>9} {:>7} {:>7}",
        "set", "keywords", "grouped", "pairs", "precision", "recall", "chance"
    );
    let (mut pairs_sum, mut confirmed_sum, mut grouped_sum, mut keywords_sum) = (0, 0, 0.0, 0);
    for set in sets {
        let Some(urls) = &set.urls else { continue };
        let urls = pairs::url_sets(urls);
        let ours = lexical_labels(set);
        let all: Vec<usize> = (0..set.keywords.len()).collect();
        let grouped = pairs::grouped_share(&ours, &all);
        let score = pairs::against_serps(&ours, &urls, &all);
        let (confirmed_anywhere, every_pair) = pairs::serp_agreeing_pairs(&urls, &all);
        pairs_sum += score.pairs;
        confirmed_sum += score.confirmed;
        grouped_sum += grouped * all.len() as f64;
        keywords_sum += all.len();
        println!(
            "{:<40} {:>8} {:>7.1}% {:>6} {:>9} {:>7} {:>7}",
            set.name,
            all.len(),
            100.0 * grouped,
            score.pairs,
            ratio(score.precision()),
            ratio(
                (confirmed_anywhere > 0)
                    .then(|| { score.confirmed as f64 / confirmed_anywhere as f64 })
            ),
            ratio(Some(confirmed_anywhere as f64 / every_pair.max(1) as f64))
        );
        for (half, part) in halves(set) {
            let score = pairs::against_serps(&ours, &urls, &part);
            println!(
                "{:<40} {:>8} {:>7.1}% {:>6} {:>9}",
                format!("  {half} half"),
                part.len(),
                100.0 * pairs::grouped_share(&ours, &part),
                score.pairs,
                ratio(score.precision())
            );
        }
    }
    println!(
        "{:<40} {:>8} {:>7.1}% {:>6} {:>9}",
        "held-out pooled",
        keywords_sum,
        100.0 * grouped_sum / keywords_sum.max(1) as f64,
        pairs_sum,
        ratio((pairs_sum > 0).then(|| confirmed_sum as f64 / pairs_sum as f64))
    );
}
