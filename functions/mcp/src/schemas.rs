//! Each tool's input schema, built from the same types the API documents itself with: the
//! body of `POST /jobs` is `CreateJobRequest`'s schema, and the query tools take the very
//! query parameters of the results endpoints (`KeywordQuery`, `ClusterQuery`, paging), so a
//! tool and its endpoint cannot drift apart.

use kr_contract::job_request::CreateJobRequest;
use kr_contract::query_params::paging_parameters;
use kr_contract::records::KeywordRecord;
use kr_core::domain::JobStatus;
use kr_core::service::jobs::MAX_IDEMPOTENCY_KEY_CHARS;
use kr_query::{
    ClusterFilter, ClusterQuery, KeywordQuery, TopicQuery, DEFAULT_CHANGE_LIMIT, MAX_CHANGE_LIMIT,
    MAX_LIMIT,
};
use serde_json::{json, Map, Value};
use utoipa::openapi::path::{Parameter, ParameterIn};
use utoipa::{IntoParams, PartialSchema, ToSchema};

/// Keywords a query tool answers when the caller asks for no `limit`: a page a model can read.
pub const DEFAULT_KEYWORDS: u32 = 10;
/// Topics `content_plan` answers when the caller asks for no `limit`: each comes with its
/// clusters.
pub const DEFAULT_TOPICS: u32 = 5;
/// Jobs `list_jobs` answers by default, and at most.
pub const DEFAULT_JOBS: u32 = 10;
pub const MAX_JOBS: u32 = 100;
/// Keywords `striking_distance` answers when the caller asks for no `limit`.
pub const DEFAULT_STRIKING: u32 = 20;
/// Keyword fields `striking_distance` answers when the caller names none.
pub const STRIKING_FIELDS: &[&str] = &[
    "id",
    "keyword",
    "searchVolume",
    "difficulty",
    "intent",
    "clusterId",
    "clusterName",
    "searchConsole",
];
/// Characters of an answer's text `ai_visibility` keeps (the API keeps 2,000).
pub const AI_ANSWER_CHARS: usize = 500;
/// Keyword fields answered when the caller names none.
pub const DEFAULT_FIELDS: &[&str] = &[
    "id",
    "keyword",
    "searchVolume",
    "difficulty",
    "cpc",
    "intent",
    "clusterName",
    "personaAvatarName",
    "organicOpportunityScore",
    "source",
];

fn object(properties: Map<String, Value>, required: &[&str]) -> Map<String, Value> {
    let mut schema = Map::new();
    schema.insert("type".into(), json!("object"));
    schema.insert("properties".into(), Value::Object(properties));
    schema.insert("required".into(), json!(required));
    schema
}

fn job_id() -> Value {
    json!({"type": "string", "format": "uuid", "description": "The job's id."})
}

/// Query parameters as tool properties: each parameter's schema with its description.
fn parameters(params: Vec<Parameter>) -> Map<String, Value> {
    params
        .into_iter()
        .filter_map(|parameter| {
            let parameter = serde_json::to_value(parameter).ok()?;
            let name = parameter["name"].as_str()?.to_string();
            let mut schema = parameter.get("schema")?.clone();
            if let (Some(schema), Some(description)) =
                (schema.as_object_mut(), parameter.get("description"))
            {
                schema.insert("description".into(), description.clone());
            }
            Some((name, schema))
        })
        .collect()
}

fn query() -> Option<ParameterIn> {
    Some(ParameterIn::Query)
}

fn fields() -> Value {
    let record = serde_json::to_value(KeywordRecord::schema()).unwrap_or_default();
    let names: Vec<String> = record["properties"]
        .as_object()
        .map(|properties| properties.keys().cloned().collect())
        .unwrap_or_default();
    json!({
        "type": "array",
        "items": {"type": "string", "enum": names},
        "uniqueItems": true,
        "description": format!("The keyword fields to answer; default {}.", DEFAULT_FIELDS.join(", ")),
    })
}

fn keyword_properties() -> Map<String, Value> {
    let mut properties = parameters(KeywordQuery::into_params(query));
    if let Some(limit) = properties.get_mut("limit").and_then(Value::as_object_mut) {
        limit.insert("default".into(), json!(DEFAULT_KEYWORDS));
    }
    properties.insert("jobId".into(), job_id());
    properties.insert("fields".into(), fields());
    properties
}

pub fn create_job() -> Map<String, Value> {
    let mut schema = match serde_json::to_value(CreateJobRequest::schema()) {
        Ok(Value::Object(schema)) => schema,
        _ => object(Map::new(), &[]),
    };
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        properties.insert(
            "idempotencyKey".into(),
            json!({
                "type": "string",
                "minLength": 1,
                "maxLength": MAX_IDEMPOTENCY_KEY_CHARS,
                "description": "Makes a retried call safe, as POST /jobs' Idempotency-Key: the same key within 24 hours answers the first call's job without charging again; the same key with other arguments is refused."
            }),
        );
    }
    schema
}

