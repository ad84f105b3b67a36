//! Several labellers of the same rows: how far they agree, and the labels a majority gives.

use std::collections::HashMap;

use kr_research::intent::Intent;

use super::INTENTS;

/// (source, lowercased keyword) → labels.
pub type Labels = HashMap<(String, String), Vec<Intent>>;

/// Prints, per pair of labellers, the share of rows whose first labels agree, the share whose
/// labels overlap, and Cohen's kappa on the first labels (agreement beyond chance).
pub fn report(paths: &[String], labellers: &[Labels]) {
    println!("labellers: {}", paths.join(", "));
    for a in 0..labellers.len() {
        for b in a + 1..labellers.len() {
            let rows: Vec<(&Vec<Intent>, &Vec<Intent>)> = labellers[a]
                .iter()
                .filter_map(|(key, labels)| Some((labels, labellers[b].get(key)?)))
                .collect();
            let n = rows.len().max(1) as f64;
            let first = rows.iter().filter(|(x, y)| x[0] == y[0]).count() as f64 / n;
            let overlap = rows
                .iter()
                .filter(|(x, y)| x.iter().any(|label| y.contains(label)))
                .count() as f64
                / n;
            let chance: f64 = INTENTS
                .iter()
                .map(|intent| {
                    let share = |pick: fn(&(&Vec<Intent>, &Vec<Intent>)) -> Intent| {
                        rows.iter().filter(|row| pick(row) == *intent).count() as f64 / n
                    };
                    share(|row| row.0[0]) * share(|row| row.1[0])
                })
                .sum();
            let kappa = (first - chance) / (1.0 - chance);
            println!(
                "  {} and {}: {} rows, first labels agree {first:.3}, labels overlap {overlap:.3}, \
                 kappa {kappa:.3}",
                a + 1,
                b + 1,
                rows.len()
            );
        }
    }
}

/// Per row, the labels more than half of the labellers give (in any place of theirs), the
/// most given first, then the one most labellers put first. A row without a majority label is
/// an error: the labellers must be settled before a row can score the classifier.
pub fn majority(labellers: &[Labels]) -> Result<Labels, String> {
    let mut merged = Labels::new();
    for key in labellers[0].keys() {
        let mut votes: HashMap<Intent, (usize, usize)> = HashMap::new();
        for labeller in labellers {
            let labels = labeller
                .get(key)
                .ok_or_else(|| format!("labeller without {}: {}", key.0, key.1))?;
            for (place, label) in labels.iter().enumerate() {
                let vote = votes.entry(*label).or_default();
                vote.0 += 1;
                vote.1 += usize::from(place == 0);
            }
        }
        let mut chosen: Vec<(Intent, (usize, usize))> = votes
            .into_iter()
            .filter(|(_, (given, _))| 2 * given > labellers.len())
            .collect();
        if chosen.is_empty() {
            return Err(format!("no majority label for {}: {}", key.0, key.1));
        }
        chosen.sort_by_key(|(intent, (given, first))| {
            (
                std::cmp::Reverse(*given),
                std::cmp::Reverse(*first),
                INTENTS.iter().position(|i| i == intent),
            )
        });
        merged.insert(key.clone(), chosen.into_iter().map(|(i, _)| i).collect());
    }
    Ok(merged)
}
