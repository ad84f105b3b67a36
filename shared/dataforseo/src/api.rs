//! Typed calls. Bulk calls clean their keywords, split them into the endpoint's batch size
//! and match the answers back to the caller's keywords.

use serde::de::DeserializeOwned;
use serde_json::{json, Value};

use crate::client::JobSession;
use crate::endpoint::Endpoint;
use crate::envelope::decode_all;
use crate::error::ProviderError;
use crate::keywords::{sanitize, KeywordMatcher};
use crate::model::{
    AdsVolume, DifficultyItem, IntentItem, ItemsResult, KeywordData, RankedItem, SerpResult,
};

/// A bulk call's answers, by index into the caller's keywords.
#[derive(Debug)]
pub struct Bulk<T> {
    pub found: Vec<(usize, T)>,
    /// Which keywords were asked about (a keyword asked without an answer has no data; one
    /// never asked was unusable or came after `stopped`).
    pub asked: Vec<bool>,
    /// Why the remaining batches were not asked.
    pub stopped: Option<ProviderError>,
}

/// Where a job's questions are about.
#[derive(Debug, Clone)]
pub struct Market<'a> {
    pub location_code: u32,
    pub language_code: &'a str,
}

/// The SERP task of `keyword` (already cleaned), the same for the Live and Standard methods.
pub(crate) fn serp_task(keyword: &str, market: &Market<'_>) -> Value {
    json!({
        "keyword": keyword,
        "location_code": market.location_code,
        "language_code": market.language_code,
        "depth": 10,
    })
}

