//! The locales function: languages and locations (no authentication, cacheable), and the
//! machine-readable and human-readable descriptions of the whole API.

mod docs;
mod lists;

use std::sync::OnceLock;

use axum::Router;
use kr_shared::http::{finish_router, openapi::base_document, API_PREFIX};
use utoipa::openapi::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

fn api() -> OpenApiRouter {
    OpenApiRouter::new().nest(
        API_PREFIX,
        OpenApiRouter::new()
            .routes(routes!(lists::languages))
            .routes(routes!(lists::locations))
            .routes(routes!(docs::openapi_json))
            .routes(routes!(docs::docs_page)),
    )
}

/// The endpoints of this function in the OpenAPI document.
pub fn openapi() -> OpenApi {
    api().into_openapi()
}

/// The whole API: every function's paths, generated from the routers that serve them.
pub fn full_openapi() -> &'static OpenApi {
    static DOCUMENT: OnceLock<OpenApi> = OnceLock::new();
    DOCUMENT.get_or_init(|| {
        let mut document = base_document();
        for part in [
            kr_account::openapi(),
            kr_jobs::openapi(),
            kr_results::openapi(),
            kr_export::openapi(),
            openapi(),
        ] {
            document.merge(part);
        }
        document
    })
}

pub fn router() -> Router {
    let (router, _) = api().split_for_parts();
    finish_router(router)
}
