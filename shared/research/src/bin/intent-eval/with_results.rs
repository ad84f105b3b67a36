//! Scoring with results pages known: each labelled row by its words alone, with its first
//! result, and with its top results.

use std::collections::HashMap;
use std::fs;

use kr_research::intent::{Intent, IntentClassifier, NichePages, ResultsPage};

use super::agreement::{self, Labels};
use super::split::is_tune;
use super::{parse_labels, Tally};

/// How much of a row's results page the classifier is shown.
const CONDITIONS: [(&str, usize); 3] =
    [("words only", 0), ("first result", 1), ("top results", 10)];

struct PageRow {
    source: String,
    keyword: String,
    urls: Vec<String>,
    labels: Vec<Intent>,
}

/// Scores the classifier against `label_paths`' labels: one labeller's, or with several the
/// majority's (see [`majority`]), after their agreement.
pub fn evaluate(
    classifier: &IntentClassifier,
    label_paths: &[String],
    serp_paths: &[String],
    errors: usize,
) -> Result<(), String> {
    let labellers = label_paths
        .iter()
        .map(|path| read_labels(path))
        .collect::<Result<Vec<_>, _>>()?;
    let labels = if labellers.len() == 1 {
        labellers[0].clone()
    } else {
        agreement::report(label_paths, &labellers);
        agreement::majority(&labellers)?
    };
    let mut rows = Vec::new();
    for path in serp_paths {
        rows.extend(read_pages(path, &labels)?);
    }
    report_consistency(&rows);
    let mut sources: Vec<&str> = rows.iter().map(|row| row.source.as_str()).collect();
    sources.dedup();
    // Per condition, a classifier per source that reads that list's pages as far as the
    // condition knows them, as a job reads its own.
    let classifiers: Vec<HashMap<&str, IntentClassifier>> = CONDITIONS
        .iter()
        .map(|&(_, results)| {
            sources
                .iter()
                .map(|&of| {
                    let niche = NichePages::from_pages(
                        rows.iter()
                            .filter(|r| r.source == of)
                            .map(|r| &r.urls[..results.min(r.urls.len())]),
                    );
                    (of, classifier.clone().with_niche(niche))
                })
                .collect()
        })
        .collect();
    sources.push("all");
    let mut shown = 0;
    for source in sources {
        println!("{source}");
        for (condition, (name, results)) in CONDITIONS.into_iter().enumerate() {
            let (mut tune, mut check) = (Tally::default(), Tally::default());
            let classifiers = &classifiers[condition];
            for row in rows
                .iter()
                .filter(|r| source == "all" || r.source == source)
            {
                let organic = &row.urls[..results.min(row.urls.len())];
                let page = ResultsPage {
                    organic,
                    features: &[],
                };
                let predicted = classifiers[row.source.as_str()]
                    .scores_on(&row.keyword, &page)
                    .primary();
                let in_tune = is_tune(&row.keyword.to_lowercase());
                if in_tune { &mut tune } else { &mut check }.add(&row.labels, predicted);
                let wrong = !row.labels.contains(&predicted);
                if source == "all" && results == 1 && in_tune && wrong && shown < errors {
                    shown += 1;
                    println!(
                        "  wrong: {}\t{}\t{}\tlabels {}",
                        row.keyword,
                        predicted.as_str(),
                        organic.first().map_or("", String::as_str),
                        row.labels
                            .iter()
                            .map(|l| l.as_str())
                            .collect::<Vec<_>>()
                            .join(",")
                    );
                }
            }
            println!("  {name:<13} tune  {}", tune.report());
            println!("  {name:<13} check {}", check.report());
        }
    }
    Ok(())
}

/// Labels can be wrong: the same keyword in two markets whose results share
/// [`SHARED_RESULTS`] or more URLs should be labelled alike (one's first label among the
/// other's).
fn report_consistency(rows: &[PageRow]) {
    let mut pairs = 0;
    let mut disagreeing = Vec::new();
    for (i, a) in rows.iter().enumerate() {
        for b in &rows[i + 1..] {
            let same = a.source != b.source && a.keyword.eq_ignore_ascii_case(&b.keyword);
            let shared = a.urls.iter().filter(|url| b.urls.contains(url)).count();
            if !same || shared < SHARED_RESULTS {
                continue;
            }
            pairs += 1;
            if !a.labels.contains(&b.labels[0]) && !b.labels.contains(&a.labels[0]) {
                disagreeing.push(a.keyword.as_str());
            }
        }
    }
    println!(
        "labels: {pairs} keywords in two markets with {SHARED_RESULTS}+ shared results, {} labelled \
         differently ({})",
        disagreeing.len(),
        disagreeing.join(", ")
    );
}

const SHARED_RESULTS: usize = 4;

fn read_labels(path: &str) -> Result<Labels, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut labels = HashMap::new();
    for line in text.lines().skip(1) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [source, keyword, intents] = fields[..] else {
            return Err(format!("{path}: not source<TAB>keyword<TAB>intent: {line}"));
        };
        let intents = parse_labels(intents);
        if intents.is_empty() {
            return Err(format!("{path}: no known intent in: {line}"));
        }
        labels.insert((source.to_string(), keyword.to_lowercase()), intents);
    }
    Ok(labels)
}

/// The rows of `serp-NAME.tsv` that have a label for source NAME.
fn read_pages(path: &str, labels: &Labels) -> Result<Vec<PageRow>, String> {
    let file = path.rsplit('/').next().unwrap_or(path);
    let source = file
        .strip_prefix("serp-")
        .and_then(|rest| rest.strip_suffix(".tsv"))
        .ok_or_else(|| format!("{path}: expected a file named serp-NAME.tsv"))?;
    let text = fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut rows = Vec::new();
    let mut unlabelled = 0;
    for line in text.lines().skip(1) {
        let mut fields = line.split('\t');
        let keyword = fields.next().unwrap_or_default().to_string();
        let urls: Vec<String> = fields
            .filter(|url| !url.is_empty())
            .map(str::to_string)
            .collect();
        match labels.get(&(source.to_string(), keyword.to_lowercase())) {
            Some(intents) => rows.push(PageRow {
                source: source.to_string(),
                keyword,
                urls,
                labels: intents.clone(),
            }),
            None => unlabelled += 1,
        }
    }
    if unlabelled > 0 {
        return Err(format!("{path}: {unlabelled} rows have no label"));
    }
    Ok(rows)
}
