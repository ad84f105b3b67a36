//! An account's Search Console connection and the consent flows it has begun.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::StoreError;
use crate::domain::{SearchConsoleProperty, SecretHash, UserId};
use crate::service::search_console::SealedCredential;

/// A consent flow begun and not yet finished, stored under its `state`'s hash until it
/// expires or its callback redeems it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingAuthorization {
    pub owner: UserId,
    /// The session that began it, when a browser session did: the callback must come on it.
    pub session: Option<String>,
    /// The PKCE verifier, sealed: useless without the code, still never stored in clear.
    pub code_verifier: SealedCredential,
    pub redirect_uri: String,
    pub expires_at: DateTime<Utc>,
}

/// An account's connection: whose Google account, the sealed credential, and the properties
/// it saw when last asked (jobs check a named property against these without Google).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchConsoleConnection {
    pub owner: UserId,
    pub email: String,
    pub credential: SealedCredential,
    pub properties: Vec<SearchConsoleProperty>,
    pub connected_at: DateTime<Utc>,
    pub checked_at: DateTime<Utc>,
    /// Why Google last refused the grant (revoked, expired); `None` while it works.
    pub lapsed: Option<String>,
}

#[async_trait]
pub trait SearchConsoleStore: Send + Sync {
    async fn put_authorization(
        &self,
        state: &SecretHash,
        pending: &PendingAuthorization,
    ) -> Result<(), StoreError>;
    /// Removes and returns the flow: a state is redeemed once, even by callbacks racing.
    async fn take_authorization(
        &self,
        state: &SecretHash,
    ) -> Result<Option<PendingAuthorization>, StoreError>;
    /// Stores the account's connection, replacing any earlier one.
    async fn put_connection(&self, connection: &SearchConsoleConnection) -> Result<(), StoreError>;
    async fn connection(
        &self,
        owner: UserId,
    ) -> Result<Option<SearchConsoleConnection>, StoreError>;
    /// `false` when there was none.
    async fn delete_connection(&self, owner: UserId) -> Result<bool, StoreError>;
}
