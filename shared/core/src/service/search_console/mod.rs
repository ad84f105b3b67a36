//! Connecting an account to Google Search Console and using the connection: the OAuth 2.0
//! authorization-code flow with PKCE (S256) and a `state` bound to the account (and to the
//! browser session that began it), the credential sealed at rest, the properties it sees.

mod google;
mod import;
mod sealing;

use chrono::{DateTime, Duration, Utc};

pub use google::{
    parse_service_account_key, AccessToken, CredentialKind, GoogleAccounts, GoogleCredential,
    GoogleError, Grant, KeyRefusal,
};
pub use import::{
    days_from_vars, import_search_console, AnalyticsDimension, AnalyticsQuery, AnalyticsRow,
    ImportOutcome, JobSearchConsole, QueryData, SearchAnalytics, SearchConsoleData, DEFAULT_DAYS,
    MAX_DAYS, ROW_LIMIT, WINDOW_DAYS,
};
pub use sealing::{CredentialKey, OpenError, SealedCredential};

use crate::domain::{PropertyUrl, SearchConsoleProperty, SecretHash, ShareToken, UserId};
use crate::store::{PendingAuthorization, SearchConsoleConnection, SearchConsoleStore, StoreError};

/// How long a consent flow may take, from the authorization URL to the callback.
pub const AUTHORIZATION_MINUTES: i64 = 10;

