//! `GoogleAccounts` on Google's OAuth 2.0 endpoints (the `oauth2` crate: PKCE S256, the
//! code and refresh grants; a service account's JWT bearer grant, RFC 7523, signed with
//! `jsonwebtoken`), Google's revocation endpoint, userinfo and `sites.list`.

use std::borrow::Cow;

use async_trait::async_trait;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use kr_core::domain::{PermissionLevel, PropertyUrl, SearchConsoleProperty};
use kr_core::service::search_console::{
    AccessToken, GoogleAccounts, GoogleCredential, GoogleError, Grant,
};
use oauth2::basic::{BasicClient, BasicErrorResponseType};
use oauth2::{
    AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, EndpointNotSet, EndpointSet,
    PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, RefreshToken, RequestTokenError, Scope,
    TokenResponse, TokenUrl,
};
use reqwest::Method;
use serde::{Deserialize, Serialize};

use crate::api::{call, RetryPolicy};
use crate::settings::{GoogleSettings, SCOPE};

const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/// How long a service account's assertion is valid (Google takes at most an hour).
const ASSERTION_SECONDS: i64 = 3600;

type ConfiguredClient =
    BasicClient<EndpointSet, EndpointNotSet, EndpointNotSet, EndpointNotSet, EndpointSet>;

/// Google, as an account connects it and the service then uses it.
pub struct Google {
    settings: GoogleSettings,
    client: ConfiguredClient,
    pub(crate) http: reqwest::Client,
    pub(crate) retry: RetryPolicy,
}

impl Google {
    pub fn new(settings: GoogleSettings) -> Result<Self, String> {
        let client = BasicClient::new(ClientId::new(settings.client_id.clone()))
            .set_client_secret(ClientSecret::new(settings.client_secret.clone()))
            .set_auth_uri(AuthUrl::new(settings.auth_url.clone()).map_err(|e| e.to_string())?)
            .set_token_uri(TokenUrl::new(settings.token_url.clone()).map_err(|e| e.to_string())?);
        let http = reqwest::Client::builder()
            // Following redirects would let a token endpoint send our secrets elsewhere.
            .redirect(reqwest::redirect::Policy::none())
            .timeout(std::time::Duration::from_secs(30))
            .build()
            .map_err(|err| err.to_string())?;
        Ok(Self {
            settings,
            client,
            http,
            retry: RetryPolicy::default(),
        })
    }

    /// Shorter waits between retries (tests).
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    pub(crate) fn api_url(&self, path: &str) -> String {
        format!("{}{path}", self.settings.api_url)
    }
}

fn redirect(uri: &str) -> Result<RedirectUrl, GoogleError> {
    RedirectUrl::new(uri.to_string())
        .map_err(|err| GoogleError::Unavailable(format!("the redirect URI is not a URL: {err}")))
}

fn token_error<RE: std::error::Error>(
    err: RequestTokenError<RE, oauth2::basic::BasicErrorResponse>,
) -> GoogleError {
    match err {
        RequestTokenError::ServerResponse(response) => {
            let description = response
                .error_description()
                .cloned()
                .unwrap_or_else(|| response.error().to_string());
            match response.error() {
                BasicErrorResponseType::InvalidGrant => GoogleError::GrantRefused(description),
                other => GoogleError::Unavailable(format!("{other}: {description}")),
            }
        }
        RequestTokenError::Request(err) => {
            GoogleError::Unavailable(format!("no answer from the token endpoint: {err}"))
        }
        RequestTokenError::Parse(err, _) => {
            GoogleError::Unavailable(format!("unreadable token answer: {err}"))
        }
        RequestTokenError::Other(other) => GoogleError::Unavailable(other),
    }
}

/// The claims of a service account's JWT bearer assertion (RFC 7523, as Google documents it).
#[derive(Serialize)]
struct AssertionClaims<'a> {
    iss: &'a str,
    scope: &'a str,
    aud: &'a str,
    iat: i64,
    exp: i64,
}

