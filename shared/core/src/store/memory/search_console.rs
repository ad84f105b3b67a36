//! Search Console connections and consent flows.
//!
//! Semantics kept from the adapter (`shared/aws/src/dynamo/search_console.rs`): taking a flow
//! removes it in the same step (a conditional delete that returns the item), so two callbacks
//! with one state cannot both redeem it; expired flows stay until read (TTL) and readers check
//! the expiry.

use async_trait::async_trait;

use super::MemoryStore;
use crate::domain::{SecretHash, UserId};
use crate::store::{PendingAuthorization, SearchConsoleConnection, SearchConsoleStore, StoreError};

#[async_trait]
impl SearchConsoleStore for MemoryStore {
    async fn put_authorization(
        &self,
        state: &SecretHash,
        pending: &PendingAuthorization,
    ) -> Result<(), StoreError> {
        self.faults.check("put_authorization")?;
        self.state()
            .search_console_flows
            .insert(state.clone(), pending.clone());
        Ok(())
    }

    async fn take_authorization(
        &self,
        state: &SecretHash,
    ) -> Result<Option<PendingAuthorization>, StoreError> {
        self.faults.check("take_authorization")?;
        Ok(self.state().search_console_flows.remove(state))
    }

    async fn put_connection(&self, connection: &SearchConsoleConnection) -> Result<(), StoreError> {
        self.faults.check("put_connection")?;
        self.state()
            .search_console
            .insert(connection.owner, connection.clone());
        Ok(())
    }

    async fn connection(
        &self,
        owner: UserId,
    ) -> Result<Option<SearchConsoleConnection>, StoreError> {
        self.faults.check("connection")?;
        Ok(self.state().search_console.get(&owner).cloned())
    }

    async fn delete_connection(&self, owner: UserId) -> Result<bool, StoreError> {
        self.faults.check("delete_connection")?;
        Ok(self.state().search_console.remove(&owner).is_some())
    }
}
