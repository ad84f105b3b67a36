//! A completed job's dataset in the form its readers load fastest: the records archived with
//! rkyv, so a reader uses them in place (validated once, never parsed into objects), then
//! LZ4-compressed for the trip from S3. shared/query/README.md (Results) says why this form won over the
//! others measured.

use rkyv::de::Pool;
use rkyv::rancor;
use rkyv::util::AlignedVec;

use super::{ArchivedResultsDataset, ResultsDataset};

pub use legacy::{decode_v1, decode_v2, decode_v3};

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

// Formats 1 to 3, frozen (`stored/legacy.rs`).
mod legacy;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::{
        AiOverview, AiReference, ClusterRecord, KeywordRecord, SerpFeature, DATASET_FORMAT,
    };
    use crate::domain::JobId;

    fn dataset() -> ResultsDataset {
        ResultsDataset {
            format: DATASET_FORMAT,
            job_id: JobId::new(),
            keywords: vec![KeywordRecord {
                id: "k-1".into(),
                keyword: "cold brew".into(),
                search_volume: Some(1900),
                serp_features: Some(vec![SerpFeature::PeopleAlsoAsk, SerpFeature::AiOverview]),
                ai_overview: Some(AiOverview::from_serp(
                    Some(&[AiReference::new(
                        "https://blog.brightbrew-coffee.com/cold-brew",
                        None,
                        Some("Cold brew"),
                    )
                    .unwrap()]),
                    "brightbrew-coffee.com",
                    &["beanhub.com"],
                )),
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
