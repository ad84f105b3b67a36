//! Datasets kept in memory across warm invocations, so paging through a large job reads
//! S3 once, not per request.

use std::sync::{Arc, Mutex};

use kr_core::domain::{Job, JobId};
use kr_core::store::{get_stored_dataset, ArtifactStore, StoreError};

use crate::query::IndexedDataset;

/// Keyed by job and the job's version when it completed: a job's dataset never changes
/// after completion, and a deleted job is dropped on its next lookup.
pub struct DatasetCache {
    capacity: usize,
    /// Most recently used last.
    entries: Mutex<Vec<(JobId, u64, Arc<IndexedDataset>)>>,
}

impl DatasetCache {
    pub fn new(capacity: usize) -> Self {
        Self {
            capacity: capacity.max(1),
            entries: Mutex::new(Vec::new()),
        }
    }

    /// The dataset of a completed job, from memory or loaded once from the store.
    pub async fn get(
        &self,
        job: &Job,
        store: &dyn ArtifactStore,
    ) -> Result<Arc<IndexedDataset>, StoreError> {
        if let Some(found) = self.lookup(job) {
            return Ok(found);
        }
        let loaded = Arc::new(load(job, store).await?);
        let mut entries = self.entries.lock().expect("cache lock");
        entries.retain(|(id, _, _)| *id != job.id);
        if entries.len() >= self.capacity {
            entries.remove(0);
        }
        entries.push((job.id, job.version, loaded.clone()));
        Ok(loaded)
    }

    fn lookup(&self, job: &Job) -> Option<Arc<IndexedDataset>> {
        let mut entries = self.entries.lock().expect("cache lock");
        let at = entries
            .iter()
            .position(|(id, version, _)| *id == job.id && *version == job.version)?;
        let entry = entries.remove(at);
        let found = entry.2.clone();
        entries.push(entry);
        Some(found)
    }

    /// Forgets a job (it was deleted or is no longer readable).
    pub fn forget(&self, job: JobId) {
        self.entries
            .lock()
            .expect("cache lock")
            .retain(|(id, _, _)| *id != job);
    }
}

async fn load(job: &Job, store: &dyn ArtifactStore) -> Result<IndexedDataset, StoreError> {
    let records = get_stored_dataset(store, job.id)
        .await?
        .ok_or_else(|| StoreError(format!("completed job {} has no dataset", job.id)))?;
    let competitors: Vec<String> = job
        .competitor_domains
        .iter()
        .map(|domain| domain.as_str().to_string())
        .collect();
    Ok(IndexedDataset::for_job(records, &competitors))
}
