//! The API reference page: one self-contained HTML document rendered from an OpenAPI
//! document ([`render`]), in the manner of Redoc or Scalar but with no script at all. A sidebar
//! lists the endpoints by tag; each endpoint has its parameters, request body, responses,
//! security and a curl example; every schema is expanded into a table of its fields; the
//! error codes are listed with their HTTP status. Every text from the document is escaped
//! ([`escape`]) or rendered from CommonMark with raw HTML shown as text ([`markdown`]).

mod markdown;
mod operation;
mod schema;

use std::collections::HashSet;
use std::fmt::Write;

use kr_http::error::ErrorCode;
use serde_json::Value;

/// `text` made safe for HTML text and attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `text` for an id: letters, digits, `.`, `_` and `-` kept, anything else `-`.
fn slug(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let keep = c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
        if keep {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// The document being rendered.
pub(crate) struct Doc<'a> {
    root: &'a Value,
}

impl<'a> Doc<'a> {
    /// What a local `$ref` points at (followed a few times), or `value` itself.
    fn resolve(&self, mut value: &'a Value) -> &'a Value {
        for _ in 0..8 {
            let target = value
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|reference| reference.strip_prefix('#'))
                .and_then(|pointer| self.root.pointer(pointer));
            match target {
                Some(target) => value = target,
                None => break,
            }
        }
        value
    }
}

/// One operation of `paths`, with its unique anchor.
pub(crate) struct Operation<'a> {
    method: &'a str,
    path: &'a str,
    operation: &'a Value,
    path_item: &'a Value,
    anchor: String,
}

/// The keys of a path item that are operations, in the order the page lists them.
const METHODS: [&str; 8] = [
    "get", "put", "post", "patch", "delete", "head", "options", "trace",
];

/// Ids handed out once each.
#[derive(Default)]
struct Ids(HashSet<String>);

impl Ids {
    fn unique(&mut self, base: String) -> String {
        let mut id = base.clone();
        let mut n = 2;
        while !self.0.insert(id.clone()) {
            id = format!("{base}-{n}");
            n += 1;
        }
        id
    }
}

fn operations<'a>(root: &'a Value, ids: &mut Ids) -> Vec<Operation<'a>> {
    let mut out = Vec::new();
    for (path, path_item) in root
        .get("paths")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        for method in METHODS {
            if let Some(operation) = path_item.get(method).filter(|op| op.is_object()) {
                out.push(Operation {
                    method,
                    path,
                    operation,
                    path_item,
                    anchor: ids.unique(format!("op-{method}-{}", slug(path))),
                });
            }
        }
    }
    out
}

/// A tag and its operations: `(index, primary)`, primary when this is the operation's first
/// tag, where its section is; under its other tags it is a link.
struct Group<'a> {
    name: String,
    description: &'a str,
    anchor: String,
    members: Vec<(usize, bool)>,
}

/// The document's `tags` in order, then tags only operations name, then untagged operations
/// (as "other"); tags without operations are left out.
fn groups<'a>(root: &'a Value, operations: &[Operation<'a>], ids: &mut Ids) -> Vec<Group<'a>> {
    let mut groups: Vec<Group<'a>> = Vec::new();
    let add = |groups: &mut Vec<Group<'a>>, name: &str, description: &'a str| {
        if !groups.iter().any(|group| group.name == name) {
            groups.push(Group {
                name: name.to_string(),
                description,
                anchor: String::new(),
                members: Vec::new(),
            });
        }
    };
    for tag in root
        .get("tags")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(name) = tag.get("name").and_then(Value::as_str) {
            let description = tag.get("description").and_then(Value::as_str).unwrap_or("");
            add(&mut groups, name, description);
        }
    }
    for (index, operation) in operations.iter().enumerate() {
        let tags: Vec<&str> = operation
            .operation
            .get("tags")
            .and_then(Value::as_array)
            .map(|tags| tags.iter().filter_map(Value::as_str).collect())
            .filter(|tags: &Vec<&str>| !tags.is_empty())
            .unwrap_or_else(|| vec!["other"]);
        for (position, tag) in tags.into_iter().enumerate() {
            add(&mut groups, tag, "");
            let group = groups.iter_mut().find(|group| group.name == tag);
            if let Some(group) = group.filter(|group| !group.members.iter().any(|m| m.0 == index)) {
                group.members.push((index, position == 0));
            }
        }
    }
    groups.retain(|group| !group.members.is_empty());
    for group in &mut groups {
        group.anchor = ids.unique(format!("tag-{}", slug(&group.name)));
    }
    groups
}

