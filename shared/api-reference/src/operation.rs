//! One endpoint's section: method and path, summary and description, parameters, request
//! body, responses, security and a curl example.

use std::fmt::Write;

use serde_json::Value;

use super::{escape, markdown, schema, Doc, Operation};

/// Who may call an endpoint: `public` when it also answers without credentials (no
/// `security`, an empty list, or an empty `{}` entry), and the alternatives (each a set of
/// schemes sent together) that identify a caller.
pub struct Security<'a> {
    pub public: bool,
    pub alternatives: Vec<Vec<(&'a str, Vec<&'a str>)>>,
}

impl<'a> Security<'a> {
    /// The operation's `security`, else the document's.
    pub fn of(root: &'a Value, operation: &'a Value) -> Self {
        let list = operation
            .get("security")
            .or_else(|| root.get("security"))
            .and_then(Value::as_array);
        let mut security = Security {
            public: true,
            alternatives: Vec::new(),
        };
        let Some(entries) = list.filter(|entries| !entries.is_empty()) else {
            return security;
        };
        security.public = false;
        for entry in entries {
            let schemes: Vec<(&str, Vec<&str>)> = entry
                .as_object()
                .into_iter()
                .flatten()
                .map(|(name, scopes)| {
                    let scopes = scopes.as_array().into_iter().flatten();
                    (name.as_str(), scopes.filter_map(Value::as_str).collect())
                })
                .collect();
            if schemes.is_empty() {
                security.public = true;
            } else {
                security.alternatives.push(schemes);
            }
        }
        security
    }

    /// A short label for the badge under the heading.
    pub fn badge(&self) -> &'static str {
        match (self.public, self.alternatives.is_empty()) {
            (true, true) => "<span class=\"auth pub\">No credentials</span>",
            (true, false) => "<span class=\"auth opt\">Credentials optional</span>",
            (false, _) => "<span class=\"auth req\">Credentials required</span>",
        }
    }
}

/// How a scheme is sent, in one line of plain text.
pub fn scheme_usage(scheme: &Value) -> String {
    let text = |key: &str| scheme.get(key).and_then(Value::as_str).unwrap_or("");
    match (text("type"), text("in")) {
        ("http", _) if text("scheme").eq_ignore_ascii_case("bearer") => {
            let format = match text("bearerFormat") {
                "" => "<token>",
                format => format,
            };
            format!("Authorization: Bearer {format}")
        }
        ("http", _) if text("scheme").eq_ignore_ascii_case("basic") => {
            "Authorization: Basic <base64 user:password>".to_string()
        }
        ("http", _) => format!("Authorization: {} …", text("scheme")),
        ("apiKey", "header") => format!("{}: <key>", text("name")),
        ("apiKey", "cookie") => format!("Cookie: {}=…", text("name")),
        ("apiKey", "query") => format!("?{}=<key>", text("name")),
        ("oauth2", _) => "OAuth 2 access token".to_string(),
        ("openIdConnect", _) => "OpenID Connect token".to_string(),
        ("mutualTLS", _) => "TLS client certificate".to_string(),
        (other, _) => other.to_string(),
    }
}

/// The anchor of a security scheme in the Authentication section.
pub fn scheme_anchor(name: &str) -> String {
    format!("auth-{}", super::slug(name))
}

fn scheme_link(name: &str, scopes: &[&str]) -> String {
    let mut link = format!(
        "<a href=\"#{}\"><code>{}</code></a>",
        escape(&scheme_anchor(name)),
        escape(name)
    );
    if !scopes.is_empty() {
        let _ = write!(link, " (scopes: {})", escape(&scopes.join(", ")));
    }
    link
}

/// "A, B or C" of HTML parts.
fn any_of(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [only] => only.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn security_html(security: &Security) -> String {
    let alternatives: Vec<String> = security
        .alternatives
        .iter()
        .map(|schemes| {
            let links: Vec<String> = schemes
                .iter()
                .map(|(name, scopes)| scheme_link(name, scopes))
                .collect();
            links.join(" and ")
        })
        .collect();
    match (security.public, alternatives.is_empty()) {
        (true, true) => "None: this endpoint takes no credentials.".to_string(),
        (true, false) => format!(
            "Optional: the endpoint also answers without credentials. To call it as a user, \
             send {}.",
            any_of(&alternatives)
        ),
        (false, _) if alternatives.len() == 1 => format!("Send {}.", alternatives[0]),
        (false, _) => format!("Send one of {}.", any_of(&alternatives)),
    }
}

/// The parameters of an operation: those of its path item, unless the operation redefines
/// them (same name and location), then its own.
fn parameters<'a>(doc: &Doc<'a>, operation: &Operation<'a>) -> Vec<&'a Value> {
    let list = |value: &'a Value| -> Vec<&'a Value> {
        value
            .get("parameters")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|parameter| doc.resolve(parameter))
            .collect()
    };
    let own = list(operation.operation);
    let key = |parameter: &Value| (parameter.get("name").cloned(), parameter.get("in").cloned());
    let mut all: Vec<&Value> = list(operation.path_item)
        .into_iter()
        .filter(|inherited| own.iter().all(|mine| key(mine) != key(inherited)))
        .collect();
    all.extend(own);
    all
}

