//! Who is calling: API key (either header), `__session` cookie, or nobody.

mod credentials;

pub use credentials::{session_cookie, PresentedCredentials, SESSION_COOKIE};

use std::sync::Arc;

use chrono::{Duration, Utc};

use kr_core::domain::{ApiKeyId, UserId};
use kr_core::store::{ApiKeyStore, SessionStore, StoreError};

/// How the caller proved who they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthMethod {
    ApiKey(ApiKeyId),
    Session,
}

/// An authenticated caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Principal {
    pub user_id: UserId,
    pub method: AuthMethod,
}

/// The outcome of looking at a request's credentials.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Caller {
    Anonymous,
    /// Credentials were sent but are not valid (unknown, revoked, expired, malformed).
    Rejected,
    Authenticated(Principal),
}

/// `lastUsedAt` is refreshed at most this often, so the auth path stays at one read for
/// almost every request.
const LAST_USED_GRANULARITY: Duration = Duration::minutes(5);

pub struct Authenticator {
    api_keys: Arc<dyn ApiKeyStore>,
    sessions: Arc<dyn SessionStore>,
}

impl Authenticator {
    pub fn new(api_keys: Arc<dyn ApiKeyStore>, sessions: Arc<dyn SessionStore>) -> Self {
        Self { api_keys, sessions }
    }

    /// On one store that keeps both API keys and sessions, as every function's does.
    pub fn on<S: ApiKeyStore + SessionStore + 'static>(store: Arc<S>) -> Arc<Self> {
        Arc::new(Self::new(store.clone(), store))
    }

    pub async fn identify(&self, presented: PresentedCredentials) -> Result<Caller, StoreError> {
        let now = Utc::now();
        match presented {
            PresentedCredentials::None => Ok(Caller::Anonymous),
            PresentedCredentials::Malformed => Ok(Caller::Rejected),
            PresentedCredentials::ApiKey(secret) => {
                let hash = secret.hash();
                let Some(owner) = self.api_keys.resolve_api_key(&hash).await? else {
                    return Ok(Caller::Rejected);
                };
                let stale = owner
                    .last_used_at
                    .is_none_or(|at| now - at > LAST_USED_GRANULARITY);
                if stale {
                    // Bookkeeping only: a failure here must not fail the request.
                    if let Err(err) = self.api_keys.touch_api_key(&hash, now).await {
                        tracing::warn!(%err, "could not record API key use");
                    }
                }
                Ok(Caller::Authenticated(Principal {
                    user_id: owner.user_id,
                    method: AuthMethod::ApiKey(owner.key_id),
                }))
            }
            PresentedCredentials::Session(token) => Ok(
                match self.sessions.resolve_session(&token.hash(), now).await? {
                    Some(session) => Caller::Authenticated(Principal {
                        user_id: session.user_id,
                        method: AuthMethod::Session,
                    }),
                    None => Caller::Rejected,
                },
            ),
        }
    }
}
