//! Formats 1 to 3 of the stored dataset, frozen: the keyword record as it was before
//! `searchConsole` (1) and before `aiOverview` (1 to 3), the cluster record as it was before
//! `basis` and `searchConsoleBaseline` (1 and 2). Their layouts must never change (every type
//! they hold is archived as it was then: a new enum variant goes last, a new field makes a new
//! format).

use rkyv::rancor;

use super::{decompress, StoredDatasetError};
use crate::dataset::{
    ClusterAction, ClusterMethod, ClusterRecord, ClusterSearchConsole, Intent, KeywordRecord,
    KeywordSource, MonthlySearch, Persona, PlanBasis, Ranking, ResultsDataset,
    SearchConsoleMetrics, SerpFeature, SitePosition, TopicRecord, WeakSpot,
};
use crate::domain::JobId;

/// The cluster record of formats 1 and 2.
#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
pub(super) struct ClusterRecordV2 {
    pub id: String,
    pub name: String,
    pub primary_keyword: String,
    pub keyword_count: usize,
    pub total_search_volume: i64,
    pub avg_difficulty: Option<f64>,
    pub avg_cpc: Option<f64>,
    pub dominant_intent: Intent,
    pub organic_opportunity_score: f64,
    pub paid_opportunity_score: f64,
    pub opportunity_value: f64,
    pub method: Option<ClusterMethod>,
    pub shared_urls: Vec<String>,
    pub topic_id: Option<String>,
    pub action: Option<ClusterAction>,
    pub target_url: Option<String>,
    pub target_position: Option<u32>,
    pub target_score: Option<f64>,
    pub cannibalizing_urls: Vec<String>,
    pub competitor_positions: Vec<SitePosition>,
    pub content_gap: bool,
}

impl From<ClusterRecordV2> for ClusterRecord {
    fn from(v2: ClusterRecordV2) -> Self {
        ClusterRecord {
            id: v2.id,
            name: v2.name,
            primary_keyword: v2.primary_keyword,
            keyword_count: v2.keyword_count,
            total_search_volume: v2.total_search_volume,
            avg_difficulty: v2.avg_difficulty,
            avg_cpc: v2.avg_cpc,
            dominant_intent: v2.dominant_intent,
            organic_opportunity_score: v2.organic_opportunity_score,
            paid_opportunity_score: v2.paid_opportunity_score,
            opportunity_value: v2.opportunity_value,
            method: v2.method,
            shared_urls: v2.shared_urls,
            topic_id: v2.topic_id,
            action: v2.action,
            target_url: v2.target_url,
            target_position: v2.target_position,
            target_score: v2.target_score,
            cannibalizing_urls: v2.cannibalizing_urls,
            competitor_positions: v2.competitor_positions,
            content_gap: v2.content_gap,
            ..ClusterRecord::default()
        }
    }
}

/// The keyword record of formats 2 and 3: format 1's and `searchConsole`.
#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
pub(super) struct KeywordRecordV2 {
    pub id: String,
    pub keyword: String,
    pub search_volume: Option<i64>,
    pub cpc: Option<f64>,
    pub competition: Option<f64>,
    pub difficulty: Option<i64>,
    pub intent: Intent,
    pub secondary_intents: Vec<Intent>,
    pub persona_avatar_name: Option<String>,
    pub cluster_id: String,
    pub cluster_name: String,
    pub organic_opportunity_score: f64,
    pub paid_opportunity_score: f64,
    pub opportunity_value: f64,
    pub monthly_searches: Vec<MonthlySearch>,
    pub metrics_source: String,
    pub rankings: Vec<Ranking>,
    pub content_gap: bool,
    pub source: Option<KeywordSource>,
    pub topic_id: Option<String>,
    pub serp_features: Option<Vec<SerpFeature>>,
    pub people_also_ask: Option<Vec<String>>,
    pub weak_spots: Option<Vec<WeakSpot>>,
    pub search_console: Option<SearchConsoleMetrics>,
}

impl From<KeywordRecordV2> for KeywordRecord {
    fn from(v2: KeywordRecordV2) -> Self {
        KeywordRecord {
            id: v2.id,
            keyword: v2.keyword,
            search_volume: v2.search_volume,
            cpc: v2.cpc,
            competition: v2.competition,
            difficulty: v2.difficulty,
            intent: v2.intent,
            secondary_intents: v2.secondary_intents,
            persona_avatar_name: v2.persona_avatar_name,
            cluster_id: v2.cluster_id,
            cluster_name: v2.cluster_name,
            organic_opportunity_score: v2.organic_opportunity_score,
            paid_opportunity_score: v2.paid_opportunity_score,
            opportunity_value: v2.opportunity_value,
            monthly_searches: v2.monthly_searches,
            metrics_source: v2.metrics_source,
            rankings: v2.rankings,
            content_gap: v2.content_gap,
            source: v2.source,
            topic_id: v2.topic_id,
            serp_features: v2.serp_features,
            people_also_ask: v2.people_also_ask,
            weak_spots: v2.weak_spots,
            search_console: v2.search_console,
            ai_overview: None,
        }
    }
}