/// The base URL of the curl examples: the first server's when absolute, else a placeholder
/// host (before a relative server URL).
fn base_url(root: &Value) -> String {
    let server = root
        .get("servers")
        .and_then(Value::as_array)
        .and_then(|all| all.first());
    let mut url = server
        .and_then(|server| server.get("url"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if let Some(variables) = server
        .and_then(|server| server.get("variables"))
        .and_then(Value::as_object)
    {
        for (name, variable) in variables {
            if let Some(default) = variable.get("default").and_then(Value::as_str) {
                url = url.replace(&format!("{{{name}}}"), default);
            }
        }
    }
    let url = url.trim_end_matches('/');
    if url.starts_with("http://") || url.starts_with("https://") {
        url.to_string()
    } else {
        format!("https://<your-host>{}", url.trim_start_matches('.'))
    }
}

/// The longest run of leading path segments every path shares (never a whole path): the
/// sidebar leaves it out.
fn common_prefix<'a>(operations: &[Operation<'a>]) -> &'a str {
    let Some(first) = operations.first() else {
        return "";
    };
    let mut prefix = first.path.rfind('/').map_or("", |at| &first.path[..at]);
    for operation in operations {
        let under = |prefix: &str| {
            let rest = operation.path.strip_prefix(prefix);
            rest.is_some_and(|rest| rest.starts_with('/') && rest.len() > 1)
        };
        while !prefix.is_empty() && !under(prefix) {
            prefix = prefix.rfind('/').map_or("", |at| &prefix[..at]);
        }
    }
    prefix
}

const STYLE: &str = include_str!("style.css");

