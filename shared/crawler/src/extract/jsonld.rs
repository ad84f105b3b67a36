//! Names of the things a site offers and of who offers them, and the places it serves, from
//! JSON-LD structured data.

use serde_json::{Map, Value};

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

/// Appends the names found in one parsed JSON-LD script, in document order, skipping
/// duplicates.
pub(crate) fn collect_names(value: &Value, names: &mut Vec<String>) {
    // Entities nest (`@graph`, a Product's `brand`, an Offer's `itemOffered`).
    each_object(value, 0, &mut |object| {
        if object.get("@type").is_some_and(is_named_type) {
            push_new(names, name_values(object.get("name")));
        }
    });
}

/// Appends what one parsed JSON-LD script files products under (each Product's `category`,
/// a "Home > Garden > Flags" path as its parts; a BreadcrumbList's item names by position),
/// in document order, skipping duplicates.
pub(crate) fn collect_categories(value: &Value, categories: &mut Vec<String>) {
    each_object(value, 0, &mut |object| {
        let kind = object.get("@type");
        if kind.is_some_and(|k| has_type(k, PRODUCT_TYPES)) {
            let parts = category_values(object.get("category"))
                .iter()
                .flat_map(|category| {
                    category
                        .split(['>', '|'])
                        .map(super::text::collapse_whitespace)
                        .filter(|part| !part.is_empty())
                        .collect::<Vec<_>>()
                })
                .collect();
            push_new(categories, parts);
        }
        if kind.is_some_and(|k| has_type(k, &["breadcrumblist"])) {
            let mut items: Vec<(f64, String)> = match object.get("itemListElement") {
                Some(Value::Array(items)) => items.iter().filter_map(crumb).collect(),
                _ => Vec::new(),
            };
            items.sort_by(|a, b| a.0.total_cmp(&b.0));
            push_new(
                categories,
                items.into_iter().map(|(_, name)| name).collect(),
            );
        }
    });
}

/// Appends the places one parsed JSON-LD script says a business is in or serves: each
/// `address`'s `addressLocality` and each `areaServed` (a text, a list, or places with a
/// `name`), skipping duplicates.
pub(crate) fn collect_places(value: &Value, places: &mut Vec<String>) {
    each_object(value, 0, &mut |object| {
        let mut found = name_values(object.get("addressLocality"));
        found.extend(area_values(object.get("areaServed"), 0));
        push_new(places, found);
    });
}

/// Calls `visit` on every object of `value`, each before the objects it holds, down to
/// [`MAX_DEPTH`].
fn each_object(value: &Value, depth: usize, visit: &mut impl FnMut(&Map<String, Value>)) {
    if depth > MAX_DEPTH {
        return;
    }
    match value {
        Value::Array(items) => items
            .iter()
            .for_each(|item| each_object(item, depth + 1, visit)),
        Value::Object(object) => {
            visit(object);
            object
                .values()
                .for_each(|child| each_object(child, depth + 1, visit));
        }
        _ => {}
    }
}

/// Appends those of `found` that `list` does not hold yet, in order.
fn push_new(list: &mut Vec<String>, found: Vec<String>) {
    for item in found {
        if !list.contains(&item) {
            list.push(item);
        }
    }
}

/// `areaServed` as names: a text, a list of them, or places (City, State, Place) with a
/// `name`; a GeoCircle names nothing.
fn area_values(area: Option<&Value>, depth: usize) -> Vec<String> {
    if depth > MAX_DEPTH {
        return Vec::new();
    }
    match area {
        Some(Value::Array(values)) => values
            .iter()
            .flat_map(|value| area_values(Some(value), depth + 1))
            .collect(),
        Some(Value::Object(object)) => name_values(object.get("name")),
        Some(value) => name_values(Some(value)),
        None => Vec::new(),
    }
}

/// One `<script type="application/ld+json">` body as JSON, read once for everything the
/// extractor takes from it; broken JSON is `None`.
pub(crate) fn parse(script: &str) -> Option<Value> {
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
    serde_json::from_str::<Value>(text).ok()
}