#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
pub(super) struct ResultsDatasetV2 {
    pub format: u32,
    pub keywords: Vec<KeywordRecordV2>,
    pub clusters: Vec<ClusterRecordV2>,
    pub personas: Vec<Persona>,
    pub topics: Vec<TopicRecord>,
}

/// A dataset stored as format 2 (`results/dataset-v2.rkyv.lz4`), checked and converted
/// to the current records (no plan `basis` or `searchConsoleBaseline`). Its job id is
/// left for the caller.
pub fn decode_v2(stored: &[u8]) -> Result<ResultsDataset, StoredDatasetError> {
    let bytes = decompress(stored)?;
    let v2 = rkyv::from_bytes::<ResultsDatasetV2, rancor::Error>(&bytes)
        .map_err(|err| StoredDatasetError(err.to_string()))?;
    Ok(ResultsDataset {
        format: crate::dataset::DATASET_FORMAT,
        job_id: JobId::default(),
        keywords: v2.keywords.into_iter().map(KeywordRecord::from).collect(),
        clusters: v2.clusters.into_iter().map(ClusterRecord::from).collect(),
        personas: v2.personas,
        topics: v2.topics,
    })
}

#[cfg(test)]
pub(super) fn encode_v2(dataset: &ResultsDatasetV2) -> Vec<u8> {
    let archived = rkyv::to_bytes::<rancor::Error>(dataset).unwrap();
    lz4_flex::block::compress_prepend_size(&archived)
}

#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
pub(super) struct KeywordRecordV1 {
    pub id: String,
    pub keyword: String,
    pub search_volume: Option<i64>,
    pub cpc: Option<f64>,
    pub competition: Option<f64>,
    pub difficulty: Option<i64>,
    pub intent: Intent,
    pub secondary_intents: Vec<Intent>,
    pub persona_avatar_name: Option<String>,
    pub cluster_id: String,
    pub cluster_name: String,
    pub organic_opportunity_score: f64,
    pub paid_opportunity_score: f64,
    pub opportunity_value: f64,
    pub monthly_searches: Vec<MonthlySearch>,
    pub metrics_source: String,
    pub rankings: Vec<Ranking>,
    pub content_gap: bool,
    pub source: Option<KeywordSource>,
    pub topic_id: Option<String>,
    pub serp_features: Option<Vec<SerpFeature>>,
    pub people_also_ask: Option<Vec<String>>,
    pub weak_spots: Option<Vec<WeakSpot>>,
}

#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
pub(super) struct ResultsDatasetV1 {
    pub format: u32,
    pub keywords: Vec<KeywordRecordV1>,
    pub clusters: Vec<ClusterRecordV2>,
    pub personas: Vec<Persona>,
    pub topics: Vec<TopicRecord>,
}

impl From<KeywordRecordV1> for KeywordRecord {
    fn from(v1: KeywordRecordV1) -> Self {
        KeywordRecord {
            id: v1.id,
            keyword: v1.keyword,
            search_volume: v1.search_volume,
            cpc: v1.cpc,
            competition: v1.competition,
            difficulty: v1.difficulty,
            intent: v1.intent,
            secondary_intents: v1.secondary_intents,
            persona_avatar_name: v1.persona_avatar_name,
            cluster_id: v1.cluster_id,
            cluster_name: v1.cluster_name,
            organic_opportunity_score: v1.organic_opportunity_score,
            paid_opportunity_score: v1.paid_opportunity_score,
            opportunity_value: v1.opportunity_value,
            monthly_searches: v1.monthly_searches,
            metrics_source: v1.metrics_source,
            rankings: v1.rankings,
            content_gap: v1.content_gap,
            source: v1.source,
            topic_id: v1.topic_id,
            serp_features: v1.serp_features,
            people_also_ask: v1.people_also_ask,
            weak_spots: v1.weak_spots,
            search_console: None,
            ai_overview: None,
        }
    }
}

