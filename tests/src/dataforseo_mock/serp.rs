//! Google organic SERP (advanced): ads first, then the organic results among the SERP features
//! the entry lists (their documented item shapes, abbreviated), with the engine's spelling
//! correction as the documented `spell` object.

use serde_json::{json, Value};

use super::answer::{Answer, INVALID_FIELD, NO_RESULTS};
use super::data::{MockData, SerpEntry};

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

/// Shops among the fixture's results: Google adds `srsltid` to their results, a new value on
/// every results page, which the service must not take for another page.
const SHOPS: [&str; 4] = [
    "www.target.com",
    "www.bodum.com",
    "aeropress.com",
    "www.bialetti.com",
];

/// `url` as Google links it on `keyword`'s results page.
fn as_linked(keyword: &str, url: &str) -> String {
    if !SHOPS.contains(&host(url).as_str()) {
        return url.to_string();
    }
    // FNV-1a of the page and the query: the same on every run, other for every results page.
    let token = format!("{keyword} {url}")
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        });
    let joiner = if url.contains('?') { '&' } else { '?' };
    format!("{url}{joiner}srsltid=AfmBO{token:x}")
}

/// A paid or organic result; its `rank_absolute` is set once the page is laid out.
fn item(kind: &str, rank_group: usize, url: &str) -> Value {
    let domain = host(url);
    json!({
        "type": kind, "rank_group": rank_group, "rank_absolute": 0, "page": 1,
        "position": "left", "xpath": format!("/html[1]/body[1]/div[3]/div[{rank_group}]"),
        "domain": domain, "title": title(url), "description": format!("Results from {domain}."),
        "url": url, "breadcrumb": format!("https://{domain}"), "website_name": null,
        "is_image": false, "is_video": false, "is_featured_snippet": false, "is_malicious": false,
        "checks": null, "pre_snippet": null, "extended_snippet": null, "amp_version": false,
        "rating": null, "price": null, "highlighted": [], "links": null,
    })
}

