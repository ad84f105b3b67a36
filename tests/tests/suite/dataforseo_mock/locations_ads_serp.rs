//! Locations per endpoint, one task per request, Google Ads search volume and the organic SERP.

use super::{close, price, single_result, us, Mock};
use kr_tests::dataforseo_mock::{paths, MockConfig};
use serde_json::{json, Value};

#[tokio::test]
async fn google_ads_answers_every_keyword_per_request_with_spelling_corrections() {
    let m = Mock::clean().await;
    let path = paths::ADS_SEARCH_VOLUME;
    // A location Labs does not cover is fine here.
    let task = json!({"keywords": ["Expresso Machine", "moka pot", "never searched phrase"], "location_code": 2012, "language_code": "en"});
    let envelope = m.ok(path, task).await;
    assert_eq!(envelope["status_code"], 20000);
    let task = &envelope["tasks"][0];
    assert_eq!(task["status_code"], 20000);
    let rows = task["result"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "one result object per keyword");
    assert!(
        close(envelope["cost"].as_f64().unwrap(), price(m.data(), path, 0)),
        "billed per request"
    );

    let corrected = m.data().ads("expresso machine").unwrap();
    assert_eq!(corrected.spell.as_deref(), Some("espresso machine"));
    assert_eq!(
        rows[0]["keyword"], "expresso machine",
        "the posted keyword, lower-cased"
    );
    assert_eq!(rows[0]["spell"], "espresso machine");
    assert_eq!(
        rows[0]["search_volume"].as_i64(),
        m.data().ads("espresso machine").unwrap().search_volume
    );
    assert_eq!(rows[0]["search_volume"].as_i64(), corrected.search_volume);

    let moka = m.data().ads("moka pot").unwrap();
    assert_eq!(rows[1]["competition"].as_str(), moka.competition.as_deref());
    assert_eq!(
        rows[1]["competition_index"].as_i64(),
        moka.competition_index
    );
    assert_eq!(rows[1]["location_code"], 2012);
    assert!(rows[2]["search_volume"].is_null() && rows[2]["competition"].is_null());

    let (_, refused) = m
        .post(
            path,
            json!({"keywords": ["cold brew (best)"], "location_code": 2840}),
        )
        .await;
    assert_eq!(
        refused["tasks"][0]["status_code"], 40501,
        "a symbol Google Ads refuses fails the task"
    );
    let long = "word ".repeat(11);
    let (_, refused) = m
        .post(
            path,
            json!({"keywords": [long.trim()], "location_code": 2840}),
        )
        .await;
    assert_eq!(refused["tasks"][0]["status_code"], 40501);
}

