//! Webhooks on DynamoDB: each under its owner (`USER#id` / `WEBHOOK#id`), counted on the
//! profile so concurrent creates cannot pass the cap together; delivery attempts under the
//! webhook (`WEBHOOK#id` / `DELIVERY#<time>#<message>#<attempt>`), newest first, kept 30 days.

use async_trait::async_trait;
use chrono::{Duration, Utc};
use serde::{Deserialize, Serialize};

use super::keys::{
    delivery_sk, user_pk, user_webhook_sk, webhook_pk, DELIVERY_PREFIX, PK, SK, USER_WEBHOOK_PREFIX,
};
use super::{from_item, key, s, sdk_error, to_item, DynamoStore};
use kr_core::domain::{UserId, WebhookId};
use kr_core::store::{CreateWebhookOutcome, DeliveryAttempt, StoreError, Webhook, WebhookStore};

/// The profile's count of webhooks.
const WEBHOOK_COUNTER: &str = "webhookCount";
const DELIVERIES_KEPT_DAYS: i64 = 30;

#[derive(Serialize, Deserialize)]
struct WebhookItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    #[serde(flatten)]
    webhook: Webhook,
}

#[derive(Serialize, Deserialize)]
struct DeliveryItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    /// DynamoDB's TTL attribute.
    ttl: i64,
    #[serde(flatten)]
    attempt: DeliveryAttempt,
}

#[async_trait]
impl WebhookStore for DynamoStore {
    async fn create_webhook(
        &self,
        webhook: &Webhook,
        limit: usize,
    ) -> Result<CreateWebhookOutcome, StoreError> {
        let item = to_item(&WebhookItem {
            pk: user_pk(webhook.owner),
            sk: user_webhook_sk(webhook.id),
            webhook: webhook.clone(),
        })?;
        Ok(
            if self
                .put_counted(webhook.owner, WEBHOOK_COUNTER, limit, item)
                .await?
            {
                CreateWebhookOutcome::Created
            } else {
                CreateWebhookOutcome::LimitReached
            },
        )
    }

    async fn list_webhooks(&self, owner: UserId) -> Result<Vec<Webhook>, StoreError> {
        let mut webhooks: Vec<Webhook> = self
            .items_with_prefix(user_pk(owner), USER_WEBHOOK_PREFIX)
            .await?
            .into_iter()
            .map(|item| from_item::<WebhookItem>(item).map(|item| item.webhook))
            .collect::<Result<_, _>>()?;
        webhooks.sort_by_key(|webhook| (webhook.created_at, webhook.id));
        Ok(webhooks)
    }

    async fn webhook(&self, owner: UserId, id: WebhookId) -> Result<Option<Webhook>, StoreError> {
        self.get(key(user_pk(owner), user_webhook_sk(id)))
            .await?
            .map(|item| from_item::<WebhookItem>(item).map(|item| item.webhook))
            .transpose()
    }

    async fn delete_webhook(&self, owner: UserId, id: WebhookId) -> Result<bool, StoreError> {
        self.delete_counted(
            owner,
            WEBHOOK_COUNTER,
            key(user_pk(owner), user_webhook_sk(id)),
        )
        .await
    }

    async fn record_delivery(&self, attempt: &DeliveryAttempt) -> Result<(), StoreError> {
        let item = to_item(&DeliveryItem {
            pk: webhook_pk(attempt.webhook_id),
            sk: delivery_sk(attempt.at, &attempt.message_id, attempt.attempt),
            ttl: (Utc::now() + Duration::days(DELIVERIES_KEPT_DAYS)).timestamp(),
            attempt: attempt.clone(),
        })?;
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item))
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(())
    }

    async fn deliveries(
        &self,
        id: WebhookId,
        limit: u32,
    ) -> Result<Vec<DeliveryAttempt>, StoreError> {
        let output = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression("#pk = :pk AND begins_with(#sk, :prefix)")
            .expression_attribute_names("#pk", PK)
            .expression_attribute_names("#sk", SK)
            .expression_attribute_values(":pk", s(webhook_pk(id)))
            .expression_attribute_values(":prefix", s(DELIVERY_PREFIX))
            .scan_index_forward(false)
            .limit(limit as i32)
            .consistent_read(true)
            .send()
            .await
            .map_err(sdk_error)?;
        output
            .items
            .unwrap_or_default()
            .into_iter()
            .map(|item| from_item::<DeliveryItem>(item).map(|item| item.attempt))
            .collect()
    }
}
