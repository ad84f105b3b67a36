use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::keys::{session_pk, SESSION_SK};
use super::{from_item, key, sdk_error, to_item, DynamoStore};
use kr_core::domain::{SecretHash, UserId};
use kr_core::store::{Session, SessionStore, StoreError};

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SessionItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    user_id: UserId,
    expires_at: DateTime<Utc>,
    /// DynamoDB's TTL deletes the item some time after expiry; reads check `expiresAt`.
    ttl: i64,
}

#[async_trait]
impl SessionStore for DynamoStore {
    async fn create_session(
        &self,
        token_hash: &SecretHash,
        session: &Session,
    ) -> Result<(), StoreError> {
        let item = to_item(&SessionItem {
            pk: session_pk(token_hash),
            sk: SESSION_SK.into(),
            user_id: session.user_id,
            expires_at: session.expires_at,
            ttl: session.expires_at.timestamp(),
        })?;
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item))
            .condition_expression("attribute_not_exists(PK)")
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(())
    }

    async fn resolve_session(
        &self,
        token_hash: &SecretHash,
        now: DateTime<Utc>,
    ) -> Result<Option<Session>, StoreError> {
        let item = self.get(key(session_pk(token_hash), SESSION_SK)).await?;
        let Some(item) = item else {
            return Ok(None);
        };
        let item: SessionItem = from_item(item)?;
        Ok((item.expires_at > now).then_some(Session {
            user_id: item.user_id,
            expires_at: item.expires_at,
        }))
    }

    async fn delete_session(&self, token_hash: &SecretHash) -> Result<(), StoreError> {
        self.client
            .delete_item()
            .table_name(&self.table)
            .set_key(Some(key(session_pk(token_hash), SESSION_SK)))
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(())
    }
}
