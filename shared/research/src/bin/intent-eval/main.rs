//! Evaluates the intent classifier on labelled keyword files (`keyword<TAB>intent[,intent...]`,
//! the layout of `../shared/eval/dev/intent-*.tsv`).
//!
//! Usage: `intent-eval [--language CODE] [--errors N] <file.tsv>...` (language: en by default)
//!        `intent-eval --serp-labels <labels.tsv> [--errors N] <serp-NAME.tsv>...`
//!        `intent-eval --clicked [--errors N] <clicked-NAME.tsv>...`
//!
//! The second form reads results pages (`keyword<TAB>url1<TAB>...<TAB>url10`, the layout of
//! `../shared/eval/dev/serp-*.tsv`) and their intent labels (`source<TAB>keyword<TAB>intent`,
//! source being the file's NAME) and scores each row three times: by its words alone, with
//! its first result known, and with its top results known. Several label files, comma-separated,
//! are several labellers': their agreement is printed and the majority's labels are scored.
//!
//! Each file is split in two by a stable hash of the keyword: the *tune* half is the one rules
//! and cue lists may be adjusted on, the *check* half is the one reported. A prediction counts
//! as right when it is one of the row's labels (tools often give two). For per-intent recall
//! and F1 a row's label is the predicted one when that is right, else its first label. Rows
//! are also scored with commercial counted as transactional, for files labelled in Broder's
//! three classes (no commercial). `--errors N` prints up to N wrong rows of the tune half.
//!
//! The third form reads queries with the page their users clicked (ORCAS-I's layout, see
//! `clicked.rs`) and scores each by its words alone and with that page known.

mod agreement;
mod clicked;
#[path = "../shared/split.rs"]
mod split;
mod with_results;

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::{env, fs};

use kr_research::intent::{Intent, IntentClassifier};

use kr_research::text::Language;
use split::is_tune;

const INTENTS: [Intent; 4] = [
    Intent::Informational,
    Intent::Navigational,
    Intent::Commercial,
    Intent::Transactional,
];

struct Row {
    keyword: String,
    labels: Vec<Intent>,
}

#[derive(Default)]
struct Tally {
    rows: usize,
    right: usize,
    /// (label, predicted) counts.
    confusion: BTreeMap<(usize, usize), usize>,
}

impl Tally {
    fn add(&mut self, labels: &[Intent], predicted: Intent) {
        let index = |intent: Intent| INTENTS.iter().position(|i| *i == intent).unwrap_or(0);
        let right = labels.contains(&predicted);
        let label = if right { predicted } else { labels[0] };
        self.rows += 1;
        self.right += usize::from(right);
        *self
            .confusion
            .entry((index(label), index(predicted)))
            .or_default() += 1;
    }

    fn count(&self, label: Option<usize>, predicted: Option<usize>) -> usize {
        self.confusion
            .iter()
            .filter(|((l, p), _)| {
                label.is_none_or(|x| x == *l) && predicted.is_none_or(|x| x == *p)
            })
            .map(|(_, n)| n)
            .sum()
    }

    fn report(&self) -> String {
        let mut f1s = Vec::new();
        let mut recalls = Vec::new();
        for (i, intent) in INTENTS.iter().enumerate() {
            let support = self.count(Some(i), None);
            if support == 0 {
                continue;
            }
            let hits = self.count(Some(i), Some(i));
            let predicted = self.count(None, Some(i));
            let recall = hits as f64 / support as f64;
            let precision = if predicted == 0 {
                0.0
            } else {
                hits as f64 / predicted as f64
            };
            let f1 = if hits == 0 {
                0.0
            } else {
                2.0 * precision * recall / (precision + recall)
            };
            f1s.push(f1);
            recalls.push(format!(
                "{} {recall:.2} (n={support})",
                &intent.as_str()[..3]
            ));
        }
        let macro_f1 = f1s.iter().sum::<f64>() / f1s.len().max(1) as f64;
        format!(
            "n={:>5} accuracy {:.3} macro-F1 {:.3} | recall {}",
            self.rows,
            self.right as f64 / self.rows.max(1) as f64,
            macro_f1,
            recalls.join(", ")
        )
    }
}

