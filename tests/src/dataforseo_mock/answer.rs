//! The `result` of one task of each endpoint, shaped as the documentation describes it
//! (FACTS.md) and filled from the fixture files.

use serde_json::{json, Map, Value};

use super::data::MockData;
use super::paths;

/// A task's outcome before it is priced and wrapped in the envelope.
#[derive(Debug)]
pub(crate) struct Answer {
    pub status: i64,
    pub message: String,
    pub result: Option<Vec<Value>>,
    /// What the per-item price applies to.
    pub billed_items: usize,
    /// SERP pages beyond the first.
    pub extra_pages: usize,
}

pub(crate) const OK: i64 = 20_000;
pub(crate) const NO_RESULTS: i64 = 40_102;
pub(crate) const INVALID_FIELD: i64 = 40_501;

impl Answer {
    pub fn ok_result(result: Value, billed_items: usize) -> Self {
        Answer {
            status: OK,
            message: "Ok.".into(),
            result: Some(vec![result]),
            billed_items,
            extra_pages: 0,
        }
    }

    pub fn failed(status: i64, message: impl Into<String>) -> Self {
        Answer {
            status,
            message: message.into(),
            result: None,
            billed_items: 0,
            extra_pages: 0,
        }
    }

    pub(crate) fn invalid(field: &str) -> Self {
        Answer::failed(INVALID_FIELD, format!("Invalid Field: '{field}'."))
    }
}

/// Symbols Google Ads refuses in keywords (FACTS.md, Google Ads keyword restrictions).
const ADS_REFUSED: &[char] = &[
    ',', '!', '@', '%', '^', '(', ')', '=', '{', '}', ';', '~', '`', '<', '>', '?', '\\', '|',
    '\u{2015}',
];

