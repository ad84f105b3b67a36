//! The CSV export: header row, then one row per keyword in dataset order.

use std::collections::HashMap;
use std::io::Write;

use super::{ClusterRecord, ResultsDataset};

/// The first 13 are the contract's; the content plan's three come after them, so a reader of
/// the older layout finds every column where it was.
pub const COLUMNS: [&str; 19] = [
    "Keyword",
    "Cluster",
    "Cluster ID",
    "Search Volume",
    "CPC",
    "Competition",
    "Difficulty",
    "Intent",
    "Persona",
    "Organic Opportunity Score",
    "Paid Opportunity Score",
    "Opportunity Value",
    "Metrics Source",
    "Topic",
    "Action",
    "Target URL",
    "SERP Features",
    "People Also Ask",
    "Weak Spots",
];

/// A spreadsheet would run a cell starting with these as a formula; the leading `'`
/// makes it text.
fn guarded(text: &str) -> String {
    match text.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{text}"),
        _ => text.to_string(),
    }
}

fn number<T: ToString>(value: Option<T>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// RFC 4180 quoting; an empty cell for null. Topic, action and target page are the keyword's
/// cluster's (empty in results computed before content plans). SERP features are their API
/// names joined by "; ", the questions joined by " | ", weak spots a count; all three empty
/// when no SERP was fetched for the keyword.
pub fn write_csv<W: Write>(dataset: &ResultsDataset, out: W) -> csv::Result<()> {
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(out);
    writer.write_record(COLUMNS)?;
    let clusters: HashMap<&str, &ClusterRecord> = dataset
        .clusters
        .iter()
        .map(|c| (c.id.as_str(), c))
        .collect();
    let topics: HashMap<&str, &str> = dataset
        .topics
        .iter()
        .map(|t| (t.id.as_str(), t.name.as_str()))
        .collect();
    for keyword in &dataset.keywords {
        let cluster = clusters.get(keyword.cluster_id.as_str());
        let topic = keyword
            .topic_id
            .as_deref()
            .and_then(|id| topics.get(id))
            .copied()
            .unwrap_or_default();
        writer.write_record([
            guarded(&keyword.keyword),
            guarded(&keyword.cluster_name),
            guarded(&keyword.cluster_id),
            number(keyword.search_volume),
            number(keyword.cpc),
            number(keyword.competition),
            number(keyword.difficulty),
            keyword.intent.as_str().to_string(),
            keyword
                .persona_avatar_name
                .as_deref()
                .map(guarded)
                .unwrap_or_default(),
            keyword.organic_opportunity_score.to_string(),
            keyword.paid_opportunity_score.to_string(),
            keyword.opportunity_value.to_string(),
            guarded(&keyword.metrics_source),
            guarded(topic),
            cluster
                .and_then(|c| c.action)
                .map(|a| a.as_str().to_string())
                .unwrap_or_default(),
            guarded(
                cluster
                    .and_then(|c| c.target_url.as_deref())
                    .unwrap_or_default(),
            ),
            keyword
                .serp_features
                .as_ref()
                .map(|features| {
                    let names: Vec<&str> = features.iter().map(|f| f.as_str()).collect();
                    names.join("; ")
                })
                .unwrap_or_default(),
            keyword
                .people_also_ask
                .as_ref()
                .map(|questions| guarded(&questions.join(" | ")))
                .unwrap_or_default(),
            number(keyword.weak_spots.as_ref().map(Vec::len)),
        ])?;
    }
    writer.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn formulas_are_guarded_and_plain_text_is_not() {
        for (input, expected) in [
            ("=SUM(A1)", "'=SUM(A1)"),
            ("+1", "'+1"),
            ("-x", "'-x"),
            ("@me", "'@me"),
            ("\tx", "'\tx"),
            ("coffee", "coffee"),
        ] {
            assert_eq!(super::guarded(input), expected);
        }
    }
}