/// A SERP feature item in the shape DataForSEO documents for the advanced SERP (the fields a
/// reader of the page would use; FACTS.md).
fn feature_item(kind: &str, keyword: &str, entry: &SerpEntry, organic: &[&String]) -> Value {
    let first = organic
        .first()
        .map_or("https://example.com/", |url| url.as_str());
    let domain = host(first);
    let common = json!({
        "type": kind, "rank_group": 1, "rank_absolute": 0, "page": 1,
        "position": if kind == "knowledge_graph" { "right" } else { "left" },
        "xpath": "/html[1]/body[1]/div[3]",
    });
    let specific = match kind {
        "ai_overview" => {
            // The overview's own `references` hold its first two pages; the rest are cited by
            // its second part, as DataForSEO nests them in `ai_overview_element`s.
            let cited = entry.ai_overview().unwrap_or_default();
            let reference = |url: &String| {
                let domain = host(url);
                json!({"type": "ai_overview_reference", "source": domain.trim_start_matches("www."),
                       "domain": domain, "url": url, "title": title(url),
                       "text": format!("What {domain} says about {keyword}.")})
            };
            let (own, nested) = cited.split_at(cited.len().min(2));
            json!({
                "asynchronous_ai_overview": false,
                "markdown": format!("**{keyword}** explained in short."),
                "items": [
                    {"type": "ai_overview_element", "title": null,
                     "text": format!("{keyword} explained in short."), "markdown": null,
                     "links": null, "references": null},
                    {"type": "ai_overview_element", "title": "In more detail",
                     "text": format!("More on {keyword}."), "markdown": null, "links": null,
                     "references": if nested.is_empty() { Value::Null } else {
                         Value::Array(nested.iter().map(reference).collect())
                     }},
                ],
                "references": own.iter().map(reference).collect::<Vec<_>>(),
            })
        }
        "featured_snippet" => json!({
            "domain": domain, "title": title(first), "featured_title": keyword,
            "description": format!("In short: {keyword}."), "url": first, "images": null,
            "table": null,
        }),
        "people_also_ask" => json!({
            "items": entry.questions.iter().map(|question| json!({
                "type": "people_also_ask_element", "title": question, "seed_question": null,
                "xpath": "/html[1]/body[1]/div[3]/div[2]",
                "expanded_element": [{"type": "people_also_ask_expanded_element",
                    "featured_title": null, "url": first, "domain": domain, "title": title(first),
                    "description": format!("{question} An answer from {domain}."), "images": null,
                    "timestamp": null, "table": null}],
            })).collect::<Vec<_>>(),
        }),
        "local_pack" => json!({
            "title": format!("{keyword} nearby"), "description": "Open now", "domain": domain,
            "phone": "+1 503-555-0100", "url": first, "is_paid": false,
            "rating": {"rating_type": "Max5", "value": 4.7, "votes_count": 128, "rating_max": 5},
            "cid": "1234567890",
        }),
        "shopping" => json!({
            "title": format!("Shop for {keyword}"),
            "items": [{"type": "shopping_element", "title": keyword, "price": 199.0,
                       "source": domain, "description": null, "marketplace": "Google Shopping",
                       "url": first}],
        }),
        "video" => json!({
            "items": [{"type": "video_element", "source": "YouTube", "title": format!("How to: {keyword}"),
                       "timestamp": "2026-05-01 10:00:00 +00:00", "url": "https://www.youtube.com/watch?v=mock"}],
        }),
        "images" => json!({
            "title": format!("Images for {keyword}"),
            "items": [{"type": "images_element", "alt": keyword, "url": first,
                       "image_url": format!("https://{domain}/image.jpg")}],
        }),
        "top_stories" => json!({
            "title": "Top stories",
            "items": [{"type": "top_stories_element", "source": domain, "domain": domain,
                       "title": format!("News on {keyword}"), "date": "2026-07-13 08:00:00 +00:00",
                       "url": first}],
        }),
        "knowledge_graph" => json!({
            "title": keyword, "sub_title": "Company", "description": format!("About {keyword}."),
            "card_id": "/g/mock", "url": first, "image_url": null, "logo_url": null,
            "items": [],
        }),
        _ => json!({}),
    };
    let mut item = common;
    if let (Some(item), Some(specific)) = (item.as_object_mut(), specific.as_object()) {
        item.extend(specific.clone());
    }
    item
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
    let organic: Vec<&String> = entry.organic.iter().take(depth).collect();
    let shows = |feature: &str| entry.features.iter().any(|f| f == feature);
    let mut items: Vec<Value> = entry
        .paid
        .iter()
        .enumerate()
        .map(|(i, url)| item("paid", i + 1, url))
        .collect();
    // Above the results, as Google places them.
    for feature in ["ai_overview", "featured_snippet", "local_pack", "shopping"] {
        if shows(feature) {
            items.push(feature_item(feature, keyword, entry, &organic));
        }
    }
    for (i, url) in organic.iter().enumerate() {
        let mut result = item("organic", i + 1, &as_linked(keyword, url));
        if i == 0 && shows("sitelinks") {
            let site = host(url);
            result["links"] = json!([
                {"type": "link_element", "title": "Shop", "description": null, "url": format!("https://{site}/shop")},
                {"type": "link_element", "title": "About us", "description": null, "url": format!("https://{site}/about")},
            ]);
        }
        items.push(result);
        // Among the results: the questions after the second, media after the fourth.
        let after: &[&str] = match i {
            1 => &["people_also_ask"],
            3 => &["video", "images", "top_stories"],
            _ => &[],
        };
        for feature in after {
            if shows(feature) {
                items.push(feature_item(feature, keyword, entry, &organic));
            }
        }
    }
    if shows("knowledge_graph") {
        items.push(feature_item("knowledge_graph", keyword, entry, &organic));
    }
    let mut types: Vec<String> = Vec::new();
    for (position, result) in items.iter_mut().enumerate() {
        result["rank_absolute"] = json!(position + 1);
        let kind = result["type"].as_str().unwrap_or_default().to_owned();
        if !types.contains(&kind) {
            types.push(kind);
        }
    }
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
