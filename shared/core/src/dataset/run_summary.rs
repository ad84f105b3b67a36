//! What the history of a domain's runs plots for one run, stored beside its dataset so a chart
//! of twelve runs reads twelve small objects instead of decoding twelve datasets.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::KeywordRecord;

/// One run's visibility: its keywords, those the primary site ranks for (organic, top 100),
/// their mean position, and the monthly volume of those in the top 10.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunSummary {
    pub keyword_count: usize,
    pub ranked_keywords: usize,
    pub average_position: Option<f64>,
    pub visible_volume: i64,
}

impl RunSummary {
    /// The summary of a dataset's keywords for `primary_domain`; keywords that differ only in
    /// case or spacing count once, as runs are compared.
    pub fn of(keywords: &[KeywordRecord], primary_domain: &str) -> Self {
        let seen: HashMap<String, (Option<u32>, Option<i64>)> = keywords
            .iter()
            .map(|record| {
                (
                    compared_keyword(&record.keyword),
                    (
                        record.organic_position(primary_domain),
                        record.search_volume,
                    ),
                )
            })
            .collect();
        Self::tally(seen.len(), seen.into_values())
    }

    /// The summary of `keyword_count` keywords, given each one's position and volume.
    pub fn tally(
        keyword_count: usize,
        keywords: impl Iterator<Item = (Option<u32>, Option<i64>)>,
    ) -> Self {
        let (mut ranked, mut position_sum, mut visible_volume) = (0usize, 0.0, 0i64);
        for (position, volume) in keywords {
            let Some(position) = position else { continue };
            ranked += 1;
            position_sum += f64::from(position);
            if position <= 10 {
                visible_volume += volume.unwrap_or(0);
            }
        }
        Self {
            keyword_count,
            ranked_keywords: ranked,
            average_position: (ranked > 0)
                .then(|| (position_sum / ranked as f64 * 10.0).round() / 10.0),
            visible_volume,
        }
    }
}

/// A keyword as two runs compare it: lowercase, single spaces.
pub fn compared_keyword(keyword: &str) -> String {
    keyword
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::{Ranking, RankingKind};

    fn keyword(text: &str, volume: i64, position: Option<u32>) -> KeywordRecord {
        KeywordRecord {
            keyword: text.into(),
            search_volume: Some(volume),
            rankings: position
                .map(|position| Ranking {
                    domain: "www.site.example".into(),
                    position,
                    url: "https://www.site.example/".into(),
                    kind: RankingKind::Organic,
                })
                .into_iter()
                .collect(),
            ..KeywordRecord::default()
        }
    }

    #[test]
    fn a_summary_counts_each_compared_keyword_once() {
        let summary = RunSummary::of(
            &[
                keyword("roof repair", 500, Some(3)),
                keyword("Roof  Repair", 500, Some(3)),
                keyword("roof cost", 200, Some(14)),
                keyword("gutters", 90, None),
            ],
            "site.example",
        );
        assert_eq!(
            summary,
            RunSummary {
                keyword_count: 3,
                ranked_keywords: 2,
                average_position: Some(8.5),
                visible_volume: 500,
            }
        );
        assert_eq!(RunSummary::of(&[], "site.example").average_position, None);
    }
}
