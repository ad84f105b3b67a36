//! Google organic SERP (regular): ads first, then the organic results, with the engine's
//! spelling correction as the documented `spell` object.

use serde_json::{json, Value};

use super::answer::{Answer, INVALID_FIELD, NO_RESULTS};
use super::data::MockData;

fn host(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    rest.split(['/', '?', '#']).next().unwrap_or("").to_owned()
}

/// A readable title from the URL's last path segment ("cold-brew-guide" → "Cold Brew Guide").
fn title(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = rest.split_once('/').map_or("", |(_, path)| path);
    let last = path
        .split(['?', '#'])
        .next()
        .unwrap_or("")
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("")
        .trim_end_matches(".html");
    let words: Vec<String> = last
        .split(['-', '_', '+'])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars.next().map_or(String::new(), |c| {
                c.to_uppercase().collect::<String>() + chars.as_str()
            })
        })
        .collect();
    let site = host(url);
    if words.is_empty() {
        site
    } else {
        format!("{} | {}", words.join(" "), site.trim_start_matches("www."))
    }
}

fn item(kind: &str, rank_group: usize, rank_absolute: usize, url: &str) -> Value {
    let domain = host(url);
    json!({
        "type": kind, "rank_group": rank_group, "rank_absolute": rank_absolute, "page": 1,
        "position": "left", "xpath": format!("/html[1]/body[1]/div[3]/div[{rank_absolute}]"),
        "domain": domain, "title": title(url), "description": format!("Results from {domain}."),
        "url": url, "breadcrumb": format!("https://{domain}"), "website_name": null,
        "is_image": false, "is_video": false, "is_featured_snippet": false, "is_malicious": false,
        "checks": null, "pre_snippet": null, "extended_snippet": null, "amp_version": false,
        "rating": null, "price": null, "highlighted": [], "links": null,
    })
}

pub(crate) fn serp_organic(data: &MockData, task: &Value) -> Answer {
    let Some(keyword) = task["keyword"].as_str().filter(|k| !k.trim().is_empty()) else {
        return Answer::failed(INVALID_FIELD, "Invalid Field: 'keyword'.");
    };
    let depth = task["depth"].as_u64().unwrap_or(10) as usize;
    if keyword.chars().count() > 700 || depth == 0 || depth > 200 {
        let field = if depth == 0 || depth > 200 {
            "depth"
        } else {
            "keyword"
        };
        return Answer::failed(INVALID_FIELD, format!("Invalid Field: '{field}'."));
    }
    let Some((entry, spell)) = data.serp_entry(keyword) else {
        return Answer::failed(NO_RESULTS, "No Search Results.");
    };
    let paid = entry.paid.len();
    let organic: Vec<&String> = entry.organic.iter().take(depth).collect();
    let mut items: Vec<Value> = entry
        .paid
        .iter()
        .enumerate()
        .map(|(i, url)| item("paid", i + 1, i + 1, url))
        .collect();
    items.extend(
        organic
            .iter()
            .enumerate()
            .map(|(i, url)| item("organic", i + 1, paid + i + 1, url)),
    );
    let mut types = Vec::new();
    if paid > 0 {
        types.push("paid");
    }
    types.push("organic");
    let count = items.len();
    let pages = organic.len().div_ceil(10).max(1);
    let mut answer = Answer::ok_result(
        json!({
            "keyword": keyword, "type": "organic", "se_domain": "google.com",
            "location_code": task["location_code"], "language_code": task["language_code"],
            "check_url": format!("https://www.google.com/search?q={}&hl=en&gl=US", keyword.replace(' ', "+")),
            "datetime": "2026-07-14 09:12:44 +00:00", "spell": spell.cloned(),
            "refinement_chips": null, "item_types": types, "se_results_count": 184_000_000,
            "pages_count": pages, "items_count": count, "items": items,
        }),
        0,
    );
    answer.extra_pages = pages - 1;
    answer
}
