//! The port to Google: OAuth 2.0 (consent, code, refresh, revoke) and the Search Console
//! API. `kr-google` implements it on Google's endpoints (or the local mock standing in).

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::domain::SearchConsoleProperty;

/// What the account gave the service: an OAuth grant's refresh token, or a service account's
/// key (uploaded as Google's JSON key file). Never logged, never answered, stored only sealed
/// (`CredentialKey`).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum GoogleCredential {
    #[serde(rename_all = "camelCase")]
    OAuth { refresh_token: String },
    /// A service account's key: the service signs its own JWT bearer assertions (RFC 7523).
    /// `token_uri` is the key file's, kept for reference only: tokens are asked of the
    /// configured token endpoint, never of a URL an upload names.
    #[serde(rename_all = "camelCase")]
    ServiceAccount {
        client_email: String,
        private_key_pem: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token_uri: Option<String>,
    },
}

impl std::fmt::Debug for GoogleCredential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::OAuth { .. } => f.write_str("GoogleCredential::OAuth(…)"),
            Self::ServiceAccount { .. } => f.write_str("GoogleCredential::ServiceAccount(…)"),
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

    pub fn kind(&self) -> CredentialKind {
        match self {
            Self::OAuth { .. } => CredentialKind::OAuth,
            Self::ServiceAccount { .. } => CredentialKind::ServiceAccount,
        }
    }
}

/// Which kind of connection an account has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CredentialKind {
    OAuth,
    ServiceAccount,
}

impl CredentialKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::OAuth => "oauth",
            Self::ServiceAccount => "serviceAccount",
        }
    }
}

/// A field of an uploaded service-account key file that is missing or wrong, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct KeyRefusal {
    pub field: &'static str,
    pub reason: String,
}

impl KeyRefusal {
    fn new(field: &'static str, reason: impl Into<String>) -> Self {
        Self {
            field,
            reason: reason.into(),
        }
    }
}

/// Reads Google's service-account JSON key file: `type` must be `service_account`, with
/// `client_email`, `private_key` (PEM) and `private_key_id`. Refusals name the field.
pub fn parse_service_account_key(json: &str) -> Result<GoogleCredential, KeyRefusal> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|_| {
        KeyRefusal::new(
            "body",
            "is not a JSON key file (download one from the service account's Keys tab)",
        )
    })?;
    let Some(object) = value.as_object() else {
        return Err(KeyRefusal::new(
            "body",
            "must be a JSON object (the key file)",
        ));
    };
    let text = |field: &'static str| -> Result<String, KeyRefusal> {
        match object.get(field) {
            Some(serde_json::Value::String(s)) if !s.trim().is_empty() => Ok(s.trim().to_string()),
            Some(_) => Err(KeyRefusal::new(field, "must be a non-empty string")),
            None => Err(KeyRefusal::new(field, "is required")),
        }
    };
    let kind = text("type")?;
    if kind != "service_account" {
        return Err(KeyRefusal::new(
            "type",
            format!(
                "must be service_account (this file is {kind:?}: upload a service account's key)"
            ),
        ));
    }
    let client_email = text("client_email")?;
    let (local, domain) = client_email.split_once('@').unwrap_or(("", ""));
    if local.is_empty() || !domain.contains('.') || client_email.chars().any(char::is_whitespace) {
        return Err(KeyRefusal::new("client_email", "is not an e-mail address"));
    }
    let private_key_pem = text("private_key")?;
    let pem_header = private_key_pem.starts_with("-----BEGIN PRIVATE KEY-----")
        || private_key_pem.starts_with("-----BEGIN RSA PRIVATE KEY-----");
    if !pem_header || !private_key_pem.contains("-----END ") {
        return Err(KeyRefusal::new(
            "private_key",
            "must be the PEM private key of the key file (-----BEGIN PRIVATE KEY-----)",
        ));
    }
    text("private_key_id")?;
    let token_uri = object
        .get("token_uri")
        .and_then(|v| v.as_str())
        .map(str::to_string);
    Ok(GoogleCredential::ServiceAccount {
        client_email,
        private_key_pem,
        token_uri,
    })
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
    /// Ends the grant at Google (a service account's key is its owner's: nothing to end).
    async fn revoke(&self, credential: &GoogleCredential) -> Result<(), GoogleError>;
}
