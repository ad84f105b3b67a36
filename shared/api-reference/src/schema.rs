//! Schemas as readers see them: a type label (`$ref`s as links to the schema's section,
//! `array of X`, `string | null`), the constraints a value must meet, tables of fields, and
//! an example value built from the schema for the curl examples.

use std::fmt::Write;

use serde_json::{Map, Value};

use super::{escape, markdown, Doc};

/// The anchor of a schema of `components.schemas`.
pub fn anchor(name: &str) -> String {
    format!("schema-{}", super::slug(name))
}

/// The name a `$ref` gives a schema of `components.schemas`.
pub fn ref_name(reference: &str) -> Option<String> {
    let name = reference.strip_prefix("#/components/schemas/")?;
    Some(name.replace("~1", "/").replace("~0", "~"))
}

/// A `$ref` as a link to the schema's section (other references as code).
pub fn ref_link(reference: &str) -> String {
    match ref_name(reference) {
        Some(name) => format!(
            "<a href=\"#{}\"><code>{}</code></a>",
            escape(&anchor(&name)),
            escape(&name)
        ),
        None => format!("<code>{}</code>", escape(reference)),
    }
}

/// The type of `schema` as HTML: a link for a `$ref`, `array of X`, `map of X`, the
/// variants of `oneOf`/`anyOf` joined by ` | ` (`null` last), `allOf` by ` & `, and the
/// `format` after the type (`string (uuid)`).
pub fn type_html(schema: &Value) -> String {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        return ref_link(reference);
    }
    for (key, separator) in [("oneOf", " | "), ("anyOf", " | "), ("allOf", " &amp; ")] {
        if let Some(variants) = schema.get(key).and_then(Value::as_array) {
            if !variants.is_empty() {
                return union(variants.iter().map(type_html).collect(), separator);
            }
        }
    }
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(one)) => vec![one.as_str()],
        Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let mut parts: Vec<String> = types.iter().map(|kind| single_type(schema, kind)).collect();
    if parts.is_empty() {
        parts.push(
            if schema.get("properties").is_some() {
                "object"
            } else if schema.get("enum").is_some() {
                "enum"
            } else if schema.get("const").is_some() {
                "constant"
            } else {
                "any"
            }
            .to_string(),
        );
    }
    if schema.get("nullable") == Some(&Value::Bool(true)) {
        parts.push("null".to_string());
    }
    union(parts, " | ")
}

fn single_type(schema: &Value, kind: &str) -> String {
    match kind {
        "array" => {
            let items = schema.get("items").map(type_html);
            match items {
                Some(items) if items.contains(" | ") => format!("array of ({items})"),
                Some(items) => format!("array of {items}"),
                None => "array".to_string(),
            }
        }
        "object" => match schema.get("additionalProperties") {
            Some(values @ Value::Object(_)) if schema.get("properties").is_none() => {
                format!("map of {}", type_html(values))
            }
            _ => "object".to_string(),
        },
        "null" => "null".to_string(),
        other => match schema.get("format").and_then(Value::as_str) {
            Some(format) => format!("{} ({})", escape(other), escape(format)),
            None => escape(other),
        },
    }
}

/// Alternatives without repeats, `null` last.
fn union(parts: Vec<String>, separator: &str) -> String {
    let mut unique: Vec<String> = Vec::new();
    for part in parts {
        if !unique.contains(&part) {
            unique.push(part);
        }
    }
    unique.sort_by_key(|part| part == "null");
    unique.join(separator)
}

/// The description of a schema, or the first one among its `oneOf`/`anyOf`/`allOf`
/// variants (where a documented `Option<T>` field keeps it).
pub fn description(schema: &Value) -> &str {
    if let Some(text) = schema.get("description").and_then(Value::as_str) {
        return text;
    }
    ["oneOf", "anyOf", "allOf"]
        .iter()
        .filter_map(|key| schema.get(*key).and_then(Value::as_array))
        .flatten()
        .find_map(|variant| variant.get("description").and_then(Value::as_str))
        .unwrap_or("")
}

/// A JSON value as code: strings as they are, anything else as compact JSON.
pub fn value_html(value: &Value) -> String {
    let text = match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    format!("<code>{}</code>", escape(&text))
}

fn chip(out: &mut String, label: &str, value: &str) {
    let _ = write!(
        out,
        "<span class=\"c\"><span class=\"ck\">{label}</span> {value}</span>"
    );
}

/// The allowed values of `schema`: its own `enum`, or that of the schema it refers to or of
/// its one non-null `oneOf`/`anyOf` variant.
fn enum_values<'a>(doc: &Doc<'a>, schema: &'a Value, depth: usize) -> Option<&'a Vec<Value>> {
    if depth > 4 {
        return None;
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return Some(values);
    }
    if schema.get("$ref").is_some() {
        let target = doc.resolve(schema);
        return (!std::ptr::eq(target, schema))
            .then(|| enum_values(doc, target, depth + 1))
            .flatten();
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(variants) = schema.get(key).and_then(Value::as_array) {
            let mut real = variants
                .iter()
                .filter(|variant| variant.get("type") != Some(&Value::from("null")));
            if let (Some(only), None) = (real.next(), real.next()) {
                return enum_values(doc, only, depth + 1);
            }
        }
    }
    None
}