pub fn job() -> Map<String, Value> {
    object(
        Map::from_iter([("jobId".to_string(), job_id())]),
        &["jobId"],
    )
}

pub fn list_jobs() -> Map<String, Value> {
    let mut properties = parameters(paging_parameters("Jobs", MAX_JOBS, DEFAULT_JOBS).to_vec());
    let statuses: Vec<&str> = JobStatus::ALL.iter().map(|s| s.as_str()).collect();
    properties.insert(
        "status".into(),
        json!({"type": "string", "enum": statuses, "description": "Only jobs with this status."}),
    );
    object(properties, &[])
}

pub fn query_keywords() -> Map<String, Value> {
    object(keyword_properties(), &["jobId"])
}

pub fn cluster_keywords() -> Map<String, Value> {
    let mut properties = keyword_properties();
    properties.insert(
        "clusterId".into(),
        json!({"type": "string", "description": "A cluster id from list_clusters."}),
    );
    object(properties, &["jobId", "clusterId"])
}

pub fn cluster_brief() -> Map<String, Value> {
    let mut properties = Map::new();
    properties.insert("jobId".into(), job_id());
    properties.insert(
        "clusterId".into(),
        json!({"type": "string", "description": "A cluster id from list_clusters or content_plan."}),
    );
    object(properties, &["jobId", "clusterId"])
}

pub fn list_clusters() -> Map<String, Value> {
    let mut properties = parameters(ClusterQuery::into_params(query));
    properties.insert("jobId".into(), job_id());
    object(properties, &["jobId"])
}

pub fn content_plan() -> Map<String, Value> {
    let mut properties = parameters(TopicQuery::into_params(query));
    properties.extend(parameters(ClusterFilter::into_params(query)));
    properties.insert("jobId".into(), job_id());
    object(properties, &["jobId"])
}

pub fn job_changes() -> Map<String, Value> {
    let properties = Map::from_iter([
        ("jobId".to_string(), job_id()),
        (
            "since".to_string(),
            json!({"type": "string", "format": "uuid", "description": "The earlier job to compare with (same primary domain, language and location); the previous completed run when absent."}),
        ),
        (
            "limit".to_string(),
            json!({"type": "integer", "minimum": 1, "maximum": MAX_CHANGE_LIMIT, "default": DEFAULT_CHANGE_LIMIT, "description": "Items per list."}),
        ),
    ]);
    object(properties, &["jobId"])
}

pub fn striking_distance() -> Map<String, Value> {
    let mut properties =
        parameters(paging_parameters("Keywords", MAX_LIMIT, DEFAULT_STRIKING).to_vec());
    properties.insert("jobId".into(), job_id());
    let mut fields = fields();
    fields["description"] = json!(format!(
        "The keyword fields to answer; default {} (its daily series left out).",
        STRIKING_FIELDS.join(", ")
    ));
    properties.insert("fields".into(), fields);
    object(properties, &["jobId"])
}

/// A tool of one job: its `jobId` alone.
pub fn job_only() -> Map<String, Value> {
    object(
        Map::from_iter([("jobId".to_string(), job_id())]),
        &["jobId"],
    )
}

/// The JSON Schema of `T` as the API documents it, whole: the schemas it refers to are put in
/// `$defs` and its references point there, since a tool's output schema stands alone.
pub fn output<T: ToSchema>() -> Map<String, Value> {
    let mut referred = Vec::new();
    T::schemas(&mut referred);
    let defs: Map<String, Value> = referred
        .into_iter()
        .map(|(name, schema)| (name, serde_json::to_value(schema).unwrap_or_default()))
        .collect();
    let mut root = serde_json::to_value(T::schema()).unwrap_or_default();
    if let Value::Object(root) = &mut root {
        if !defs.is_empty() {
            root.insert("$defs".into(), Value::Object(defs));
        }
    }
    point_to_defs(&mut root);
    match root {
        Value::Object(root) => root,
        _ => Map::new(),
    }
}

/// Rewrites OpenAPI's `#/components/schemas/X` references as `#/$defs/X`.
fn point_to_defs(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(target)) = map.get_mut("$ref") {
                if let Some(name) = target.strip_prefix("#/components/schemas/") {
                    *target = format!("#/$defs/{name}");
                }
            }
            map.values_mut().for_each(point_to_defs);
        }
        Value::Array(items) => items.iter_mut().for_each(point_to_defs),
        _ => {}
    }
}

pub fn no_arguments() -> Map<String, Value> {
    object(Map::new(), &[])
}