fn str_of<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The page for `root`, an OpenAPI 3 document.
pub fn render(root: &Value) -> String {
    let doc = Doc { root };
    let mut ids = Ids::default();
    for fixed in [
        "main",
        "top",
        "introduction",
        "authentication",
        "errors",
        "schemas",
    ] {
        ids.unique(fixed.to_string());
    }
    let operations = operations(root, &mut ids);
    let groups = groups(root, &operations, &mut ids);
    let info = &root["info"];
    let title = match str_of(info, "title") {
        "" => "API".to_string(),
        title => markdown::plain(title),
    };
    let version = str_of(info, "version");
    let schemes = root["components"]["securitySchemes"]
        .as_object()
        .filter(|all| !all.is_empty());
    let schemas = root["components"]["schemas"]
        .as_object()
        .filter(|all| !all.is_empty());
    let error_body = schemas.and_then(|all| all.get("ErrorBody"));

    let mut html = String::with_capacity(256 * 1024);
    let _ = write!(
        html,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title} {version}: API reference</title><style>{STYLE}</style></head><body>\
         <a class=\"skip\" href=\"#main\">Skip to the reference</a><div class=\"layout\">",
        title = escape(&title),
        version = escape(version),
    );

    // The sidebar.
    let prefix = common_prefix(&operations);
    let _ = write!(
        html,
        "<nav class=\"side\" aria-label=\"API reference\"><p class=\"brand\"><a href=\"#top\">{}</a></p>\
         <p class=\"out\"><a href=\"/\">&larr; Dashboard</a> &middot; <a href=\"openapi.json\">openapi.json</a></p>\
         <details open><summary>Contents</summary><ul class=\"toc\"><li><a href=\"#introduction\">Introduction</a></li>",
        escape(&title),
    );
    if schemes.is_some() {
        html.push_str("<li><a href=\"#authentication\">Authentication</a></li>");
    }
    if !prefix.is_empty() {
        let _ = write!(
            html,
            "<li class=\"note\">Endpoints, paths under <code>{}</code>:</li>",
            escape(prefix)
        );
    }
    for group in &groups {
        let _ = write!(
            html,
            "<li class=\"grp\"><a class=\"tag\" href=\"#{}\">{}</a>",
            escape(&group.anchor),
            escape(&group.name),
        );
        if !group.description.is_empty() {
            let _ = write!(
                html,
                "<span class=\"td\">{}</span>",
                escape(&markdown::plain(group.description))
            );
        }
        html.push_str("<ul>");
        for (index, _) in &group.members {
            let operation = &operations[*index];
            let summary = markdown::plain(str_of(operation.operation, "summary"));
            let _ = write!(
                html,
                "<li><a href=\"#{anchor}\" title=\"{summary}\"><span class=\"m m-{method}\">{upper}</span>\
                 <code>{path}</code></a></li>",
                anchor = escape(&operation.anchor),
                summary = escape(&summary),
                method = operation.method,
                upper = operation.method.to_ascii_uppercase(),
                path = escape(&operation.path[prefix.len()..]),
            );
        }
        html.push_str("</ul></li>");
    }
    if error_body.is_some() {
        html.push_str("<li><a href=\"#errors\">Errors</a></li>");
    }
    if schemas.is_some() {
        html.push_str("<li><a href=\"#schemas\">Schemas</a></li>");
    }
    html.push_str("</ul></details></nav>");

    // The header and the introduction.
    let _ = write!(
        html,
        "<main id=\"main\"><header id=\"top\"><h1>{title} <span class=\"ver\">{version}</span></h1>\
         <p class=\"meta\">OpenAPI {openapi}{license} &middot; <a href=\"openapi.json\">Download openapi.json</a> \
         &middot; <a href=\"/\">Back to the dashboard</a></p></header>\
         <section id=\"introduction\" aria-label=\"Introduction\">{description}\
         <p>Examples use <code>{base}</code> as the base URL{key}.</p></section>",
        title = escape(&title),
        version = escape(version),
        openapi = escape(str_of(root, "openapi")),
        license = match str_of(&info["license"], "name") {
            "" => String::new(),
            name => format!(" &middot; License {}", escape(name)),
        },
        description = markdown::to_html(str_of(info, "description"), 1),
        base = escape(&base_url(root)),
        key = if schemes.is_some() {
            " and <code>$KEY</code> for your API key"
        } else {
            ""
        },
    );

    if let Some(schemes) = schemes {
        html.push_str(
            "<section id=\"authentication\" aria-labelledby=\"authentication-h\">\
             <h2 id=\"authentication-h\">Authentication</h2>\
             <p>Each endpoint's <strong>Security</strong> names the schemes it accepts.</p>\
             <div class=\"tw\"><table class=\"stack\"><thead><tr><th scope=\"col\">Scheme</th><th scope=\"col\">Type</th>\
             <th scope=\"col\">Send</th><th scope=\"col\">Description</th></tr></thead><tbody>",
        );
        for (name, scheme) in schemes {
            let scheme = doc.resolve(scheme);
            let _ = write!(
                html,
                "<tr><th scope=\"row\" id=\"{id}\"><code>{name}</code></th><td>{kind}</td>\
                 <td><code>{usage}</code></td><td>{description}</td></tr>",
                id = escape(&operation::scheme_anchor(name)),
                name = escape(name),
                kind = escape(str_of(scheme, "type")),
                usage = escape(&operation::scheme_usage(scheme)),
                description = markdown::to_html(str_of(scheme, "description"), 4),
            );
        }
        html.push_str("</tbody></table></div></section>");
    }

    // The endpoints, by tag.
    let base = base_url(root);
    for group in &groups {
        let id = escape(&group.anchor);
        let _ = write!(
            html,
            "<section class=\"group\" id=\"{id}\" aria-labelledby=\"{id}-h\"><h2 id=\"{id}-h\">{}</h2>{}",
            escape(&group.name),
            markdown::to_html(group.description, 2),
        );
        for (index, primary) in &group.members {
            let operation = &operations[*index];
            if *primary {
                operation::section(&mut html, &doc, operation, &base);
            } else {
                let _ = write!(
                    html,
                    "<p class=\"also\">Also here: <a href=\"#{}\"><span class=\"m m-{}\">{}</span> <code>{}</code></a></p>",
                    escape(&operation.anchor),
                    operation.method,
                    operation.method.to_ascii_uppercase(),
                    escape(operation.path),
                );
            }
        }
        html.push_str("</section>");
    }

    if let Some(error_body) = error_body {
        errors(&mut html, &doc, error_body);
    }

    if let Some(schemas) = schemas {
        html.push_str(
            "<section id=\"schemas\" aria-labelledby=\"schemas-h\"><h2 id=\"schemas-h\">Schemas</h2>\
             <ul class=\"index\">",
        );
        for name in schemas.keys() {
            let _ = write!(
                html,
                "<li><a href=\"#{}\">{}</a></li>",
                escape(&schema::anchor(name)),
                escape(name)
            );
        }
        html.push_str("</ul>");
        for (name, value) in schemas {
            schema::section(&mut html, &doc, name, value);
        }
        html.push_str("</section>");
    }
    html.push_str("</main></div></body></html>");
    html
}

