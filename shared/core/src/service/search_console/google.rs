//! The port to Google: OAuth 2.0 (consent, code, refresh, revoke) and the Search Console
//! API. `kr-google` implements it on Google's endpoints (or the local mock standing in).

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::domain::SearchConsoleProperty;

/// What the account gave the service: an OAuth grant's refresh token. Never logged, never
/// answered, stored only sealed (`CredentialKey`).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum GoogleCredential {
    #[serde(rename_all = "camelCase")]
    OAuth { refresh_token: String },
}

impl std::fmt::Debug for GoogleCredential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::OAuth { .. } => f.write_str("GoogleCredential::OAuth(…)"),
        }
    }
}

impl GoogleCredential {
    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("a credential serialises")
    }

    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        serde_json::from_slice(bytes).ok()
    }
}

/// A short-lived bearer token for Google's APIs.
#[derive(Clone)]
pub struct AccessToken(pub String);

impl std::fmt::Debug for AccessToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AccessToken(…)")
    }
}

/// An authorization code redeemed.
#[derive(Debug, Clone)]
pub struct Grant {
    pub credential: GoogleCredential,
    pub access: AccessToken,
}

#[derive(Debug, thiserror::Error)]
pub enum GoogleError {
    /// Google refused the code or the grant (`invalid_grant`: used, expired or revoked): only
    /// the account connecting again helps.
    #[error("Google refused the grant: {0}")]
    GrantRefused(String),
    /// The connected account cannot read the property (403).
    #[error("Google refused access to the property: {0}")]
    PropertyRefused(String),
    /// Anything else: the network, quotas after every retry, Google's errors.
    #[error("Google's API failed: {0}")]
    Unavailable(String),
    /// No OAuth client is configured for this deployment.
    #[error("no Google OAuth client is configured (KR_GOOGLE_CLIENT_ID)")]
    NotConfigured,
}

#[async_trait]
pub trait GoogleAccounts: Send + Sync {
    /// Google's consent page for this `state`, with the PKCE S256 challenge of
    /// `code_verifier`, asking for read-only Search Console access and a refresh token.
    fn authorization_url(
        &self,
        state: &str,
        code_verifier: &str,
        redirect_uri: &str,
    ) -> Result<String, GoogleError>;
    async fn redeem_code(
        &self,
        code: &str,
        code_verifier: &str,
        redirect_uri: &str,
    ) -> Result<Grant, GoogleError>;
    async fn access_token(&self, credential: &GoogleCredential)
        -> Result<AccessToken, GoogleError>;
    /// The e-mail address of the Google account behind a token.
    async fn account_email(&self, token: &AccessToken) -> Result<String, GoogleError>;
    /// The Search Console properties the account can see (`sites.list`).
    async fn properties(
        &self,
        token: &AccessToken,
    ) -> Result<Vec<SearchConsoleProperty>, GoogleError>;
    /// Ends the grant at Google.
    async fn revoke(&self, credential: &GoogleCredential) -> Result<(), GoogleError>;
}
