//! A job's objects (stage outputs, imported keywords, the dataset, the export), as the
//! bucket holds them under `jobs/<job id>/`.

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use async_trait::async_trait;

use super::Faults;
use crate::domain::{Job, JobId};
use crate::store::{ArtifactStore, ExportStore, ObjectStream, ResultStore, StoreError};

#[derive(Debug, Clone)]
struct Object {
    bytes: Vec<u8>,
    /// Tagged to expire with its job (the bucket's lifecycle rule would delete it).
    expiring: bool,
}

/// [`ArtifactStore`], [`ResultStore`] and [`ExportStore`] in memory. A put replaces the
/// object; `delete_results` removes every object of the job. Tell it to fail with
/// [`MemoryObjects::fail`] (`"put_artifact"`, `"put_job_artifact"`, `"get_artifact"`,
/// `"delete_results"`, `"open_export"`).
#[derive(Debug, Default)]
pub struct MemoryObjects {
    objects: Mutex<BTreeMap<(JobId, String), Object>>,
    faults: Faults,
}

impl MemoryObjects {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn fail(&self, operation: &'static str) {
        self.faults.fail(operation);
    }

    pub fn heal(&self, operation: &'static str) {
        self.faults.heal(operation);
    }

    fn objects(&self) -> MutexGuard<'_, BTreeMap<(JobId, String), Object>> {
        self.objects.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The object's bytes, if stored.
    pub fn object(&self, job: JobId, name: &str) -> Option<Vec<u8>> {
        let key = (job, name.to_string());
        self.objects().get(&key).map(|o| o.bytes.clone())
    }

    /// Whether the object is tagged to expire with its job; `None` when not stored.
    pub fn is_expiring(&self, job: JobId, name: &str) -> Option<bool> {
        let key = (job, name.to_string());
        self.objects().get(&key).map(|o| o.expiring)
    }

    /// The names of the job's objects, sorted.
    pub fn names(&self, job: JobId) -> Vec<String> {
        self.objects()
            .keys()
            .filter(|(of, _)| *of == job)
            .map(|(_, name)| name.clone())
            .collect()
    }

    /// The jobs with objects stored, sorted.
    pub fn jobs(&self) -> Vec<JobId> {
        let mut jobs: Vec<JobId> = self.objects().keys().map(|(job, _)| *job).collect();
        jobs.dedup();
        jobs
    }

    /// No object of any job is stored.
    pub fn is_empty(&self) -> bool {
        self.objects().is_empty()
    }

    fn put(&self, job: JobId, name: &str, bytes: Vec<u8>, expiring: bool) {
        self.objects()
            .insert((job, name.to_string()), Object { bytes, expiring });
    }
}

#[async_trait]
impl ArtifactStore for MemoryObjects {
    async fn put_artifact(&self, job: JobId, name: &str, bytes: Vec<u8>) -> Result<(), StoreError> {
        self.faults.check("put_artifact")?;
        self.put(job, name, bytes, false);
        Ok(())
    }

    /// Tagged to expire when the job expires, as the bucket's objects are.
    async fn put_job_artifact(
        &self,
        job: &Job,
        name: &str,
        bytes: Vec<u8>,
    ) -> Result<(), StoreError> {
        self.faults.check("put_job_artifact")?;
        self.put(job.id, name, bytes, job.expires_at.is_some());
        Ok(())
    }

    async fn get_artifact(&self, job: JobId, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.faults.check("get_artifact")?;
        Ok(self.object(job, name))
    }
}

#[async_trait]
impl ResultStore for MemoryObjects {
    async fn delete_results(&self, job: JobId) -> Result<(), StoreError> {
        self.faults.check("delete_results")?;
        self.objects().retain(|(of, _), _| *of != job);
        Ok(())
    }
}

#[async_trait]
impl ExportStore for MemoryObjects {
    /// The export object in one piece.
    async fn open_export(&self, job: JobId) -> Result<Option<ObjectStream>, StoreError> {
        self.faults.check("open_export")?;
        let Some(bytes) = self.object(job, &crate::dataset::objects::export()) else {
            return Ok(None);
        };
        let chunk: Result<bytes::Bytes, StoreError> = Ok(bytes.into());
        Ok(Some(Box::pin(futures_util::stream::once(
            async move { chunk },
        ))))
    }
}
