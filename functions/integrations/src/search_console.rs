//! `/integrations/search-console`: an account connects Google Search Console (OAuth 2.0 with
//! PKCE, or a service account's JSON key), reads what it sees, and disconnects. The rules are `kr_core::service::search_console`;
//! here, HTTP only.

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use chrono::{DateTime, Utc};
use kr_core::domain::{SearchConsoleProperty, SecretHash, UserId};
use kr_core::service::search_console::{
    begin_connection, complete_connection, connect_service_account, connection_kind,
    disconnect as end_connection, refresh_connection, CredentialKind, GoogleError,
    SearchConsoleError,
};
use kr_core::store::SearchConsoleConnection;
use kr_google::Google;
use kr_http::absolute_url::absolute_url;
use kr_http::auth::{AuthMethod, PresentedCredentials, Principal};
use kr_http::error::{ErrorBody, ErrorCode};
use kr_http::extract::{read_body_capped, CurrentUser, JsonBody};
use kr_http::ApiError;
use serde::Serialize;
use utoipa::ToSchema;

use crate::IntegrationsState;

/// The dashboard page Google sends the browser back to (the OAuth redirect URI, on the origin
/// the request came to; register it with the Google OAuth client).
pub const CALLBACK_PAGE: &str = "/settings/search-console/callback";

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuthorizationStarted {
    /// Google's consent page: open it in the browser signed in to this account. Google then
    /// sends the browser to the dashboard's `/settings/search-console/callback`, which
    /// finishes the connection. Valid for 10 minutes, once.
    #[schema(example = "https://accounts.google.com/o/oauth2/v2/auth?response_type=code&…")]
    authorization_url: String,
}

/// A Search Console property the connected Google account sees.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PropertyView {
    /// As Google writes it: `sc-domain:example.com` or `https://www.example.com/`. A job
    /// names it in `searchConsoleProperty`.
    #[schema(example = "sc-domain:example.com")]
    site_url: String,
    /// `siteOwner`, `siteFullUser`, `siteRestrictedUser` or `siteUnverifiedUser` (which
    /// reads no data, so no job may name it).
    #[schema(example = "siteOwner")]
    permission_level: String,
}

impl From<&SearchConsoleProperty> for PropertyView {
    fn from(property: &SearchConsoleProperty) -> Self {
        Self {
            site_url: property.site_url.to_string(),
            permission_level: property.permission_level.as_str().to_string(),
        }
    }
}

/// A service-account key file may be this large (Google's are about 2.3 KB).
pub const MAX_KEY_FILE_BYTES: usize = 16 * 1024;

/// How the account connected.
#[derive(Serialize, ToSchema, Clone, Copy)]
pub enum ConnectionKind {
    /// An OAuth grant from a Google account (the consent flow).
    #[serde(rename = "oauth")]
    OAuth,
    /// A service account's uploaded JSON key.
    #[serde(rename = "serviceAccount")]
    ServiceAccount,
}

impl From<CredentialKind> for ConnectionKind {
    fn from(kind: CredentialKind) -> Self {
        match kind {
            CredentialKind::OAuth => Self::OAuth,
            CredentialKind::ServiceAccount => Self::ServiceAccount,
        }
    }
}

/// The account's Search Console connection.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SearchConsoleStatus {
    connected: bool,
    /// `oauth` (a Google account's grant) or `serviceAccount` (an uploaded key); absent when
    /// not connected.
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<ConnectionKind>,
    /// The Google account that granted access, or the service account's e-mail (add it as
    /// a user of the property in Search Console).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "owner@example.com")]
    email: Option<String>,
    /// The properties it sees, by `siteUrl`; empty when not connected.
    properties: Vec<PropertyView>,
    /// Set when Google refuses the grant (revoked by the Google account, expired): jobs then
    /// complete without Search Console data until the account connects again.
    #[serde(skip_serializing_if = "Option::is_none")]
    lapsed: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, format = DateTime)]
    connected_at: Option<DateTime<Utc>>,
    /// When the properties were last read from Google.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, format = DateTime)]
    checked_at: Option<DateTime<Utc>>,
}

