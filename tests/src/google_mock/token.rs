//! `POST /token` (authorization code with PKCE, refresh token, and a service account's JWT
//! bearer assertion) and `POST /revoke`, with the client authenticated by HTTP Basic (what the
//! `oauth2` crate sends) or by `client_id` and `client_secret` form fields, and Google's error
//! bodies.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::header::{AUTHORIZATION, CACHE_CONTROL, CONTENT_TYPE, HOST};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::Deserialize;
use serde_json::{json, Value};

use super::consent::form_pairs;
use super::oauth::Refusal;
use super::server::Shared;

fn answer(status: StatusCode, body: Value) -> Response {
    let headers = [
        (CONTENT_TYPE, "application/json; charset=utf-8"),
        (
            CACHE_CONTROL,
            "no-cache, no-store, max-age=0, must-revalidate",
        ),
    ];
    (status, headers, body.to_string()).into_response()
}

fn error(status: StatusCode, error: &str, description: &str) -> Response {
    let body = json!({"error": error, "error_description": description});
    answer(status, body)
}

/// One part of a Basic credential, which RFC 6749 (2.3.1) form-encodes before base64.
fn form_decoded(part: &str) -> String {
    form_pairs(format!("x={part}").as_bytes())
        .pop()
        .map(|(_, v)| v)
        .unwrap_or_default()
}

/// The client's id and secret, from the Basic header or else from the form.
fn client_credentials(headers: &HeaderMap, form: &[(String, String)]) -> Option<(String, String)> {
    let basic = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Basic "))
        .and_then(|b| STANDARD.decode(b.trim()).ok())
        .and_then(|raw| String::from_utf8(raw).ok());
    if let Some(pair) = basic {
        let (id, secret) = pair.split_once(':')?;
        return Some((form_decoded(id), form_decoded(secret)));
    }
    let field = |name: &str| form.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    Some((
        field("client_id")?,
        field("client_secret").unwrap_or_default(),
    ))
}

pub const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

#[derive(Deserialize)]
struct AssertionClaims {
    iss: String,
    #[serde(default)]
    scope: String,
    iat: u64,
    exp: u64,
}

/// The issuer a JWT names, read before its signature is checked (to find its key).
fn unverified_issuer(assertion: &str) -> Option<String> {
    let payload = assertion.split('.').nth(1)?;
    let raw = URL_SAFE_NO_PAD.decode(payload).ok()?;
    let claims: Value = serde_json::from_slice(&raw).ok()?;
    claims["iss"].as_str().map(str::to_string)
}

/// A service account's assertion (RFC 7523), as Google checks it: RS256 signed by the key of
/// a known `iss`, `aud` this token endpoint, `exp` in the future and at most an hour after
/// `iat`, and a scope.
fn verify_assertion(
    shared: &Shared,
    headers: &HeaderMap,
    assertion: &str,
) -> Result<AssertionClaims, &'static str> {
    let issuer = unverified_issuer(assertion).ok_or("Invalid JWT: unreadable claims.")?;
    let (_, public_pem) = shared
        .settings
        .service_accounts
        .iter()
        .find(|(email, _)| *email == issuer)
        .ok_or("Invalid JWT Signature.")?;
    let key =
        DecodingKey::from_rsa_pem(public_pem.as_bytes()).map_err(|_| "Invalid JWT Signature.")?;
    let host = headers
        .get(HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let audience = format!("http://{host}{}", super::paths::TOKEN);
    let mut validation = Validation::new(Algorithm::RS256);
    validation.leeway = 0;
    validation.set_audience(&[audience]);
    validation.set_issuer(&[issuer]);
    validation.set_required_spec_claims(&["exp", "iss", "aud"]);
    let claims = jsonwebtoken::decode::<AssertionClaims>(assertion, &key, &validation)
        .map_err(|err| match err.kind() {
            ErrorKind::ExpiredSignature => {
                "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim."
            }
            ErrorKind::InvalidAudience => "Invalid JWT: Failed audience check.",
            _ => "Invalid JWT Signature.",
        })?
        .claims;
    if claims.exp <= claims.iat || claims.exp - claims.iat > 3600 {
        return Err("Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.");
    }
    if claims.scope.trim().is_empty() {
        return Err("Invalid OAuth scope or ID token audience provided.");
    }
    Ok(claims)
}

