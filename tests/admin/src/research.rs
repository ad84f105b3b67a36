//! Runs the pipeline's own research code on stdin, for debugging and evaluation.

use std::io::{Read, Write};

use kr_research::clusters::{cluster_by_serp, ClusterConfig, SerpClusterConfig, SerpClusterInput};
use kr_research::discovery::extract_keyphrases;
use kr_research::intent::{Intent, IntentClassifier, NichePages, ResultsPage};
use kr_research::text::Language;

use crate::Command;

const MAX_KEYPHRASES: usize = 50;

fn read_stdin() -> Result<String, String> {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| format!("reading stdin: {e}"))?;
    Ok(input)
}

fn write_lines(lines: impl IntoIterator<Item = String>) -> Result<(), String> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in lines {
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
    }
    out.flush().map_err(|e| e.to_string())
}

pub fn run(command: Command) -> Result<(), String> {
    match command {
        Command::ClassifyIntent {
            language,
            brands,
            places,
        } => {
            let input = read_stdin()?;
            let rows: Vec<(&str, Vec<String>)> = input.lines().map(intent_row).collect();
            // The lines are one list, as a job's keywords are: their pages read together.
            let niche = NichePages::from_pages(rows.iter().map(|(_, urls)| urls.as_slice()));
            let classifier = IntentClassifier::new(&Language::new(&language), &brands)
                .with_places(&places)
                .with_niche(niche);
            write_lines(
                rows.iter()
                    .map(|(keyword, organic)| intent_line(&classifier, keyword, organic)),
            )
        }
        Command::ExtractKeywords { language } => {
            let document = read_stdin()?;
            write_lines(extract_keyphrases(
                &document,
                &Language::new(&language),
                MAX_KEYPHRASES,
            ))
        }
        Command::Cluster {
            language,
            serp_overlap,
        } => {
            let items = parse_cluster_lines(&read_stdin()?)?;
            let clusters = cluster_by_serp(
                &items,
                &SerpClusterConfig {
                    overlap: serp_overlap,
                    lexical: ClusterConfig {
                        language: Language::new(&language),
                    },
                },
            );
            let mut names = vec![String::new(); items.len()];
            for found in &clusters {
                for &member in &found.members {
                    names[member] = found.name.clone();
                }
            }
            write_lines(
                items
                    .iter()
                    .zip(names)
                    .map(|(item, name)| format!("{}\t{name}", item.keyword)),
            )
        }
        _ => Err("not a research command".into()),
    }
}

/// `keyword[<TAB>url...]` → the keyword and its top results.
fn intent_row(line: &str) -> (&str, Vec<String>) {
    let mut fields = line.split('\t');
    let keyword = fields.next().unwrap_or_default();
    let organic = fields
        .map(str::trim)
        .filter(|url| !url.is_empty())
        .map(str::to_string)
        .collect();
    (keyword, organic)
}

/// `keyword<TAB>intent`, then each intent's share and the secondary intents.
fn intent_line(classifier: &IntentClassifier, keyword: &str, organic: &[String]) -> String {
    let page = ResultsPage {
        organic,
        features: &[],
    };
    let scores = classifier.scores_on(keyword, &page);
    let mut line = format!("{keyword}\t{}", scores.primary().as_str());
    for intent in Intent::ALL {
        line.push_str(&format!("\t{}={:.2}", intent.as_str(), scores.get(intent)));
    }
    let secondary: Vec<&str> = scores.secondary().iter().map(|i| i.as_str()).collect();
    line.push_str(&format!("\tsecondary={}", secondary.join(",")));
    line
}

/// `keyword[<TAB>volume[<TAB>url...]]` per non-blank line. The volume ranks both kinds of hub,
/// as search volume and as the lexical value.
fn parse_cluster_lines(input: &str) -> Result<Vec<SerpClusterInput>, String> {
    let mut items = Vec::new();
    for (number, line) in input.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let mut columns = line.split('\t');
        let keyword = columns.next().unwrap_or_default().trim().to_string();
        let volume = columns.next().unwrap_or("0").trim();
        let volume: f64 = volume
            .parse()
            .map_err(|_| format!("line {}: volume {volume:?} is not a number", number + 1))?;
        let urls: Vec<String> = columns
            .map(str::trim)
            .filter(|url| !url.is_empty())
            .map(String::from)
            .collect();
        items.push(SerpClusterInput {
            keyword,
            volume,
            lexical_value: volume,
            serp_urls: (!urls.is_empty()).then_some(urls),
        });
    }
    Ok(items)
}