impl SearchConsoleStatus {
    fn of(connection: Option<&SearchConsoleConnection>, kind: Option<ConnectionKind>) -> Self {
        let Some(connection) = connection else {
            return Self {
                connected: false,
                kind: None,
                email: None,
                properties: Vec::new(),
                lapsed: None,
                connected_at: None,
                checked_at: None,
            };
        };
        Self {
            connected: true,
            kind,
            email: Some(connection.email.clone()),
            properties: connection
                .properties
                .iter()
                .map(PropertyView::from)
                .collect(),
            lapsed: connection.lapsed.clone(),
            connected_at: Some(connection.connected_at),
            checked_at: Some(connection.checked_at),
        }
    }
}

/// The body of `POST /integrations/search-console/callback`: what Google put on the
/// redirect URI's query string.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct CallbackRequest {
    /// The authorization code.
    #[schema(min_length = 1, max_length = 2048)]
    code: String,
    /// The `state` Google sent back.
    #[schema(min_length = 1, max_length = 256)]
    state: String,
}

async fn google(state: &IntegrationsState) -> Result<&Google, ApiError> {
    state.google.google().await?.ok_or_else(|| {
        ApiError::new(
            ErrorCode::UpstreamUnavailable,
            "Search Console is not configured on this deployment (no Google OAuth client).",
        )
    })
}

/// The session a cookie request came on: a consent flow begun in a browser must end there.
fn session_of(principal: &Principal, headers: &HeaderMap) -> Option<SecretHash> {
    match (
        principal.method,
        PresentedCredentials::from_headers(headers),
    ) {
        (AuthMethod::Session, PresentedCredentials::Session(token)) => Some(token.hash()),
        _ => None,
    }
}

fn refused(err: SearchConsoleError) -> ApiError {
    match err {
        SearchConsoleError::StateMismatch => ApiError::field("state", err.to_string()),
        SearchConsoleError::CodeRefused(_) => ApiError::field(
            "code",
            "Google refused the authorization code (used, expired, or not from this flow). Connect again.",
        ),
        SearchConsoleError::KeyRefused(refusal) => ApiError::field(refusal.field, refusal.reason),
        SearchConsoleError::NotConnected => ApiError::not_found("Search Console connection"),
        SearchConsoleError::Google(GoogleError::NotConfigured) => ApiError::new(
            ErrorCode::UpstreamUnavailable,
            "Search Console is not configured on this deployment (no Google OAuth client).",
        ),
        SearchConsoleError::Google(cause) => {
            tracing::warn!(error = %cause, "Google failed");
            ApiError::new(
                ErrorCode::UpstreamUnavailable,
                "Google did not answer as expected. Try again in a minute.",
            )
        }
        SearchConsoleError::Sealing(cause) => ApiError::internal(cause),
        SearchConsoleError::Store(cause) => cause.into(),
    }
}

/// Begins connecting Google Search Console: answers Google's consent page, asking for
/// read-only Search Console access with a refresh token (OAuth 2.0 authorization code with
/// PKCE S256). The `state` in it is bound to this account, and to the browser session when
/// the request came with the session cookie. Connecting again replaces (and revokes) the
/// earlier grant.
#[utoipa::path(
    post,
    path = "/api/v1/integrations/search-console",
    tag = "integrations",
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 201, description = "Open `authorizationUrl` in a browser", body = AuthorizationStarted),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 403, description = "A cross-origin cookie request", body = ErrorBody),
        (status = 503, description = "No Google OAuth client is configured", body = ErrorBody),
    )
)]
pub async fn connect(
    State(state): State<IntegrationsState>,
    CurrentUser(principal): CurrentUser,
    headers: HeaderMap,
) -> Result<(StatusCode, Json<AuthorizationStarted>), ApiError> {
    let google = google(&state).await?;
    let key = state.google.key().await?;
    let redirect_uri = absolute_url(&headers, CALLBACK_PAGE);
    let session = session_of(&principal, &headers);
    let authorization_url = begin_connection(
        state.search_console.as_ref(),
        google,
        key,
        principal.user_id,
        session.as_ref(),
        &redirect_uri,
        Utc::now(),
    )
    .await
    .map_err(refused)?;
    Ok((
        StatusCode::CREATED,
        Json(AuthorizationStarted { authorization_url }),
    ))
}

