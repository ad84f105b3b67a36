//! The keyword filters as the OpenAPI document describes them, built from the same constants
//! and range table the parser (`query.rs`) reads, so names, types, bounds and defaults cannot
//! drift apart.

use kr_core::dataset::Intent;
use serde_json::json;
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::Required;
use utoipa::IntoParams;

use crate::query::{KeywordQuery, SortKey, DEFAULT_LIMIT, MAX_LIMIT, NO_PERSONA, RANGES};

fn integer() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
}

fn number() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Number)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Double)))
}

fn text() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::String)
}

fn bounds(lowest: f64, highest: Option<f64>) -> String {
    match highest {
        Some(highest) => format!("from {lowest} to {highest}"),
        None => format!("{lowest} or more"),
    }
}

impl IntoParams for KeywordQuery {
    fn into_params(parameter_in: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let parameter = |name: &str, description: String, schema: ObjectBuilder| {
            ParameterBuilder::new()
                .name(name)
                .parameter_in(parameter_in().unwrap_or(ParameterIn::Query))
                .required(Required::False)
                .description(Some(description))
                .schema(Some(schema.build()))
                .build()
        };
        let intents: Vec<&str> = Intent::ALL.iter().map(|intent| intent.as_str()).collect();
        let mut parameters = vec![
            parameter(
                "limit",
                format!("Keywords per page, 1 to {MAX_LIMIT}, default {DEFAULT_LIMIT}."),
                integer()
                    .minimum(Some(1))
                    .maximum(Some(MAX_LIMIT))
                    .default(Some(json!(DEFAULT_LIMIT))),
            ),
            parameter(
                "offset",
                format!("Keywords to skip, 0 to {}, default 0.", u32::MAX),
                integer()
                    .minimum(Some(0))
                    .maximum(Some(u32::MAX))
                    .default(Some(json!(0))),
            ),
            parameter(
                "search",
                "Case-insensitive substring of the keyword.".into(),
                text(),
            ),
            parameter(
                "intent",
                format!("Comma list of {}.", intents.join(", ")),
                text(),
            ),
            parameter(
                "personaAvatarNames",
                format!(
                    "Comma list of persona avatar names; `{NO_PERSONA}` selects keywords without a persona."
                ),
                text(),
            ),
        ];
        for range in &RANGES {
            let kind = if range.whole_numbers {
                "a whole number"
            } else {
                "a number"
            };
            for (name, side) in [(range.min, "Lowest"), (range.max, "Highest")] {
                let schema = if range.whole_numbers {
                    integer()
                } else {
                    number()
                };
                parameters.push(parameter(
                    name,
                    format!(
                        "{side} {} to include: {kind}, {}. Keywords whose value is unknown are excluded.",
                        range.label(),
                        bounds(range.lowest, range.highest)
                    ),
                    schema.minimum(Some(range.lowest)).maximum(range.highest),
                ));
            }
        }
        parameters.push(parameter(
            "sortBy",
            "The order of the keywords (see the endpoint's description); `volume` is an alias of `searchVolume`.".into(),
            text()
                .enum_values(Some(SortKey::NAMES))
                .default(Some(json!("organicOpportunityScore"))),
        ));
        parameters.push(parameter(
            "sortOrder",
            "`asc` or `desc`.".into(),
            text()
                .enum_values(Some(["asc", "desc"]))
                .default(Some(json!("desc"))),
        ));
        parameters
    }
}
