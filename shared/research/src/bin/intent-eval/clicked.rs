//! Scoring on queries with the page their users clicked (`.ci/intent-sets`: ORCAS-I's manually
//! labelled test set): each query by its words alone and with the clicked page as its one
//! known result.
//!
//! The file is ORCAS-I's layout: a header, then `qid<TAB>query<TAB>did<TAB>url<TAB>label`. Its
//! labels are Broder's classes with informational refined: Factual and Instrumental count as
//! informational; Abstain (the labellers could not tell) is left out. Having no commercial
//! class, a commercial prediction counts as transactional, as for the other three-class files.

use std::fs;

use kr_research::intent::{Intent, IntentClassifier, NichePages, ResultsPage};

use super::split::is_tune;
use super::{broder, Tally};

struct Clicked {
    query: String,
    url: String,
    label: Intent,
}

pub fn evaluate(
    classifier: &IntentClassifier,
    paths: &[String],
    errors: usize,
) -> Result<(), String> {
    for path in paths {
        let (rows, abstained) = read(path)?;
        let name = path.rsplit('/').next().unwrap_or(path);
        println!(
            "{name}: {} queries ({abstained} labelled Abstain left out), Broder's three classes",
            rows.len()
        );
        // The list's own pages, as a job reads its own.
        let niche = NichePages::from_pages(rows.iter().map(|row| std::slice::from_ref(&row.url)));
        let with_niche = classifier.clone().with_niche(niche);
        let mut shown = 0;
        for (condition, known) in [("words only", false), ("clicked page", true)] {
            let (mut tune, mut check) = (Tally::default(), Tally::default());
            for row in &rows {
                let urls = std::slice::from_ref(&row.url);
                let predicted = if known {
                    let page = ResultsPage {
                        organic: urls,
                        features: &[],
                    };
                    with_niche.scores_on(&row.query, &page).primary()
                } else {
                    classifier.classify(&row.query)
                };
                let predicted = broder(predicted);
                let in_tune = is_tune(&row.query.to_lowercase());
                if in_tune { &mut tune } else { &mut check }.add(&[row.label], predicted);
                if known && in_tune && predicted != row.label && shown < errors {
                    shown += 1;
                    println!(
                        "  wrong: {}\t{}\t{}\tlabel {}",
                        row.query,
                        predicted.as_str(),
                        row.url,
                        row.label.as_str()
                    );
                }
            }
            println!("  {condition:<13} tune  {}", tune.report());
            println!("  {condition:<13} check {}", check.report());
        }
    }
    Ok(())
}

/// The labelled rows of one file, and how many were labelled Abstain.
fn read(path: &str) -> Result<(Vec<Clicked>, usize), String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut rows = Vec::new();
    let mut abstained = 0;
    for line in text.lines().skip(1) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [_, query, _, url, label] = fields[..] else {
            return Err(format!(
                "{path}: not qid<TAB>query<TAB>did<TAB>url<TAB>label: {line}"
            ));
        };
        let label = match label.trim() {
            "Navigational" => Intent::Navigational,
            "Transactional" => Intent::Transactional,
            "Factual" | "Instrumental" => Intent::Informational,
            "Abstain" => {
                abstained += 1;
                continue;
            }
            other => return Err(format!("{path}: unknown label {other}: {line}")),
        };
        rows.push(Clicked {
            query: query.to_string(),
            url: url.to_string(),
            label,
        });
    }
    Ok((rows, abstained))
}
