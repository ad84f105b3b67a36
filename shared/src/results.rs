//! What a finished job leaves behind, as the pipeline writes it and the results functions
//! read it: the references, and one versioned dataset of keywords, clusters and personas.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::JobId;
pub use kr_research::research::{ClusterRecord, KeywordRecord, Persona};

/// The format of [`ResultsDataset`]; part of its object name, so a reader never misreads an
/// older or newer layout.
pub const DATASET_FORMAT: u32 = 1;

/// Object names under a job's prefix.
pub mod objects {
    pub const REFERENCES: &str = "references.json";

    pub fn dataset() -> String {
        format!("results/dataset-v{}.json", super::DATASET_FORMAT)
    }

    /// The CSV export, written with the dataset from the same records.
    pub fn export() -> String {
        format!("results/keywords-v{}.csv", super::DATASET_FORMAT)
    }

    pub fn stage(name: &str) -> String {
        format!("stages/{name}.json")
    }
}

/// Every keyword of a job with its cluster and persona, the clusters and the personas.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResultsDataset {
    pub format: u32,
    pub job_id: JobId,
    pub keywords: Vec<KeywordRecord>,
    pub clusters: Vec<ClusterRecord>,
    pub personas: Vec<Persona>,
}

/// A site preview (contract: `GET /jobs/{id}/references`). Missing parts are `null`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Reference {
    /// The site address fetched.
    pub url: String,
    /// `og:title`, else `<title>`.
    pub title: Option<String>,
    /// `og:description`, else the meta description.
    pub description: Option<String>,
    /// Absolute `og:image`, else `twitter:image`, else the site icon.
    pub image_url: Option<String>,
    /// The canonical link, else `og:url`, else the final URL after redirects.
    pub link: Option<String>,
}

/// The CSV export: header row, then one row per keyword in dataset order.
pub mod export {
    use std::io::Write;

    use super::KeywordRecord;

    pub const COLUMNS: [&str; 13] = [
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

    fn intent(keyword: &KeywordRecord) -> String {
        serde_json::to_value(keyword.intent)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default()
    }

    /// RFC 4180 quoting; an empty cell for null.
    pub fn write_csv<W: Write>(keywords: &[KeywordRecord], out: W) -> csv::Result<()> {
        let mut writer = csv::WriterBuilder::new()
            .terminator(csv::Terminator::CRLF)
            .from_writer(out);
        writer.write_record(COLUMNS)?;
        for keyword in keywords {
            writer.write_record([
                guarded(&keyword.keyword),
                guarded(&keyword.cluster_name),
                guarded(&keyword.cluster_id),
                number(keyword.search_volume),
                number(keyword.cpc),
                number(keyword.competition),
                number(keyword.difficulty),
                intent(keyword),
                keyword
                    .persona_avatar_name
                    .as_deref()
                    .map(guarded)
                    .unwrap_or_default(),
                keyword.organic_opportunity_score.to_string(),
                keyword.paid_opportunity_score.to_string(),
                keyword.opportunity_value.to_string(),
                guarded(&keyword.metrics_source),
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
}
