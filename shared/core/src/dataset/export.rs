//! The CSV export: header row, then one row per keyword in dataset order.

use std::collections::HashMap;
use std::io::Write;

use super::{ClusterRecord, ResultsDataset};

/// The first 13 are the contract's; the content plan's three, the SERP's three, Search
/// Console's five and the AI Overview's four come after them, each group after the older
/// ones, so a reader of an older layout finds every column where it was.
pub const COLUMNS: [&str; 28] = [
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
    "Search Console Clicks",
    "Search Console Impressions",
    "Search Console CTR",
    "Search Console Position",
    "Search Console Page",
    "AI Overview",
    "AI Overview Cites Site",
    "AI Overview Cited URL",
    "AI Overview Competitors",
];

/// A spreadsheet would run a cell starting with these as a formula; the leading `'`
/// makes it text.
fn guarded(text: &str) -> String {
    match text.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{text}"),
        _ => text.to_string(),
    }
}

fn yes_no(value: Option<bool>) -> String {
    match value {
        Some(true) => "yes".to_string(),
        Some(false) => "no".to_string(),
        None => String::new(),
    }
}

fn number<T: ToString>(value: Option<T>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// RFC 4180 quoting; an empty cell for null. Topic, action and target page are the keyword's
/// cluster's (empty in results computed before content plans). SERP features are their API
/// names joined by "; ", the questions joined by " | ", weak spots a count; all three empty
/// when no SERP was fetched for the keyword. The Search Console columns are the keyword's
/// `searchConsole` `clicks`, `impressions`, `ctr`, `position` and `page` (the last 28 days of
/// data), all five empty without its data (`page` also without impressions). The AI Overview
/// columns are `yes`/`no` (the SERP showed one; it cites the site), the first cited page of
/// the site, and the competitors it cites joined by "; "; all four empty when no SERP was
/// fetched for the keyword.
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
        let console = keyword.search_console.as_ref();
        let overview = keyword.ai_overview.as_ref();
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
            number(console.map(|c| c.clicks)),
            number(console.map(|c| c.impressions)),
            number(console.map(|c| c.ctr)),
            number(console.map(|c| c.position)),
            guarded(console.and_then(|c| c.page.as_deref()).unwrap_or_default()),
            yes_no(overview.map(|o| o.present)),
            yes_no(overview.map(|o| o.cites_site)),
            guarded(
                overview
                    .and_then(|o| o.cited_url.as_deref())
                    .unwrap_or_default(),
            ),
            overview
                .map(|o| guarded(&o.cites_competitors.join("; ")))
                .unwrap_or_default(),
        ])?;
    }
    writer.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::dataset::{KeywordRecord, ResultsDataset, SearchConsoleMetrics, DATASET_FORMAT};

    #[test]
    fn search_console_columns_are_its_figures_or_empty() {
        let with = KeywordRecord {
            keyword: "cold brew".into(),
            search_console: Some(SearchConsoleMetrics {
                clicks: 12,
                impressions: 300,
                ctr: 0.04,
                position: 7.5,
                page: Some("https://example.com/cold-brew".into()),
                ..SearchConsoleMetrics::default()
            }),
            ..KeywordRecord::default()
        };
        let without = KeywordRecord {
            keyword: "espresso".into(),
            ..KeywordRecord::default()
        };
        let dataset = ResultsDataset {
            format: DATASET_FORMAT,
            job_id: crate::domain::JobId::new(),
            keywords: vec![with, without],
            clusters: vec![],
            personas: vec![],
            topics: vec![],
        };
        let mut out = Vec::new();
        super::write_csv(&dataset, &mut out).unwrap();
        let mut reader = csv::Reader::from_reader(out.as_slice());
        let headers: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        assert_eq!(headers, super::COLUMNS);
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        fn tail(row: &csv::StringRecord) -> Vec<&str> {
            row.iter().skip(19).take(5).collect()
        }
        assert_eq!(
            tail(&rows[0]),
            ["12", "300", "0.04", "7.5", "https://example.com/cold-brew"]
        );
        assert_eq!(tail(&rows[1]), ["", "", "", "", ""]);
    }

    #[test]
    fn ai_overview_columns_are_yes_no_the_cited_page_and_competitors_or_empty() {
        use crate::dataset::{AiOverview, AiReference};
        let overview = |urls: Option<&[&str]>| {
            let references: Option<Vec<AiReference>> = urls.map(|urls| {
                urls.iter()
                    .map(|url| AiReference::new(url, None, None).unwrap())
                    .collect()
            });
            Some(AiOverview::from_serp(
                references.as_deref(),
                "example.com",
                &["rival.com", "other.co.uk"],
            ))
        };
        let keywords = [
            overview(Some(&[
                "https://shop.example.com/a",
                "https://other.co.uk/",
                "https://rival.com/b",
            ])),
            overview(Some(&["https://news.org/"])),
            overview(None),
            None,
        ]
        .into_iter()
        .map(|ai_overview| KeywordRecord {
            keyword: "cold brew".into(),
            ai_overview,
            ..KeywordRecord::default()
        })
        .collect();
        let dataset = ResultsDataset {
            format: DATASET_FORMAT,
            job_id: crate::domain::JobId::new(),
            keywords,
            clusters: vec![],
            personas: vec![],
            topics: vec![],
        };
        let mut out = Vec::new();
        super::write_csv(&dataset, &mut out).unwrap();
        let mut reader = csv::Reader::from_reader(out.as_slice());
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        fn tail(row: &csv::StringRecord) -> Vec<&str> {
            row.iter().skip(24).collect()
        }
        assert_eq!(
            tail(&rows[0]),
            [
                "yes",
                "yes",
                "https://shop.example.com/a",
                "rival.com; other.co.uk"
            ]
        );
        assert_eq!(tail(&rows[1]), ["yes", "no", "", ""]);
        assert_eq!(tail(&rows[2]), ["no", "no", "", ""]);
        assert_eq!(tail(&rows[3]), ["", "", "", ""]);
    }

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