fn keywords(task: &Value) -> Vec<String> {
    task["keywords"]
        .as_array()
        .map(|list| {
            list.iter()
                .filter_map(|k| k.as_str())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// The keyword list, or the documented limits it breaks.
fn checked_keywords(
    task: &Value,
    max: usize,
    word_limits: bool,
    ads: bool,
) -> Result<Vec<String>, Answer> {
    let list = keywords(task);
    let too_long = |k: &String| k.chars().count() > 80 || k.split_whitespace().count() > 10;
    let refused = |k: &String| {
        k.chars()
            .any(|c| ADS_REFUSED.contains(&c) || c.len_utf8() == 4)
    };
    if list.is_empty()
        || list.len() > max
        || (word_limits && list.iter().any(too_long))
        || (ads && list.iter().any(refused))
    {
        return Err(Answer::invalid("keywords"));
    }
    Ok(list)
}

fn with_location(record: &Value, task: &Value) -> Value {
    let mut record = record.clone();
    if let Some(fields) = record.as_object_mut() {
        fields.insert("location_code".into(), task["location_code"].clone());
        fields.insert("language_code".into(), task["language_code"].clone());
    }
    record
}

fn nullable(items: Vec<Value>) -> Value {
    if items.is_empty() {
        Value::Null
    } else {
        Value::Array(items)
    }
}

/// Labs refuses locations outside its list (search intent has no location); Google Ads and
/// SERP accept any.
pub(crate) fn answer(data: &MockData, path: &str, task: &Value, labs_locations: &[i64]) -> Answer {
    let labs = path.starts_with("/v3/dataforseo_labs/") && path != paths::SEARCH_INTENT;
    let location_ok = match task.get("location_code") {
        None | Some(Value::Null) => true,
        Some(code) => code
            .as_i64()
            .is_some_and(|code| labs_locations.contains(&code)),
    };
    if labs && !location_ok {
        return Answer::invalid("location_code");
    }
    if path == paths::AI_MODE_LIVE {
        return super::llm::ai_mode_response(task);
    }
    if super::llm::engine_of(path).is_some() {
        let money_spent = data.price(path).map_or(0.0, |price| price.item);
        return super::llm::llm_response(path, task, money_spent);
    }
    match path {
        paths::RANKED_KEYWORDS => super::ranked::ranked_keywords(data, task),
        paths::KEYWORD_IDEAS => keyword_ideas(data, task),
        paths::KEYWORD_OVERVIEW => keyword_overview(data, task),
        paths::BULK_KEYWORD_DIFFICULTY => bulk_keyword_difficulty(data, task),
        paths::SEARCH_INTENT => search_intent(data, task),
        paths::ADS_SEARCH_VOLUME => ads_search_volume(data, task),
        paths::SERP_ORGANIC => super::serp::serp_organic(data, task),
        _ => Answer::failed(40_400, "Not Found."),
    }
}

fn keyword_ideas(data: &MockData, task: &Value) -> Answer {
    let seeds = match checked_keywords(task, 200, false, false) {
        Ok(seeds) => seeds,
        Err(answer) => return answer,
    };
    let limit = task["limit"].as_u64().unwrap_or(700) as usize;
    let offset = task["offset"].as_u64().unwrap_or(0) as usize;
    if limit > 1000 {
        return Answer::invalid("limit");
    }
    let mut ideas: Vec<String> = Vec::new();
    for seed in &seeds {
        for idea in data.ideas(seed) {
            if !ideas.contains(&idea) {
                ideas.push(idea);
            }
        }
    }
    let total = ideas.len();
    let items: Vec<Value> = ideas
        .iter()
        .skip(offset)
        .take(limit)
        .filter_map(|idea| data.labs_record(idea))
        .map(|record| with_location(record, task))
        .collect();
    let count = items.len();
    let seeds: Vec<String> = seeds.iter().map(|s| s.to_lowercase()).collect();
    Answer::ok_result(
        json!({
            "se_type": "google", "seed_keywords": seeds,
            "location_code": task["location_code"], "language_code": task["language_code"],
            "total_count": total, "items_count": count, "offset": offset,
            "offset_token": format!("mock-{offset}-{count}"), "items": nullable(items),
        }),
        count,
    )
}

/// The requested keywords the database knows, once each, in request order.
fn known<'a>(list: &[String], known: impl Fn(&str) -> Option<&'a Value>) -> Vec<&'a Value> {
    let mut seen = std::collections::HashSet::new();
    list.iter()
        .filter(|k| seen.insert(k.trim().to_lowercase()))
        .filter_map(|k| known(k))
        .collect()
}

fn keyword_overview(data: &MockData, task: &Value) -> Answer {
    let list = match checked_keywords(task, 700, true, false) {
        Ok(list) => list,
        Err(answer) => return answer,
    };
    let items: Vec<Value> = known(&list, |k| data.labs_record(k))
        .into_iter()
        .map(|record| {
            let mut item = with_location(record, task);
            item["search_partners"] = json!(false);
            item
        })
        .collect();
    let count = items.len();
    Answer::ok_result(
        json!({
            "se_type": "google", "location_code": task["location_code"],
            "language_code": task["language_code"], "items_count": count, "items": nullable(items),
        }),
        count,
    )
}

fn bulk_keyword_difficulty(data: &MockData, task: &Value) -> Answer {
    let list = match checked_keywords(task, 1000, false, false) {
        Ok(list) => list,
        Err(answer) => return answer,
    };
    let mut seen = std::collections::HashSet::new();
    let items: Vec<Value> = list
        .iter()
        .map(|k| k.trim().to_lowercase())
        .filter(|k| seen.insert(k.clone()))
        .filter_map(|k| {
            let difficulty = data.difficulty(&k)?;
            Some(json!({"se_type": "google", "keyword": k, "keyword_difficulty": difficulty}))
        })
        .collect();
    let count = items.len();
    Answer::ok_result(
        json!({
            "se_type": "google", "location_code": task["location_code"],
            "language_code": task["language_code"], "total_count": count,
            "items_count": count, "items": nullable(items),
        }),
        count,
    )
}

fn search_intent(data: &MockData, task: &Value) -> Answer {
    let list = match checked_keywords(task, 1000, false, false) {
        Ok(list) => list,
        Err(answer) => return answer,
    };
    let items: Vec<Value> = list
        .iter()
        .filter_map(|k| {
            let record = data.intent_record(k)?;
            let mut item = Map::new();
            item.insert("keyword".into(), json!(k.trim().to_lowercase()));
            item.insert("keyword_intent".into(), record["keyword_intent"].clone());
            item.insert(
                "secondary_keyword_intents".into(),
                record["secondary_keyword_intents"].clone(),
            );
            Some(Value::Object(item))
        })
        .collect();
    let count = items.len();
    Answer::ok_result(
        json!({"language_code": task["language_code"], "items_count": count, "items": nullable(items)}),
        count,
    )
}

/// One result object per keyword (not one object with `items`), billed per request.
fn ads_search_volume(data: &MockData, task: &Value) -> Answer {
    let list = match checked_keywords(task, 1000, true, true) {
        Ok(list) => list,
        Err(answer) => return answer,
    };
    let mut seen = std::collections::HashSet::new();
    let results: Vec<Value> = list
        .iter()
        .map(|k| k.trim().to_lowercase())
        .filter(|k| seen.insert(k.clone()))
        .map(|keyword| {
            let mut row = match data.ads_record(&keyword) {
                Some((entry, spell)) => {
                    let mut row = entry.clone();
                    row["spell"] = json!(spell);
                    row
                }
                None => json!({
                    "spell": null, "search_partners": false, "competition": null,
                    "competition_index": null, "search_volume": null, "low_top_of_page_bid": null,
                    "high_top_of_page_bid": null, "cpc": null, "monthly_searches": null,
                }),
            };
            row["keyword"] = json!(keyword);
            row["location_code"] = task["location_code"].clone();
            row["language_code"] = task["language_code"].clone();
            row
        })
        .collect();
    Answer {
        status: OK,
        message: "Ok.".into(),
        result: Some(results),
        billed_items: 0,
        extra_pages: 0,
    }
}