#[derive(Deserialize)]
struct TokenAnswer {
    access_token: String,
}

#[derive(Deserialize)]
struct TokenRefusal {
    error: String,
    #[serde(default)]
    error_description: Option<String>,
}

impl Google {
    /// The JWT bearer grant: an RS256 assertion signed with the service account's key, valid
    /// for an hour, for the read-only Search Console scope, posted to the configured token
    /// endpoint (never to the `token_uri` an uploaded key names).
    async fn service_account_token(
        &self,
        client_email: &str,
        private_key_pem: &str,
    ) -> Result<AccessToken, GoogleError> {
        let key = EncodingKey::from_rsa_pem(private_key_pem.as_bytes()).map_err(|_| {
            GoogleError::GrantRefused("the private key is not an RSA key in PEM".into())
        })?;
        let now = chrono::Utc::now().timestamp();
        let claims = AssertionClaims {
            iss: client_email,
            scope: SCOPE,
            aud: &self.settings.token_url,
            iat: now,
            exp: now + ASSERTION_SECONDS,
        };
        let assertion = jsonwebtoken::encode(&Header::new(Algorithm::RS256), &claims, &key)
            .map_err(|_| GoogleError::GrantRefused("the private key did not sign".into()))?;
        let response = self
            .http
            .post(&self.settings.token_url)
            .form(&[
                ("grant_type", JWT_BEARER),
                ("assertion", assertion.as_str()),
            ])
            .send()
            .await
            .map_err(|err| {
                GoogleError::Unavailable(format!("no answer from the token endpoint: {err}"))
            })?;
        let status = response.status();
        let body = response.bytes().await.map_err(|err| {
            GoogleError::Unavailable(format!("no answer from the token endpoint: {err}"))
        })?;
        if status.is_success() {
            let answer: TokenAnswer = serde_json::from_slice(&body).map_err(|err| {
                GoogleError::Unavailable(format!("unreadable token answer: {err}"))
            })?;
            return Ok(AccessToken(answer.access_token));
        }
        match serde_json::from_slice::<TokenRefusal>(&body) {
            Ok(refusal) if refusal.error == "invalid_grant" => Err(GoogleError::GrantRefused(
                refusal.error_description.unwrap_or(refusal.error),
            )),
            Ok(refusal) => Err(GoogleError::Unavailable(format!(
                "{}: {}",
                refusal.error,
                refusal.error_description.unwrap_or_default()
            ))),
            Err(_) => Err(GoogleError::Unavailable(format!(
                "the token endpoint answered {status}"
            ))),
        }
    }
}

