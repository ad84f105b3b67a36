//! The parts of the OpenAPI document that belong to no single function: info, security
//! schemes, the error body. Each function contributes its own paths from its router.

use utoipa::openapi::security::{ApiKey, ApiKeyValue, Http, HttpAuthScheme, SecurityScheme};
use utoipa::openapi::OpenApi as OpenApiDoc;
use utoipa::{Modify, OpenApi};

use crate::error::{ErrorBody, ErrorCode, FieldError};

pub const BEARER: &str = "bearerAuth";
pub const API_KEY_HEADER: &str = "apiKeyHeader";
pub const SESSION_COOKIE: &str = "sessionCookie";

struct SecuritySchemes;

impl Modify for SecuritySchemes {
    fn modify(&self, openapi: &mut OpenApiDoc) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            BEARER,
            SecurityScheme::Http(
                Http::builder()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("kr_…")
                    .description(Some("An API key: `Authorization: Bearer kr_…`."))
                    .build(),
            ),
        );
        components.add_security_scheme(
            API_KEY_HEADER,
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
                "X-API-KEY",
                "The same API key in the `X-API-KEY` header.",
            ))),
        );
        components.add_security_scheme(
            SESSION_COOKIE,
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                "__session",
                "The dashboard's session cookie, set by `POST /api/v1/auth/login`.",
            ))),
        );
    }
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Keyword Research API",
        version = "0.1.0",
        description = include_str!("openapi_description.md"),
    ),
    modifiers(&SecuritySchemes),
    components(schemas(ErrorBody, ErrorCode, FieldError)),
    tags(
        (name = "account", description = "The current user, sign-in and API keys."),
        (name = "locales", description = "Languages and locations usable for jobs."),
        (name = "jobs", description = "Keyword research jobs."),
        (name = "results", description = "A job's keywords, clusters, personas and site references: the owner's, or anyone's for a demo job."),
        (name = "meta", description = "This description of the API."),
    )
)]
struct BaseDoc;

/// The document every function's paths are merged into.
pub fn base_document() -> OpenApiDoc {
    BaseDoc::openapi()
}
