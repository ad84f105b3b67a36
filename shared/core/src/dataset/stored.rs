//! A completed job's dataset in the form its readers load fastest: the records archived with
//! rkyv, so a reader uses them in place (validated once, never parsed into objects), then
//! LZ4-compressed for the trip from S3. shared/query/README.md (Results) says why this form won over the
//! others measured.

use rkyv::de::Pool;
use rkyv::rancor;
use rkyv::util::AlignedVec;

use super::{ArchivedResultsDataset, ResultsDataset};

pub use legacy::{decode_v1, decode_v2};

/// Why stored bytes could not be read as a dataset.
#[derive(Debug, thiserror::Error)]
#[error("the stored dataset is unreadable: {0}")]
pub struct StoredDatasetError(String);

/// The bytes to store: the uncompressed length (4 bytes, little-endian) and the LZ4 block.
pub fn encode(dataset: &ResultsDataset) -> Result<Vec<u8>, StoredDatasetError> {
    let archived = rkyv::to_bytes::<rancor::Error>(dataset)
        .map_err(|err| StoredDatasetError(err.to_string()))?;
    Ok(lz4_flex::block::compress_prepend_size(&archived))
}

/// The archive inside stored bytes (the length, then the LZ4 block), decompressed into an
/// aligned buffer.
fn decompress(stored: &[u8]) -> Result<AlignedVec, StoredDatasetError> {
    let unreadable = |why: &str| StoredDatasetError(why.to_string());
    let (length, block) = stored
        .split_first_chunk::<4>()
        .ok_or_else(|| unreadable("too short"))?;
    let length = u32::from_le_bytes(*length) as usize;
    if length > MAX_LEN {
        return Err(unreadable("too large"));
    }
    let mut bytes = AlignedVec::<16>::with_capacity(length);
    bytes.resize(length, 0);
    let written = lz4_flex::block::decompress_into(block, &mut bytes)
        .map_err(|err| StoredDatasetError(err.to_string()))?;
    if written != length {
        return Err(unreadable("shorter than it says"));
    }
    Ok(bytes)
}

/// Stored bytes decompressed into an aligned buffer and checked once: every later access
/// through [`DatasetBytes::archived`] reads them in place.
pub struct DatasetBytes(AlignedVec);

/// The largest dataset a reader accepts (uncompressed): far above any job's.
const MAX_LEN: usize = 2 << 30;

impl DatasetBytes {
    pub fn decode(stored: &[u8]) -> Result<Self, StoredDatasetError> {
        let bytes = decompress(stored)?;
        rkyv::access::<ArchivedResultsDataset, rancor::Error>(&bytes)
            .map_err(|err| StoredDatasetError(err.to_string()))?;
        Ok(Self(bytes))
    }

    /// From records already in memory (a dataset stored only as JSON, or a test's).
    pub fn from_dataset(dataset: &ResultsDataset) -> Result<Self, StoredDatasetError> {
        let bytes = rkyv::to_bytes::<rancor::Error>(dataset)
            .map_err(|err| StoredDatasetError(err.to_string()))?;
        Ok(Self(bytes))
    }

    pub fn archived(&self) -> &ArchivedResultsDataset {
        // SAFETY: the bytes were checked by `rkyv::access` (decode) or written by rkyv itself
        // (from_dataset), and they are never changed afterwards.
        unsafe { rkyv::access_unchecked::<ArchivedResultsDataset>(&self.0) }
    }
}

/// An owned copy of an archived record.
pub fn owned<T, A>(archived: &A) -> T
where
    A: rkyv::Deserialize<T, rancor::Strategy<Pool, rancor::Panic>>,
{
    match rkyv::deserialize::<T, rancor::Panic>(archived) {
        Ok(value) => value,
        Err(never) => match never {},
    }
}

/// Formats 1 and 2 of the stored dataset, frozen: the keyword record as it was before
/// `searchConsole` (1), the cluster record as it was before `basis` and
/// `searchConsoleBaseline` (1 and 2). Their layouts must never change (every type they hold is
/// archived as it was then: a new enum variant goes last, a new field makes a new format).
mod legacy {
    use rkyv::rancor;

