use axum::extract::State;
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use kr_core::service::account::log_in;
use kr_core::service::rate_limits::{LoginAdmission, LoginThrottle};
use kr_http::auth::{session_cookie, PresentedCredentials};
use kr_http::error::ErrorCode;
use kr_http::extract::{
    foreign_origin_refused, from_foreign_origin, DeclaredJsonBody, JsonBody, SourceAddress,
};
use kr_http::ApiError;
use utoipa::ToSchema;

use crate::AccountState;

// Documents the body and is what parsing it yields, so the two cannot drift.
/// The body of `POST /auth/login`.
#[derive(ToSchema)]
pub struct LoginRequest {
    /// Trimmed; not blank (the pattern: some character that is not white space).
    #[schema(
        example = "ana@example.com",
        pattern = "[^\\t\\n\\u000b\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]"
    )]
    email: String,
    /// Exactly as typed; not empty.
    #[schema(min_length = 1)]
    password: String,
}

impl LoginRequest {
    /// The e-mail is trimmed; the password is taken exactly as typed.
    fn parse(body: &JsonBody) -> Result<Self, ApiError> {
        let email = body.required_str("email")?.to_string();
        let password = match body.get("password") {
            Some(serde_json::Value::String(password)) if !password.is_empty() => password.clone(),
            Some(serde_json::Value::String(_)) | None => {
                return Err(ApiError::field("password", "is required"))
            }
            Some(_) => return Err(ApiError::field("password", "must be a string")),
        };
        Ok(Self { email, password })
    }
}

/// Signs in with e-mail and password and sets the `__session` cookie.
#[utoipa::path(
    post,
    path = "/api/v1/auth/login",
    tag = "account",
    request_body = LoginRequest,
    responses(
        (status = 204, description = "Signed in; `Set-Cookie: __session=…; HttpOnly; Secure; SameSite=Lax; Path=/`"),
        (status = 400, description = "Missing e-mail or password", body = kr_http::error::ErrorBody),
        (status = 401, description = "Wrong e-mail or password", body = kr_http::error::ErrorBody),
        (status = 403, description = "Sent from a page whose `Origin` is not allowed (login CSRF)", body = kr_http::error::ErrorBody),
        (status = 413, description = "Body over 64 KiB", body = kr_http::error::ErrorBody),
        (status = 415, description = "`Content-Type` is not `application/json`", body = kr_http::error::ErrorBody),
        (status = 429, description = "Too many failed sign-ins (`rate_limited`) from this address: for this e-mail, for any e-mail, or from its network (IPv4 /24, IPv6 /64); wait `Retry-After` seconds. Failures for one e-mail from elsewhere never refuse an address that has not failed: they only delay the check (up to 4 s). Successful sign-ins never count (README, Limits)", body = kr_http::error::ErrorBody,
            headers(("Retry-After" = u32, description = "Seconds until attempts are taken again."))),
    )
)]
pub async fn login(
    State(state): State<AccountState>,
    headers: HeaderMap,
    SourceAddress(address): SourceAddress,
    DeclaredJsonBody(body): DeclaredJsonBody,
) -> Result<Response, ApiError> {
    // Login CSRF: another site must not sign a visitor's browser in to an account of its own.
    if from_foreign_origin(&headers, &state.config) {
        return Err(foreign_origin_refused());
    }
    let request = LoginRequest::parse(&body)?;
    let throttle = LoginThrottle::new(state.counters.as_ref(), &state.config.limits);
    let attempt = match throttle
        .begin(&request.email, address.as_deref(), chrono::Utc::now())
        .await?
    {
        LoginAdmission::Refused { retry_after_secs } => {
            return Ok(too_many_attempts(retry_after_secs))
        }
        LoginAdmission::Admitted(attempt) => attempt,
    };
    tokio::time::sleep(attempt.delay).await;
    let opened = log_in(
        state.credentials.as_ref(),
        state.sessions.as_ref(),
        &request.email,
        &request.password,
        state.config.session_ttl,
    )
    .await?;
    let Some((token, _)) = opened else {
        attempt.failed();
        return Err(ApiError::new(
            ErrorCode::Unauthorized,
            "Wrong e-mail or password.",
        ));
    };
    attempt.succeeded(state.counters.as_ref()).await?;
    let cookie = session_cookie(token.expose(), state.config.session_ttl.as_secs());
    Ok((StatusCode::NO_CONTENT, [(SET_COOKIE, cookie)]).into_response())
}

/// Ends the session server-side and clears the cookie. Answers 204 whether or not a session
/// was open, so a retried logout is harmless.
#[utoipa::path(
    post,
    path = "/api/v1/auth/logout",
    tag = "account",
    security((), ("sessionCookie" = [])),
    responses(
        (status = 204, description = "Signed out"),
        (status = 403, description = "Cross-origin request riding on the cookie", body = kr_http::error::ErrorBody),
    )
)]
pub async fn logout(
    State(state): State<AccountState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let PresentedCredentials::Session(token) = PresentedCredentials::from_headers(&headers) {
        if from_foreign_origin(&headers, &state.config) {
            return Err(foreign_origin_refused());
        }
        state.sessions.delete_session(&token.hash()).await?;
    }
    Ok((
        StatusCode::NO_CONTENT,
        [(SET_COOKIE, session_cookie("", 0))],
    )
        .into_response())
}

fn too_many_attempts(retry_after: u32) -> Response {
    let mut response = ApiError::new(
        ErrorCode::RateLimited,
        format!("Too many sign-in attempts. Try again in {retry_after} s."),
    )
    .into_response();
    response
        .headers_mut()
        .insert(axum::http::header::RETRY_AFTER, retry_after.into());
    response
}
