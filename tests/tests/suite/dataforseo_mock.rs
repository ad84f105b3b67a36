//! The DataForSEO mock itself: documented shapes per endpoint, answers equal to its files,
//! faults applied as often as the rules say, Basic auth, the balance, and cost. (The client and
//! pipeline tests against the mock live elsewhere.)

use kr_tests::dataforseo_mock::{paths, MockConfig, MockData, MockDataForSeo, PRIMARY};
use serde_json::{json, Value};

mod account;
mod locations_ads_serp;

struct Mock {
    mock: MockDataForSeo,
    http: reqwest::Client,
}

impl Mock {
    async fn start(config: MockConfig) -> Mock {
        Mock {
            mock: MockDataForSeo::start(config).await.unwrap(),
            http: reqwest::Client::new(),
        }
    }

    async fn clean() -> Mock {
        Mock::start(MockConfig::default().without_faults()).await
    }

    fn data(&self) -> &MockData {
        self.mock.data()
    }

    async fn raw(&self, path: &str, body: Value, login: &str, password: &str) -> (u16, Value) {
        let response = self
            .http
            .post(format!("{}{path}", self.mock.base_url()))
            .basic_auth(login, Some(password))
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        let text = response.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// One task, posted with the default credentials; the HTTP status and the envelope.
    async fn post(&self, path: &str, task: Value) -> (u16, Value) {
        self.raw(path, json!([task]), "mock-login", "mock-password")
            .await
    }

    /// The envelope of a request that must succeed at HTTP level.
    async fn ok(&self, path: &str, task: Value) -> Value {
        let (status, envelope) = self.post(path, task).await;
        assert_eq!(status, 200, "{envelope}");
        envelope
    }
}

fn price(data: &MockData, path: &str, items: usize) -> f64 {
    let p = data.price(path).unwrap();
    ((p.task + p.item * items as f64) * 1e6).round() / 1e6
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// The documented envelope around one successful task; returns `result[0]`.
fn single_result(envelope: &Value, path: &str) -> Value {
    assert_eq!(envelope["status_code"], 20000, "{envelope}");
    assert_eq!(envelope["tasks_count"], 1);
    assert_eq!(envelope["tasks_error"], 0);
    assert!(envelope["version"].is_string() && envelope["time"].is_string());
    let task = &envelope["tasks"][0];
    assert_eq!(task["status_code"], 20000, "{task}");
    assert!(task["id"].as_str().is_some_and(|id| id.len() == 36));
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    assert_eq!(task["path"], json!(segments));
    assert_eq!(task["cost"], envelope["cost"]);
    assert_eq!(task["result_count"], 1);
    task["result"][0].clone()
}

fn us(task: Value) -> Value {
    let mut task = task;
    task["location_code"] = json!(2840);
    task["language_code"] = json!("en");
    task
}

#[tokio::test]
async fn ranked_keywords_answer_the_domains_rankings_with_their_keyword_records() {
    let m = Mock::clean().await;
    let path = paths::RANKED_KEYWORDS;
    let expected = m.data().ranked(PRIMARY);
    assert!(expected.len() >= 20 && expected.iter().any(|r| r.item_type == "paid"));
    let envelope = m
        .ok(
            path,
            us(json!({"target": PRIMARY, "limit": 1000, "load_rank_absolute": true})),
        )
        .await;
    let result = single_result(&envelope, path);
    let items = result["items"].as_array().unwrap();
    assert_eq!(items.len(), expected.len());
    assert_eq!(result["items_count"], expected.len());
    assert!(close(
        envelope["cost"].as_f64().unwrap(),
        price(m.data(), path, items.len())
    ));
    assert!(
        result["metrics_absolute"]["organic"]["count"]
            .as_u64()
            .unwrap()
            > 0
    );
    let mut last_rank = 0;
    for item in items {
        let keyword = item["keyword_data"]["keyword"].as_str().unwrap();
        let serp = &item["ranked_serp_element"]["serp_item"];
        let labs = m.data().labs(keyword).unwrap();
        assert_eq!(
            item["keyword_data"]["keyword_info"]["search_volume"].as_i64(),
            labs.search_volume
        );
        assert_eq!(item["keyword_data"]["location_code"], 2840);
        let rank = serp["rank_group"].as_u64().unwrap();
        assert!(rank >= last_rank, "ordered by rank_group");
        last_rank = rank;
        assert!(expected.iter().any(|r| r.keyword == keyword
            && r.url == serp["url"]
            && r.item_type == serp["type"]
            && u64::from(r.rank_group) == rank
            && u64::from(r.rank_absolute) == serp["rank_absolute"].as_u64().unwrap()));
    }

    let organic = single_result(
        &m.ok(
            path,
            us(json!({"target": PRIMARY, "item_types": ["organic"]})),
        )
        .await,
        path,
    );
    let organic_items = organic["items"].as_array().unwrap();
    assert!(organic_items
        .iter()
        .all(|i| i["ranked_serp_element"]["serp_item"]["type"] == "organic"));
    assert_eq!(
        organic_items.len(),
        expected.iter().filter(|r| r.item_type == "organic").count()
    );

    let unknown = single_result(
        &m.ok(path, us(json!({"target": "no-such-cafe.com"}))).await,
        path,
    );
    assert!(unknown["items"].is_null() && unknown["location_code"].is_null());
    assert_eq!(unknown["total_count"], 0);
}

#[tokio::test]
async fn labs_keyword_endpoints_answer_from_the_keyword_files() {
    let m = Mock::clean().await;
    let data = m.data();

    let path = paths::KEYWORD_OVERVIEW;
    let envelope = m.ok(path, us(json!({"keywords": ["Cold Brew Coffee", "espresso machine", "not a keyword we know"]}))).await;
    let result = single_result(&envelope, path);
    let items = result["items"].as_array().unwrap();
    let names: Vec<&str> = items
        .iter()
        .map(|i| i["keyword"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["cold brew coffee", "espresso machine"],
        "lower case, unknown omitted"
    );
    assert!(
        close(envelope["cost"].as_f64().unwrap(), price(data, path, 2)),
        "omitted keywords are free"
    );
    let facts = data.labs("cold brew coffee").unwrap();
    assert_eq!(items[0]["keyword_info"]["cpc"].as_f64(), facts.cpc);
    assert_eq!(
        items[0]["keyword_properties"]["keyword_difficulty"].as_i64(),
        facts.keyword_difficulty
    );
    assert!(
        items[0]["ai_search_volume"].is_object(),
        "undocumented extras are passed on"
    );
    let sparse = data.labs("brightbrew coffee roasters").unwrap();
    assert!(
        sparse.cpc.is_none() && sparse.keyword_difficulty.is_none() && sparse.main_intent.is_none()
    );

    let path = paths::KEYWORD_IDEAS;
    let result = single_result(
        &m.ok(
            path,
            us(json!({"keywords": ["cold brew coffee", "Roast Coffee"], "limit": 300})),
        )
        .await,
        path,
    );
    let mut expected = data.ideas("cold brew coffee");
    expected.extend(
        data.ideas("roast coffee")
            .into_iter()
            .filter(|i| !data.ideas("cold brew coffee").contains(i)),
    );
    let ideas: Vec<&str> = result["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["keyword"].as_str().unwrap())
        .collect();
    assert_eq!(ideas, expected);
    assert_eq!(
        result["seed_keywords"],
        json!(["cold brew coffee", "roast coffee"])
    );

    let path = paths::BULK_KEYWORD_DIFFICULTY;
    let result = single_result(
        &m.ok(
            path,
            us(json!({"keywords": ["barista classes portland", "moka pot", "unknown thing"]})),
        )
        .await,
        path,
    );
    assert!(data
        .labs("barista classes portland")
        .unwrap()
        .keyword_difficulty
        .is_none());
    let items = result["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(
        items[0]["keyword_difficulty"].as_i64(),
        data.difficulty("barista classes portland")
    );
    assert_eq!(
        items[1]["keyword_difficulty"].as_i64(),
        data.difficulty("moka pot")
    );

    let path = paths::SEARCH_INTENT;
    let result = single_result(
        &m.ok(
            path,
            json!({"keywords": ["coffee catering", "moka pot"], "language_code": "en"}),
        )
        .await,
        path,
    );
    let items = result["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "only keywords the intent file knows");
    let intent = data.intent("coffee catering").unwrap();
    assert_eq!(items[0]["keyword_intent"]["label"], intent.label.as_str());
    assert_eq!(
        items[0]["keyword_intent"]["probability"].as_f64(),
        Some(intent.probability)
    );
    assert!(items[0]["secondary_keyword_intents"].is_array());
}
