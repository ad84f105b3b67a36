//! What the fixture files say, as typed values for tests to compare against: the same files
//! the server answers from.

use serde_json::Value;

use super::data::{key, MockData};

#[derive(Debug, Clone, PartialEq)]
pub struct MonthlyVolume {
    pub year: i64,
    pub month: i64,
    pub search_volume: Option<i64>,
}

/// The figures of a Labs keyword record (`keywords.json`).
#[derive(Debug, Clone, PartialEq)]
pub struct LabsFacts {
    pub keyword: String,
    pub search_volume: Option<i64>,
    pub cpc: Option<f64>,
    /// 0 to 1.
    pub competition: Option<f64>,
    pub competition_level: Option<String>,
    pub keyword_difficulty: Option<i64>,
    pub main_intent: Option<String>,
    pub monthly_searches: Vec<MonthlyVolume>,
}

/// What Google Ads search volume answers for a keyword (`google_ads.json`).
#[derive(Debug, Clone, PartialEq)]
pub struct AdsFacts {
    /// As requested, in lower case.
    pub keyword: String,
    /// The corrected spelling the figures belong to, if Google corrected it.
    pub spell: Option<String>,
    pub search_volume: Option<i64>,
    pub cpc: Option<f64>,
    /// `LOW`, `MEDIUM` or `HIGH`.
    pub competition: Option<String>,
    /// 0 to 100.
    pub competition_index: Option<i64>,
    pub monthly_searches: Vec<MonthlyVolume>,
}

/// What Labs search intent answers for a keyword (`intents.json`).
#[derive(Debug, Clone, PartialEq)]
pub struct IntentFacts {
    pub label: String,
    pub probability: f64,
}

/// One search result a target holds (`ranked_keywords.json`).
#[derive(Debug, Clone, PartialEq)]
pub struct RankedFacts {
    pub keyword: String,
    /// `organic` or `paid`.
    pub item_type: String,
    pub rank_group: u32,
    pub rank_absolute: u32,
    pub domain: String,
    pub url: String,
}

fn monthly(value: &Value) -> Vec<MonthlyVolume> {
    value
        .as_array()
        .map(|months| {
            months
                .iter()
                .map(|m| MonthlyVolume {
                    year: m["year"].as_i64().unwrap_or_default(),
                    month: m["month"].as_i64().unwrap_or_default(),
                    search_volume: m["search_volume"].as_i64(),
                })
                .collect()
        })
        .unwrap_or_default()
}

fn text(value: &Value) -> Option<String> {
    value.as_str().map(str::to_owned)
}

impl MockData {
    pub fn labs(&self, keyword: &str) -> Option<LabsFacts> {
        let record = self.labs_record(keyword)?;
        let info = &record["keyword_info"];
        Some(LabsFacts {
            keyword: text(&record["keyword"]).unwrap_or_default(),
            search_volume: info["search_volume"].as_i64(),
            cpc: info["cpc"].as_f64(),
            competition: info["competition"].as_f64(),
            competition_level: text(&info["competition_level"]),
            keyword_difficulty: record["keyword_properties"]["keyword_difficulty"].as_i64(),
            main_intent: text(&record["search_intent_info"]["main_intent"]),
            monthly_searches: monthly(&info["monthly_searches"]),
        })
    }

    /// What bulk keyword difficulty answers: the Labs record's figure, else `difficulty.json`.
    pub fn difficulty(&self, keyword: &str) -> Option<i64> {
        self.labs(keyword)
            .and_then(|facts| facts.keyword_difficulty)
            .or_else(|| self.extra_difficulty(keyword))
    }

    /// What search intent answers (only the keywords of `intents.json`).
    pub fn intent(&self, keyword: &str) -> Option<IntentFacts> {
        let intent = &self.intent_record(keyword)?["keyword_intent"];
        Some(IntentFacts {
            label: text(&intent["label"])?,
            probability: intent["probability"].as_f64()?,
        })
    }

    pub fn ads(&self, keyword: &str) -> Option<AdsFacts> {
        let (entry, spell) = self.ads_record(keyword)?;
        Some(AdsFacts {
            keyword: key(keyword),
            spell: spell.map(str::to_owned),
            search_volume: entry["search_volume"].as_i64(),
            cpc: entry["cpc"].as_f64(),
            competition: text(&entry["competition"]),
            competition_index: entry["competition_index"].as_i64(),
            monthly_searches: monthly(&entry["monthly_searches"]),
        })
    }

    /// Everything `target` ranks for, in file order (empty for unknown targets).
    pub fn ranked(&self, target: &str) -> Vec<RankedFacts> {
        let items = self.ranked_items(target).unwrap_or_default();
        items
            .into_iter()
            .map(|(keyword, item)| RankedFacts {
                keyword: keyword.to_owned(),
                item_type: text(&item["type"]).unwrap_or_default(),
                rank_group: item["rank_group"].as_u64().unwrap_or_default() as u32,
                rank_absolute: item["rank_absolute"].as_u64().unwrap_or_default() as u32,
                domain: text(&item["domain"]).unwrap_or_default(),
                url: text(&item["url"]).unwrap_or_default(),
            })
            .collect()
    }
}