/// Finishes connecting: the dashboard's callback page posts what Google put on its query
/// string. The `state` is redeemed once, by the account (and session) that began the flow,
/// within 10 minutes; the code is redeemed at Google with the flow's PKCE verifier. The grant
/// is stored sealed (AES-256-GCM, bound to the account) and never answered.
#[utoipa::path(
    post,
    path = "/api/v1/integrations/search-console/callback",
    tag = "integrations",
    request_body = CallbackRequest,
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "Connected", body = SearchConsoleStatus),
        (status = 400, description = "The state is unknown, used, expired or another session's; or Google refused the code", body = ErrorBody),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 403, description = "A cross-origin cookie request", body = ErrorBody),
        (status = 503, description = "Google did not answer, or no OAuth client is configured", body = ErrorBody),
    )
)]
pub async fn callback(
    State(state): State<IntegrationsState>,
    CurrentUser(principal): CurrentUser,
    headers: HeaderMap,
    body: JsonBody,
) -> Result<Json<SearchConsoleStatus>, ApiError> {
    let code = bounded(&body, "code", 2048)?;
    let flow_state = bounded(&body, "state", 256)?;
    let google = google(&state).await?;
    let key = state.google.key().await?;
    let session = session_of(&principal, &headers);
    let connection = complete_connection(
        state.search_console.as_ref(),
        google,
        key,
        principal.user_id,
        session.as_ref(),
        &flow_state,
        &code,
        Utc::now(),
    )
    .await
    .map_err(refused)?;
    Ok(Json(SearchConsoleStatus::of(
        Some(&connection),
        Some(ConnectionKind::OAuth),
    )))
}

