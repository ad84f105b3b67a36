//! What the provider says about one keyword, gathered over the discovery and metrics stages.

use kr_core::dataset::{AiReference, SerpFeature};
use kr_dataforseo::model::{AdsVolume, KeywordData, MonthlyEntry, SerpResult};
use kr_dataforseo::read_serp;
use kr_research::intent::Intent;
use kr_research::metrics::{KeywordMetrics, MonthlySearch};
use kr_research::research::Ranking;
use serde::{Deserialize, Serialize};

use super::{GOOGLE_ADS_SOURCE, LABS_SOURCE};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeywordFacts {
    /// Volume, CPC, competition and history; `None` until the provider gave them.
    pub metrics: Option<KeywordMetrics>,
    /// Where `metrics` came from.
    pub source: Option<String>,
    pub difficulty: Option<i64>,
    pub intent: Option<Intent>,
    pub rankings: Vec<Ranking>,
    /// Top organic URLs in rank order, when the SERP was fetched.
    pub serp_urls: Option<Vec<String>>,
    /// The SERP features on that page, when the SERP was fetched.
    #[serde(default)]
    pub serp_features: Option<Vec<SerpFeature>>,
    /// Its People Also Ask questions, when the SERP was fetched.
    #[serde(default)]
    pub people_also_ask: Option<Vec<String>>,
    /// The pages the AI Overview on its SERP cites, when the SERP showed one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai_overview: Option<Vec<AiReference>>,
    /// The provider was asked for this keyword's metrics: no answer means it has no data.
    pub asked: bool,
}

impl KeywordFacts {
    /// Keeps what the job uses of the keyword's SERP.
    pub fn absorb_serp(&mut self, serp: SerpResult, depth: usize) {
        let reading = read_serp(serp, depth);
        self.serp_urls = Some(reading.organic_urls);
        self.serp_features = Some(reading.features);
        self.people_also_ask = Some(reading.questions);
        self.ai_overview = reading.ai_overview;
    }

    /// Takes what a Labs record holds, keeping what is already known.
    pub fn absorb_labs(&mut self, data: &KeywordData) {
        if self.metrics.is_none() {
            if let Some(info) = &data.keyword_info {
                self.metrics = Some(KeywordMetrics {
                    search_volume: info.search_volume.map(|v| v.max(0)),
                    cpc: info.cpc.map(|c| c.max(0.0)),
                    competition: info.competition.map(|c| c.clamp(0.0, 1.0)),
                    difficulty: None,
                    monthly_searches: history(&info.monthly_searches),
                });
                self.source = Some(LABS_SOURCE.to_string());
            }
        }
        if self.difficulty.is_none() {
            self.difficulty = data
                .keyword_properties
                .as_ref()
                .and_then(|p| p.keyword_difficulty)
                .map(|d| d.clamp(0, 100));
        }
        if self.intent.is_none() {
            self.intent = data
                .search_intent_info
                .as_ref()
                .and_then(|i| i.main_intent.as_deref())
                .and_then(parse_intent);
        }
    }

    pub fn absorb_ads(&mut self, volume: &AdsVolume) {
        if self.metrics.is_some() {
            return;
        }
        self.metrics = Some(KeywordMetrics {
            search_volume: volume.search_volume.map(|v| v.max(0)),
            cpc: volume.cpc.map(|c| c.max(0.0)),
            // Google Ads' competition is a band name; its 0..100 index is the figure.
            competition: volume
                .competition_index
                .map(|i| (i / 100.0).clamp(0.0, 1.0)),
            difficulty: None,
            monthly_searches: history(&volume.monthly_searches),
        });
        self.source = Some(GOOGLE_ADS_SOURCE.to_string());
    }

    pub fn volume(&self) -> Option<i64> {
        self.metrics.as_ref().and_then(|m| m.search_volume)
    }
}

pub fn parse_intent(label: &str) -> Option<Intent> {
    let label = label.trim().to_ascii_lowercase();
    Intent::ALL.into_iter().find(|i| i.as_str() == label)
}

/// Months with all three figures, oldest first.
fn history(entries: &[MonthlyEntry]) -> Vec<MonthlySearch> {
    let mut months: Vec<MonthlySearch> = entries
        .iter()
        .filter_map(|e| {
            Some(MonthlySearch {
                year: i32::try_from(e.year?).ok()?,
                month: u32::try_from(e.month?)
                    .ok()
                    .filter(|m| (1..=12).contains(m))?,
                search_volume: e.search_volume?.max(0),
            })
        })
        .collect();
    months.sort_by_key(|m| (m.year, m.month));
    months.dedup_by_key(|m| (m.year, m.month));
    months
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labs_and_ads_records_become_metrics() {
        let data: KeywordData = serde_json::from_str(
            r#"{"keyword":"cold brew","keyword_info":{"search_volume":1900,"cpc":1.2,
            "competition":0.31,"monthly_searches":[{"year":2026,"month":2,"search_volume":2000},
            {"year":2026,"month":1,"search_volume":1800},{"year":null,"month":3,"search_volume":5}]},
            "keyword_properties":{"keyword_difficulty":41},
            "search_intent_info":{"main_intent":"Commercial"}}"#,
        )
        .unwrap();
        let mut facts = KeywordFacts::default();
        facts.absorb_labs(&data);
        let metrics = facts.metrics.clone().unwrap();
        assert_eq!(metrics.search_volume, Some(1900));
        assert_eq!(metrics.monthly_searches.len(), 2);
        assert_eq!(metrics.monthly_searches[0].month, 1);
        assert_eq!(facts.difficulty, Some(41));
        assert_eq!(facts.intent, Some(Intent::Commercial));
        assert_eq!(facts.source.as_deref(), Some(LABS_SOURCE));

        let ads: AdsVolume = serde_json::from_str(
            r#"{"keyword":"x","competition":"HIGH","competition_index":77,"search_volume":90}"#,
        )
        .unwrap();
        let mut facts = KeywordFacts::default();
        facts.absorb_ads(&ads);
        assert_eq!(facts.metrics.unwrap().competition, Some(0.77));
        assert_eq!(facts.source.as_deref(), Some(GOOGLE_ADS_SOURCE));
    }
}