/// What a value must meet, and what helps to write one, as small labelled chips: bounds,
/// lengths, pattern, allowed values (also those of a referenced enum), default, example,
/// and the read-only, write-only and deprecated marks.
pub fn constraints_html(doc: &Doc, schema: &Value) -> String {
    let mut out = String::new();
    for (key, label) in [
        ("minimum", "minimum"),
        ("exclusiveMinimum", "greater than"),
        ("maximum", "maximum"),
        ("exclusiveMaximum", "less than"),
        ("multipleOf", "multiple of"),
        ("minLength", "min length"),
        ("maxLength", "max length"),
        ("pattern", "pattern"),
        ("minItems", "min items"),
        ("maxItems", "max items"),
        ("minProperties", "min properties"),
        ("maxProperties", "max properties"),
    ] {
        match schema.get(key) {
            // OpenAPI 3.0's boolean form qualifies `minimum`/`maximum`.
            Some(Value::Bool(true)) if key == "exclusiveMinimum" => {
                chip(&mut out, "minimum excluded", "")
            }
            Some(Value::Bool(true)) if key == "exclusiveMaximum" => {
                chip(&mut out, "maximum excluded", "")
            }
            Some(Value::Bool(_)) | None => {}
            Some(value) => chip(&mut out, label, &value_html(value)),
        }
    }
    if schema.get("uniqueItems") == Some(&Value::Bool(true)) {
        chip(&mut out, "unique items", "");
    }
    if let Some(values) = enum_values(doc, schema, 0) {
        let list: Vec<String> = values.iter().map(value_html).collect();
        chip(&mut out, "one of", &list.join(", "));
    }
    if let Some(value) = schema.get("const") {
        chip(&mut out, "always", &value_html(value));
    }
    if let Some(value) = schema.get("default") {
        chip(&mut out, "default", &value_html(value));
    }
    let example = schema.get("example").or_else(|| {
        schema
            .get("examples")
            .and_then(Value::as_array)
            .and_then(|all| all.first())
    });
    if let Some(value) = example {
        chip(&mut out, "example", &value_html(value));
    }
    for (key, label) in [
        ("readOnly", "read-only"),
        ("writeOnly", "write-only"),
        ("deprecated", "deprecated"),
    ] {
        if schema.get(key) == Some(&Value::Bool(true)) {
            chip(&mut out, label, "");
        }
    }
    if out.is_empty() {
        out
    } else {
        format!("<div class=\"cs\">{out}</div>")
    }
}

/// One row of a fields table.
struct Field<'a> {
    name: String,
    schema: &'a Value,
    required: bool,
}

/// The fields of an object schema, its `allOf` parts included, required ones first; inline
/// object fields (and items of inline object arrays) follow their parent as `parent.child`
/// and `parent[].child`.
fn fields<'a>(doc: &Doc<'a>, schema: &'a Value, prefix: &str, depth: usize) -> Vec<Field<'a>> {
    let mut out = Vec::new();
    if depth > 4 {
        return out;
    }
    let schema = doc.resolve(schema);
    if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
        for part in parts {
            out.extend(fields(doc, part, prefix, depth + 1));
        }
    }
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return out;
    };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut own: Vec<(&String, &Value)> = properties.iter().collect();
    own.sort_by_key(|(name, _)| !required.contains(&name.as_str()));
    for (name, property) in own {
        let full = format!("{prefix}{name}");
        out.push(Field {
            name: full.clone(),
            schema: property,
            required: required.contains(&name.as_str()),
        });
        // Only inline objects are expanded; a `$ref` links to its own section.
        if property.get("properties").is_some() {
            out.extend(fields(doc, property, &format!("{full}."), depth + 1));
        } else if let Some(items) = property.get("items") {
            if items.get("properties").is_some() {
                out.extend(fields(doc, items, &format!("{full}[]."), depth + 1));
            }
        }
    }
    out
}

/// Whether `schema` (or what it refers to) has fields to show in a table.
pub fn has_fields(doc: &Doc, schema: &Value) -> bool {
    !fields(doc, schema, "", 0).is_empty()
}

