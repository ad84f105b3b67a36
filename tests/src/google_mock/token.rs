//! `POST /token` (authorization code with PKCE, refresh token) and `POST /revoke`, with the
//! client authenticated by HTTP Basic (what the `oauth2` crate sends) or by `client_id` and
//! `client_secret` form fields, and Google's error bodies.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::header::{AUTHORIZATION, CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
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

pub async fn token(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    let form = form_pairs(&body);
    let field = |name: &str| {
        form.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .filter(|v| !v.is_empty())
    };
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
