//! Provider responses shared across jobs, under `provider-cache/` in the results bucket: apart
//! from every job's prefix, so deleting a job never removes what other jobs may reuse, and
//! expired by the bucket's lifecycle rule besides the reader's own expiry check.

use async_trait::async_trait;
use chrono::{DateTime, SecondsFormat, Utc};

use super::{s3_error, S3ObjectStore};
use kr_core::store::{CachedResponse, ProviderCache, StoreError};

pub const CACHE_PREFIX: &str = "provider-cache/";
/// User metadata (`x-amz-meta-stored-at`) holding when the response was fetched, so the
/// body stays the provider's bytes exactly.
const STORED_AT: &str = "stored-at";

/// The object key of a cache entry. Keys are digests the client makes; anything else (a `/`
/// above all) is refused so an entry can never land outside the cache prefix.
pub fn cache_object_key(key: &str) -> Result<String, StoreError> {
    let valid = !key.is_empty()
        && key.len() <= 128
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !valid {
        return Err(StoreError(format!("invalid provider cache key {key:?}")));
    }
    Ok(format!("{CACHE_PREFIX}{key}.json"))
}

#[async_trait]
impl ProviderCache for S3ObjectStore {
    async fn cached_response(&self, key: &str) -> Result<Option<CachedResponse>, StoreError> {
        let result = self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(cache_object_key(key)?)
            .send()
            .await;
        let object = match result {
            Ok(object) => object,
            Err(err) if err.as_service_error().is_some_and(|e| e.is_no_such_key()) => {
                return Ok(None)
            }
            Err(err) => return Err(s3_error(err)),
        };
        let stored_at = object
            .metadata()
            .and_then(|m| m.get(STORED_AT))
            .and_then(|raw| DateTime::parse_from_rfc3339(raw).ok())
            .map(|at| at.with_timezone(&Utc));
        let last_modified = object
            .last_modified()
            .and_then(|at| DateTime::from_timestamp(at.secs(), at.subsec_nanos()));
        // An entry whose age cannot be told is no use to an expiry check: a miss.
        let Some(stored_at) = stored_at.or(last_modified) else {
            return Ok(None);
        };
        let body = object
            .body
            .collect()
            .await
            .map_err(StoreError::new)?
            .into_bytes()
            .to_vec();
        Ok(Some(CachedResponse { stored_at, body }))
    }

    async fn store_response(&self, key: &str, response: &CachedResponse) -> Result<(), StoreError> {
        self.client
            .put_object()
            .bucket(&self.bucket)
            .key(cache_object_key(key)?)
            .content_type("application/json")
            .metadata(
                STORED_AT,
                response
                    .stored_at
                    .to_rfc3339_opts(SecondsFormat::AutoSi, true),
            )
            .body(response.body.clone().into())
            .send()
            .await
            .map_err(s3_error)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_become_keys_under_the_cache_prefix_and_nothing_else_does() {
        let digest = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
        assert_eq!(
            cache_object_key(digest).unwrap(),
            format!("provider-cache/{digest}.json")
        );
        for bad in [
            "",
            "../jobs/x",
            "a/b",
            "a.b",
            "jobs/1/results",
            &"a".repeat(129),
        ] {
            assert!(cache_object_key(bad).is_err(), "{bad:?}");
        }
    }
}