#[derive(Debug, thiserror::Error)]
pub enum SearchConsoleError {
    /// The callback's `state` is unknown, used, expired, or belongs to another account or
    /// session. The message is the client's.
    #[error("The state does not match a connection this session began; it may be used or expired. Start again from Settings → Search Console.")]
    StateMismatch,
    /// Google would not redeem the code (used, expired, or the verifier does not match).
    #[error("Google refused the authorization code: {0}")]
    CodeRefused(String),
    /// An uploaded service-account key is not one (the field and why), or Google refused it.
    #[error("{0}")]
    KeyRefused(KeyRefusal),
    #[error("This account has no Search Console connection.")]
    NotConnected,
    #[error(transparent)]
    Google(GoogleError),
    #[error("the sealed credential did not open")]
    Sealing(#[from] OpenError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<GoogleError> for SearchConsoleError {
    fn from(err: GoogleError) -> Self {
        Self::Google(err)
    }
}

/// A random value that stands for a flow, and its PKCE verifier (43 characters of
/// base64url, as RFC 7636 asks).
struct FlowSecrets {
    state: ShareToken,
    verifier: ShareToken,
}

impl FlowSecrets {
    fn generate() -> Self {
        Self {
            state: ShareToken::generate(),
            verifier: ShareToken::generate(),
        }
    }
}

/// Begins a consent flow for `owner`: stores it under its state's hash and answers Google's
/// consent URL. `session` is the hash of the browser session that began it, if any.
pub async fn begin_connection(
    store: &dyn SearchConsoleStore,
    google: &dyn GoogleAccounts,
    key: &CredentialKey,
    owner: UserId,
    session: Option<&SecretHash>,
    redirect_uri: &str,
    now: DateTime<Utc>,
) -> Result<String, SearchConsoleError> {
    let secrets = FlowSecrets::generate();
    let url = google.authorization_url(
        secrets.state.expose(),
        secrets.verifier.expose(),
        redirect_uri,
    )?;
    let pending = PendingAuthorization {
        owner,
        session: session.map(|hash| hash.as_str().to_string()),
        code_verifier: key.seal(owner, secrets.verifier.expose().as_bytes()),
        redirect_uri: redirect_uri.to_string(),
        expires_at: now + Duration::minutes(AUTHORIZATION_MINUTES),
    };
    store
        .put_authorization(&secrets.state.hash(), &pending)
        .await?;
    Ok(url)
}

/// Finishes a consent flow: redeems the state once (whatever follows), checks it belongs to
/// this account and session, redeems the code with the verifier, and stores the connection
/// with the properties the Google account sees, replacing (and revoking) an earlier one.
#[allow(clippy::too_many_arguments)]
pub async fn complete_connection(
    store: &dyn SearchConsoleStore,
    google: &dyn GoogleAccounts,
    key: &CredentialKey,
    owner: UserId,
    session: Option<&SecretHash>,
    state: &str,
    code: &str,
    now: DateTime<Utc>,
) -> Result<SearchConsoleConnection, SearchConsoleError> {
    let state = ShareToken::parse(state).ok_or(SearchConsoleError::StateMismatch)?;
    let pending = store
        .take_authorization(&state.hash())
        .await?
        .ok_or(SearchConsoleError::StateMismatch)?;
    let same_session = match &pending.session {
        Some(begun_on) => session.is_some_and(|hash| hash.as_str() == begun_on),
        None => true,
    };
    if pending.owner != owner || !same_session || pending.expires_at <= now {
        return Err(SearchConsoleError::StateMismatch);
    }
    let verifier = key.open(owner, &pending.code_verifier)?;
    let verifier = String::from_utf8(verifier).map_err(|_| OpenError)?;
    let grant = match google
        .redeem_code(code, &verifier, &pending.redirect_uri)
        .await
    {
        Ok(grant) => grant,
        Err(GoogleError::GrantRefused(why)) => return Err(SearchConsoleError::CodeRefused(why)),
        Err(other) => return Err(other.into()),
    };
    let email = google.account_email(&grant.access).await?;
    let properties = google.properties(&grant.access).await?;
    if let Some(earlier) = store.connection(owner).await? {
        revoke_quietly(google, key, &earlier).await;
    }
    let connection = SearchConsoleConnection {
        owner,
        email,
        credential: key.seal(owner, &grant.credential.to_bytes()),
        properties,
        connected_at: now,
        checked_at: now,
        lapsed: None,
    };
    store.put_connection(&connection).await?;
    Ok(connection)
}

/// Connects `owner` with a service account's JSON key file (`key_json`, as Google's console
/// downloads it): checks its fields, gets an access token with it (the JWT bearer grant),
/// lists the properties the service account sees, and stores the key sealed exactly as an
/// OAuth grant, with the service account's e-mail, replacing (and revoking) an earlier
/// connection. A key Google refuses (unknown account, deleted key, bad signature) is a
/// `KeyRefused` naming `client_email`.
pub async fn connect_service_account(
    store: &dyn SearchConsoleStore,
    google: &dyn GoogleAccounts,
    key: &CredentialKey,
    owner: UserId,
    key_json: &str,
    now: DateTime<Utc>,
) -> Result<SearchConsoleConnection, SearchConsoleError> {
    let credential = parse_service_account_key(key_json).map_err(SearchConsoleError::KeyRefused)?;
    let GoogleCredential::ServiceAccount { client_email, .. } = &credential else {
        unreachable!("parse_service_account_key answers a service account");
    };
    let email = client_email.clone();
    let access = match google.access_token(&credential).await {
        Ok(access) => access,
        Err(GoogleError::GrantRefused(why)) => {
            return Err(SearchConsoleError::KeyRefused(KeyRefusal {
                field: "client_email",
                reason: format!("Google refused this service account's key ({why}); check the key is current and not deleted"),
            }))
        }
        Err(other) => return Err(other.into()),
    };
    let properties = google.properties(&access).await?;
    if let Some(earlier) = store.connection(owner).await? {
        revoke_quietly(google, key, &earlier).await;
    }
    let connection = SearchConsoleConnection {
        owner,
        email,
        credential: key.seal(owner, &credential.to_bytes()),
        properties,
        connected_at: now,
        checked_at: now,
        lapsed: None,
    };
    store.put_connection(&connection).await?;
    Ok(connection)
}

/// Which kind of credential a stored connection holds (opening it with the key).
pub fn connection_kind(
    key: &CredentialKey,
    connection: &SearchConsoleConnection,
) -> Result<CredentialKind, SearchConsoleError> {
    Ok(credential(key, connection)?.kind())
}

/// The account's connection with its properties asked of Google again; a grant Google now
/// refuses is kept, marked lapsed with the reason, until the account connects again or
/// disconnects. `None` when not connected.
pub async fn refresh_connection(
    store: &dyn SearchConsoleStore,
    google: &dyn GoogleAccounts,
    key: &CredentialKey,
    owner: UserId,
    now: DateTime<Utc>,
) -> Result<Option<SearchConsoleConnection>, SearchConsoleError> {
    let Some(mut connection) = store.connection(owner).await? else {
        return Ok(None);
    };
    match access(google, key, &connection).await {
        Ok(token) => {
            connection.properties = google.properties(&token).await?;
            connection.lapsed = None;
        }
        Err(SearchConsoleError::Google(GoogleError::GrantRefused(why))) => {
            connection.lapsed = Some(why);
        }
        Err(other) => return Err(other),
    }
    connection.checked_at = now;
    store.put_connection(&connection).await?;
    Ok(Some(connection))
}

/// Revokes the grant at Google (a grant Google no longer knows is fine) and deletes what is
/// stored. `false` when the account was not connected.
pub async fn disconnect(
    store: &dyn SearchConsoleStore,
    google: &dyn GoogleAccounts,
    key: &CredentialKey,
    owner: UserId,
) -> Result<bool, SearchConsoleError> {
    let Some(connection) = store.connection(owner).await? else {
        return Ok(false);
    };
    let credential = credential(key, &connection)?;
    match google.revoke(&credential).await {
        Ok(()) | Err(GoogleError::GrantRefused(_)) => {}
        Err(other) => return Err(other.into()),
    }
    Ok(store.delete_connection(owner).await?)
}

/// A fresh access token for the account's connection.
pub async fn access(
    google: &dyn GoogleAccounts,
    key: &CredentialKey,
    connection: &SearchConsoleConnection,
) -> Result<AccessToken, SearchConsoleError> {
    let credential = credential(key, connection)?;
    Ok(google.access_token(&credential).await?)
}

fn credential(
    key: &CredentialKey,
    connection: &SearchConsoleConnection,
) -> Result<GoogleCredential, SearchConsoleError> {
    let clear = key.open(connection.owner, &connection.credential)?;
    Ok(GoogleCredential::from_bytes(&clear).ok_or(OpenError)?)
}

async fn revoke_quietly(
    google: &dyn GoogleAccounts,
    key: &CredentialKey,
    earlier: &SearchConsoleConnection,
) {
    let Ok(credential) = credential(key, earlier) else {
        return;
    };
    if let Err(err) = google.revoke(&credential).await {
        tracing::warn!(error = %err, "the replaced Search Console grant was not revoked");
    }
}

/// Why a job may not name a property.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PropertyRefusal {
    #[error("this account has not connected Search Console (Settings → Search Console)")]
    NotConnected,
    #[error("is not one of the properties the connected Google account can read")]
    NotListed,
}

/// The property a job names, checked against the connection's listed properties (no call to
/// Google: the jobs function holds no key).
pub async fn usable_property(
    store: &dyn SearchConsoleStore,
    owner: UserId,
    property: &PropertyUrl,
) -> Result<Result<SearchConsoleProperty, PropertyRefusal>, StoreError> {
    let Some(connection) = store.connection(owner).await? else {
        return Ok(Err(PropertyRefusal::NotConnected));
    };
    Ok(connection
        .properties
        .into_iter()
        .find(|listed| &listed.site_url == property && listed.permission_level.reads_data())
        .ok_or(PropertyRefusal::NotListed))
}