/// Connects with a service account instead of a Google account's consent (agencies are
/// often given access that way): the body is the service account's JSON key file as Google
/// Cloud's console downloads it (`type` `service_account`, `client_email`, `private_key`,
/// `private_key_id`), at most 16 KiB. The service gets an access token with it (the JWT
/// bearer grant) and lists the properties the service account sees; add its e-mail as a
/// user of the property in Search Console first. The key is stored sealed exactly like an
/// OAuth grant and never answered; it replaces (and revokes) an earlier connection.
/// Disconnecting forgets the key (it is not deleted at Google: delete it in Google Cloud).
#[utoipa::path(
    put,
    path = "/api/v1/integrations/search-console/service-account",
    tag = "integrations",
    request_body(content = Object, description = "The service account's JSON key file", content_type = "application/json"),
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "Connected as the service account", body = SearchConsoleStatus),
        (status = 400, description = "Not a service-account key (the field is named: `body`, `type`, `client_email`, `private_key`, `private_key_id`), or Google refused the key (`client_email`: unknown service account, deleted key, bad signature)", body = ErrorBody),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 403, description = "A cross-origin cookie request", body = ErrorBody),
        (status = 413, description = "The body is larger than 16 KiB", body = ErrorBody),
        (status = 503, description = "Google did not answer, or Search Console is not configured", body = ErrorBody),
    )
)]
pub async fn service_account(
    State(state): State<IntegrationsState>,
    CurrentUser(principal): CurrentUser,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<SearchConsoleStatus>, ApiError> {
    let bytes = read_body_capped(&headers, body, MAX_KEY_FILE_BYTES).await?;
    let key_json = String::from_utf8(bytes.to_vec())
        .map_err(|_| ApiError::field("body", "is not a JSON key file (not UTF-8 text)"))?;
    let google = google(&state).await?;
    let key = state.google.key().await?;
    let connection = connect_service_account(
        state.search_console.as_ref(),
        google,
        key,
        principal.user_id,
        &key_json,
        Utc::now(),
    )
    .await
    .map_err(refused)?;
    Ok(Json(SearchConsoleStatus::of(
        Some(&connection),
        Some(ConnectionKind::ServiceAccount),
    )))
}

/// Which kind of connection is stored (`None` when the key cannot be read now).
async fn kind_of(
    state: &IntegrationsState,
    connection: Option<&SearchConsoleConnection>,
) -> Option<ConnectionKind> {
    let connection = connection?;
    let key = state.google.key().await.ok()?;
    connection_kind(key, connection)
        .ok()
        .map(ConnectionKind::from)
}

fn bounded(body: &JsonBody, field: &str, max_chars: usize) -> Result<String, ApiError> {
    let value = body.required_str(field)?;
    if value.chars().count() > max_chars {
        return Err(ApiError::field(
            field,
            format!("must be at most {max_chars} characters"),
        ));
    }
    Ok(value.to_string())
}

/// The account's connection: the Google account and the properties it sees, read from
/// Google again on each call (the stored list when Google does not answer). A grant Google
/// now refuses is reported in `lapsed`.
#[utoipa::path(
    get,
    path = "/api/v1/integrations/search-console",
    tag = "integrations",
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The connection (`connected: false` when none)", body = SearchConsoleStatus),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
    )
)]
pub async fn status(
    State(state): State<IntegrationsState>,
    CurrentUser(principal): CurrentUser,
) -> Result<Json<SearchConsoleStatus>, ApiError> {
    let owner: UserId = principal.user_id;
    let stored = state.search_console.connection(owner).await?;
    if stored.is_none() {
        return Ok(Json(SearchConsoleStatus::of(None, None)));
    }
    let kind = kind_of(&state, stored.as_ref()).await;
    let Some(google) = state.google.google().await? else {
        return Ok(Json(SearchConsoleStatus::of(stored.as_ref(), kind)));
    };
    let key = state.google.key().await?;
    let store = state.search_console.as_ref();
    match refresh_connection(store, google, key, owner, Utc::now()).await {
        Ok(connection) => Ok(Json(SearchConsoleStatus::of(connection.as_ref(), kind))),
        Err(SearchConsoleError::Google(cause)) => {
            tracing::warn!(error = %cause, "Google did not list the properties; answering the stored list");
            Ok(Json(SearchConsoleStatus::of(stored.as_ref(), kind)))
        }
        Err(other) => Err(refused(other)),
    }
}

/// Disconnects: revokes the grant at Google and deletes what is stored (a service account's
/// key is only forgotten: it is its owner's to delete in Google Cloud). Jobs already
/// running finish without Search Console data.
#[utoipa::path(
    delete,
    path = "/api/v1/integrations/search-console",
    tag = "integrations",
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 204, description = "Revoked and deleted"),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 403, description = "A cross-origin cookie request", body = ErrorBody),
        (status = 404, description = "The account has no connection", body = ErrorBody),
        (status = 503, description = "Google did not answer; nothing was deleted", body = ErrorBody),
    )
)]
pub async fn disconnect(
    State(state): State<IntegrationsState>,
    CurrentUser(principal): CurrentUser,
) -> Result<StatusCode, ApiError> {
    let google = google(&state).await?;
    let key = state.google.key().await?;
    match end_connection(
        state.search_console.as_ref(),
        google,
        key,
        principal.user_id,
    )
    .await
    {
        Ok(true) => Ok(StatusCode::NO_CONTENT),
        Ok(false) => Err(ApiError::not_found("Search Console connection")),
        Err(err) => Err(refused(err)),
    }
}
