//! Share links. A job has `max_live` slot items (`SHARE#00`…), each holding one link until it
//! expires or is revoked; taking a slot is a conditional put that succeeds only while the slot
//! is empty or its link has expired, so concurrent creates cannot pass the limit and an expired
//! link frees its place by itself. Beside each slot, a lookup item under the token's hash is
//! what opening the link reads.

use async_trait::async_trait;
use aws_sdk_dynamodb::types::{Delete, Put, TransactWriteItem};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::keys::{job_pk, share_pk, share_slot_sk, SHARE_SK, SHARE_SLOT_PREFIX, TTL_ATTRIBUTE};
use super::{
    failed_conditions, from_item, is_transaction_conflict, key, n, s, sdk_error, to_item,
    transaction_held, DynamoStore, Item,
};
use kr_core::domain::{JobId, SecretHash, ShareLink, ShareLinkId};
use kr_core::store::{ShareLinkStore, StoreError};

/// How long DynamoDB keeps a link's items after it expired (they are never read as live).
const KEEP_AFTER_SECS: i64 = 7 * 24 * 3600;
/// Tries of one slot when concurrent transactions keep touching it.
const CONFLICT_TRIES: u32 = 5;

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SlotItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    #[serde(flatten)]
    link: ShareLink,
    token_hash: String,
    /// `expiresAt` in milliseconds, for the condition that frees an expired slot.
    expires_at_ms: i64,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct LookupItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    #[serde(flatten)]
    link: ShareLink,
}

fn with_ttl(mut item: Item, link: &ShareLink) -> Item {
    item.insert(
        TTL_ATTRIBUTE.into(),
        n(link.expires_at.timestamp() + KEEP_AFTER_SECS),
    );
    item
}

impl DynamoStore {
    async fn slots(&self, job: JobId) -> Result<Vec<SlotItem>, StoreError> {
        self.items_with_prefix(job_pk(job), SHARE_SLOT_PREFIX)
            .await?
            .into_iter()
            .map(from_item)
            .collect()
    }

    /// Puts the link in `slot` if the slot is free at `now`: `Ok(false)` when it is not.
    async fn take_slot(
        &self,
        slot: u32,
        link: &ShareLink,
        token_hash: &SecretHash,
        now: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        let slot_item = with_ttl(
            to_item(&SlotItem {
                pk: job_pk(link.job_id),
                sk: share_slot_sk(slot),
                link: link.clone(),
                token_hash: token_hash.as_str().to_string(),
                expires_at_ms: link.expires_at.timestamp_millis(),
            })?,
            link,
        );
        let lookup = with_ttl(
            to_item(&LookupItem {
                pk: share_pk(token_hash.as_str()),
                sk: SHARE_SK.into(),
                link: link.clone(),
            })?,
            link,
        );
        let put_slot = Put::builder()
            .table_name(&self.table)
            .set_item(Some(slot_item))
            .condition_expression("attribute_not_exists(PK) OR expiresAtMs <= :now")
            .expression_attribute_values(":now", n(now.timestamp_millis()))
            .build()
            .map_err(StoreError::new)?;
        let put_lookup = Put::builder()
            .table_name(&self.table)
            .set_item(Some(lookup))
            .condition_expression("attribute_not_exists(PK)")
            .build()
            .map_err(StoreError::new)?;
        let mut tries = 0;
        loop {
            let result = self
                .client
                .transact_write_items()
                .transact_items(TransactWriteItem::builder().put(put_slot.clone()).build())
                .transact_items(TransactWriteItem::builder().put(put_lookup.clone()).build())
                .send()
                .await;
            match result {
                Ok(_) => return Ok(true),
                Err(err) if failed_conditions(&err).is_some() => return Ok(false),
                Err(err) if is_transaction_conflict(&err) && tries + 1 < CONFLICT_TRIES => {
                    tries += 1;
                    tokio::time::sleep(std::time::Duration::from_millis(20 * u64::from(tries)))
                        .await;
                }
                Err(err) => return Err(sdk_error(err)),
            }
        }
    }
}

#[async_trait]
impl ShareLinkStore for DynamoStore {
    async fn create_share_link(
        &self,
        link: &ShareLink,
        token_hash: &SecretHash,
        max_live: u32,
        now: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        // Slots seen taken are skipped; every other one is tried, in order, so a free slot is
        // never missed while concurrent creates race for the same ones.
        let taken: Vec<u32> = self
            .slots(link.job_id)
            .await?
            .iter()
            .filter(|slot| slot.link.is_live(now))
            .filter_map(|slot| slot.sk.strip_prefix(SHARE_SLOT_PREFIX)?.parse().ok())
            .collect();
        for slot in (0..max_live).filter(|slot| !taken.contains(slot)) {
            if self.take_slot(slot, link, token_hash, now).await? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    async fn list_share_links(
        &self,
        job: JobId,
        now: DateTime<Utc>,
    ) -> Result<Vec<ShareLink>, StoreError> {
        let mut links: Vec<ShareLink> = self
            .slots(job)
            .await?
            .into_iter()
            .map(|slot| slot.link)
            .filter(|link| link.is_live(now))
            .collect();
        links.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(a.id.cmp(&b.id)));
        Ok(links)
    }

    async fn revoke_share_link(&self, job: JobId, link: ShareLinkId) -> Result<bool, StoreError> {
        let Some(slot) = self
            .slots(job)
            .await?
            .into_iter()
            .find(|slot| slot.link.id == link)
        else {
            return Ok(false);
        };
        let delete_slot = Delete::builder()
            .table_name(&self.table)
            .set_key(Some(key(slot.pk, slot.sk)))
            .condition_expression("#id = :link")
            .expression_attribute_names("#id", "id")
            .expression_attribute_values(":link", s(link.to_string()))
            .build()
            .map_err(StoreError::new)?;
        let delete_lookup = Delete::builder()
            .table_name(&self.table)
            .set_key(Some(key(share_pk(&slot.token_hash), SHARE_SK)))
            .build()
            .map_err(StoreError::new)?;
        let result = self
            .client
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().delete(delete_slot).build())
            .transact_items(TransactWriteItem::builder().delete(delete_lookup).build())
            .send()
            .await;
        // Revoked concurrently, or its slot already holds another link.
        transaction_held(result)
    }

    async fn resolve_share_link(
        &self,
        token_hash: &SecretHash,
    ) -> Result<Option<ShareLink>, StoreError> {
        // Strongly consistent (`get`), so a revoked link stops working at once.
        self.get(key(share_pk(token_hash.as_str()), SHARE_SK))
            .await?
            .map(|item| from_item::<LookupItem>(item).map(|lookup| lookup.link))
            .transpose()
    }
}
