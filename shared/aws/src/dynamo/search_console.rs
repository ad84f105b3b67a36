use async_trait::async_trait;
use aws_sdk_dynamodb::types::ReturnValue;
use serde::{Deserialize, Serialize};

use super::keys::{search_console_flow_pk, user_pk, SEARCH_CONSOLE_FLOW_SK, SEARCH_CONSOLE_SK};
use super::{from_item, key, sdk_error, to_item, DynamoStore};
use kr_core::domain::{SecretHash, UserId};
use kr_core::store::{
    PendingAuthorization, SearchConsoleConnection, SearchConsoleStore, StoreError,
};

#[derive(Serialize, Deserialize)]
struct FlowItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    #[serde(flatten)]
    pending: PendingAuthorization,
    /// DynamoDB's TTL deletes the item some time after expiry; the use case checks `expiresAt`.
    ttl: i64,
}

#[derive(Serialize, Deserialize)]
struct ConnectionItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    #[serde(flatten)]
    connection: SearchConsoleConnection,
}

#[async_trait]
impl SearchConsoleStore for DynamoStore {
    async fn put_authorization(
        &self,
        state: &SecretHash,
        pending: &PendingAuthorization,
    ) -> Result<(), StoreError> {
        let item = to_item(&FlowItem {
            pk: search_console_flow_pk(state),
            sk: SEARCH_CONSOLE_FLOW_SK.into(),
            pending: pending.clone(),
            ttl: pending.expires_at.timestamp(),
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

    async fn take_authorization(
        &self,
        state: &SecretHash,
    ) -> Result<Option<PendingAuthorization>, StoreError> {
        // One delete that answers what it deleted: of two callbacks racing with one state,
        // only one gets the flow back.
        let output = self
            .client
            .delete_item()
            .table_name(&self.table)
            .set_key(Some(key(
                search_console_flow_pk(state),
                SEARCH_CONSOLE_FLOW_SK,
            )))
            .return_values(ReturnValue::AllOld)
            .send()
            .await
            .map_err(sdk_error)?;
        match output.attributes {
            Some(item) if !item.is_empty() => Ok(Some(from_item::<FlowItem>(item)?.pending)),
            _ => Ok(None),
        }
    }

    async fn put_connection(&self, connection: &SearchConsoleConnection) -> Result<(), StoreError> {
        let item = to_item(&ConnectionItem {
            pk: user_pk(connection.owner),
            sk: SEARCH_CONSOLE_SK.into(),
            connection: connection.clone(),
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

    async fn connection(
        &self,
        owner: UserId,
    ) -> Result<Option<SearchConsoleConnection>, StoreError> {
        let item = self.get(key(user_pk(owner), SEARCH_CONSOLE_SK)).await?;
        item.map(|item| from_item::<ConnectionItem>(item).map(|item| item.connection))
            .transpose()
    }

    async fn delete_connection(&self, owner: UserId) -> Result<bool, StoreError> {
        let output = self
            .client
            .delete_item()
            .table_name(&self.table)
            .set_key(Some(key(user_pk(owner), SEARCH_CONSOLE_SK)))
            .return_values(ReturnValue::AllOld)
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(output.attributes.is_some_and(|item| !item.is_empty()))
    }
}