/// A parameter's schema: `schema`, or that of its one `content` entry.
fn parameter_schema(parameter: &Value) -> &Value {
    parameter
        .get("schema")
        .or_else(|| {
            parameter
                .get("content")
                .and_then(Value::as_object)
                .and_then(|content| content.values().next())
                .and_then(|media| media.get("schema"))
        })
        .unwrap_or(&Value::Null)
}

fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The section of one operation.
pub fn section(html: &mut String, doc: &Doc, operation: &Operation, base_url: &str) {
    let op = operation.operation;
    let security = Security::of(doc.root, op);
    let id = escape(&operation.anchor);
    let method = operation.method;
    let _ = write!(
        html,
        "<section class=\"op\" id=\"{id}\" aria-labelledby=\"{id}-h\">\
         <h3 id=\"{id}-h\"><span class=\"m m-{method}\">{upper}</span> \
         <code class=\"path\">{path}</code></h3><p class=\"badges\">{badge}{deprecated}</p>{summary}{description}",
        upper = method.to_ascii_uppercase(),
        path = escape(operation.path),
        badge = security.badge(),
        deprecated = if op.get("deprecated") == Some(&Value::Bool(true)) {
            " <span class=\"auth dep\">Deprecated</span>"
        } else {
            ""
        },
        summary = markdown::to_html(text(op, "summary"), 3),
        description = markdown::to_html(text(op, "description"), 3),
    );

    let parameters = parameters(doc, operation);
    if !parameters.is_empty() {
        html.push_str(
            "<h4>Parameters</h4><div class=\"tw\"><table class=\"stack params\"><thead><tr>\
             <th scope=\"col\">Name</th><th scope=\"col\">In</th><th scope=\"col\">Type</th>\
             <th scope=\"col\">Required</th><th scope=\"col\">Description</th></tr></thead><tbody>",
        );
        for parameter in &parameters {
            let schema = parameter_schema(parameter);
            let required = text(parameter, "in") == "path"
                || parameter.get("required") == Some(&Value::Bool(true));
            let _ = write!(
                html,
                "<tr><th scope=\"row\"><code>{name}</code></th><td>{location}</td>\
                 <td class=\"ty\">{kind}</td><td>{required}</td><td>{description}{constraints}{own}</td></tr>",
                name = escape(text(parameter, "name")),
                location = escape(text(parameter, "in")),
                kind = schema::type_html(schema),
                required = schema::required_html(required),
                description = markdown::to_html(text(parameter, "description"), 4),
                constraints = schema::constraints_html(doc, schema),
                // An example or deprecation on the parameter itself rather than its schema.
                own = schema::constraints_html(doc, &parameter_marks(parameter)),
            );
        }
        html.push_str("</tbody></table></div>");
    }

    if let Some(body) = op.get("requestBody").map(|body| doc.resolve(body)) {
        html.push_str("<h4>Request body</h4>");
        let required = body.get("required") == Some(&Value::Bool(true));
        for (media_type, media) in body
            .get("content")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let schema = media.get("schema").unwrap_or(&Value::Null);
            let _ = write!(
                html,
                "<p>{required}, <code>{media_type}</code>: {kind}</p>",
                required = if required { "Required" } else { "Optional" },
                media_type = escape(media_type),
                kind = schema::type_html(schema),
            );
            html.push_str(&markdown::to_html(text(body, "description"), 4));
            if let Some(table) = schema::fields_table(doc, schema, 4) {
                html.push_str(&table);
            }
        }
    }

    responses(html, doc, op);

    let _ = write!(
        html,
        "<h4>Security</h4><p>{}</p><h4>Example request</h4><pre class=\"curl\"><code>{}</code></pre></section>",
        security_html(&security),
        escape(&curl(doc, operation, &parameters, &security, base_url)),
    );
}