/// A dataset stored as format 1 (`results/dataset-v1.rkyv.lz4`), checked and converted
/// to the current records (no `searchConsole`). Its job id is left for the caller.
pub fn decode_v1(stored: &[u8]) -> Result<ResultsDataset, StoredDatasetError> {
    let bytes = decompress(stored)?;
    let v1 = rkyv::from_bytes::<ResultsDatasetV1, rancor::Error>(&bytes)
        .map_err(|err| StoredDatasetError(err.to_string()))?;
    Ok(ResultsDataset {
        format: crate::dataset::DATASET_FORMAT,
        job_id: JobId::default(),
        keywords: v1.keywords.into_iter().map(KeywordRecord::from).collect(),
        clusters: v1.clusters.into_iter().map(ClusterRecord::from).collect(),
        personas: v1.personas,
        topics: v1.topics,
    })
}

#[cfg(test)]
pub(super) fn encode_v1(dataset: &ResultsDatasetV1) -> Vec<u8> {
    let archived = rkyv::to_bytes::<rancor::Error>(dataset).unwrap();
    lz4_flex::block::compress_prepend_size(&archived)
}

/// The cluster record of format 3: format 2's, the plan's `basis` and
/// `searchConsoleBaseline` (the fields in the order format 3 archived them).
#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
pub(super) struct ClusterRecordV3 {
    pub id: String,
    pub name: String,
    pub primary_keyword: String,
    pub keyword_count: usize,
    pub total_search_volume: i64,
    pub avg_difficulty: Option<f64>,
    pub avg_cpc: Option<f64>,
    pub dominant_intent: Intent,
    pub organic_opportunity_score: f64,
    pub paid_opportunity_score: f64,
    pub opportunity_value: f64,
    pub method: Option<ClusterMethod>,
    pub shared_urls: Vec<String>,
    pub topic_id: Option<String>,
    pub action: Option<ClusterAction>,
    pub target_url: Option<String>,
    pub target_position: Option<u32>,
    pub target_score: Option<f64>,
    pub cannibalizing_urls: Vec<String>,
    pub competitor_positions: Vec<SitePosition>,
    pub content_gap: bool,
    pub basis: Option<PlanBasis>,
    pub search_console_baseline: Option<ClusterSearchConsole>,
}

impl From<ClusterRecordV3> for ClusterRecord {
    fn from(v3: ClusterRecordV3) -> Self {
        ClusterRecord {
            id: v3.id,
            name: v3.name,
            primary_keyword: v3.primary_keyword,
            keyword_count: v3.keyword_count,
            total_search_volume: v3.total_search_volume,
            avg_difficulty: v3.avg_difficulty,
            avg_cpc: v3.avg_cpc,
            dominant_intent: v3.dominant_intent,
            organic_opportunity_score: v3.organic_opportunity_score,
            paid_opportunity_score: v3.paid_opportunity_score,
            opportunity_value: v3.opportunity_value,
            method: v3.method,
            shared_urls: v3.shared_urls,
            topic_id: v3.topic_id,
            action: v3.action,
            target_url: v3.target_url,
            target_position: v3.target_position,
            target_score: v3.target_score,
            cannibalizing_urls: v3.cannibalizing_urls,
            competitor_positions: v3.competitor_positions,
            content_gap: v3.content_gap,
            basis: v3.basis,
            search_console_baseline: v3.search_console_baseline,
            ..ClusterRecord::default()
        }
    }
}

#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
pub(super) struct ResultsDatasetV3 {
    pub format: u32,
    pub keywords: Vec<KeywordRecordV2>,
    pub clusters: Vec<ClusterRecordV3>,
    pub personas: Vec<Persona>,
    pub topics: Vec<TopicRecord>,
}

/// A dataset stored as format 3 (`results/dataset-v3.rkyv.lz4`), checked and converted to
/// the current records (no `aiOverview`). Its job id is left for the caller.
pub fn decode_v3(stored: &[u8]) -> Result<ResultsDataset, StoredDatasetError> {
    let bytes = decompress(stored)?;
    let v3 = rkyv::from_bytes::<ResultsDatasetV3, rancor::Error>(&bytes)
        .map_err(|err| StoredDatasetError(err.to_string()))?;
    Ok(ResultsDataset {
        format: crate::dataset::DATASET_FORMAT,
        job_id: JobId::default(),
        keywords: v3.keywords.into_iter().map(KeywordRecord::from).collect(),
        clusters: v3.clusters.into_iter().map(ClusterRecord::from).collect(),
        personas: v3.personas,
        topics: v3.topics,
    })
}

#[cfg(test)]
pub(super) fn encode_v3(dataset: &ResultsDatasetV3) -> Vec<u8> {
    let archived = rkyv::to_bytes::<rancor::Error>(dataset).unwrap();
    lz4_flex::block::compress_prepend_size(&archived)
}

#[cfg(test)]
mod tests;
