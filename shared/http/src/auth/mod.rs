//! Who is calling: API key (either header), `__session` cookie, or nobody.

mod credentials;

pub use credentials::{session_cookie, PresentedCredentials, SESSION_COOKIE};

use std::sync::Arc;

use chrono::{Duration, Utc};

use kr_core::domain::{ApiKeyId, UserId};
use kr_core::service::rate_limits::{
    count_request, RateLimits, RateStatus, SlidingWindow, REQUEST_WINDOW_SECS,
};
use kr_core::store::{ApiKeyStore, RequestCounters, SessionStore, StoreError, User, UserStore};

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

/// Who is calling, and, for an authenticated caller, their profile and where they stand
/// against their plan's request limit (this request counted).
#[derive(Debug, Clone)]
pub struct Identified {
    pub caller: Caller,
    pub user: Option<User>,
    pub rate: Option<RateStatus>,
}

impl Identified {
    fn unauthenticated(caller: Caller) -> Self {
        Self {
            caller,
            user: None,
            rate: None,
        }
    }
}

pub struct Authenticator {
    api_keys: Arc<dyn ApiKeyStore>,
    sessions: Arc<dyn SessionStore>,
    users: Arc<dyn UserStore>,
    counters: Arc<dyn RequestCounters>,
    limits: RateLimits,
}

impl Authenticator {
    pub fn on<S>(store: Arc<S>, limits: RateLimits) -> Arc<Self>
    where
        S: ApiKeyStore + SessionStore + UserStore + RequestCounters + 'static,
    {
        Arc::new(Self {
            api_keys: store.clone(),
            sessions: store.clone(),
            users: store.clone(),
            counters: store,
            limits,
        })
    }

    pub async fn identify(
        &self,
        presented: PresentedCredentials,
    ) -> Result<Identified, StoreError> {
        let now = Utc::now();
        let principal = match presented {
            PresentedCredentials::None => {
                return Ok(Identified::unauthenticated(Caller::Anonymous))
            }
            PresentedCredentials::Malformed => {
                return Ok(Identified::unauthenticated(Caller::Rejected))
            }
            PresentedCredentials::ApiKey(secret) => {
                let hash = secret.hash();
                let Some(owner) = self.api_keys.resolve_api_key(&hash).await? else {
                    return Ok(Identified::unauthenticated(Caller::Rejected));
                };
                let stale = owner
                    .last_used_at
                    .is_none_or(|at| now - at > LAST_USED_GRANULARITY);
                if stale {
                    if let Err(err) = self.api_keys.touch_api_key(&hash, now).await {
                        tracing::warn!(%err, "could not record API key use");
                    }
                }
                Principal {
                    user_id: owner.user_id,
                    method: AuthMethod::ApiKey(owner.key_id),
                }
            }
            PresentedCredentials::Session(token) => {
                match self.sessions.resolve_session(&token.hash(), now).await? {
                    Some(session) => Principal {
                        user_id: session.user_id,
                        method: AuthMethod::Session,
                    },
                    None => return Ok(Identified::unauthenticated(Caller::Rejected)),
                }
            }
        };
        // The plan decides both whether an API key may be used at all and the limit; the
        // profile is read while the request is counted, and the limit applied after.
        let subject = format!("USER#{}", principal.user_id);
        let (user, counted) = tokio::join!(
            self.users.user(principal.user_id),
            count_request(self.counters.as_ref(), &subject, REQUEST_WINDOW_SECS, now)
        );
        let Some(user) = user? else {
            return Ok(Identified::unauthenticated(Caller::Rejected));
        };
        if matches!(principal.method, AuthMethod::ApiKey(_)) && !user.plan.can_create_api_keys() {
            // The plan no longer includes API access: the key rests until it does again.
            return Ok(Identified::unauthenticated(Caller::Rejected));
        }
        let (rate, _) = counted?
            .decide(
                self.counters.as_ref(),
                self.limits.per_minute(user.plan),
                now,
            )
            .await?;
        Ok(Identified {
            caller: Caller::Authenticated(principal),
            user: Some(user),
            rate: Some(rate),
        })
    }

    /// [`Self::identify`] for a read anyone may make (a demo job, a dashboard page): a caller
    /// who is not signed in is counted against the limit of `address`, their source address
    /// (unknown outside a gateway: then not counted).
    pub async fn identify_reader(
        &self,
        presented: PresentedCredentials,
        address: Option<&str>,
    ) -> Result<Identified, StoreError> {
        let mut identified = self.identify(presented).await?;
        if identified.rate.is_none() {
            identified.rate = self.meter_anonymous(address).await?;
        }
        Ok(identified)
    }

    async fn meter_anonymous(
        &self,
        address: Option<&str>,
    ) -> Result<Option<RateStatus>, StoreError> {
        let Some(address) = address else {
            return Ok(None);
        };
        let window = SlidingWindow::new(self.limits.anonymous_per_minute, REQUEST_WINDOW_SECS);
        let (status, _) = window
            .admit(
                self.counters.as_ref(),
                &format!("ANON#{address}"),
                Utc::now(),
            )
            .await?;
        Ok(Some(status))
    }
}