/// Whether the JSON-LD describes a product (a Product or one of its kinds), anywhere in it.
/// An Offer alone says nothing: service businesses list their services as offers.
pub(crate) fn offers_for_sale(value: &Value) -> bool {
    let mut for_sale = false;
    each_object(value, 0, &mut |object| {
        for_sale |= object
            .get("@type")
            .is_some_and(|kind| has_type(kind, PRODUCT_TYPES));
    });
    for_sale
}

/// schema.org types whose `category` files a product.
const PRODUCT_TYPES: &[&str] = &[
    "product",
    "productgroup",
    "productmodel",
    "individualproduct",
    "someproducts",
];

/// A breadcrumb's position (document order without one) and name: its own or its `item`'s.
fn crumb(item: &Value) -> Option<(f64, String)> {
    let position = match item.get("position") {
        Some(Value::Number(n)) => n.as_f64(),
        Some(Value::String(s)) => s.trim().parse().ok(),
        _ => None,
    }
    .unwrap_or(f64::MAX);
    let name = name_values(item.get("name"))
        .into_iter()
        .next()
        .or_else(|| {
            name_values(item.get("item")?.get("name"))
                .into_iter()
                .next()
        })?;
    Some((position, name))
}

/// `category` as text: a string, a list of them, or a thing with a `name` (a CategoryCode).
fn category_values(category: Option<&Value>) -> Vec<String> {
    match category {
        Some(Value::Array(values)) => values
            .iter()
            .flat_map(|value| category_values(Some(value)))
            .collect(),
        Some(Value::Object(object)) => name_values(object.get("name")),
        Some(value) => name_values(Some(value)),
        None => Vec::new(),
    }
}

fn has_type(type_value: &Value, types: &[&str]) -> bool {
    let matches = |name: &str| {
        let name = name.trim();
        let local = name
            .rsplit_once(['/', ':', '#'])
            .map_or(name, |(_, local)| local)
            .to_ascii_lowercase();
        types.contains(&local.as_str())
    };
    match type_value {
        Value::String(name) => matches(name),
        Value::Array(names) => names.iter().filter_map(Value::as_str).any(matches),
        _ => false,
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
        if let Some(value) = parse(script) {
            collect_names(&value, &mut names);
        }
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
    fn finds_the_towns_of_addresses_and_the_areas_served() {
        let script = r#"{"@context":"https://schema.org","@type":"RoofingContractor",
            "name":"Supreme Contracting",
            "address":{"@type":"PostalAddress","addressLocality":"Manassas","addressRegion":"VA"},
            "areaServed":["Northern Virginia",{"@type":"City","name":"Manassas Park"},
                {"@type":"GeoCircle","geoRadius":"30000"}],
            "department":{"@type":"LocalBusiness","areaServed":"Gainesville"}}"#;
        let mut places = Vec::new();
        collect_places(&parse(script).unwrap(), &mut places);
        places.sort();
        assert_eq!(
            places,
            [
                "Gainesville",
                "Manassas",
                "Manassas Park",
                "Northern Virginia"
            ]
        );
    }

    fn categories(script: &str) -> Vec<String> {
        let mut categories = Vec::new();
        if let Some(value) = parse(script) {
            collect_categories(&value, &mut categories);
        }
        categories
    }

    #[test]
    fn finds_product_categories_and_breadcrumbs_in_order() {
        let script = r#"{"@context":"https://schema.org","@graph":[
            {"@type":"BreadcrumbList","itemListElement":[
                {"@type":"ListItem","position":3,"name":"Autumn Fox"},
                {"@type":"ListItem","position":1,"item":{"@id":"/","name":"Home"}},
                {"@type":"ListItem","position":"2","name":"Garden  Flags"}]},
            {"@type":"Product","name":"Autumn Fox","category":"Home & Garden > Garden Flags"},
            {"@type":"ProductGroup","name":"Owl","category":[{"@type":"CategoryCode","name":"House Flags"}, "Garden Flags"]},
            {"@type":"Organization","name":"Flag Shop","category":"Not a product's"}
        ]}"#;
        assert_eq!(
            categories(script),
            [
                "Home",
                "Garden Flags",
                "Autumn Fox",
                "Home & Garden",
                "House Flags"
            ]
        );
        assert!(categories("{\"@type\":\"Product\",\"category\":").is_empty());
        assert!(categories("{\"@type\":\"Product\",\"name\":\"Owl\"}").is_empty());
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
