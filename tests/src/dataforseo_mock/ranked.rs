//! Labs ranked keywords: what a domain ranks for, each item carrying the keyword's Labs record.

use serde_json::{json, Value};

use super::answer::Answer;
use super::data::MockData;

const TYPES: [&str; 5] = [
    "organic",
    "paid",
    "featured_snippet",
    "local_pack",
    "ai_overview_reference",
];

/// Rank distribution by type (`metrics` of the result), over the positions given.
fn metrics(items: &[(&str, &Value)], rank_field: &str) -> Value {
    let mut out = serde_json::Map::new();
    for kind in ["organic", "paid"] {
        let ranks: Vec<u64> = items
            .iter()
            .filter(|(_, item)| item["type"] == kind)
            .filter_map(|(_, item)| item[rank_field].as_u64())
            .collect();
        let within = |lo: u64, hi: u64| ranks.iter().filter(|r| (lo..=hi).contains(*r)).count();
        out.insert(
            kind.into(),
            json!({
                "pos_1": within(1, 1), "pos_2_3": within(2, 3), "pos_4_10": within(4, 10),
                "pos_11_20": within(11, 20), "pos_21_30": within(21, 30),
                "pos_31_40": within(31, 40), "pos_41_50": within(41, 50),
                "count": ranks.len(),
            }),
        );
    }
    Value::Object(out)
}

pub(crate) fn ranked_keywords(data: &MockData, task: &Value) -> Answer {
    let Some(target) = task["target"].as_str().filter(|t| !t.trim().is_empty()) else {
        return Answer::failed(super::answer::INVALID_FIELD, "Invalid Field: 'target'.");
    };
    let limit = task["limit"].as_u64().unwrap_or(100) as usize;
    let offset = task["offset"].as_u64().unwrap_or(0) as usize;
    let types: Vec<&str> = match task["item_types"].as_array() {
        Some(list) => list.iter().filter_map(Value::as_str).collect(),
        None => vec!["organic", "paid"],
    };
    if limit > 1000 || types.is_empty() || types.iter().any(|t| !TYPES.contains(t)) {
        let field = if limit > 1000 { "limit" } else { "item_types" };
        return Answer::failed(
            super::answer::INVALID_FIELD,
            format!("Invalid Field: '{field}'."),
        );
    }
    let Some(all) = data.ranked_items(target) else {
        // No data for the domain: the documented null fields and no items.
        return Answer::ok_result(
            json!({
                "se_type": "google", "target": target, "location_code": null, "language_code": null,
                "total_count": 0, "items_count": 0, "metrics": null, "metrics_absolute": null,
                "items": null,
            }),
            0,
        );
    };
    let mut matching: Vec<(&str, &Value)> = all
        .into_iter()
        .filter(|(_, item)| item["type"].as_str().is_some_and(|t| types.contains(&t)))
        .collect();
    // The documented default order: rank_group ascending.
    matching.sort_by_key(|(keyword, item)| (item["rank_group"].as_u64(), keyword.to_string()));
    let now = "2026-07-14 09:12:44 +00:00";
    let items: Vec<Value> = matching
        .iter()
        .skip(offset)
        .take(limit)
        .map(|(keyword, serp_item)| {
            let record = data.labs_record(keyword).cloned().unwrap_or(Value::Null);
            let difficulty = record["keyword_properties"]["keyword_difficulty"].clone();
            let mut keyword_data = record;
            keyword_data["location_code"] = task["location_code"].clone();
            keyword_data["language_code"] = task["language_code"].clone();
            json!({
                "se_type": "google",
                "keyword_data": keyword_data,
                "ranked_serp_element": {
                    "se_type": "google",
                    "serp_item": serp_item,
                    "check_url": format!("https://www.google.com/search?q={}&num=100&hl=en&gl=US", keyword.replace(' ', "+")),
                    "serp_item_types": ["paid", "organic", "people_also_ask", "related_searches"],
                    "se_results_count": 1_000_000,
                    "keyword_difficulty": difficulty,
                    "is_lost": false,
                    "last_updated_time": now,
                    "previous_updated_time": "2026-06-12 17:40:03 +00:00",
                },
            })
        })
        .collect();
    let count = items.len();
    let load_absolute = task["load_rank_absolute"].as_bool().unwrap_or(false);
    Answer::ok_result(
        json!({
            "se_type": "google", "target": target.trim().to_lowercase(),
            "location_code": task["location_code"], "language_code": task["language_code"],
            "total_count": matching.len(), "items_count": count,
            "metrics": metrics(&matching, "rank_group"),
            "metrics_absolute": if load_absolute { metrics(&matching, "rank_absolute") } else { Value::Null },
            "items": if items.is_empty() { Value::Null } else { Value::Array(items) },
        }),
        count,
    )
}
