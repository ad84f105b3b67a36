//! The keyword filters and the cluster order as the OpenAPI document describes them, built
//! from the same constants and range table the parsers (`keyword_query.rs`, `clusters.rs`) read, so
//! names, types, bounds and defaults cannot drift apart.

use kr_core::dataset::{
    ClusterAction, Intent, KeywordSource, SerpFeature, DECAY_MIN_LOSS, DECAY_MIN_PREVIOUS_CLICKS,
    STRIKING_DISTANCE_MIN_IMPRESSIONS, STRIKING_DISTANCE_POSITIONS,
};
use serde_json::json;
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::Required;
use utoipa::IntoParams;

use kr_contract::query_params::paging_parameters;

use crate::clusters::{
    ClusterFilter, ClusterQuery, CLUSTER_SORTS, DEFAULT_CLUSTER_LIMIT, MAX_CLUSTER_LIMIT,
    MAX_TOPIC_ID_LENGTH,
};
use crate::keyword_query::{
    KeywordQuery, SortKey, AI_OVERVIEW_FILTERS, DEFAULT_LIMIT, MAX_LIMIT, MAX_WEAK_SPOTS,
    MIN_MAX_POSITION, NO_PERSONA, RANGES,
};
use crate::topics::{TopicQuery, DEFAULT_TOPIC_LIMIT, MAX_TOPIC_LIMIT, TOPIC_SORTS};

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

/// An optional query parameter.
fn parameter(
    parameter_in: &impl Fn() -> Option<ParameterIn>,
    name: &str,
    description: String,
    schema: ObjectBuilder,
) -> Parameter {
    ParameterBuilder::new()
        .name(name)
        .parameter_in(parameter_in().unwrap_or(ParameterIn::Query))
        .required(Required::False)
        .description(Some(description))
        .schema(Some(schema.build()))
        .build()
}

/// `sortOrder`, read with `QueryParams::choice`.
fn sort_order(parameter_in: &impl Fn() -> Option<ParameterIn>) -> Parameter {
    parameter(
        parameter_in,
        "sortOrder",
        "`asc` or `desc`.".into(),
        text()
            .enum_values(Some(["asc", "desc"]))
            .default(Some(json!("desc"))),
    )
}

/// A comma list of `names` (no spaces, lowercase): the canonical form of a list the parser
/// reads item by item, trimmed and case-insensitively, skipping empty items.
fn comma_list_pattern(names: &[&str]) -> String {
    let one = format!("(?:{})", names.join("|"));
    format!("^(?:{one}(?:,{one})*)?$")
}

impl IntoParams for ClusterQuery {
    fn into_params(parameter_in: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let mut parameters =
            paging_parameters("Clusters", MAX_CLUSTER_LIMIT, DEFAULT_CLUSTER_LIMIT).to_vec();
        parameters.push(parameter(
            &parameter_in,
            "sortBy",
            "The order of the clusters; nulls last, ties by name then id. `aiShare` is the site's share of the AI Overviews on the cluster's keywords (`aiShareOfVoice.site`); clusters without one last in either order.".into(),
            text()
                .enum_values(Some(CLUSTER_SORTS))
                .default(Some(json!(CLUSTER_SORTS[0]))),
        ));
        parameters.push(sort_order(&parameter_in));
        parameters.extend(ClusterFilter::into_params(parameter_in));
        parameters
    }
}

impl IntoParams for ClusterFilter {
    fn into_params(parameter_in: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let actions: Vec<&str> = ClusterAction::ALL.iter().map(|a| a.as_str()).collect();
        let intents: Vec<&str> = Intent::ALL.iter().map(|i| i.as_str()).collect();
        vec![
            parameter(
                &parameter_in,
                "action",
                "Only clusters with this action on the primary site: `create` (no page serves it), `improve` (one page does), `consolidate` (several compete).".into(),
                text().enum_values(Some(actions)),
            ),
            parameter(
                &parameter_in,
                "topicId",
                "Only clusters of this topic (an id from `GET /jobs/{jobId}/topics`); an id the completed job does not have is refused with 400.".into(),
                text()
                    .pattern(Some(format!("^t-[a-z0-9-]{{1,{}}}$", MAX_TOPIC_ID_LENGTH - 2))),
            ),
            parameter(
                &parameter_in,
                "intent",
                "Only clusters whose dominant intent is this one.".into(),
                text().enum_values(Some(intents)),
            ),
        ]
    }
}

impl IntoParams for TopicQuery {
    fn into_params(parameter_in: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let mut parameters =
            paging_parameters("Topics", MAX_TOPIC_LIMIT, DEFAULT_TOPIC_LIMIT).to_vec();
        parameters.push(parameter(
            &parameter_in,
            "sortBy",
            "The order of the topics; ties by name then id. `aiShare` is the site's share of the AI Overviews on the topic's keywords (`aiShareOfVoice.site`); topics without one last in either order.".into(),
            text()
                .enum_values(Some(TOPIC_SORTS))
                .default(Some(json!(TOPIC_SORTS[0]))),
        ));
        parameters.push(sort_order(&parameter_in));
        parameters
    }
}

