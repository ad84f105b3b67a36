//! The parts of the OpenAPI document that belong to no single function: info, security
//! schemes, the error body. Each function contributes its own paths from its router.

use utoipa::openapi::security::{ApiKey, ApiKeyValue, Http, HttpAuthScheme, SecurityScheme};
use utoipa::openapi::OpenApi as OpenApiDoc;
use utoipa::{Modify, OpenApi};

use crate::error::{ErrorBody, ErrorCode};
use kr_contract::validation::FieldError;

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
        (name = "integrations", description = "Google Search Console connected to the account (OAuth 2.0 with PKCE): the properties jobs can import measured searches from."),
        (name = "locales", description = "Languages and locations usable for jobs."),
        (name = "jobs", description = "Keyword research jobs."),
        (name = "results", description = "A job's keywords, clusters, personas and site references: the owner's, or anyone's for a demo job."),
        (name = "sharing", description = "Read-only links to a job's results for someone without an account (`/share/{token}`): chosen tabs, an expiry, revocable at once."),
        (name = "meta", description = "This description of the API."),
    )
)]
struct BaseDoc;

/// The document every function's paths are merged into.
pub fn base_document() -> OpenApiDoc {
    BaseDoc::openapi()
}

/// Documents the request limit on every operation a caller can authenticate for: a 429 in
/// the error body, and the `RateLimit-*` headers on its successful answers. Applied once the
/// functions' paths are merged in, since it is about all of them.
pub fn document_rate_limits(openapi: &mut OpenApiDoc) {
    use utoipa::openapi::header::HeaderBuilder;
    use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder};
    let integer = || {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Integer)
            .build()
    };
    let header = |description: &str| {
        HeaderBuilder::new()
            .schema(integer())
            .description(Some(description))
            .build()
    };
    let rate_headers = [
        (
            "RateLimit-Limit",
            "Requests the caller's plan allows per minute.",
        ),
        (
            "RateLimit-Remaining",
            "Requests left in the current minute.",
        ),
        (
            "RateLimit-Reset",
            "Seconds until the current minute's count starts again.",
        ),
    ];
    let limited = {
        let mut response = ResponseBuilder::new()
            .description(
                "Over the plan's request limit (`rate_limited`); wait `Retry-After` seconds.",
            )
            .content(
                "application/json",
                ContentBuilder::new()
                    .schema(Some(Ref::from_schema_name("ErrorBody")))
                    .build(),
            )
            .header(
                "Retry-After",
                header("Seconds until requests are taken again."),
            );
        for (name, description) in rate_headers {
            response = response.header(name, header(description));
        }
        response.build()
    };
    for item in openapi.paths.paths.values_mut() {
        let operations = [
            &mut item.get,
            &mut item.post,
            &mut item.put,
            &mut item.patch,
            &mut item.delete,
        ];
        for operation in operations.into_iter().flatten() {
            let authenticates = operation.security.as_ref().is_some_and(|requirements| {
                requirements
                    .iter()
                    .any(|requirement| requirement != &Default::default())
            });
            if !authenticates {
                continue;
            }
            for (status, response) in operation.responses.responses.iter_mut() {
                if let (true, RefOr::T(response)) = (status.starts_with('2'), response) {
                    for (name, description) in rate_headers {
                        response
                            .headers
                            .insert(name.to_string(), header(description));
                    }
                }
            }
            operation
                .responses
                .responses
                .insert("429".to_string(), RefOr::T(limited.clone()));
        }
    }
}
