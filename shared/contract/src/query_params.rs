//! The query parameters the OpenAPI document describes from the constants they are read
//! with; `kr_core::query_params::QueryParams` reads them.

use serde_json::json;
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::Required;

/// How [`QueryParams::paging`](kr_core::query_params::QueryParams::paging) reads `limit` and
/// `offset`, for the OpenAPI document: `items` names what is paged ("Jobs").
pub fn paging_parameters(items: &str, max_limit: u32, default_limit: u32) -> [Parameter; 2] {
    let integer = || {
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
    };
    let parameter = |name: &str, description: String, schema: ObjectBuilder| {
        ParameterBuilder::new()
            .name(name)
            .parameter_in(ParameterIn::Query)
            .required(Required::False)
            .description(Some(description))
            .schema(Some(schema.build()))
            .build()
    };
    [
        parameter(
            "limit",
            format!("{items} per page, 1 to {max_limit}, default {default_limit}."),
            integer()
                .minimum(Some(1))
                .maximum(Some(max_limit))
                .default(Some(json!(default_limit))),
        ),
        parameter(
            "offset",
            format!("{items} to skip, 0 to {}, default 0.", u32::MAX),
            integer()
                .minimum(Some(0))
                .maximum(Some(u32::MAX))
                .default(Some(json!(0))),
        ),
    ]
}