#[derive(Deserialize)]
struct UserInfo {
    email: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SiteEntry {
    site_url: String,
    permission_level: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SitesList {
    #[serde(default)]
    site_entry: Vec<SiteEntry>,
}

#[async_trait]
impl GoogleAccounts for Google {
    fn authorization_url(
        &self,
        state: &str,
        code_verifier: &str,
        redirect_uri: &str,
    ) -> Result<String, GoogleError> {
        let challenge = PkceCodeChallenge::from_code_verifier_sha256(&PkceCodeVerifier::new(
            code_verifier.to_string(),
        ));
        let state = state.to_string();
        let (url, _) = self
            .client
            .authorize_url(move || CsrfToken::new(state))
            .set_redirect_uri(Cow::Owned(redirect(redirect_uri)?))
            .add_scope(Scope::new("openid".into()))
            .add_scope(Scope::new("email".into()))
            .add_scope(Scope::new(SCOPE.into()))
            .set_pkce_challenge(challenge)
            // A refresh token, and a new one each time the account connects again.
            .add_extra_param("access_type", "offline")
            .add_extra_param("prompt", "consent")
            .url();
        Ok(url.to_string())
    }

    async fn redeem_code(
        &self,
        code: &str,
        code_verifier: &str,
        redirect_uri: &str,
    ) -> Result<Grant, GoogleError> {
        let tokens = self
            .client
            .exchange_code(AuthorizationCode::new(code.to_string()))
            .set_pkce_verifier(PkceCodeVerifier::new(code_verifier.to_string()))
            .set_redirect_uri(Cow::Owned(redirect(redirect_uri)?))
            .request_async(&self.http)
            .await
            .map_err(token_error)?;
        let refresh_token = tokens.refresh_token().ok_or_else(|| {
            GoogleError::Unavailable("Google granted access without a refresh token".into())
        })?;
        Ok(Grant {
            credential: GoogleCredential::OAuth {
                refresh_token: refresh_token.secret().clone(),
            },
            access: AccessToken(tokens.access_token().secret().clone()),
        })
    }

    async fn access_token(
        &self,
        credential: &GoogleCredential,
    ) -> Result<AccessToken, GoogleError> {
        let refresh_token = match credential {
            GoogleCredential::OAuth { refresh_token } => refresh_token,
            GoogleCredential::ServiceAccount {
                client_email,
                private_key_pem,
                ..
            } => {
                return self
                    .service_account_token(client_email, private_key_pem)
                    .await
            }
        };
        let tokens = self
            .client
            .exchange_refresh_token(&RefreshToken::new(refresh_token.clone()))
            .request_async(&self.http)
            .await
            .map_err(token_error)?;
        Ok(AccessToken(tokens.access_token().secret().clone()))
    }

    async fn account_email(&self, token: &AccessToken) -> Result<String, GoogleError> {
        let info: UserInfo = call(
            &self.http,
            self.retry,
            Method::GET,
            &self.settings.userinfo_url,
            token,
            None,
        )
        .await?;
        Ok(info.email)
    }

    async fn properties(
        &self,
        token: &AccessToken,
    ) -> Result<Vec<SearchConsoleProperty>, GoogleError> {
        let url = self.api_url("/webmasters/v3/sites");
        let list: SitesList = call(&self.http, self.retry, Method::GET, &url, token, None).await?;
        let mut properties: Vec<SearchConsoleProperty> = list
            .site_entry
            .into_iter()
            .filter_map(|entry| {
                let parsed = PropertyUrl::parse(&entry.site_url)
                    .ok()
                    .zip(entry.permission_level.parse::<PermissionLevel>().ok());
                if parsed.is_none() {
                    tracing::warn!(site = %entry.site_url, "a Search Console site was not understood");
                }
                parsed.map(|(site_url, permission_level)| SearchConsoleProperty {
                    site_url,
                    permission_level,
                })
            })
            .collect();
        properties.sort_by(|a, b| a.site_url.cmp(&b.site_url));
        Ok(properties)
    }

    /// Google's revocation endpoint takes the token alone (no client authentication); posted
    /// here rather than through the `oauth2` crate, which refuses a non-HTTPS endpoint (the
    /// local mock is plain HTTP).
    ///
    /// A service account's key belongs to its owner (deleted in Google Cloud's console, not
    /// here): nothing is revoked at Google; the caller forgets what it stored.
    async fn revoke(&self, credential: &GoogleCredential) -> Result<(), GoogleError> {
        let refresh_token = match credential {
            GoogleCredential::OAuth { refresh_token } => refresh_token,
            GoogleCredential::ServiceAccount { .. } => return Ok(()),
        };
        let response = self
            .http
            .post(&self.settings.revoke_url)
            .form(&[("token", refresh_token.as_str())])
            .send()
            .await
            .map_err(|err| GoogleError::Unavailable(format!("no answer from revoke: {err}")))?;
        let status = response.status();
        if status.is_success() {
            return Ok(());
        }
        let body = response.text().await.unwrap_or_default();
        // `invalid_token`: Google no longer knows the grant (revoked or expired already).
        if status == reqwest::StatusCode::BAD_REQUEST && body.contains("invalid_token") {
            return Err(GoogleError::GrantRefused(
                "Google no longer knows the grant".into(),
            ));
        }
        Err(GoogleError::Unavailable(format!(
            "revocation answered {status}"
        )))
    }
}
