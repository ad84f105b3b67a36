//! The Google APIs behind a bearer token: `GET /v1/userinfo` (OpenID Connect), and Search
//! Console's `GET /webmasters/v3/sites`, `GET /webmasters/v3/sites/{siteUrl}` and
//! `POST /webmasters/v3/sites/{siteUrl}/searchAnalytics/query`, with Google's JSON errors.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::header::{CONTENT_TYPE, WWW_AUTHENTICATE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

use super::analytics;
use super::consent::SEARCH_CONSOLE_SCOPE;
use super::oauth::Bearer;
use super::seeded::{BIG_SITE_URL, SITES};
use super::server::Shared;

fn reply(status: StatusCode, body: Value) -> Response {
    let headers = [(CONTENT_TYPE, "application/json; charset=UTF-8")];
    (status, headers, body.to_string()).into_response()
}

/// Google's error shape: `{"error": {"code", "message", "errors": [...], "status"}}`.
pub fn google_error(code: u16, status: &str, reason: &str, message: &str) -> Response {
    let body = json!({"error": {
        "code": code, "message": message,
        "errors": [{"message": message, "domain": "global", "reason": reason}],
        "status": status,
    }});
    reply(
        StatusCode::from_u16(code).unwrap_or(StatusCode::BAD_REQUEST),
        body,
    )
}

/// The grant of a valid `Authorization: Bearer` token, or Google's 401.
fn bearer(shared: &Shared, headers: &HeaderMap) -> Result<Bearer, Box<Response>> {
    let token = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    let unauthenticated = |message: &str| {
        let mut response = google_error(401, "UNAUTHENTICATED", "authError", message);
        let challenge = "Bearer realm=\"https://accounts.google.com/\", error=\"invalid_token\"";
        response
            .headers_mut()
            .insert(WWW_AUTHENTICATE, challenge.parse().expect("a header value"));
        Box::new(response)
    };
    let Some(token) = token else {
        return Err(unauthenticated(
            "Request is missing required authentication credential. Expected OAuth 2 access \
             token, login cookie or other valid authentication credential.",
        ));
    };
    let grant = shared
        .inner
        .lock()
        .unwrap()
        .oauth
        .bearer(token.trim(), Instant::now());
    grant.ok_or_else(|| {
        unauthenticated(
            "Request had invalid authentication credentials. Expected OAuth 2 access token, \
             login cookie or other valid authentication credential.",
        )
    })
}

fn has_scope(grant: &Bearer, wanted: &[&str]) -> bool {
    grant.scope.split_whitespace().any(|s| wanted.contains(&s))
}

fn search_console_grant(shared: &Shared, headers: &HeaderMap) -> Result<Bearer, Box<Response>> {
    let grant = bearer(shared, headers)?;
    let scopes = [
        SEARCH_CONSOLE_SCOPE,
        "https://www.googleapis.com/auth/webmasters",
    ];
    if !has_scope(&grant, &scopes) {
        let message = "Request had insufficient authentication scopes.";
        return Err(Box::new(google_error(
            403,
            "PERMISSION_DENIED",
            "insufficientPermissions",
            message,
        )));
    }
    Ok(grant)
}

/// `sub` always; `email` and `email_verified` with the `email` scope; a token without an
/// OpenID Connect scope is refused, as Google refuses it.
pub async fn userinfo(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    let refused = || {
        let body = json!({"error": "invalid_request", "error_description": "Invalid Credentials"});
        reply(StatusCode::UNAUTHORIZED, body)
    };
    let Ok(grant) = bearer(&shared, &headers) else {
        return refused();
    };
    let email_scopes = ["email", "https://www.googleapis.com/auth/userinfo.email"];
    let profile_scopes = [
        "openid",
        "profile",
        "https://www.googleapis.com/auth/userinfo.profile",
    ];
    if !has_scope(&grant, &email_scopes) && !has_scope(&grant, &profile_scopes) {
        return refused();
    }
    let mut body = json!({"sub": shared.settings.sub});
    if has_scope(&grant, &email_scopes) {
        body["email"] = json!(shared.settings.email);
        body["email_verified"] = json!(true);
    }
    reply(StatusCode::OK, body)
}

/// The account's properties and its permission on each (the big one last).
pub fn site_entries() -> Vec<Value> {
    let mut entries: Vec<Value> = SITES
        .iter()
        .map(|s| json!({"siteUrl": s.site_url, "permissionLevel": s.permission_level}))
        .collect();
    entries.push(json!({"siteUrl": BIG_SITE_URL, "permissionLevel": "siteOwner"}));
    entries
}

fn site_entry(site_url: &str) -> Result<Value, Box<Response>> {
    site_entries()
        .into_iter()
        .find(|e| e["siteUrl"] == site_url)
        .ok_or_else(|| {
            let message = format!(
                "User does not have sufficient permission for site '{site_url}'. See also: \
                 https://support.google.com/webmasters/answer/2451999."
            );
            Box::new(google_error(
                403,
                "PERMISSION_DENIED",
                "forbidden",
                &message,
            ))
        })
}

pub async fn sites(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    if let Err(refused) = search_console_grant(&shared, &headers) {
        return *refused;
    }
    reply(StatusCode::OK, json!({"siteEntry": site_entries()}))
}

pub async fn site(
    State(shared): State<Arc<Shared>>,
    Path(site_url): Path<String>,
    headers: HeaderMap,
) -> Response {
    if let Err(refused) = search_console_grant(&shared, &headers) {
        return *refused;
    }
    match site_entry(&site_url) {
        Ok(entry) => reply(StatusCode::OK, entry),
        Err(refused) => *refused,
    }
}

pub async fn search_analytics(
    State(shared): State<Arc<Shared>>,
    Path(site_url): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if let Err(refused) = search_console_grant(&shared, &headers) {
        return *refused;
    }
    if let Err(refused) = site_entry(&site_url) {
        return *refused;
    }
    let request = match analytics::parse(&body) {
        Ok(request) => request,
        Err(message) => return google_error(400, "INVALID_ARGUMENT", "invalid", &message),
    };
    if let Some(fault) = shared.inner.lock().unwrap().strike_search_analytics() {
        return fault;
    }
    let aggregation = request.aggregation();
    // A page of the big property walks up to a million rows: off the async workers.
    let data = shared.clone();
    let rows = match tokio::task::spawn_blocking(move || request.run(&data.data, &site_url)).await {
        Ok(rows) => rows,
        Err(err) => return google_error(500, "INTERNAL", "backendError", &err.to_string()),
    };
    let mut answer = json!({"responseAggregationType": aggregation});
    {
        let mut inner = shared.inner.lock().unwrap();
        inner.stats.search_analytics_pages += 1;
        inner.stats.search_analytics_rows += rows.len() as u64;
    }
    // Past the last row Google leaves `rows` out rather than sending an empty list.
    if !rows.is_empty() {
        answer["rows"] = json!(rows);
    }
    reply(StatusCode::OK, answer)
}