#[tokio::test]
async fn serps_list_ads_then_organic_results_and_the_engines_correction() {
    let m = Mock::clean().await;
    let path = paths::SERP_ORGANIC;
    let envelope = m
        .ok(path, us(json!({"keyword": "moka pot", "depth": 10})))
        .await;
    let result = single_result(&envelope, path);
    assert!(close(
        envelope["cost"].as_f64().unwrap(),
        price(m.data(), path, 0)
    ));
    let items = result["items"].as_array().unwrap();
    let organic: Vec<&Value> = items.iter().filter(|i| i["type"] == "organic").collect();
    let urls: Vec<String> = organic
        .iter()
        .map(|i| i["url"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(Some(urls), m.data().serp_urls("moka pot"));
    let paid = items.len() - organic.len();
    assert!(paid > 0, "commercial keyword carries ads");
    assert_eq!(organic[0]["rank_group"], 1);
    assert_eq!(organic[0]["rank_absolute"], paid + 1);
    assert!(result["spell"].is_null());

    let result = single_result(
        &m.ok(path, us(json!({"keyword": "expresso machine"}))).await,
        path,
    );
    assert_eq!(result["keyword"], "expresso machine");
    assert_eq!(result["spell"]["keyword"], "espresso machine");
    assert_eq!(result["spell"]["type"], "showing_results_for");
    let first = result["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["type"] == "organic")
        .unwrap();
    assert_eq!(
        Some(first["url"].as_str().unwrap()),
        m.data()
            .serp_urls("espresso machine")
            .unwrap()
            .first()
            .map(String::as_str)
    );

    let (_, none) = m
        .post(path, us(json!({"keyword": "brightbrew coffee roasters"})))
        .await;
    assert_eq!(none["tasks"][0]["status_code"], 40102);
    assert!(none["tasks"][0]["result"].is_null());
    assert_eq!(none["cost"], 0.0);
}

#[tokio::test]
async fn serps_place_their_features_among_the_results_in_the_documented_shapes() {
    let m = Mock::clean().await;
    let path = paths::SERP_ORGANIC;
    let envelope = m
        .ok(
            path,
            us(json!({"keyword": "cold brew coffee", "depth": 10})),
        )
        .await;
    let result = single_result(&envelope, path);
    let items = result["items"].as_array().unwrap();
    let (features, questions) = m.data().serp_features("cold brew coffee").unwrap();
    let types: Vec<&str> = items.iter().filter_map(|i| i["type"].as_str()).collect();
    for feature in features.iter().filter(|f| *f != "sitelinks") {
        assert!(types.contains(&feature.as_str()), "{feature} in {types:?}");
    }
    // Every element in page order; organic results keep their own ranks.
    let absolute: Vec<u64> = items
        .iter()
        .map(|i| i["rank_absolute"].as_u64().unwrap())
        .collect();
    assert_eq!(absolute, (1..=items.len() as u64).collect::<Vec<_>>());
    let organic: Vec<&Value> = items.iter().filter(|i| i["type"] == "organic").collect();
    assert_eq!(organic.len(), 10);
    assert_eq!(organic[9]["rank_group"], 10);
    assert!(organic[0]["links"].as_array().is_some_and(|l| l.len() == 2));
    assert!(organic[1]["links"].is_null());
    let asked: Vec<&str> = items
        .iter()
        .find(|i| i["type"] == "people_also_ask")
        .unwrap()["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            assert_eq!(q["type"], "people_also_ask_element");
            q["title"].as_str().unwrap()
        })
        .collect();
    assert_eq!(asked, questions);
    let listed: Vec<&str> = result["item_types"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(listed.contains(&"people_also_ask") && listed.contains(&"organic"));
}

#[tokio::test]
async fn labs_refuse_locations_outside_their_list_and_extra_tasks_are_refused() {
    let m = Mock::start(MockConfig {
        labs_locations: Some(vec![2826]),
        ..MockConfig::default().without_faults()
    })
    .await;
    let (_, envelope) = m
        .post(
            paths::KEYWORD_OVERVIEW,
            us(json!({"keywords": ["moka pot"]})),
        )
        .await;
    assert_eq!(envelope["status_code"], 20000);
    assert_eq!(envelope["tasks_error"], 1);
    assert_eq!(envelope["tasks"][0]["status_code"], 40501);
    assert_eq!(
        envelope["tasks"][0]["status_message"],
        "Invalid Field: 'location_code'."
    );
    assert_eq!(envelope["cost"], 0.0);
    let (_, uk) = m
        .post(
            paths::KEYWORD_OVERVIEW,
            json!({"keywords": ["moka pot"], "location_code": 2826}),
        )
        .await;
    assert_eq!(uk["tasks"][0]["status_code"], 20000);
    let (_, intent) = m
        .post(
            paths::SEARCH_INTENT,
            json!({"keywords": ["coffee catering"], "language_code": "en"}),
        )
        .await;
    assert_eq!(
        intent["tasks"][0]["status_code"], 20000,
        "search intent has no location"
    );
    let (_, ads) = m
        .post(
            paths::ADS_SEARCH_VOLUME,
            us(json!({"keywords": ["moka pot"]})),
        )
        .await;
    assert_eq!(ads["tasks"][0]["status_code"], 20000);

    let two = json!([
        us(json!({"keywords": ["moka pot"]})),
        us(json!({"keywords": ["latte art"]}))
    ]);
    let m = Mock::clean().await;
    let (_, envelope) = m
        .raw(paths::KEYWORD_OVERVIEW, two, "mock-login", "mock-password")
        .await;
    assert_eq!(envelope["tasks_count"], 2);
    assert_eq!(envelope["tasks"][1]["status_code"], 40000);
    assert!(close(
        envelope["cost"].as_f64().unwrap(),
        price(m.data(), paths::KEYWORD_OVERVIEW, 1)
    ));
}
