use std::collections::HashMap;

use async_trait::async_trait;
use aws_sdk_dynamodb::types::{Delete, KeysAndAttributes, Put, TransactWriteItem, Update};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::keys::{
    api_key_pk, user_api_key_sk, user_pk, API_KEY_COUNTER, API_KEY_SK, PROFILE_SK,
    USER_API_KEY_PREFIX,
};
use super::{
    condition_held, from_item, key, limit_held, n, s, sdk_error, to_item, transaction_held,
    DynamoStore, Item,
};
use kr_core::domain::{ApiKeyId, SecretHash, UserId};
use kr_core::store::{ApiKeyOwner, ApiKeyRecord, ApiKeyStore, StoreError};

/// Looked up by the hash of the secret on every authenticated request.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct LookupItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    user_id: UserId,
    key_id: ApiKeyId,
    last_used_at: Option<DateTime<Utc>>,
}

/// The user's view of a key: listed and revoked by id, never holding the secret.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct UserKeyItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    key_id: ApiKeyId,
    secret_hash: String,
    name: String,
    prefix: String,
    created_at: DateTime<Utc>,
}

fn transact_put(table: &str, item: Item) -> Result<TransactWriteItem, StoreError> {
    let put = Put::builder()
        .table_name(table)
        .set_item(Some(item))
        .condition_expression("attribute_not_exists(PK)")
        .build()
        .map_err(StoreError::new)?;
    Ok(TransactWriteItem::builder().put(put).build())
}

fn transact_delete(table: &str, key: Item) -> Result<TransactWriteItem, StoreError> {
    let delete = Delete::builder()
        .table_name(table)
        .set_key(Some(key))
        .condition_expression("attribute_exists(PK)")
        .build()
        .map_err(StoreError::new)?;
    Ok(TransactWriteItem::builder().delete(delete).build())
}

impl DynamoStore {
    /// Keyed by lookup partition key. `lastUsedAt` lives on the lookup item (it is written by
    /// the auth path), so listing
    /// reads it from there.
    async fn last_used(
        &self,
        hashes: Vec<String>,
    ) -> Result<HashMap<String, DateTime<Utc>>, StoreError> {
        let mut found = HashMap::new();
        for chunk in hashes.chunks(100) {
            let mut pending: Vec<Item> = chunk
                .iter()
                .map(|hash| key(api_key_pk(hash), API_KEY_SK))
                .collect();
            while !pending.is_empty() {
                let request = KeysAndAttributes::builder()
                    .set_keys(Some(std::mem::take(&mut pending)))
                    .consistent_read(true)
                    .build()
                    .map_err(StoreError::new)?;
                let output = self
                    .client
                    .batch_get_item()
                    .request_items(&self.table, request)
                    .send()
                    .await
                    .map_err(sdk_error)?;
                for item in output
                    .responses
                    .and_then(|mut r| r.remove(&self.table))
                    .unwrap_or_default()
                {
                    let lookup: LookupItem = from_item(item)?;
                    if let Some(at) = lookup.last_used_at {
                        found.insert(lookup.pk, at);
                    }
                }
                pending = output
                    .unprocessed_keys
                    .and_then(|mut u| u.remove(&self.table))
                    .map(|k| k.keys)
                    .unwrap_or_default();
            }
        }
        Ok(found)
    }
}