/// A parameter's own `example`, `examples` and `deprecated`, as a schema-like value for
/// [`schema::constraints_html`].
fn parameter_marks(parameter: &Value) -> Value {
    let mut marks = serde_json::Map::new();
    if let Some(example) = parameter.get("example") {
        marks.insert("example".into(), example.clone());
    } else if let Some(first) = parameter
        .get("examples")
        .and_then(Value::as_object)
        .and_then(|examples| examples.values().next())
        .and_then(|example| example.get("value"))
    {
        marks.insert("example".into(), first.clone());
    }
    if let Some(deprecated) = parameter.get("deprecated") {
        marks.insert("deprecated".into(), deprecated.clone());
    }
    Value::Object(marks)
}

fn responses(html: &mut String, doc: &Doc, op: &Value) {
    let Some(responses) = op.get("responses").and_then(Value::as_object) else {
        return;
    };
    html.push_str(
        "<h4>Responses</h4><div class=\"tw\"><table class=\"stack responses\"><thead><tr>\
         <th scope=\"col\">Status</th><th scope=\"col\">Description</th><th scope=\"col\">Body</th>\
         </tr></thead><tbody>",
    );
    let mut expandable = Vec::new();
    for (status, response) in responses {
        let response = doc.resolve(response);
        let class = match status.chars().next() {
            Some(digit @ '1'..='5') => format!("st st-{digit}"),
            _ => "st".to_string(),
        };
        let mut bodies = Vec::new();
        for (media_type, media) in response
            .get("content")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let mut body = format!("<code>{}</code>", escape(media_type));
            if let Some(schema) = media.get("schema") {
                let _ = write!(body, " {}", schema::type_html(schema));
                if status.starts_with('2') && schema::has_fields(doc, schema) {
                    expandable.push((status, schema));
                }
            }
            bodies.push(body);
        }
        let headers: Vec<String> = response
            .get("headers")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(name, _)| format!("<code>{}</code>", escape(name)))
            .collect();
        let _ = write!(
            html,
            "<tr><th scope=\"row\"><span class=\"{class}\">{status}</span></th><td>{description}{headers}</td><td>{bodies}</td></tr>",
            status = escape(status),
            description = markdown::to_html(text(response, "description"), 4),
            headers = if headers.is_empty() {
                String::new()
            } else {
                format!("<p>Headers: {}</p>", headers.join(", "))
            },
            bodies = if bodies.is_empty() {
                "No body".to_string()
            } else {
                bodies.join("<br>")
            },
        );
    }
    html.push_str("</tbody></table></div>");
    for (status, schema) in expandable {
        if let Some(table) = schema::fields_table(doc, schema, 4) {
            let _ = write!(
                html,
                "<details class=\"fields\"><summary>Fields of the <code>{}</code> response: {}</summary>{table}</details>",
                escape(status),
                schema::type_html(schema),
            );
        }
    }
}

/// `text` in single quotes for a POSIX shell.
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// A name kept to characters that need no quoting inside double quotes.
fn token(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .collect()
}

/// The curl flags that send credentials for `security`: an API key header when the
/// endpoint takes one, else a bearer token, basic credentials or the session cookie.
/// Nothing when the endpoint takes no credentials.
fn credential_flags(doc: &Doc, security: &Security) -> Vec<String> {
    let schemes = &doc.root["components"]["securitySchemes"];
    let flag = |name: &str| -> (u8, Option<String>) {
        let scheme = doc.resolve(&schemes[name]);
        let text = |key: &str| scheme.get(key).and_then(Value::as_str).unwrap_or("");
        match (text("type"), text("in")) {
            ("apiKey", "header") => (0, Some(format!("-H \"{}: $KEY\"", token(text("name"))))),
            ("http", _) if text("scheme").eq_ignore_ascii_case("bearer") => {
                (1, Some("-H \"Authorization: Bearer $KEY\"".to_string()))
            }
            ("oauth2" | "openIdConnect", _) => {
                (2, Some("-H \"Authorization: Bearer $TOKEN\"".to_string()))
            }
            ("http", _) if text("scheme").eq_ignore_ascii_case("basic") => {
                (3, Some("-u \"$USERNAME:$PASSWORD\"".to_string()))
            }
            ("apiKey", "cookie") => (4, Some(format!("-b \"{}=$SESSION\"", token(text("name"))))),
            _ => (9, None),
        }
    };
    security
        .alternatives
        .iter()
        .map(|schemes| {
            let flags: Vec<(u8, Option<String>)> =
                schemes.iter().map(|(name, _)| flag(name)).collect();
            let rank = flags.iter().map(|(rank, _)| *rank).max().unwrap_or(9);
            (rank, flags)
        })
        .filter(|(rank, _)| *rank < 9)
        .min_by_key(|(rank, _)| *rank)
        .map(|(_, flags)| flags.into_iter().filter_map(|(_, flag)| flag).collect())
        .unwrap_or_default()
}