    use super::{decompress, StoredDatasetError};
    use crate::dataset::{
        ClusterAction, ClusterMethod, ClusterRecord, Intent, KeywordRecord, KeywordSource,
        MonthlySearch, Persona, Ranking, ResultsDataset, SearchConsoleMetrics, SerpFeature,
        SitePosition, TopicRecord, WeakSpot,
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

    /// The keyword record of format 2: format 1's and `searchConsole`.
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::{ClusterRecord, KeywordRecord, SerpFeature, DATASET_FORMAT};
    use crate::domain::JobId;

    fn dataset() -> ResultsDataset {
        ResultsDataset {
            format: DATASET_FORMAT,
            job_id: JobId::new(),
            keywords: vec![KeywordRecord {
                id: "k-1".into(),
                keyword: "cold brew".into(),
                search_volume: Some(1900),
                serp_features: Some(vec![SerpFeature::PeopleAlsoAsk]),
                ..KeywordRecord::default()
            }],
            clusters: vec![ClusterRecord {
                id: "c-1".into(),
                ..ClusterRecord::default()
            }],
            personas: vec![],
            topics: vec![],
        }
    }

    #[test]
    fn a_dataset_reads_back_as_it_was_written() {
        let dataset = dataset();
        let stored = DatasetBytes::decode(&encode(&dataset).unwrap()).unwrap();
        let mut back: ResultsDataset = owned(stored.archived());
        back.job_id = dataset.job_id;
        assert_eq!(back, dataset);
    }

    /// A dataset written as format 1 (before `searchConsole`) still reads, each keyword
    /// as it was with no Search Console data; a format-2 object is not mistaken for one.
    #[test]
    fn a_format_1_dataset_still_decodes() {
        use super::legacy::{encode_v1, KeywordRecordV1, ResultsDatasetV1};
        use crate::dataset::{Intent, KeywordSource};
        let v1 = ResultsDatasetV1 {
            format: 1,
            keywords: vec![KeywordRecordV1 {
                id: "k-1".into(),
                keyword: "cold brew".into(),
                search_volume: Some(1900),
                cpc: Some(1.25),
                competition: None,
                difficulty: Some(31),
                intent: Intent::Commercial,
                secondary_intents: vec![Intent::Transactional],
                persona_avatar_name: Some("Ana".into()),
                cluster_id: "c-1".into(),
                cluster_name: "cold brew".into(),
                organic_opportunity_score: 0.5,
                paid_opportunity_score: 0.25,
                opportunity_value: 12.0,
                monthly_searches: vec![],
                metrics_source: "dataforseo".into(),
                rankings: vec![],
                content_gap: true,
                source: Some(KeywordSource::Idea),
                topic_id: Some("t-1".into()),
                serp_features: Some(vec![SerpFeature::PeopleAlsoAsk]),
                people_also_ask: None,
                weak_spots: None,
            }],
            clusters: vec![cluster_v2("c-1")],
            personas: vec![],
            topics: vec![],
        };
        let read = decode_v1(&encode_v1(&v1)).unwrap();
        assert_eq!(read.keywords.len(), 1);
        let keyword = &read.keywords[0];
        assert_eq!(keyword.keyword, "cold brew");
        assert_eq!(keyword.source, Some(KeywordSource::Idea));
        assert_eq!(keyword.secondary_intents, [Intent::Transactional]);
        assert_eq!(keyword.search_console, None);
        assert_eq!(read.clusters[0].id, "c-1");
        assert!(
            DatasetBytes::decode(&encode_v1(&v1)).is_err(),
            "format 1 is not the current format"
        );
    }

    fn cluster_v2(id: &str) -> super::legacy::ClusterRecordV2 {
        use crate::dataset::{ClusterAction, Intent};
        super::legacy::ClusterRecordV2 {
            id: id.into(),
            name: "espresso machine maintenance".into(),
            primary_keyword: "espresso machine maintenance".into(),
            keyword_count: 1,
            total_search_volume: 40,
            avg_difficulty: None,
            avg_cpc: None,
            dominant_intent: Intent::Commercial,
            organic_opportunity_score: 0.5,
            paid_opportunity_score: 0.1,
            opportunity_value: 3.0,
            method: None,
            shared_urls: vec![],
            topic_id: Some("t-1".into()),
            action: Some(ClusterAction::Consolidate),
            target_url: Some("https://brightbrew-coffee.com/services/".into()),
            target_position: None,
            target_score: Some(0.97),
            cannibalizing_urls: vec!["https://brightbrew-coffee.com/services/".into()],
            competitor_positions: vec![],
            content_gap: false,
        }
    }

    /// A dataset written as format 2 (before the plan's `basis` and `searchConsoleBaseline`)
    /// still reads: its keywords' Search Console figures kept, its clusters' plans as they
    /// were with neither; a format-3 reader does not mistake it for its own.
    #[test]
    fn a_format_2_dataset_still_decodes() {
        use super::legacy::{encode_v2, KeywordRecordV2, ResultsDatasetV2};
        use crate::dataset::{ClusterAction, Intent, SearchConsoleMetrics};
        let metrics = SearchConsoleMetrics {
            clicks: 12,
            impressions: 340,
            ctr: 12.0 / 340.0,
            position: 7.5,
            page: Some("https://brightbrew-coffee.com/blog/".into()),
            ..SearchConsoleMetrics::default()
        };
        let v2 = ResultsDatasetV2 {
            format: 2,
            keywords: vec![KeywordRecordV2 {
                id: "k-1".into(),
                keyword: "espresso machine maintenance".into(),
                search_volume: Some(340),
                cpc: None,
                competition: None,
                difficulty: None,
                intent: Intent::Commercial,
                secondary_intents: vec![],
                persona_avatar_name: None,
                cluster_id: "c-1".into(),
                cluster_name: "espresso machine maintenance".into(),
                organic_opportunity_score: 0.5,
                paid_opportunity_score: 0.1,
                opportunity_value: 3.0,
                monthly_searches: vec![],
                metrics_source: "search_console".into(),
                rankings: vec![],
                content_gap: false,
                source: None,
                topic_id: Some("t-1".into()),
                serp_features: None,
                people_also_ask: None,
                weak_spots: None,
                search_console: Some(metrics.clone()),
            }],
            clusters: vec![cluster_v2("c-1")],
            personas: vec![],
            topics: vec![],
        };
        let read = decode_v2(&encode_v2(&v2)).unwrap();
        assert_eq!(read.keywords[0].search_console, Some(metrics));
        let cluster = &read.clusters[0];
        assert_eq!(cluster.action, Some(ClusterAction::Consolidate));
        assert_eq!(cluster.target_score, Some(0.97));
        assert_eq!(cluster.basis, None);
        assert_eq!(cluster.search_console_baseline, None);
        assert!(
            DatasetBytes::decode(&encode_v2(&v2)).is_err(),
            "format 2 is not format 3"
        );
    }

    /// Format 3 keeps the plan's basis and baseline.
    #[test]
    fn the_plan_basis_and_baseline_read_back() {
        use crate::dataset::{ClusterSearchConsole, PlanBasis};
        let mut dataset = dataset();
        dataset.clusters[0].basis = Some(PlanBasis::SearchConsole);
        dataset.clusters[0].search_console_baseline = Some(ClusterSearchConsole {
            clicks: 3,
            impressions: 90,
            position: 8.25,
        });
        let stored = DatasetBytes::decode(&encode(&dataset).unwrap()).unwrap();
        let back: ResultsDataset = owned(stored.archived());
        assert_eq!(back.clusters[0].basis, Some(PlanBasis::SearchConsole));
        assert_eq!(
            back.clusters[0].search_console_baseline,
            dataset.clusters[0].search_console_baseline
        );
    }

    #[test]
    fn damaged_bytes_are_refused_not_read() {
        let mut stored = encode(&dataset()).unwrap();
        assert!(DatasetBytes::decode(&stored[..3]).is_err());
        let end = stored.len() - 1;
        stored[end] ^= 0xff;
        stored[5] ^= 0x55;
        assert!(DatasetBytes::decode(&stored).is_err());
        let mut huge = stored.clone();
        huge[..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(DatasetBytes::decode(&huge).is_err());
    }
}