impl IntoParams for KeywordQuery {
    fn into_params(parameter_in: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let parameter = |name: &str, description: String, schema: ObjectBuilder| {
            parameter(&parameter_in, name, description, schema)
        };
        let intents: Vec<&str> = Intent::ALL.iter().map(|intent| intent.as_str()).collect();
        let sources: Vec<&str> = KeywordSource::ALL.iter().map(|s| s.as_str()).collect();
        let features: Vec<&str> = SerpFeature::ALL.iter().map(|f| f.as_str()).collect();
        let mut parameters = paging_parameters("Keywords", MAX_LIMIT, DEFAULT_LIMIT).to_vec();
        parameters.extend([
            parameter(
                "search",
                "Case-insensitive substring of the keyword.".into(),
                text(),
            ),
            parameter(
                "intent",
                format!(
                    "Comma list of {} (also accepted: any case, spaces around items, empty items).",
                    intents.join(", ")
                ),
                text().pattern(Some(comma_list_pattern(&intents))),
            ),
            parameter(
                "source",
                format!(
                    "Comma list of {}: where keywords came from (the user's list, a ranking, the crawl, a keyword idea, Search Console alone).",
                    sources.join(", ")
                ),
                text().pattern(Some(comma_list_pattern(&sources))),
            ),
            parameter(
                "serpFeature",
                format!(
                    "Comma list of SERP features ({}): keywords whose first results page shows any of them. Keywords without a fetched SERP (`serpFeatures: null`: no data provider, or past the job's SERP budget) never match.",
                    features.join(", ")
                ),
                text().pattern(Some(comma_list_pattern(&features))),
            ),
            parameter(
                "aiOverview",
                format!(
                    "Comma list of {}: keywords whose SERP showed an AI Overview (`present`), showed none (`absent`), showed one citing the site (`cites_site`, any page on its registrable domain, subdomains included) or one citing a competitor of the job (`cites_competitor`); any of them. Keywords without a fetched SERP (`aiOverview: null`) never match. Another value is refused with 400 naming `aiOverview`.",
                    AI_OVERVIEW_FILTERS.join(", ")
                ),
                text().pattern(Some(comma_list_pattern(&AI_OVERVIEW_FILTERS))),
            ),
            parameter(
                "minWeakSpots",
                format!(
                    "Lowest number of weak spots (top-10 results from forums, Q&A and social sites) to include: a whole number, from 0 to {MAX_WEAK_SPOTS}. Keywords without a fetched SERP are excluded."
                ),
                integer()
                    .minimum(Some(0))
                    .maximum(Some(MAX_WEAK_SPOTS as i64)),
            ),
            parameter(
                "personaAvatarNames",
                format!(
                    "Comma list of persona avatar names; `{NO_PERSONA}` selects keywords without a persona."
                ),
                text(),
            ),
        ]);
        for range in &RANGES {
            let kind = if range.whole_numbers {
                "a whole number"
            } else {
                "a number"
            };
            for (name, side) in [(range.min, "Lowest"), (range.max, "Highest")] {
                // Whole numbers are read as 64-bit integers, so that is their ceiling.
                let schema = if range.whole_numbers {
                    integer()
                        .minimum(Some(range.lowest as i64))
                        .maximum(Some(range.highest.map_or(i64::MAX, |high| high as i64)))
                } else {
                    number().minimum(Some(range.lowest)).maximum(range.highest)
                };
                parameters.push(parameter(
                    name,
                    format!(
                        "{side} {} to include: {kind}, {}; {}. Keywords whose value is unknown are excluded.",
                        range.label(),
                        bounds(range.lowest, range.highest),
                        if side == "Lowest" {
                            format!("not above `{}`", range.max)
                        } else {
                            format!("not below `{}`", range.min)
                        },
                    ),
                    schema,
                ));
            }
        }
        let boolean = || text().enum_values(Some(["true", "false"]));
        parameters.extend([
            parameter(
                "strikingDistance",
                format!(
                    "Search Console (the job's `searchConsoleProperty`): `true`, keywords in striking distance: an average position from {} to {} (inclusive) with at least {STRIKING_DISTANCE_MIN_IMPRESSIONS} impressions over the last 28 days of data; `false`, keywords with Search Console data that are not. Keywords without Search Console data match neither.",
                    STRIKING_DISTANCE_POSITIONS.start(),
                    STRIKING_DISTANCE_POSITIONS.end(),
                ),
                boolean(),
            ),
            parameter(
                "decaying",
                format!(
                    "Search Console: `true`, keywords whose clicks over the last 28 days of data are down at least {} % against the 28 days before, from at least {DECAY_MIN_PREVIOUS_CLICKS} (`previousClicks`); `false`, keywords with Search Console data that are not. Keywords without Search Console data match neither.",
                    (DECAY_MIN_LOSS * 100.0).round(),
                ),
                boolean(),
            ),
            parameter(
                "minImpressions",
                "Lowest Search Console impressions over the last 28 days of data (`searchConsole.impressions`) to include: a whole number, 0 or more. Keywords without Search Console data are excluded.".into(),
                integer().minimum(Some(0)),
            ),
            parameter(
                "maxPosition",
                format!(
                    "Highest Search Console average position over the last 28 days of data (`searchConsole.position`) to include: a number, {MIN_MAX_POSITION} or more. Keywords without Search Console data, or without impressions (so without a position), are excluded."
                ),
                number().minimum(Some(MIN_MAX_POSITION)),
            ),
        ]);
        parameters.push(parameter(
            "sortBy",
            "The order of the keywords (see the endpoint's description); `volume` is an alias of `searchVolume`; `impressions`, `clicks` and `position` are Search Console's over the last 28 days of data (keywords without it, and for `position` without impressions, last in either order).".into(),
            text()
                .enum_values(Some(SortKey::NAMES))
                .default(Some(json!("organicOpportunityScore"))),
        ));
        parameters.push(sort_order(&parameter_in));
        parameters
    }
}
