//! The state every handler shares, and the router: Google's paths, the mock's `/__mock/`
//! endpoints, a count of requests per route, and Google's JSON 404 for anything else.

use std::sync::{Arc, Mutex};

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;

use super::control::{self, Faults, GoogleStats};
use super::dataset::Dataset;
use super::oauth::OAuthState;
use super::{api, consent, paths, token};

/// Who the client is and who is signed in.
pub struct Settings {
    pub client_id: String,
    pub client_secret: String,
    pub email: String,
    /// The account's stable id (`sub`), derived from the e-mail.
    pub sub: String,
    /// The service accounts Google knows: their e-mail and public key (PEM). They see the
    /// same properties as the signed-in account.
    pub service_accounts: Vec<(String, String)>,
}

pub struct Shared {
    pub settings: Settings,
    pub data: Dataset,
    pub inner: Mutex<Inner>,
}

pub struct Inner {
    pub oauth: OAuthState,
    pub faults: Faults,
    pub stats: GoogleStats,
}

async fn count(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("(unknown)", MatchedPath::as_str)
        .to_owned();
    *shared
        .inner
        .lock()
        .unwrap()
        .stats
        .requests
        .entry(route)
        .or_default() += 1;
    next.run(request).await
}

async fn not_found() -> Response {
    api::google_error(404, "NOT_FOUND", "notFound", "Not Found")
}

pub fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route(paths::AUTH, get(consent::authorize))
        .route(paths::AUTH_DECIDE, post(consent::decide))
        .route(paths::TOKEN, post(token::token))
        .route(paths::REVOKE, post(token::revoke))
        .route(paths::USERINFO, get(api::userinfo))
        .route(paths::SITES, get(api::sites))
        .route(paths::SITE, get(api::site))
        .route(paths::SEARCH_ANALYTICS, post(api::search_analytics))
        .route(
            "/__mock/faults",
            post(control::set_faults).get(control::faults),
        )
        .route("/__mock/stats", get(control::stats))
        .route("/__mock/facts", get(control::facts_of))
        .route("/__mock/reset", post(control::reset))
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(shared.clone(), count))
        .with_state(shared)
}