/// The fields of an object schema as a table: name, type, required or optional, and the
/// description with the constraints. `None` when it has no fields. Headings in descriptions
/// move down `shift` levels.
pub fn fields_table(doc: &Doc, schema: &Value, shift: usize) -> Option<String> {
    let rows = fields(doc, schema, "", 0);
    if rows.is_empty() {
        return None;
    }
    let mut html = String::from(
        "<div class=\"tw\"><table class=\"stack fields\"><thead><tr><th scope=\"col\">Field</th>\
         <th scope=\"col\">Type</th><th scope=\"col\">Required</th>\
         <th scope=\"col\">Description</th></tr></thead><tbody>",
    );
    for row in rows {
        let _ = write!(
            html,
            "<tr><th scope=\"row\"><code>{name}</code></th><td class=\"ty\">{kind}</td>\
             <td>{required}</td><td>{description}{constraints}</td></tr>",
            name = escape(&row.name),
            kind = type_html(row.schema),
            required = required_html(row.required),
            description = markdown::to_html(description(row.schema), shift),
            constraints = constraints_html(doc, row.schema),
        );
    }
    html.push_str("</tbody></table></div>");
    Some(html)
}

pub fn required_html(required: bool) -> &'static str {
    if required {
        "<span class=\"req\">required</span>"
    } else {
        "<span class=\"opt\">optional</span>"
    }
}

/// The section of one schema of `components.schemas`.
pub fn section(html: &mut String, doc: &Doc, name: &str, schema: &Value) {
    let id = escape(&anchor(name));
    let _ = write!(
        html,
        "<section class=\"schema\" id=\"{id}\" aria-labelledby=\"{id}-h\"><h3 id=\"{id}-h\">{}</h3>\
         <p class=\"kind\">Type: {}</p>{}",
        escape(name),
        type_html(schema),
        markdown::to_html(description(schema), 3),
    );
    if let Some(table) = fields_table(doc, schema, 3) {
        html.push_str(&table);
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        html.push_str("<p>Values:</p><ul class=\"enum\">");
        for value in values {
            let _ = write!(html, "<li>{}</li>", value_html(value));
        }
        html.push_str("</ul>");
    }
    let mut rest = constraints_html(doc, &without_enum(schema));
    if !rest.is_empty() {
        rest.insert_str(0, "<p class=\"lbl\">Constraints:</p>");
        html.push_str(&rest);
    }
    html.push_str("</section>");
}

/// `schema` without its `enum` (listed on its own in a schema's section).
fn without_enum(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => {
            let mut map = map.clone();
            map.remove("enum");
            Value::Object(map)
        }
        other => other.clone(),
    }
}

/// A value for `schema`, for a curl example: its `example` (or first of `examples`), its
/// `default`, `const` or first `enum` value, else one made of its type: for an object, its
/// required fields and those with an example; a placeholder by format for a string.
pub fn example(doc: &Doc, schema: &Value, depth: usize) -> Value {
    if depth > 8 {
        return Value::Null;
    }
    for key in ["example", "default", "const"] {
        if let Some(value) = schema.get(key) {
            return value.clone();
        }
    }
    if let Some(first) = schema
        .get("examples")
        .and_then(Value::as_array)
        .and_then(|all| all.first())
    {
        return first.clone();
    }
    if schema.get("$ref").is_some() {
        let target = doc.resolve(schema);
        if std::ptr::eq(target, schema) {
            return Value::Null;
        }
        return example(doc, target, depth + 1);
    }
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|all| all.first())
    {
        return first.clone();
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(variants) = schema.get(key).and_then(Value::as_array) {
            let real = variants
                .iter()
                .find(|variant| variant.get("type") != Some(&Value::from("null")));
            return real.map_or(Value::Null, |variant| example(doc, variant, depth + 1));
        }
    }
    let kind = match schema.get("type") {
        Some(Value::String(one)) => one.as_str(),
        Some(Value::Array(many)) => many
            .iter()
            .filter_map(Value::as_str)
            .find(|kind| *kind != "null")
            .unwrap_or("null"),
        _ if schema.get("properties").is_some() || schema.get("allOf").is_some() => "object",
        _ => "",
    };
    match kind {
        "object" => {
            let mut object = Map::new();
            for field in fields(doc, schema, "", 0) {
                let has_example = ["example", "examples", "default"]
                    .iter()
                    .any(|key| field.schema.get(*key).is_some());
                // Top-level fields only (nested ones come with their parent's value).
                if (field.required || has_example) && !field.name.contains(['.', '[']) {
                    object.insert(field.name, example(doc, field.schema, depth + 1));
                }
            }
            Value::Object(object)
        }
        "array" => Value::Array(
            schema
                .get("items")
                .map(|items| vec![example(doc, items, depth + 1)])
                .unwrap_or_default(),
        ),
        "string" => Value::from(match schema.get("format").and_then(Value::as_str) {
            Some("date-time") => "2025-01-31T12:00:00Z",
            Some("date") => "2025-01-31",
            Some("uuid") => "3fa85f64-5717-4562-b3fc-2c963f66afa6",
            Some("email") => "user@example.com",
            Some("uri" | "url") => "https://example.com",
            _ => "string",
        }),
        "integer" => schema.get("minimum").cloned().unwrap_or(Value::from(0)),
        "number" => schema.get("minimum").cloned().unwrap_or(Value::from(0.0)),
        "boolean" => Value::Bool(false),
        _ => Value::Null,
    }
}
