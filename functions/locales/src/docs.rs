//! `/openapi.json` and a readable docs page rendered on the server from the same document,
//! so the page needs no script or stylesheet from anywhere else.

use std::fmt::Write;

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::IntoResponse;
use serde_json::Value;

use crate::{document, OPENAPI_JSON};

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
        ],
        render(document()),
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The name of a `$ref`ed schema, or the inline schema as compact JSON.
fn schema_label(schema: &Value) -> String {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => reference
            .rsplit('/')
            .next()
            .unwrap_or(reference)
            .to_string(),
        None => schema.to_string(),
    }
}

const STYLE: &str = "body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}\
code,pre{font:13px ui-monospace,monospace;background:#f4f4f4;border-radius:4px}pre{padding:.75rem;overflow:auto}\
.op{border:1px solid #ddd;border-radius:6px;padding:.5rem 1rem;margin:1rem 0}.m{font-weight:700;text-transform:uppercase;margin-right:.5rem}\
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}";

fn render(document: &Value) -> String {
    let info = &document["info"];
    let mut html = String::new();
    let _ = write!(
        html,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title} {version}</title><style>{STYLE}</style></head><body>\
         <h1>{title} <small>{version}</small></h1><p>Machine-readable: <a href=\"openapi.json\">openapi.json</a> (OpenAPI {openapi}).</p><pre>{description}</pre>",
        title = escape(text(info, "title")),
        version = escape(text(info, "version")),
        openapi = escape(text(document, "openapi")),
        description = escape(text(info, "description")),
    );
    html.push_str("<h2>Endpoints</h2>");
    if let Some(paths) = document["paths"].as_object() {
        for (path, operations) in paths {
            for (method, operation) in operations.as_object().into_iter().flatten() {
                render_operation(&mut html, path, method, operation);
            }
        }
    }
    html.push_str("<h2>Schemas</h2>");
    if let Some(schemas) = document["components"]["schemas"].as_object() {
        for (name, schema) in schemas {
            let pretty = serde_json::to_string_pretty(schema).unwrap_or_default();
            let _ = write!(
                html,
                "<h3 id=\"{0}\">{0}</h3><pre>{1}</pre>",
                escape(name),
                escape(&pretty)
            );
        }
    }
    html.push_str("</body></html>");
    html
}

fn render_operation(html: &mut String, path: &str, method: &str, operation: &Value) {
    let _ = write!(
        html,
        "<div class=\"op\"><p><span class=\"m\">{}</span><code>{}</code></p><p>{}</p>",
        escape(method),
        escape(path),
        escape(text(operation, "description")).replace('\n', "<br>")
    );
    if let Some(parameters) = operation["parameters"].as_array().filter(|p| !p.is_empty()) {
        html.push_str(
            "<table><tr><th>Parameter</th><th>In</th><th>Required</th><th>Description</th></tr>",
        );
        for parameter in parameters {
            let _ = write!(
                html,
                "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(text(parameter, "name")),
                escape(text(parameter, "in")),
                parameter["required"].as_bool().unwrap_or(false),
                escape(text(parameter, "description"))
            );
        }
        html.push_str("</table>");
    }
    if let Some(body) =
        operation["requestBody"]["content"]["application/json"]["schema"].as_object()
    {
        let _ = write!(
            html,
            "<p>Body: <code>{}</code></p>",
            escape(&schema_label(&Value::Object(body.clone())))
        );
    }
    html.push_str("<table><tr><th>Status</th><th>Description</th><th>Body</th></tr>");
    for (status, response) in operation["responses"].as_object().into_iter().flatten() {
        let body = response["content"]
            .as_object()
            .and_then(|content| content.values().next())
            .map(|media| schema_label(&media["schema"]))
            .unwrap_or_default();
        let _ = write!(
            html,
            "<tr><td>{}</td><td>{}</td><td><code>{}</code></td></tr>",
            escape(status),
            escape(text(response, "description")),
            escape(&body)
        );
    }
    html.push_str("</table></div>");
}
