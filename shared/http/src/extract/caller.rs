use std::sync::Arc;

use axum::extract::{FromRef, FromRequestParts};
use axum::http::header::ORIGIN;
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method};

use crate::auth::{AuthMethod, Authenticator, Caller, PresentedCredentials, Principal};
use crate::error::ErrorCode;
use crate::extract::SourceAddress;
use crate::rate_headers::RateSlot;
use crate::ApiError;
use kr_core::config::Config;

/// Whether an unauthenticated caller's request counts against its source address's limit:
/// reads anyone may make (demo jobs) do; requests that answer 401 do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Anonymous {
    Metered,
    Unmetered,
}

/// Identifies the caller once per request; a caller over their request limit (their plan's,
/// or their address's for a metered anonymous read) is refused here, before any handler
/// work, with 429.
async fn identify<S>(parts: &Parts, state: &S, anonymous: Anonymous) -> Result<Caller, ApiError>
where
    Arc<Authenticator>: FromRef<S>,
{
    let authenticator = Arc::<Authenticator>::from_ref(state);
    let presented = PresentedCredentials::from_headers(&parts.headers);
    let identified = match anonymous {
        Anonymous::Metered => {
            authenticator
                .identify_reader(presented, SourceAddress::of(parts).as_deref())
                .await?
        }
        Anonymous::Unmetered => authenticator.identify(presented).await?,
    };
    if let Some(rate) = identified.rate {
        if let Some(slot) = parts.extensions.get::<RateSlot>() {
            slot.record(rate);
        }
        if rate.exceeded {
            let whose = if matches!(identified.caller, Caller::Authenticated(_)) {
                "your plan allows"
            } else {
                "this address may make"
            };
            return Err(ApiError::new(
                ErrorCode::RateLimited,
                format!(
                    "Too many requests: {whose} {} a minute. Try again in {} s.",
                    rate.limit, rate.reset_secs
                ),
            ));
        }
    }
    Ok(identified.caller)
}

/// Browsers attach the session cookie to cross-site requests; a state-changing request that
/// rides on the cookie must come from one of our own origins. API keys are never sent
/// implicitly, so they need no such check.
fn check_origin(principal: &Principal, parts: &Parts, config: &Config) -> Result<(), ApiError> {
    let unsafe_method = !matches!(parts.method, Method::GET | Method::HEAD | Method::OPTIONS);
    if principal.method != AuthMethod::Session || !unsafe_method {
        return Ok(());
    }
    if from_foreign_origin(&parts.headers, config) {
        return Err(foreign_origin_refused());
    }
    Ok(())
}

/// True when the request names an `Origin` that is not one of ours. Browsers send `Origin`
/// on every cross-site POST, so a request without one did not come from another site's page.
pub fn from_foreign_origin(headers: &HeaderMap, config: &Config) -> bool {
    headers
        .get(ORIGIN)
        .is_some_and(|origin| !config.is_allowed_origin(origin.to_str().unwrap_or("")))
}

/// The answer to a state-changing cookie request from another site.
pub fn foreign_origin_refused() -> ApiError {
    ApiError::forbidden("This request's Origin is not allowed to use the session cookie.")
}

/// An authenticated caller; anything else is 401 (contract: authenticated endpoints).
#[derive(Debug, Clone, Copy)]
pub struct CurrentUser(pub Principal);

impl<S> FromRequestParts<S> for CurrentUser
where
    S: Send + Sync,
    Arc<Authenticator>: FromRef<S>,
    Arc<Config>: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match identify(parts, state, Anonymous::Unmetered).await? {
            Caller::Authenticated(principal) => {
                check_origin(&principal, parts, &Arc::<Config>::from_ref(state))?;
                Ok(Self(principal))
            }
            Caller::Anonymous | Caller::Rejected => Err(ApiError::unauthorized()),
        }
    }
}

/// Whoever reads a job-scoped resource: the owner, or anyone for a demo job. Invalid
/// credentials make the caller anonymous rather than failing, so demo jobs stay readable
/// and other jobs answer 404 without revealing that they exist.
#[derive(Debug, Clone, Copy)]
pub struct Viewer(pub Option<Principal>);

impl<S> FromRequestParts<S> for Viewer
where
    S: Send + Sync,
    Arc<Authenticator>: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        Ok(Self(
            match identify(parts, state, Anonymous::Metered).await? {
                Caller::Authenticated(principal) => Some(principal),
                Caller::Anonymous | Caller::Rejected => None,
            },
        ))
    }
}
