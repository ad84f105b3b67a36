//! A job's share links: stored under their token's hash, at most a few live ones per job.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::StoreError;
use crate::domain::{JobId, SecretHash, ShareLink, ShareLinkId};

#[async_trait]
pub trait ShareLinkStore: Send + Sync {
    /// Stores the link unless the job already has `max_live` links live at `now` (expired and
    /// revoked ones do not count); `false` then. Concurrent creates never pass the limit.
    async fn create_share_link(
        &self,
        link: &ShareLink,
        token_hash: &SecretHash,
        max_live: u32,
        now: DateTime<Utc>,
    ) -> Result<bool, StoreError>;
    /// The job's links live at `now`, newest first.
    async fn list_share_links(
        &self,
        job: JobId,
        now: DateTime<Utc>,
    ) -> Result<Vec<ShareLink>, StoreError>;
    /// Removes the link at once; `false` when the job has no such link.
    async fn revoke_share_link(&self, job: JobId, link: ShareLinkId) -> Result<bool, StoreError>;
    /// The link behind a token, live or not (the caller checks its expiry); `None` when revoked
    /// or never made.
    async fn resolve_share_link(
        &self,
        token_hash: &SecretHash,
    ) -> Result<Option<ShareLink>, StoreError>;
}
