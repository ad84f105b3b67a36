use chrono::Utc;

use crate::domain::{ApiKeyId, ApiKeySecret, Email, Password, SessionToken, UserId};
use crate::store::{
    ApiKeyRecord, ApiKeyStore, CredentialStore, Session, SessionStore, StoreError, User, UserStore,
};

pub const DEFAULT_API_KEY_NAME: &str = "API key";
pub const MAX_API_KEY_NAME_CHARS: usize = 100;
/// API keys one account may hold at once; a client creating a key per run must revoke too.
pub const MAX_API_KEYS: u32 = 50;

#[derive(Debug, thiserror::Error)]
pub enum IssueKeyError {
    #[error("the user does not exist")]
    NoSuchUser,
    #[error("the user's plan does not include API keys")]
    PlanWithoutApiKeys,
    #[error("the account holds {MAX_API_KEYS} API keys already")]
    TooManyKeys,
    #[error("the key name must be 1 to {MAX_API_KEY_NAME_CHARS} characters")]
    BadName,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Creates an API key for a user whose plan allows it. The secret is returned once and
/// only its hash is stored.
pub async fn issue_api_key(
    users: &dyn UserStore,
    keys: &dyn ApiKeyStore,
    user_id: UserId,
    name: Option<&str>,
) -> Result<(ApiKeyRecord, ApiKeySecret), IssueKeyError> {
    let name = name.map(str::trim).unwrap_or(DEFAULT_API_KEY_NAME);
    if name.is_empty() || name.chars().count() > MAX_API_KEY_NAME_CHARS {
        return Err(IssueKeyError::BadName);
    }
    let user = users
        .user(user_id)
        .await?
        .ok_or(IssueKeyError::NoSuchUser)?;
    if !user.plan.can_create_api_keys() {
        return Err(IssueKeyError::PlanWithoutApiKeys);
    }
    let secret = ApiKeySecret::generate();
    let record = ApiKeyRecord {
        id: ApiKeyId::new(),
        user_id,
        name: name.to_string(),
        prefix: secret.display_prefix(),
        created_at: Utc::now(),
        last_used_at: None,
    };
    if !keys
        .create_api_key(&record, &secret.hash(), MAX_API_KEYS)
        .await?
    {
        return Err(IssueKeyError::TooManyKeys);
    }
    Ok((record, secret))
}

/// A hash of a password nobody has, verified when the e-mail is unknown so that a failed
/// login takes as long whether or not the account exists.
fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| Password::attempt("decoy password that matches nothing").hash())
}

/// Checks e-mail and password and opens a session. `None` for wrong credentials, without
/// saying which part was wrong.
pub async fn log_in(
    credentials: &dyn CredentialStore,
    sessions: &dyn SessionStore,
    email: &str,
    password: &str,
    ttl: std::time::Duration,
) -> Result<Option<(SessionToken, Session)>, StoreError> {
    let attempt = Password::attempt(password);
    let found = match Email::parse(email) {
        Ok(email) => credentials.login_credentials(&email).await?,
        Err(_) => None,
    };
    let Some(found) = found else {
        attempt.verify(decoy_hash());
        return Ok(None);
    };
    if !attempt.verify(&found.password_hash) {
        return Ok(None);
    }
    let token = SessionToken::generate();
    let ttl = chrono::Duration::from_std(ttl).unwrap_or(chrono::Duration::days(7));
    let session = Session {
        user_id: found.user_id,
        expires_at: Utc::now() + ttl,
    };
    sessions.create_session(&token.hash(), &session).await?;
    Ok(Some((token, session)))
}

/// Opens an account. The password is hashed here; nothing else ever sees it.
pub async fn create_account(
    users: &dyn UserStore,
    id: UserId,
    email: Email,
    password: &Password,
    plan: crate::domain::Plan,
    credits_balance: i64,
    domains_balance: i64,
) -> Result<User, crate::store::CreateUserError> {
    users
        .create_user(crate::store::NewUser {
            id,
            email,
            password_hash: password.hash(),
            plan,
            credits_balance,
            domains_balance,
        })
        .await
}
