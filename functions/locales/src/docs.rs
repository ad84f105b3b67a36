//! `/openapi.json` and a readable docs page rendered on the server from the same document
//! (`kr_api_reference`), so the page needs no script or stylesheet from anywhere else.

use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, X_CONTENT_TYPE_OPTIONS,
};
use axum::response::IntoResponse;

use crate::{reference_page, OPENAPI_JSON};

/// The docs page has no script and loads nothing; its one `<style>` element is the only
/// exception to "nothing inline".
const DOCS_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; \
                           base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The OpenAPI 3.1 description of every endpoint.
#[utoipa::path(
    get,
    path = "/api/v1/openapi.json",
    tag = "meta",
    security(()),
    responses((status = 200, description = "OpenAPI 3.1 document", content_type = "application/json"))
)]
pub async fn openapi_json() -> impl IntoResponse {
    (
        [
            (CONTENT_TYPE, "application/json"),
            (CACHE_CONTROL, "public, max-age=300"),
        ],
        OPENAPI_JSON,
    )
}

/// This API's documentation as one self-contained HTML page.
#[utoipa::path(
    get,
    path = "/api/v1/docs",
    tag = "meta",
    security(()),
    responses((status = 200, description = "HTML documentation", content_type = "text/html"))
)]
pub async fn docs_page() -> impl IntoResponse {
    (
        [
            (CONTENT_TYPE, "text/html; charset=utf-8"),
            (CACHE_CONTROL, "public, max-age=300"),
            (CONTENT_SECURITY_POLICY, DOCS_POLICY),
            (X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        reference_page(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_docs_page_allows_no_script_and_no_sniffing() {
        let response = docs_page().await.into_response();
        let header = |name| response.headers()[name].to_str().unwrap();
        assert_eq!(
            header(CONTENT_SECURITY_POLICY),
            "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; \
             base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        );
        assert_eq!(header(X_CONTENT_TYPE_OPTIONS), "nosniff");
        assert_eq!(header(CACHE_CONTROL), "public, max-age=300");
        assert_eq!(header(CONTENT_TYPE), "text/html; charset=utf-8");
    }
}