fn jwt_bearer(shared: &Shared, headers: &HeaderMap, assertion: Option<&str>) -> Response {
    let Some(assertion) = assertion else {
        let description = "Missing required parameter: assertion";
        return error(StatusCode::BAD_REQUEST, "invalid_request", description);
    };
    let verified = verify_assertion(shared, headers, assertion);
    let mut inner = shared.inner.lock().unwrap();
    match verified {
        Ok(claims) => {
            let issued = inner
                .oauth
                .service_account(&claims.iss, &claims.scope, Instant::now());
            inner.stats.access_tokens_issued += 1;
            let body = json!({
                "access_token": issued.access_token,
                "expires_in": issued.expires_in,
                "token_type": "Bearer",
            });
            answer(StatusCode::OK, body)
        }
        Err(description) => {
            inner.stats.token_refusals += 1;
            error(StatusCode::BAD_REQUEST, "invalid_grant", description)
        }
    }
}

pub async fn token(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    let form = form_pairs(&body);
    let field = |name: &str| {
        form.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
    };
    // A service account authenticates by its signed assertion, not as the OAuth client.
    if field("grant_type") == Some(JWT_BEARER) {
        return jwt_bearer(&shared, &headers, field("assertion"));
    }
    let Some((client_id, secret)) = client_credentials(&headers, &form) else {
        let description = "Could not determine client ID from request.";
        return error(StatusCode::BAD_REQUEST, "invalid_request", description);
    };
    let settings = &shared.settings;
    if client_id != settings.client_id {
        let description = "The OAuth client was not found.";
        return error(StatusCode::UNAUTHORIZED, "invalid_client", description);
    }
    if secret != settings.client_secret {
        return error(StatusCode::UNAUTHORIZED, "invalid_client", "Unauthorized");
    }
    let now = Instant::now();
    let mut inner = shared.inner.lock().unwrap();
    let outcome = match field("grant_type") {
        Some("authorization_code") => {
            let Some(code) = field("code") else {
                let description = "Missing required parameter: code";
                return error(StatusCode::BAD_REQUEST, "invalid_request", description);
            };
            let (redirect, verifier) = (field("redirect_uri"), field("code_verifier"));
            let issued = inner
                .oauth
                .redeem(&client_id, code, redirect, verifier, now);
            if issued.is_ok() {
                inner.stats.codes_redeemed += 1;
            }
            issued
        }
        Some("refresh_token") => {
            let Some(refresh) = field("refresh_token") else {
                let description = "Missing required parameter: refresh_token";
                return error(StatusCode::BAD_REQUEST, "invalid_request", description);
            };
            let issued = inner.oauth.refresh(&client_id, refresh, now);
            if issued.is_ok() {
                inner.stats.refreshes += 1;
            }
            issued
        }
        Some(other) => {
            let description = format!("Invalid grant_type: {other}");
            return error(
                StatusCode::BAD_REQUEST,
                "unsupported_grant_type",
                &description,
            );
        }
        None => {
            let description = "Missing required parameter: grant_type";
            return error(StatusCode::BAD_REQUEST, "invalid_request", description);
        }
    };
    match outcome {
        Ok(issued) => {
            inner.stats.access_tokens_issued += 1;
            let mut body = json!({
                "access_token": issued.access_token,
                "expires_in": issued.expires_in,
                "scope": issued.scope,
                "token_type": "Bearer",
            });
            if let Some(refresh) = issued.refresh_token {
                inner.stats.refresh_tokens_issued += 1;
                body["refresh_token"] = json!(refresh);
            }
            answer(StatusCode::OK, body)
        }
        Err(Refusal {
            error: code,
            description,
        }) => {
            inner.stats.token_refusals += 1;
            error(StatusCode::BAD_REQUEST, code, description)
        }
    }
}

/// `token` from the form, or from the query string as Google also takes it.
pub async fn revoke(
    State(shared): State<Arc<Shared>>,
    RawQuery(query): RawQuery,
    body: Bytes,
) -> Response {
    let mut params = form_pairs(&body);
    params.extend(form_pairs(query.unwrap_or_default().as_bytes()));
    let Some(token) = params.iter().find(|(k, _)| k == "token").map(|(_, v)| v) else {
        return error(StatusCode::BAD_REQUEST, "invalid_request", "Bad Request");
    };
    let mut inner = shared.inner.lock().unwrap();
    if inner.oauth.revoke(token) {
        inner.stats.revocations += 1;
        answer(StatusCode::OK, json!({}))
    } else {
        error(
            StatusCode::BAD_REQUEST,
            "invalid_token",
            "Token expired or revoked",
        )
    }
}