fn read_rows(path: &str) -> Result<Vec<Row>, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut rows = Vec::new();
    for line in text.lines().skip(1) {
        let Some((keyword, labels)) = line.split_once('\t') else {
            continue;
        };
        let labels = parse_labels(labels);
        if !labels.is_empty() {
            rows.push(Row {
                keyword: keyword.to_string(),
                labels,
            });
        }
    }
    Ok(rows)
}

/// "commercial,transactional" → the intents named, in order; unknown names are skipped.
fn parse_labels(names: &str) -> Vec<Intent> {
    names
        .split(',')
        .filter_map(|name| Intent::ALL.into_iter().find(|i| i.as_str() == name))
        .collect()
}

fn broder(intent: Intent) -> Intent {
    if intent == Intent::Commercial {
        Intent::Transactional
    } else {
        intent
    }
}

fn main() -> ExitCode {
    let mut args: Vec<String> = env::args().skip(1).collect();
    let mut errors = 0;
    if let Some(at) = args.iter().position(|a| a == "--errors") {
        errors = args.get(at + 1).and_then(|n| n.parse().ok()).unwrap_or(20);
        args.drain(at..(at + 2).min(args.len()));
    }
    let mut language = Language::english();
    if let Some(at) = args.iter().position(|a| a == "--language") {
        language = Language::new(args.get(at + 1).map(String::as_str).unwrap_or("en"));
        args.drain(at..(at + 2).min(args.len()));
    }
    if args.is_empty() {
        eprintln!("usage: intent-eval [--language CODE] [--errors N] <file.tsv>...");
        eprintln!(
            "       intent-eval --serp-labels <labels.tsv>[,<labels.tsv>...] [--errors N] <serp-NAME.tsv>..."
        );
        eprintln!("       intent-eval --clicked [--errors N] <clicked-NAME.tsv>...");
        return ExitCode::from(2);
    }
    let classifier = IntentClassifier::new(&language, &[]);
    if let Some(at) = args.iter().position(|a| a == "--clicked") {
        args.remove(at);
        return match clicked::evaluate(&classifier, &args, errors) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("intent-eval: {message}");
                ExitCode::FAILURE
            }
        };
    }
    if let Some(at) = args.iter().position(|a| a == "--serp-labels") {
        let Some(labels) = args.get(at + 1).cloned() else {
            eprintln!("intent-eval: --serp-labels needs a file");
            return ExitCode::from(2);
        };
        args.drain(at..at + 2);
        let labels: Vec<String> = labels.split(',').map(str::to_string).collect();
        return match with_results::evaluate(&classifier, &labels, &args, errors) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("intent-eval: {message}");
                ExitCode::FAILURE
            }
        };
    }
    for path in &args {
        let rows = match read_rows(path) {
            Ok(rows) => rows,
            Err(message) => {
                eprintln!("intent-eval: {message}");
                return ExitCode::FAILURE;
            }
        };
        let name = path.rsplit('/').next().unwrap_or(path);
        let (mut tune, mut check, mut tune_broder, mut check_broder) = (
            Tally::default(),
            Tally::default(),
            Tally::default(),
            Tally::default(),
        );
        let mut shown = 0;
        let started = std::time::Instant::now();
        for row in &rows {
            let predicted = classifier.classify(&row.keyword);
            let in_tune = is_tune(&row.keyword.to_lowercase());
            let (plain, three) = if in_tune {
                (&mut tune, &mut tune_broder)
            } else {
                (&mut check, &mut check_broder)
            };
            plain.add(&row.labels, predicted);
            let labels: Vec<Intent> = row.labels.iter().copied().map(broder).collect();
            three.add(&labels, broder(predicted));
            if in_tune && shown < errors && !row.labels.contains(&predicted) {
                shown += 1;
                let labels: Vec<&str> = row.labels.iter().map(|l| l.as_str()).collect();
                println!(
                    "  wrong: {}\t{}\tlabels {}",
                    row.keyword,
                    predicted.as_str(),
                    labels.join(",")
                );
            }
        }
        let per_second = rows.len() as f64 / started.elapsed().as_secs_f64().max(1e-9);
        println!("{name} ({per_second:.0} keywords/s)");
        println!("  tune  {}", tune.report());
        println!("  check {}", check.report());
        println!(
            "  check, commercial as transactional: {}",
            check_broder.report()
        );
    }
    ExitCode::SUCCESS
}
