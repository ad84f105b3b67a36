//! Provider rate limits in the table, so every worker of every job shares one budget.
//!
//! Concurrency: a pool has `limit` slot items; holding one is a conditional put that only
//! succeeds when the slot is absent or its lease has run out, so a crashed worker's slot comes
//! back by itself. Per-minute limits: one counter item per calendar minute, increased only
//! while below the limit. Request limits: one item per subject with a count per time bucket
//! of its sliding window (`b<bucket start>`; `kr_core::service::rate_limits`).

use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};

use super::keys::{minute_sk, rate_pk, slot_sk, window_sk, TTL_ATTRIBUTE};
use super::{condition_held, key, n, s, DynamoStore, Item};
use kr_core::store::{ProviderRateGate, RequestBucket, RequestCounters, SlotLease, StoreError};

/// How long a finished minute's counter (or an expired lease) stays before DynamoDB removes it.
const KEEP_AFTER: i64 = 3600;

impl DynamoStore {
    async fn try_slot(
        &self,
        pool: &str,
        slot: u32,
        token: &str,
        expires_at: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        let mut item = key(rate_pk(pool), slot_sk(slot));
        item.insert("token".into(), s(token));
        item.insert("expiresAt".into(), n(expires_at.timestamp_millis()));
        item.insert(TTL_ATTRIBUTE.into(), n(expires_at.timestamp() + KEEP_AFTER));
        let result = self
            .client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item))
            .condition_expression("attribute_not_exists(PK) OR expiresAt <= :now")
            .expression_attribute_values(":now", n(now.timestamp_millis()))
            .send()
            .await;
        condition_held(result)
    }
}

#[async_trait]
impl ProviderRateGate for DynamoStore {
    async fn try_acquire_slot(
        &self,
        pool: &str,
        limit: u32,
        lease: std::time::Duration,
        now: DateTime<Utc>,
    ) -> Result<Option<SlotLease>, StoreError> {
        if limit == 0 {
            return Ok(None);
        }
        let token = uuid::Uuid::new_v4().simple().to_string();
        let lease = Duration::from_std(lease).map_err(StoreError::new)?;
        let expires_at = now + lease;
        // Each caller starts at its own slot, so concurrent callers rarely collide.
        let start = (uuid::Uuid::new_v4().as_u128() % u128::from(limit)) as u32;
        for offset in 0..limit {
            let slot = (start + offset) % limit;
            if self.try_slot(pool, slot, &token, expires_at, now).await? {
                return Ok(Some(SlotLease {
                    pool: pool.to_string(),
                    slot,
                    token,
                    expires_at,
                }));
            }
        }
        Ok(None)
    }

    async fn release_slot(&self, lease: &SlotLease) -> Result<(), StoreError> {
        let result = self
            .client
            .delete_item()
            .table_name(&self.table)
            .set_key(Some(key(rate_pk(&lease.pool), slot_sk(lease.slot))))
            .condition_expression("#token = :token")
            .expression_attribute_names("#token", "token")
            .expression_attribute_values(":token", s(&lease.token))
            .send()
            .await;
        // Not held: the lease ran out and someone else holds the slot now, theirs to release.
        condition_held(result).map(|_| ())
    }

    async fn try_take_minute_token(
        &self,
        pool: &str,
        limit: u32,
        now: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        if limit == 0 {
            return Ok(false);
        }
        let minute = now.timestamp().div_euclid(60);
        let result = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(rate_pk(pool), minute_sk(minute))))
            .update_expression("SET #ttl = :ttl ADD #taken :one")
            .condition_expression("attribute_not_exists(#taken) OR #taken < :limit")
            .expression_attribute_names("#ttl", TTL_ATTRIBUTE)
            .expression_attribute_names("#taken", "taken")
            .expression_attribute_values(":ttl", n((minute + 1) * 60 + KEEP_AFTER))
            .expression_attribute_values(":one", n(1))
            .expression_attribute_values(":limit", n(limit))
            .send()
            .await;
        condition_held(result)
    }
}

/// The attribute of a window item that counts the bucket starting at `start`.
fn bucket_attribute(start: i64) -> String {
    format!("b{start}")
}

/// Every bucket of a window item.
fn buckets_of(item: &Item) -> Vec<RequestBucket> {
    item.iter()
        .filter_map(|(name, value)| {
            Some(RequestBucket {
                start: name.strip_prefix('b')?.parse().ok()?,
                count: value.as_n().ok()?.parse::<i64>().ok()?.max(0) as u64,
            })
        })
        .collect()
}

#[async_trait]
impl RequestCounters for DynamoStore {
    async fn add_to_bucket(
        &self,
        subject: &str,
        bucket_start: i64,
        expires_at: i64,
    ) -> Result<Vec<RequestBucket>, StoreError> {
        let output = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(rate_pk(subject), window_sk())))
            .update_expression("SET #ttl = :ttl ADD #bucket :one")
            .expression_attribute_names("#ttl", TTL_ATTRIBUTE)
            .expression_attribute_names("#bucket", bucket_attribute(bucket_start))
            .expression_attribute_values(":ttl", n(expires_at + KEEP_AFTER))
            .expression_attribute_values(":one", n(1))
            .return_values(aws_sdk_dynamodb::types::ReturnValue::AllNew)
            .send()
            .await
            .map_err(super::sdk_error)?;
        Ok(output
            .attributes
            .as_ref()
            .map(buckets_of)
            .unwrap_or_default())
    }

    async fn take_back(&self, subject: &str, bucket_start: i64) -> Result<(), StoreError> {
        let result = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(rate_pk(subject), window_sk())))
            .update_expression("ADD #bucket :minus_one")
            // A bucket already dropped stays dropped.
            .condition_expression("attribute_exists(#bucket)")
            .expression_attribute_names("#bucket", bucket_attribute(bucket_start))
            .expression_attribute_values(":minus_one", n(-1))
            .send()
            .await;
        condition_held(result).map(|_| ())
    }

    async fn drop_buckets(&self, subject: &str, starts: &[i64]) -> Result<(), StoreError> {
        // At most 100 names an update; more wait for the next request's write.
        let names: Vec<String> = (0..starts.len().min(100))
            .map(|i| format!("#old{i}"))
            .collect();
        let mut update = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(rate_pk(subject), window_sk())))
            .update_expression(format!("REMOVE {}", names.join(", ")));
        for (name, start) in names.iter().zip(starts) {
            update = update.expression_attribute_names(name, bucket_attribute(*start));
        }
        update.send().await.map_err(super::sdk_error)?;
        Ok(())
    }

    async fn buckets(&self, subject: &str) -> Result<Vec<RequestBucket>, StoreError> {
        let output = self
            .client
            .get_item()
            .table_name(&self.table)
            .set_key(Some(key(rate_pk(subject), window_sk())))
            .consistent_read(true)
            .send()
            .await
            .map_err(super::sdk_error)?;
        Ok(output.item.as_ref().map(buckets_of).unwrap_or_default())
    }
}