#[async_trait]
impl ApiKeyStore for DynamoStore {
    async fn create_api_key(
        &self,
        record: &ApiKeyRecord,
        secret_hash: &SecretHash,
        max_keys: u32,
    ) -> Result<bool, StoreError> {
        let lookup = to_item(&LookupItem {
            pk: api_key_pk(secret_hash.as_str()),
            sk: API_KEY_SK.into(),
            user_id: record.user_id,
            key_id: record.id,
            last_used_at: None,
        })?;
        let user_copy = to_item(&UserKeyItem {
            pk: user_pk(record.user_id),
            sk: user_api_key_sk(record.id),
            key_id: record.id,
            secret_hash: secret_hash.as_str().to_string(),
            name: record.name.clone(),
            prefix: record.prefix.clone(),
            created_at: record.created_at,
        })?;
        // The count lives on the profile, so concurrent creates cannot pass the cap together.
        let count = Update::builder()
            .table_name(&self.table)
            .set_key(Some(key(user_pk(record.user_id), PROFILE_SK)))
            .update_expression("SET #keys = if_not_exists(#keys, :zero) + :one")
            .condition_expression(
                "attribute_exists(PK) AND (attribute_not_exists(#keys) OR #keys < :max)",
            )
            .expression_attribute_names("#keys", API_KEY_COUNTER)
            .expression_attribute_values(":zero", n(0))
            .expression_attribute_values(":one", n(1))
            .expression_attribute_values(":max", n(max_keys))
            .build()
            .map_err(StoreError::new)?;
        let result = self
            .client
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().update(count).build())
            .transact_items(transact_put(&self.table, lookup)?)
            .transact_items(transact_put(&self.table, user_copy)?)
            .send()
            .await;
        limit_held(result)
    }

    async fn list_api_keys(&self, user: UserId) -> Result<Vec<ApiKeyRecord>, StoreError> {
        let items: Vec<UserKeyItem> = self
            .items_with_prefix(user_pk(user), USER_API_KEY_PREFIX)
            .await?
            .into_iter()
            .map(from_item)
            .collect::<Result<_, _>>()?;
        let last_used = self
            .last_used(items.iter().map(|k| k.secret_hash.clone()).collect())
            .await?;
        let mut keys: Vec<ApiKeyRecord> = items
            .into_iter()
            .map(|item| ApiKeyRecord {
                id: item.key_id,
                user_id: user,
                last_used_at: last_used.get(&api_key_pk(&item.secret_hash)).copied(),
                name: item.name,
                prefix: item.prefix,
                created_at: item.created_at,
            })
            .collect();
        keys.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(a.id.cmp(&b.id)));
        Ok(keys)
    }

    async fn revoke_api_key(&self, user: UserId, key_id: ApiKeyId) -> Result<bool, StoreError> {
        let item = self
            .get(key(user_pk(user), user_api_key_sk(key_id)))
            .await?;
        let Some(item) = item else {
            return Ok(false);
        };
        let user_copy: UserKeyItem = from_item(item)?;
        let result = self
            .client
            .transact_write_items()
            .transact_items(transact_delete(
                &self.table,
                key(user_pk(user), user_api_key_sk(key_id)),
            )?)
            .transact_items(transact_delete(
                &self.table,
                key(api_key_pk(&user_copy.secret_hash), API_KEY_SK),
            )?)
            .transact_items(
                TransactWriteItem::builder()
                    .update(
                        Update::builder()
                            .table_name(&self.table)
                            .set_key(Some(key(user_pk(user), PROFILE_SK)))
                            .update_expression("ADD #keys :minus_one")
                            .expression_attribute_names("#keys", API_KEY_COUNTER)
                            .expression_attribute_values(":minus_one", n(-1))
                            .build()
                            .map_err(StoreError::new)?,
                    )
                    .build(),
            )
            .send()
            .await;
        // Revoked concurrently by another request: the key is gone either way.
        transaction_held(result)
    }

    async fn resolve_api_key(
        &self,
        secret_hash: &SecretHash,
    ) -> Result<Option<ApiKeyOwner>, StoreError> {
        // Strongly consistent, so a revoked key stops working at once.
        let item = self
            .get(key(api_key_pk(secret_hash.as_str()), API_KEY_SK))
            .await?;
        item.map(|item| {
            let lookup: LookupItem = from_item(item)?;
            Ok(ApiKeyOwner {
                user_id: lookup.user_id,
                key_id: lookup.key_id,
                last_used_at: lookup.last_used_at,
            })
        })
        .transpose()
    }

    async fn touch_api_key(
        &self,
        secret_hash: &SecretHash,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let result = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(api_key_pk(secret_hash.as_str()), API_KEY_SK)))
            .update_expression("SET lastUsedAt = :at")
            .condition_expression("attribute_exists(PK)")
            .expression_attribute_values(
                ":at",
                s(at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
            )
            .send()
            .await;
        // A key revoked meanwhile has nothing left to touch.
        condition_held(result)?;
        Ok(())
    }
}
