//! The objects stored for each job on S3, under `jobs/<job id>/`; the provider cache under
//! `provider-cache/`.

mod cache;

pub use cache::{cache_object_key, CACHE_PREFIX};

use async_trait::async_trait;
use aws_sdk_s3::error::DisplayErrorContext;
use aws_sdk_s3::types::{Delete, ObjectIdentifier};

use kr_core::domain::{Job, JobId};

/// The tag of objects the bucket's `expire-results` lifecycle rule deletes (template.yaml).
pub const EXPIRING_TAG: &str = "retention=expiring";
use kr_core::store::{ArtifactStore, ExportStore, ObjectStream, ResultStore, StoreError};

#[derive(Clone, Debug)]
pub struct S3ObjectStore {
    client: aws_sdk_s3::Client,
    bucket: String,
}

impl S3ObjectStore {
    pub fn new(client: aws_sdk_s3::Client, bucket: impl Into<String>) -> Self {
        Self {
            client,
            bucket: bucket.into(),
        }
    }

    pub fn job_prefix(job: JobId) -> String {
        format!("jobs/{job}/")
    }
}

fn s3_error(err: impl std::error::Error + Send + Sync + 'static) -> StoreError {
    StoreError(DisplayErrorContext(err).to_string())
}

#[async_trait]
impl ResultStore for S3ObjectStore {
    /// Deletes every object and every version under the job's prefix, so nothing of a
    /// deleted job survives in the versioned bucket.
    async fn delete_results(&self, job: JobId) -> Result<(), StoreError> {
        let prefix = Self::job_prefix(job);
        let mut key_marker = None;
        let mut version_marker = None;
        loop {
            let page = self
                .client
                .list_object_versions()
                .bucket(&self.bucket)
                .prefix(&prefix)
                .set_key_marker(key_marker.take())
                .set_version_id_marker(version_marker.take())
                .send()
                .await
                .map_err(s3_error)?;
            let versions = page.versions().iter().map(|v| (v.key(), v.version_id()));
            let markers = page
                .delete_markers()
                .iter()
                .map(|m| (m.key(), m.version_id()));
            let objects: Vec<ObjectIdentifier> = versions
                .chain(markers)
                .filter_map(|(key, version)| {
                    ObjectIdentifier::builder()
                        .set_key(key.map(String::from))
                        .set_version_id(version.map(String::from))
                        .build()
                        .ok()
                })
                .collect();
            if !objects.is_empty() {
                let delete = Delete::builder()
                    .set_objects(Some(objects))
                    .quiet(true)
                    .build()
                    .map_err(StoreError::new)?;
                // Quiet mode lists only the keys that could not be deleted; any one of them
                // fails the whole removal, so the caller keeps the job and can retry.
                let output = self
                    .client
                    .delete_objects()
                    .bucket(&self.bucket)
                    .delete(delete)
                    .send()
                    .await
                    .map_err(s3_error)?;
                if let Some(error) = output.errors().first() {
                    return Err(StoreError(format!(
                        "{} of the job's objects were not deleted, {}: {}",
                        output.errors().len(),
                        error.key().unwrap_or_default(),
                        error.message().or(error.code()).unwrap_or_default()
                    )));
                }
            }
            if page.is_truncated() != Some(true) {
                return Ok(());
            }
            key_marker = page.next_key_marker().map(String::from);
            version_marker = page.next_version_id_marker().map(String::from);
        }
    }
}

impl S3ObjectStore {
    async fn put(
        &self,
        job: JobId,
        name: &str,
        bytes: Vec<u8>,
        tagging: Option<&str>,
    ) -> Result<(), StoreError> {
        self.client
            .put_object()
            .bucket(&self.bucket)
            .key(format!("{}{name}", Self::job_prefix(job)))
            .content_type("application/json")
            .set_tagging(tagging.map(String::from))
            .body(bytes.into())
            .send()
            .await
            .map_err(s3_error)?;
        Ok(())
    }
}

#[async_trait]
impl ArtifactStore for S3ObjectStore {
    async fn put_artifact(&self, job: JobId, name: &str, bytes: Vec<u8>) -> Result<(), StoreError> {
        self.put(job, name, bytes, None).await
    }

    async fn put_job_artifact(
        &self,
        job: &Job,
        name: &str,
        bytes: Vec<u8>,
    ) -> Result<(), StoreError> {
        // The bucket's `expire-results` rule deletes objects with this tag.
        let tagging = job.expires_at.is_some().then_some(EXPIRING_TAG);
        self.put(job.id, name, bytes, tagging).await
    }

    async fn get_artifact(&self, job: JobId, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let result = self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(format!("{}{name}", Self::job_prefix(job)))
            .send()
            .await;
        match result {
            Ok(object) => Ok(Some(
                object
                    .body
                    .collect()
                    .await
                    .map_err(StoreError::new)?
                    .into_bytes()
                    .to_vec(),
            )),
            Err(err) if err.as_service_error().is_some_and(|e| e.is_no_such_key()) => Ok(None),
            Err(err) => Err(s3_error(err)),
        }
    }
}

#[async_trait]
impl ExportStore for S3ObjectStore {
    async fn open_export(&self, job: JobId) -> Result<Option<ObjectStream>, StoreError> {
        let key = format!(
            "{}{}",
            Self::job_prefix(job),
            kr_core::dataset::objects::export()
        );
        let object = match self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(key)
            .send()
            .await
        {
            Ok(object) => object,
            Err(err) if err.as_service_error().is_some_and(|e| e.is_no_such_key()) => {
                return Ok(None)
            }
            Err(err) => return Err(s3_error(err)),
        };
        let chunks = futures_util::stream::unfold(object.body, |mut body| async move {
            body.next()
                .await
                .map(|chunk| (chunk.map_err(StoreError::new), body))
        });
        Ok(Some(Box::pin(chunks)))
    }
}
