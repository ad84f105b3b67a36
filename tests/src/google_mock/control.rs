//! The mock's own endpoints under `/__mock/`: faults to play (`POST /__mock/faults`), what it
//! was asked (`GET /__mock/stats`), what the seeded data plants (`GET /__mock/facts`), and
//! `POST /__mock/reset`.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::api::{google_error, site_entries};
use super::consent::form_pairs;
use super::facts::facts;
use super::generate::data_window;
use super::server::{Inner, Shared};

/// `POST /__mock/faults`. Counts replace what is pending; the two flags act at once.
#[derive(Debug, Default, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultRequest {
    /// The next N search analytics queries answer 429 RESOURCE_EXHAUSTED.
    #[serde(rename = "searchAnalytics429")]
    pub search_analytics_429: Option<u32>,
    /// The next N (after the 429s) answer 500 INTERNAL.
    #[serde(rename = "searchAnalytics500")]
    pub search_analytics_500: Option<u32>,
    /// Every access token issued so far expires now (refresh tokens still work).
    #[serde(default, rename = "expireAccessTokens")]
    pub expire_access_tokens: bool,
    /// Every grant is revoked: its refresh token and access tokens stop working.
    #[serde(default, rename = "revokeAll")]
    pub revoke_all: bool,
}

/// What is pending.
#[derive(Debug, Default, Clone, PartialEq, Serialize)]
pub struct Faults {
    #[serde(rename = "searchAnalytics429")]
    pub search_analytics_429: u32,
    #[serde(rename = "searchAnalytics500")]
    pub search_analytics_500: u32,
}

#[derive(Debug, Default, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GoogleStats {
    /// HTTP requests per route (as the router names it), whatever their outcome.
    pub requests: BTreeMap<String, u64>,
    pub consent_pages: u64,
    pub consents_allowed: u64,
    pub consents_denied: u64,
    pub codes_issued: u64,
    pub codes_redeemed: u64,
    pub access_tokens_issued: u64,
    pub refresh_tokens_issued: u64,
    pub refreshes: u64,
    /// Token requests refused with `invalid_grant` or `redirect_uri_mismatch`.
    pub token_refusals: u64,
    pub revocations: u64,
    /// Search analytics answers with status 200, and the rows they held.
    pub search_analytics_pages: u64,
    pub search_analytics_rows: u64,
    pub search_analytics_429: u64,
    pub search_analytics_500: u64,
}

impl Inner {
    pub fn apply(&mut self, request: &FaultRequest) {
        if let Some(n) = request.search_analytics_429 {
            self.faults.search_analytics_429 = n;
        }
        if let Some(n) = request.search_analytics_500 {
            self.faults.search_analytics_500 = n;
        }
        if request.expire_access_tokens {
            self.oauth.expire_access_tokens(Instant::now());
        }
        if request.revoke_all {
            self.oauth.revoke_all();
        }
    }

    /// The answer of a query that a pending fault takes, if one does.
    pub fn strike_search_analytics(&mut self) -> Option<Response> {
        if self.faults.search_analytics_429 > 0 {
            self.faults.search_analytics_429 -= 1;
            self.stats.search_analytics_429 += 1;
            let message = "Search Analytics load quota exceeded for this site. Try again later.";
            return Some(google_error(
                429,
                "RESOURCE_EXHAUSTED",
                "rateLimitExceeded",
                message,
            ));
        }
        if self.faults.search_analytics_500 > 0 {
            self.faults.search_analytics_500 -= 1;
            self.stats.search_analytics_500 += 1;
            let message = "Internal error encountered.";
            return Some(google_error(500, "INTERNAL", "backendError", message));
        }
        None
    }
}

pub async fn set_faults(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    match serde_json::from_slice::<FaultRequest>(&body) {
        Ok(request) => {
            let mut inner = shared.inner.lock().unwrap();
            inner.apply(&request);
            Json(inner.faults.clone()).into_response()
        }
        Err(err) => (
            StatusCode::BAD_REQUEST,
            Json(json!({"error": err.to_string()})),
        )
            .into_response(),
    }
}

pub async fn faults(State(shared): State<Arc<Shared>>) -> Json<Faults> {
    Json(shared.inner.lock().unwrap().faults.clone())
}

pub async fn stats(State(shared): State<Arc<Shared>>) -> Json<GoogleStats> {
    Json(shared.inner.lock().unwrap().stats.clone())
}

/// Clears the statistics and pending faults (grants and tokens stay).
pub async fn reset(State(shared): State<Arc<Shared>>) -> StatusCode {
    let mut inner = shared.inner.lock().unwrap();
    inner.stats = GoogleStats::default();
    inner.faults = Faults::default();
    StatusCode::NO_CONTENT
}

/// `?siteUrl=` (and `&country=usa` to count one country's rows only): that property's facts;
/// without it, the account and its properties.
pub async fn facts_of(State(shared): State<Arc<Shared>>, RawQuery(query): RawQuery) -> Response {
    let params = form_pairs(query.unwrap_or_default().as_bytes());
    let get = |name: &str| {
        params
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let Some(site_url) = get("siteUrl") else {
        let settings = &shared.settings;
        let (start, end) = data_window("", shared.data.end);
        let body = json!({
            "email": settings.email, "sub": settings.sub, "clientId": settings.client_id,
            "siteEntry": site_entries(), "dataStartDate": start.to_string(),
            "dataEndDate": end.to_string(),
        });
        return Json(body).into_response();
    };
    let data = shared.clone();
    let site_url = site_url.to_owned();
    let country = get("country").map(str::to_owned);
    // The big property's facts read its million rows: off the async workers.
    let answer = tokio::task::spawn_blocking(move || {
        facts(&data.data, &site_url, country.as_deref()).ok_or(site_url)
    })
    .await;
    match answer {
        Ok(Ok(facts)) => Json(facts).into_response(),
        Ok(Err(site_url)) => {
            let body: Value = json!({"error": format!("no property {site_url}")});
            (StatusCode::NOT_FOUND, Json(body)).into_response()
        }
        Err(err) => (StatusCode::INTERNAL_SERVER_ERROR, err.to_string()).into_response(),
    }
}
