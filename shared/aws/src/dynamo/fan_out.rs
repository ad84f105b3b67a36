//! The fan-out log: one item per delivery whose first attempt a fan-out queued
//! (`FANOUT#<webhook-id>` / `FIRST_ATTEMPT`), kept while the event could be fanned out again.

use async_trait::async_trait;
use chrono::{Duration, Utc};

use super::keys::{fanned_out_pk, FANNED_OUT_SK, TTL_ATTRIBUTE};
use super::{key, n, sdk_error, DynamoStore};
use kr_core::store::{FanOutLog, StoreError};

/// The webhooks dead-letter queue's retention: a fan-out message redriven from it late
/// still queues nothing twice.
const FANNED_OUT_KEPT_DAYS: i64 = 14;

#[async_trait]
impl FanOutLog for DynamoStore {
    async fn first_attempt_queued(&self, message_id: &str) -> Result<bool, StoreError> {
        Ok(self
            .get(key(fanned_out_pk(message_id), FANNED_OUT_SK))
            .await?
            .is_some())
    }

    async fn record_first_attempt(&self, message_id: &str) -> Result<(), StoreError> {
        let mut item = key(fanned_out_pk(message_id), FANNED_OUT_SK);
        item.insert(
            TTL_ATTRIBUTE.into(),
            n((Utc::now() + Duration::days(FANNED_OUT_KEPT_DAYS)).timestamp()),
        );
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item))
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(())
    }
}