/// A value for a parameter in the example: its example or default, else `<name>`.
fn parameter_value(doc: &Doc, parameter: &Value) -> String {
    let schema = parameter_schema(parameter);
    let value = parameter
        .get("example")
        .or_else(|| schema.get("example"))
        .or_else(|| schema.get("default"))
        .cloned()
        .or_else(|| {
            schema
                .get("$ref")
                .map(|_| schema::example(doc, schema, 0))
                .filter(|value| !value.is_null())
        });
    match value {
        Some(Value::String(text)) => text,
        Some(other) => other.to_string(),
        None => format!("<{}>", text(parameter, "name")),
    }
}

/// A curl command for the operation: base URL, path parameters as `<name>`, required query
/// and header parameters, credentials when the endpoint takes them, and a JSON body made
/// from the schema's examples and required fields.
pub fn curl(
    doc: &Doc,
    operation: &Operation,
    parameters: &[&Value],
    security: &Security,
    base_url: &str,
) -> String {
    let mut url = base_url.to_string();
    url.push_str(&operation.path.replace('{', "<").replace('}', ">"));
    let required = |location: &'static str| -> Vec<&Value> {
        parameters
            .iter()
            .filter(|parameter| {
                text(parameter, "in") == location
                    && parameter.get("required") == Some(&Value::Bool(true))
            })
            .copied()
            .collect()
    };
    let query: Vec<String> = required("query")
        .into_iter()
        .map(|parameter| {
            format!(
                "{}={}",
                text(parameter, "name"),
                parameter_value(doc, parameter)
            )
        })
        .collect();
    if !query.is_empty() {
        url.push('?');
        url.push_str(&query.join("&"));
    }
    let mut lines = vec![match operation.method {
        "get" => format!("curl {}", shell_quote(&url)),
        "head" => format!("curl -I {}", shell_quote(&url)),
        method => format!(
            "curl -X {} {}",
            method.to_ascii_uppercase(),
            shell_quote(&url)
        ),
    }];
    lines.extend(credential_flags(doc, security));
    for parameter in required("header") {
        let header = format!(
            "{}: {}",
            text(parameter, "name"),
            parameter_value(doc, parameter)
        );
        lines.push(format!("-H {}", shell_quote(&header)));
    }
    for parameter in required("cookie") {
        let cookie = format!(
            "{}={}",
            text(parameter, "name"),
            parameter_value(doc, parameter)
        );
        lines.push(format!("-b {}", shell_quote(&cookie)));
    }
    let body = operation
        .operation
        .get("requestBody")
        .map(|body| doc.resolve(body));
    let content = body
        .and_then(|body| body.get("content"))
        .and_then(Value::as_object);
    if let Some(content) = content {
        let is_json =
            |media_type: &str| media_type == "application/json" || media_type.ends_with("+json");
        let chosen = content
            .iter()
            .find(|(media_type, _)| is_json(media_type))
            .or_else(|| content.iter().next());
        if let Some((media_type, media)) = chosen {
            lines.push(format!(
                "-H {}",
                shell_quote(&format!("content-type: {media_type}"))
            ));
            if is_json(media_type) {
                let value = media
                    .get("example")
                    .cloned()
                    .or_else(|| {
                        media
                            .get("examples")
                            .and_then(Value::as_object)
                            .and_then(|examples| examples.values().next())
                            .and_then(|example| example.get("value"))
                            .cloned()
                    })
                    .unwrap_or_else(|| {
                        schema::example(doc, media.get("schema").unwrap_or(&Value::Null), 0)
                    });
                let compact = value.to_string();
                let json = if compact.len() > 60 {
                    serde_json::to_string_pretty(&value).unwrap_or(compact)
                } else {
                    compact
                };
                lines.push(format!("-d {}", shell_quote(&json)));
            } else {
                lines.push("--data-binary @<file>".to_string());
            }
        }
    }
    lines.join(" \\\n  ")
}
