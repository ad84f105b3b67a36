//! Names of the things a site offers and of who offers them, from JSON-LD structured data.

use serde_json::Value;

/// schema.org types whose `name` is a product, service, brand or business name.
const NAMED_TYPES: &[&str] = &[
    "product",
    "productgroup",
    "productmodel",
    "individualproduct",
    "someproducts",
    "vehicle",
    "car",
    "motorcycle",
    "service",
    "financialproduct",
    "webapi",
    "organization",
    "corporation",
    "ngo",
    "airline",
    "consortium",
    "localbusiness",
    "brand",
    "restaurant",
    "hotel",
    "motel",
    "resort",
    "dentist",
    "physician",
    "attorney",
    "notary",
    "plumber",
    "electrician",
    "locksmith",
    "roofingcontractor",
    "generalcontractor",
    "hvacbusiness",
    "realestateagent",
    "travelagency",
    "bakery",
    "cafeorcoffeeshop",
    "barorpub",
    "brewery",
    "winery",
    "softwareapplication",
    "webapplication",
    "mobileapplication",
    "videogame",
    "course",
    "book",
];

/// Suffixes that cover the long tail of LocalBusiness, Organization and Product subtypes
/// (ClothingStore, AutomotiveBusiness, EducationalOrganization, ...).
const NAMED_TYPE_SUFFIXES: &[&str] = &[
    "business",
    "store",
    "service",
    "organization",
    "product",
    "application",
    "establishment",
];

/// Nesting deeper than this is not real structured data; stop rather than walk it.
const MAX_DEPTH: usize = 32;

/// Parses one `<script type="application/ld+json">` body and appends the names found, in
/// document order, skipping duplicates. Broken JSON yields nothing.
pub(crate) fn collect_names(script: &str, names: &mut Vec<String>) {
    let mut text = script.trim();
    // Some CMSs wrap the JSON in comment or CDATA markers, or end it with a semicolon.
    for (open, close) in [
        ("<!--", "-->"),
        ("<![CDATA[", "]]>"),
        ("//<![CDATA[", "//]]>"),
    ] {
        if let Some(inner) = text.strip_prefix(open).and_then(|t| t.strip_suffix(close)) {
            text = inner.trim();
        }
    }
    let text = text.trim_end_matches(';');
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        walk(&value, 0, names);
    }
}

fn walk(value: &Value, depth: usize, names: &mut Vec<String>) {
    if depth > MAX_DEPTH {
        return;
    }
    match value {
        Value::Array(items) => items.iter().for_each(|item| walk(item, depth + 1, names)),
        Value::Object(object) => {
            if object.get("@type").is_some_and(is_named_type) {
                for name in name_values(object.get("name")) {
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
            }
            // Entities nest (`@graph`, a Product's `brand`, an Offer's `itemOffered`).
            object
                .values()
                .for_each(|child| walk(child, depth + 1, names));
        }
        _ => {}
    }
}

fn is_named_type(type_value: &Value) -> bool {
    let matches = |name: &str| {
        let name = name.trim();
        let local = name
            .rsplit_once(['/', ':', '#'])
            .map_or(name, |(_, local)| local)
            .to_ascii_lowercase();
        NAMED_TYPES.contains(&local.as_str())
            || NAMED_TYPE_SUFFIXES
                .iter()
                .any(|suffix| local.ends_with(suffix))
    };
    match type_value {
        Value::String(name) => matches(name),
        Value::Array(types) => types.iter().filter_map(Value::as_str).any(matches),
        _ => false,
    }
}

fn name_values(name: Option<&Value>) -> Vec<String> {
    let one = |value: &Value| -> Option<String> {
        let text = match value {
            Value::String(text) => text.as_str(),
            Value::Object(object) => object.get("@value")?.as_str()?,
            _ => return None,
        };
        let text = super::text::collapse_whitespace(text);
        (!text.is_empty()).then_some(text)
    };
    match name {
        Some(Value::Array(values)) => values.iter().filter_map(one).collect(),
        Some(value) => one(value).into_iter().collect(),
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(script: &str) -> Vec<String> {
        let mut names = Vec::new();
        collect_names(script, &mut names);
        names
    }

    #[test]
    fn finds_named_entities_in_graphs_and_nested_objects() {
        let script = r#"{"@context":"https://schema.org","@graph":[
            {"@type":"WebSite","name":"Not a product"},
            {"@type":["Organization","Brand"],"name":"Acme  Widgets"},
            {"@type":"Product","name":{"@value":"Widget Pro"},"brand":{"@type":"Brand","name":"Acme"},
             "offers":{"@type":"Offer","itemOffered":{"@type":"Service","name":"Widget Repair"}}},
            {"@type":"http://schema.org/HardwareStore","name":["Acme Hardware","Acme Tools"]},
            {"@type":"Plumber","name":"Acme Plumbing"},
            {"@type":"Product","name":"Widget Pro"}
        ]}"#;
        assert_eq!(
            names(script),
            [
                "Acme Widgets",
                "Widget Pro",
                "Acme",
                "Widget Repair",
                "Acme Hardware",
                "Acme Tools",
                "Acme Plumbing"
            ]
        );
    }

    #[test]
    fn tolerates_wrappers_and_ignores_broken_json() {
        assert_eq!(
            names("<!-- [{\"@type\":\"LocalBusiness\",\"name\":\"Corner Shop\"}]; -->"),
            ["Corner Shop"]
        );
        assert!(names("{\"@type\":\"Product\",\"name\":").is_empty());
        assert!(names("{\"@type\":\"Product\"}").is_empty());
        assert!(names("{\"@type\":\"Article\",\"name\":\"Blog post\"}").is_empty());
    }
}
