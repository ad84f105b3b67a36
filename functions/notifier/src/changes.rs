//! What a `job.changes` event carries: the summary and counts of what moved since the
//! owner's previous completed run of the same domain and market, the clusters whose Search
//! Console clicks moved most (`topMovers`, at most 5) and the first AI citations gained and
//! lost (`aiCitationsGained`, `aiCitationsLost`, at most 5 each; the counts are whole),
//! computed when delivered (a
//! retry recomputes the same thing from the same stored results, so nothing rides on the queue).

use std::sync::Arc;

use async_trait::async_trait;
use kr_core::domain::Job;
use kr_core::store::{ArtifactStore, JobStore, StoreError};
use kr_query::{job_changes, ChangeQuery, ChangeSources, DatasetCache, Results};
use serde_json::{json, Value};

/// The `changes` object of a `job.changes` event.
#[async_trait]
pub trait ChangeDigests: Send + Sync {
    async fn digest(&self, job: &Job) -> Result<Value, StoreError>;
}

/// Reads both runs' stored results; two datasets at most are held (this run and the one
/// before), so the notifier's memory setting holds for any job the results API serves.
pub struct StoredChangeDigests {
    pub jobs: Arc<dyn JobStore>,
    pub objects: Arc<dyn ArtifactStore>,
    pub cache: DatasetCache,
}

impl StoredChangeDigests {
    pub fn new(jobs: Arc<dyn JobStore>, objects: Arc<dyn ArtifactStore>) -> Self {
        Self {
            jobs,
            objects,
            cache: DatasetCache::new(2),
        }
    }
}

#[async_trait]
impl ChangeDigests for StoredChangeDigests {
    async fn digest(&self, job: &Job) -> Result<Value, StoreError> {
        let results = Results {
            cache: &self.cache,
            objects: self.objects.as_ref(),
        };
        let sources = ChangeSources {
            results: &results,
            jobs: self.jobs.as_ref(),
        };
        // Since the previous run: no `since` job to authorise.
        let changes = job_changes(&sources, job, None, &ChangeQuery::digest())
            .await
            .map_err(|err| StoreError::new(format!("changes of job {}: {err:?}", job.id)))?;
        Ok(json!({
            "since": changes.since,
            "summary": changes.summary,
            "counts": changes.counts,
            "volumesCompared": changes.volumes_compared,
            "searchConsoleCompared": changes.search_console_compared,
            "topMovers": changes.search_console_moves,
            "aiCitationsCompared": changes.ai_citations_compared,
            "aiCitationsGained": changes.ai_citations_gained,
            "aiCitationsLost": changes.ai_citations_lost,
        }))
    }
}