impl JobSession<'_> {
    /// Keywords `target` ranks for, organic and paid, highest volume first.
    pub async fn ranked_keywords(
        &self,
        target: &str,
        market: &Market<'_>,
        limit: usize,
    ) -> Result<Vec<RankedItem>, ProviderError> {
        let task = json!({
            "target": target,
            "location_code": market.location_code,
            "language_code": market.language_code,
            "item_types": ["organic", "paid"],
            "limit": limit.clamp(1, 1000),
            "order_by": ["keyword_data.keyword_info.search_volume,desc"],
        });
        Ok(items(self.call(Endpoint::RankedKeywords, task).await?))
    }

    /// Keywords of the same topics as `seeds`.
    pub async fn keyword_ideas(
        &self,
        seeds: &[String],
        market: &Market<'_>,
        limit: usize,
    ) -> Result<Vec<KeywordData>, ProviderError> {
        // Different phrases can clean to the same seed; each is sent once, in order.
        let mut seen = std::collections::HashSet::new();
        let mut usable: Vec<String> = seeds
            .iter()
            .filter_map(|s| sanitize(s))
            .filter(|s| seen.insert(s.clone()))
            .collect();
        usable.truncate(Endpoint::KeywordIdeas.batch_size());
        if usable.is_empty() {
            return Ok(Vec::new());
        }
        let task = json!({
            "keywords": usable,
            "location_code": market.location_code,
            "language_code": market.language_code,
            "limit": limit.clamp(1, 1000),
        });
        Ok(items(self.call(Endpoint::KeywordIdeas, task).await?))
    }

    /// Labs' metrics, difficulty and intent of each keyword.
    pub async fn keyword_overview(
        &self,
        keywords: &[String],
        market: &Market<'_>,
    ) -> Bulk<KeywordData> {
        self.bulk(
            Endpoint::KeywordOverview,
            keywords,
            market,
            true,
            |results| {
                items::<KeywordData>(results)
                    .into_iter()
                    .map(|item| (item.keyword.clone(), None, item))
                    .collect()
            },
        )
        .await
    }

    pub async fn keyword_difficulty(&self, keywords: &[String], market: &Market<'_>) -> Bulk<i64> {
        self.bulk(
            Endpoint::BulkKeywordDifficulty,
            keywords,
            market,
            true,
            |results| {
                items::<DifficultyItem>(results)
                    .into_iter()
                    .filter_map(|item| Some((item.keyword, None, item.keyword_difficulty?)))
                    .collect()
            },
        )
        .await
    }

    /// The main intent label of each keyword ("informational", "commercial", ...).
    pub async fn search_intent(&self, keywords: &[String], market: &Market<'_>) -> Bulk<String> {
        self.bulk(Endpoint::SearchIntent, keywords, market, false, |results| {
            items::<IntentItem>(results)
                .into_iter()
                .filter_map(|item| Some((item.keyword, None, item.keyword_intent?.label?)))
                .collect()
        })
        .await
    }

    /// Google Ads figures, for markets Labs does not cover.
    pub async fn ads_search_volume(
        &self,
        keywords: &[String],
        market: &Market<'_>,
    ) -> Bulk<AdsVolume> {
        self.bulk(
            Endpoint::AdsSearchVolume,
            keywords,
            market,
            true,
            |results| {
                decode_all::<AdsVolume>(results)
                    .into_iter()
                    .map(|item| (item.keyword.clone(), item.spell.clone(), item))
                    .collect()
            },
        )
        .await
    }

    /// The top ten organic results for `keyword`; `None` when it cannot be sent.
    pub async fn serp_organic(
        &self,
        keyword: &str,
        market: &Market<'_>,
    ) -> Result<Option<SerpResult>, ProviderError> {
        let Some(keyword) = sanitize(keyword) else {
            return Ok(None);
        };
        let results = self
            .call(Endpoint::SerpOrganic, serp_task(&keyword, market))
            .await?;
        Ok(Some(
            decode_all(results).into_iter().next().unwrap_or_default(),
        ))
    }

    async fn bulk<T: Clone>(
        &self,
        endpoint: Endpoint,
        keywords: &[String],
        market: &Market<'_>,
        with_location: bool,
        answers: impl Fn(Vec<Value>) -> Vec<(Option<String>, Option<String>, T)>,
    ) -> Bulk<T> {
        // One request per distinct cleaned keyword, however many callers' keywords share it.
        let mut requested: Vec<String> = Vec::new();
        let mut callers: Vec<Vec<usize>> = Vec::new();
        let mut position = std::collections::HashMap::new();
        for (index, keyword) in keywords.iter().enumerate() {
            let Some(clean) = sanitize(keyword) else {
                continue;
            };
            let slot = *position.entry(clean.clone()).or_insert_with(|| {
                requested.push(clean);
                callers.push(Vec::new());
                requested.len() - 1
            });
            callers[slot].push(index);
        }
        let mut bulk = Bulk {
            found: Vec::new(),
            asked: vec![false; keywords.len()],
            stopped: None,
        };
        let mut offset = 0;
        for batch in requested.chunks(endpoint.batch_size()) {
            let mut task = json!({
                "keywords": batch,
                "language_code": market.language_code,
            });
            if with_location {
                task["location_code"] = json!(market.location_code);
            }
            let results = match self.call(endpoint, task).await {
                Ok(results) => results,
                Err(err) => {
                    bulk.stopped = Some(err);
                    break;
                }
            };
            let matcher = KeywordMatcher::new(batch);
            for (keyword, spell, value) in answers(results) {
                if let Some(slot) = matcher.find(keyword.as_deref(), spell.as_deref()) {
                    for &index in &callers[offset + slot] {
                        bulk.found.push((index, value.clone()));
                    }
                }
            }
            for index in callers[offset..offset + batch.len()].iter().flatten() {
                bulk.asked[*index] = true;
            }
            offset += batch.len();
        }
        bulk
    }
}

/// The `items` of the first result object.
fn items<T: DeserializeOwned>(results: Vec<Value>) -> Vec<T> {
    results
        .into_iter()
        .next()
        .and_then(|first| serde_json::from_value::<ItemsResult<T>>(first).ok())
        .map(|r| r.items)
        .unwrap_or_default()
}