/// Every [`ErrorCode`], so the page reads each code's status from the code that answers it.
/// A code the document lists but this array misses shows no status, and the test on the
/// committed document fails.
const ERROR_CODES: [ErrorCode; 13] = [
    ErrorCode::ValidationFailed,
    ErrorCode::Unauthorized,
    ErrorCode::InsufficientCredits,
    ErrorCode::DomainLimitReached,
    ErrorCode::Forbidden,
    ErrorCode::NotFound,
    ErrorCode::MethodNotAllowed,
    ErrorCode::JobNotReady,
    ErrorCode::PayloadTooLarge,
    ErrorCode::UnsupportedMediaType,
    ErrorCode::RateLimited,
    ErrorCode::UpstreamUnavailable,
    ErrorCode::Internal,
];

/// The HTTP status an error code is answered with: its number and reason phrase.
fn error_status(code: &str) -> Option<(u16, &'static str)> {
    ERROR_CODES
        .iter()
        .find(|known| {
            serde_json::to_value(known)
                .ok()
                .as_ref()
                .and_then(Value::as_str)
                == Some(code)
        })
        .map(|known| {
            let status = known.status();
            (status.as_u16(), status.canonical_reason().unwrap_or(""))
        })
}

/// The Errors section: the error body's fields and every code with its HTTP status.
fn errors(html: &mut String, doc: &Doc, error_body: &Value) {
    let _ = write!(
        html,
        "<section id=\"errors\" aria-labelledby=\"errors-h\"><h2 id=\"errors-h\">Errors</h2>\
         <p>Every error response has a JSON body, {link}.</p>{description}{table}",
        link = schema::ref_link("#/components/schemas/ErrorBody"),
        description = markdown::to_html(schema::description(error_body), 2),
        table = schema::fields_table(doc, error_body, 2).unwrap_or_default(),
    );
    let code_schema = doc.resolve(&error_body["properties"]["code"]);
    if let Some(codes) = code_schema.get("enum").and_then(Value::as_array) {
        html.push_str(
            "<h3>Error codes</h3><div class=\"tw\"><table class=\"stack codes\"><thead><tr>\
             <th scope=\"col\">Code</th><th scope=\"col\">HTTP status</th></tr></thead><tbody>",
        );
        for code in codes.iter().filter_map(Value::as_str) {
            let status = match error_status(code) {
                Some((status, reason)) => format!(
                    "<span class=\"st st-{}\">{status}</span> {}",
                    status / 100,
                    escape(reason)
                ),
                None => "&mdash;".to_string(),
            };
            let _ = write!(
                html,
                "<tr><th scope=\"row\"><code>{}</code></th><td>{status}</td></tr>",
                escape(code)
            );
        }
        html.push_str("</tbody></table></div>");
    }
    html.push_str("</section>");
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use serde_json::json;

    use super::*;

    /// A small document with what the page must handle: markdown, raw HTML, references,
    /// bounds and enums, secured, optional and public endpoints in two tags.
    fn sample() -> Value {
        json!({
            "openapi": "3.1.0",
            "info": {
                "title": "Sample <API>",
                "version": "1.2.3",
                "description": "Intro with a table:\n\n| Code | Meaning |\n|---|---|\n| 1 | one |\n\n- first\n- second\n\nNo <script>alert(1)</script> here.\n"
            },
            "tags": [
                {"name": "things", "description": "Things **you** own."},
                {"name": "open", "description": "No key needed."}
            ],
            "paths": {
                "/v1/things": {
                    "get": {
                        "tags": ["things"],
                        "summary": "Lists things.",
                        "parameters": [
                            {"name": "limit", "in": "query", "required": false, "description": "Page size.",
                             "schema": {"type": "integer", "format": "int32", "minimum": 1, "maximum": 100, "default": 20}},
                            {"name": "order", "in": "query",
                             "schema": {"type": "string", "enum": ["asc", "desc"]}}
                        ],
                        "responses": {
                            "200": {"description": "The things",
                                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ThingList"}}}},
                            "401": {"description": "No key",
                                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
                        },
                        "security": [{"bearerAuth": []}, {"apiKeyHeader": []}]
                    },
                    "post": {
                        "tags": ["things"],
                        "summary": "Creates a thing.",
                        "requestBody": {"required": true,
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}},
                        "responses": {"201": {"description": "Created"}},
                        "security": [{"apiKeyHeader": []}]
                    }
                },
                "/v1/things/{thingId}": {
                    "parameters": [
                        {"name": "thingId", "in": "path", "required": true, "schema": {"$ref": "#/components/schemas/ThingId"}}
                    ],
                    "get": {
                        "tags": ["things"],
                        "summary": "One thing; anyone may read a demo thing.",
                        "responses": {"200": {"description": "The thing",
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}},
                        "security": [{}, {"apiKeyHeader": []}]
                    }
                },
                "/v1/ping": {
                    "get": {
                        "tags": ["open"],
                        "summary": "Answers pong.",
                        "description": "Beware <script>alert(2)</script> and <b>bold</b>.",
                        "responses": {"200": {"description": "Pong", "content": {"text/plain": {}}}},
                        "security": [{}]
                    }
                }
            },
            "components": {
                "securitySchemes": {
                    "apiKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-KEY", "description": "The key."},
                    "bearerAuth": {"type": "http", "scheme": "bearer"}
                },
                "schemas": {
                    "ThingId": {"type": "string", "format": "uuid", "description": "Identifies a thing."},
                    "Thing": {
                        "type": "object",
                        "description": "A thing.",
                        "required": ["name", "size"],
                        "properties": {
                            "id": {"$ref": "#/components/schemas/ThingId"},
                            "name": {"type": "string", "example": "Widget"},
                            "size": {"type": "integer", "minimum": 1, "maximum": 10},
                            "color": {"type": "string", "enum": ["red", "green"], "example": "red"},
                            "note": {"type": ["string", "null"], "description": "Free text."},
                            "parts": {"type": "array", "items": {"$ref": "#/components/schemas/Part"}},
                            "shade": {"oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/Shade", "description": "How dark."}]}
                        }
                    },
                    "ThingList": {"type": "object", "required": ["things"],
                        "properties": {"things": {"type": "array", "items": {"$ref": "#/components/schemas/Thing"}}}},
                    "Part": {"type": "object", "properties": {"label": {"type": "string"}}},
                    "Shade": {"type": "string", "enum": ["light", "dark"]},
                    "ErrorBody": {"type": "object", "required": ["error", "code"], "description": "The body of every error.",
                        "properties": {"error": {"type": "string"}, "code": {"$ref": "#/components/schemas/ErrorCode"}}},
                    "ErrorCode": {"type": "string", "enum": ["validation_failed", "not_found", "job_not_ready"]}
                }
            }
        })
    }

    /// The section of the element with id `id`: from its opening tag to the first
    /// `</section>` after it.
    fn section<'a>(page: &'a str, id: &str) -> &'a str {
        let start = page
            .find(&format!("<section class=\"op\" id=\"{id}\""))
            .or_else(|| page.find(&format!("id=\"{id}\"")))
            .unwrap_or_else(|| panic!("no element with id {id}"));
        let end = page[start..]
            .find("</section>")
            .map_or(page.len(), |at| start + at);
        &page[start..end]
    }

    fn ids(page: &str) -> Vec<&str> {
        page.split(" id=\"")
            .skip(1)
            .map(|rest| &rest[..rest.find('"').unwrap()])
            .collect()
    }

    /// The elements the page may use: no script, no embedded or linked resource.
    const ELEMENTS: [&str; 36] = [
        "!doctype",
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "a",
        "div",
        "nav",
        "main",
        "header",
        "section",
        "details",
        "summary",
        "p",
        "ul",
        "ol",
        "li",
        "span",
        "code",
        "pre",
        "strong",
        "em",
        "del",
        "br",
        "hr",
        "blockquote",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "h1",
        "h2",
    ];

    /// Checks that hold for any rendered page: only known elements and no event handler
    /// (everything from the document is escaped, so every `<` is the renderer's), unique ids,
    /// every in-page link lands, headings never skip a level, every header cell has a scope.
    fn assert_well_formed(page: &str) {
        for tag in page
            .split('<')
            .skip(1)
            .map(|rest| &rest[..rest.find('>').unwrap()])
        {
            let name = tag
                .trim_start_matches('/')
                .split_whitespace()
                .next()
                .unwrap();
            let name = name.to_ascii_lowercase();
            let heading =
                name.len() == 2 && name.starts_with('h') && name[1..].parse::<u8>().is_ok();
            assert!(heading || ELEMENTS.contains(&name.as_str()), "<{tag}>");
            for word in tag.split_whitespace().skip(1) {
                let attribute = word.split('=').next().unwrap().to_ascii_lowercase();
                assert!(
                    !attribute.starts_with("on") || !word.contains('='),
                    "<{tag}>"
                );
                assert!(attribute != "src" && attribute != "srcset", "<{tag}>");
            }
        }
        assert!(!page.to_ascii_lowercase().contains("javascript:"));
        assert_eq!(page.matches("<style>").count(), 1);
        let all_ids = ids(page);
        let unique: HashSet<&str> = all_ids.iter().copied().collect();
        assert_eq!(unique.len(), all_ids.len(), "an id is used twice");
        for target in page
            .split("href=\"#")
            .skip(1)
            .map(|rest| &rest[..rest.find('"').unwrap()])
        {
            assert!(unique.contains(target), "link to #{target} lands nowhere");
        }
        let mut previous = 0;
        for (at, _) in page.match_indices("<h") {
            let Some(level) = page[at + 2..].chars().next().and_then(|c| c.to_digit(10)) else {
                continue;
            };
            assert!(
                level <= previous + 1,
                "h{level} after h{previous}: {}",
                &page[at..at + 80]
            );
            previous = level;
        }
        assert_eq!(
            page.matches("<th>").count(),
            0,
            "a header cell without scope"
        );
        assert_eq!(
            page.matches("<th ").count(),
            page.matches("<th scope=").count()
        );
    }

    #[test]
    fn escape_covers_every_special_character() {
        assert_eq!(
            escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn descriptions_are_rendered_markdown_with_raw_html_escaped() {
        let page = render(&sample());
        let intro = section(&page, "introduction");
        assert!(
            intro.contains("<table>") && intro.contains("<th scope=\"col\">Code</th>"),
            "{intro}"
        );
        assert!(intro.contains("<li>first</li>"), "{intro}");
        assert!(
            intro.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{intro}"
        );
        let ping = section(&page, "op-get-v1-ping");
        assert!(
            ping.contains("&lt;script&gt;alert(2)&lt;/script&gt;"),
            "{ping}"
        );
        assert!(ping.contains("&lt;b&gt;bold&lt;/b&gt;"), "{ping}");
        assert!(!page.contains("<script") && !page.contains("<b>"));
        assert!(page.contains("<title>Sample &lt;API&gt; 1.2.3: API reference</title>"));
        assert_well_formed(&page);
    }

    #[test]
    fn references_link_to_the_schema_and_types_read_naturally() {
        let page = render(&sample());
        let thing = section(&page, "schema-Thing");
        assert!(
            thing.contains("<a href=\"#schema-ThingId\"><code>ThingId</code></a>"),
            "{thing}"
        );
        assert!(
            thing.contains("array of <a href=\"#schema-Part\"><code>Part</code></a>"),
            "{thing}"
        );
        assert!(thing.contains("string | null"), "{thing}");
        assert!(
            thing.contains("<a href=\"#schema-Shade\"><code>Shade</code></a> | null"),
            "{thing}"
        );
        // The description kept inside the `oneOf` variant, and the enum behind the reference.
        assert!(thing.contains("How dark."), "{thing}");
        assert!(
            thing.contains("one of</span> <code>light</code>, <code>dark</code>"),
            "{thing}"
        );
        // Required fields first, each marked.
        let name = thing.find("<code>name</code>").unwrap();
        let id = thing.find("<code>id</code></th>").unwrap();
        assert!(name < id, "required first");
        assert!(
            thing.contains("example</span> <code>Widget</code>"),
            "{thing}"
        );
        for schema in [
            "ThingId",
            "Thing",
            "ThingList",
            "Part",
            "Shade",
            "ErrorBody",
            "ErrorCode",
        ] {
            assert!(
                page.contains(&format!("<section class=\"schema\" id=\"schema-{schema}\"")),
                "{schema}"
            );
        }
        assert!(section(&page, "schema-Shade").contains("<li><code>light</code></li>"));
    }

    #[test]
    fn parameters_show_bounds_enums_and_defaults() {
        let page = render(&sample());
        let list = section(&page, "op-get-v1-things");
        assert!(list.contains("<h4>Parameters</h4>"), "{list}");
        assert!(list.contains("integer (int32)"), "{list}");
        assert!(list.contains("minimum</span> <code>1</code>"), "{list}");
        assert!(list.contains("maximum</span> <code>100</code>"), "{list}");
        assert!(list.contains("default</span> <code>20</code>"), "{list}");
        assert!(
            list.contains("one of</span> <code>asc</code>, <code>desc</code>"),
            "{list}"
        );
        // A path-level parameter reaches the operation, required, with its referenced type.
        let one = section(&page, "op-get-v1-things-thingId");
        assert!(
            one.contains("<code>thingId</code></th><td>path</td>"),
            "{one}"
        );
        assert!(one.contains("<a href=\"#schema-ThingId\">"), "{one}");
        assert!(one.contains("<span class=\"req\">required</span>"), "{one}");
        // The 200 body's fields can be unfolded; the error body only links.
        assert!(
            list.contains(
                "<details class=\"fields\"><summary>Fields of the <code>200</code> response"
            ),
            "{list}"
        );
        assert_eq!(list.matches("<details").count(), 1, "{list}");
    }

    #[test]
    fn curl_examples_send_the_key_only_where_it_is_taken() {
        let page = render(&sample());
        let key = "-H &quot;X-API-KEY: $KEY&quot;";
        let list = section(&page, "op-get-v1-things");
        assert!(
            list.contains(&format!(
                "curl &#39;https://&lt;your-host&gt;/v1/things&#39; \\\n  {key}"
            )),
            "{list}"
        );
        assert!(list.contains("Credentials required"), "{list}");
        let create = section(&page, "op-post-v1-things");
        assert!(
            create.contains(&format!(
                "curl -X POST &#39;https://&lt;your-host&gt;/v1/things&#39; \\\n  {key}"
            )),
            "{create}"
        );
        assert!(
            create.contains("-H &#39;content-type: application/json&#39;"),
            "{create}"
        );
        // Required fields and fields with an example, nothing else.
        // The key order follows the document's maps, which serde_json keeps sorted or in
        // insertion order depending on the features the build unifies; compare as JSON.
        let body = create
            .split("-d &#39;")
            .nth(1)
            .and_then(|rest| rest.split("&#39;").next())
            .expect("a -d body")
            .replace("&quot;", "\"");
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&body).unwrap(),
            serde_json::json!({"color": "red", "name": "Widget", "size": 1}),
            "{create}"
        );
        let one = section(&page, "op-get-v1-things-thingId");
        assert!(one.contains("/v1/things/&lt;thingId&gt;&#39;"), "{one}");
        assert!(
            one.contains(key) && one.contains("Credentials optional"),
            "{one}"
        );
        assert!(one.contains("also answers without credentials"), "{one}");
        let ping = section(&page, "op-get-v1-ping");
        assert!(
            ping.contains("curl &#39;https://&lt;your-host&gt;/v1/ping&#39;</code>"),
            "{ping}"
        );
        assert!(
            !ping.contains("X-API-KEY") && !ping.contains("Authorization"),
            "{ping}"
        );
        assert!(
            ping.contains("None: this endpoint takes no credentials."),
            "{ping}"
        );
    }

    #[test]
    fn every_tag_lists_its_endpoints_in_order() {
        let page = render(&sample());
        let main = &page[page.find("<main").unwrap()..];
        let things = main.find("id=\"tag-things\"").unwrap();
        let open = main.find("id=\"tag-open\"").unwrap();
        assert!(things < open, "the document's tag order");
        for id in [
            "op-get-v1-things",
            "op-post-v1-things",
            "op-get-v1-things-thingId",
        ] {
            let at = main.find(&format!("id=\"{id}\"")).unwrap();
            assert!(things < at && at < open, "{id} under things");
        }
        assert!(main.find("id=\"op-get-v1-ping\"").unwrap() > open);
        // The sidebar: labelled, same groups with their descriptions, links to the sections.
        let nav = &page[page.find("<nav").unwrap()..page.find("</nav>").unwrap()];
        assert!(nav.starts_with("<nav class=\"side\" aria-label=\"API reference\">"));
        assert!(nav.contains("<a class=\"tag\" href=\"#tag-things\">things</a><span class=\"td\">Things you own.</span>"), "{nav}");
        let things = nav.find("#tag-things").unwrap();
        let open = nav.find("#tag-open").unwrap();
        let thing = nav.find("href=\"#op-get-v1-things-thingId\"").unwrap();
        assert!(things < thing && thing < open, "{nav}");
        assert!(nav.contains("<a href=\"/\">") && nav.contains("<a href=\"openapi.json\">"));
        assert!(
            nav.contains("<code>/things/{thingId}</code>"),
            "paths without the shared /v1: {nav}"
        );
    }

    #[test]
    fn an_endpoint_with_two_tags_has_one_section_and_a_link() {
        let page = render(&json!({
            "openapi": "3.1.0",
            "info": {"title": "Two", "version": "1"},
            "tags": [{"name": "a"}, {"name": "b"}],
            "paths": {
                "/x": {"get": {"tags": ["b", "a"], "responses": {"204": {"description": "Done"}}}},
                "/y": {"get": {"responses": {"204": {"description": "Done"}}}}
            }
        }));
        assert_well_formed(&page);
        let a = page.find("<h2 id=\"tag-a-h\">").unwrap();
        let b = page.find("<h2 id=\"tag-b-h\">").unwrap();
        let other = page.find("<h2 id=\"tag-other-h\">").unwrap();
        let link = page.find("Also here: <a href=\"#op-get-x\">").unwrap();
        let own = page.find("<section class=\"op\" id=\"op-get-x\"").unwrap();
        assert!(a < link && link < b && b < own && own < other, "{page}");
        assert_eq!(page.matches("id=\"op-get-x\"").count(), 1);
        assert!(
            page.find("id=\"op-get-y\"").unwrap() > other,
            "untagged last"
        );
        // No security anywhere: nothing to send.
        assert!(section(&page, "op-get-x").contains("None: this endpoint takes no credentials."));
    }

    #[test]
    fn error_codes_get_their_status_from_the_error_type() {
        let page = render(&sample());
        let errors = section(&page, "errors");
        assert!(errors.contains("<code>validation_failed</code></th><td><span class=\"st st-4\">400</span> Bad Request"), "{errors}");
        assert!(
            errors.contains(
                "<code>job_not_ready</code></th><td><span class=\"st st-4\">409</span> Conflict"
            ),
            "{errors}"
        );
        assert!(
            errors.contains("<code>error</code>"),
            "the body's fields: {errors}"
        );
        assert_eq!(error_status("no_such_code"), None);
    }

    #[test]
    fn the_committed_document_renders_completely() {
        // The document the locales function serves (functions/locales/openapi.json).
        let document: &Value =
            &serde_json::from_str(include_str!("../../../functions/locales/openapi.json")).unwrap();
        let page = render(document);
        assert_well_formed(&page);
        for (path, item) in document["paths"].as_object().unwrap() {
            for method in item.as_object().unwrap().keys() {
                let heading = format!(
                    "<span class=\"m m-{method}\">{}</span> <code class=\"path\">{}</code></h3>",
                    method.to_ascii_uppercase(),
                    escape(path)
                );
                assert!(page.contains(&heading), "{method} {path}");
            }
        }
        for name in document["components"]["schemas"]
            .as_object()
            .unwrap()
            .keys()
        {
            assert!(
                page.contains(&format!("<section class=\"schema\" id=\"schema-{name}\"")),
                "{name}"
            );
        }
        for tag in document["tags"].as_array().unwrap() {
            let name = tag["name"].as_str().unwrap();
            assert!(
                page.contains(&format!("<h2 id=\"tag-{name}-h\">{name}</h2>")),
                "{name}"
            );
        }
        let codes = document["components"]["schemas"]["ErrorCode"]["enum"]
            .as_array()
            .unwrap();
        for code in codes.iter().map(|code| code.as_str().unwrap()) {
            assert!(
                error_status(code).is_some(),
                "{code} has no status in ERROR_CODES"
            );
        }
        let errors = section(&page, "errors");
        assert!(errors.contains(
            "<code>insufficient_credits</code></th><td><span class=\"st st-4\">402</span>"
        ));
        assert!(errors.contains("<code>internal</code></th><td><span class=\"st st-5\">500</span>"));
        // The job creation example, built from the request schema's examples.
        let create = section(&page, "op-post-api-v1-jobs");
        assert!(
            create.contains("-H &quot;X-API-KEY: $KEY&quot;"),
            "{create}"
        );
        assert!(
            create.contains("&quot;primaryDomain&quot;: &quot;example.com&quot;"),
            "{create}"
        );
        // Login takes no credentials; the language list neither.
        assert!(!section(&page, "op-post-api-v1-auth-login").contains("X-API-KEY"));
        assert!(!section(&page, "op-get-api-v1-languages").contains("X-API-KEY"));
    }
}
