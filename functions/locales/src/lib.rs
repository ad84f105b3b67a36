//! The locales function: languages and locations (no authentication, cacheable), and the
//! machine-readable and human-readable descriptions of the whole API. The description is
//! `openapi.json` beside this crate, generated from every function's code and kept identical
//! to it by `tests/tests/suite/routes_and_template.rs`, so this function links no other function.

mod docs;
mod lists;

use std::sync::OnceLock;

use axum::Router;
use serde_json::Value;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The published OpenAPI document, as committed.
pub const OPENAPI_JSON: &str = include_str!("../openapi.json");

/// This function's endpoints (`kr_http::routes::ROUTES`), documented.
pub fn api() -> OpenApiRouter {
    OpenApiRouter::new()
        .routes(routes!(lists::languages))
        .routes(routes!(lists::locations))
        .routes(routes!(docs::openapi_json))
        .routes(routes!(docs::docs_page))
}

/// The published document, parsed once per instance.
fn document() -> &'static Value {
    static DOCUMENT: OnceLock<Value> = OnceLock::new();
    DOCUMENT.get_or_init(|| serde_json::from_str(OPENAPI_JSON).expect("openapi.json is JSON"))
}

/// The API reference page for the published document (`kr_api_reference`), rendered once per
/// instance.
fn reference_page() -> &'static str {
    static PAGE: OnceLock<String> = OnceLock::new();
    PAGE.get_or_init(|| kr_api_reference::render(document()))
}

pub fn router() -> Router {
    kr_http::router(api(), ())
}
