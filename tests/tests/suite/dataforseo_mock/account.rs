//! Faults, credentials, balance, statistics, and the properties the fixture files promise.

use std::collections::HashSet;

use super::{close, price, us, Mock};
use kr_tests::dataforseo_mock::{paths, MockConfig, MockStats, COMPETITORS, PRIMARY};
use serde_json::{json, Value};

#[tokio::test]
async fn fault_rules_strike_as_often_as_they_say_until_reset() {
    let m = Mock::start(MockConfig::default()).await;
    let ranked = us(json!({"target": "roastrivals.com"}));
    let (status, first) = m.post(paths::RANKED_KEYWORDS, ranked.clone()).await;
    assert_eq!((status, first["status_code"].as_i64()), (200, Some(20000)));
    assert_eq!(first["tasks_error"], 1);
    assert_eq!(first["tasks"][0]["status_code"], 40202);
    assert!(first["tasks"][0]["result"].is_null());
    assert_eq!(first["cost"], 0.0);
    let second = m.ok(paths::RANKED_KEYWORDS, ranked.clone()).await;
    assert_eq!(second["tasks"][0]["status_code"], 20000, "then it succeeds");
    let other = m
        .ok(paths::RANKED_KEYWORDS, us(json!({"target": PRIMARY})))
        .await;
    assert_eq!(
        other["tasks"][0]["status_code"], 20000,
        "other targets are not hit"
    );

    let overview = us(json!({"keywords": ["moka pot", "cold brew coffee"]}));
    let envelope = m.ok(paths::KEYWORD_OVERVIEW, overview.clone()).await;
    assert_eq!(
        envelope["status_code"], 50000,
        "the whole request fails once"
    );
    assert!(envelope["tasks"].is_null());
    assert_eq!(
        m.ok(paths::KEYWORD_OVERVIEW, overview).await["tasks"][0]["status_code"],
        20000
    );

    let (status, _) = m
        .post(paths::SERP_ORGANIC, us(json!({"keyword": "french press"})))
        .await;
    assert_eq!(status, 503);
    let (status, _) = m
        .post(paths::SERP_ORGANIC, us(json!({"keyword": "french press"})))
        .await;
    assert_eq!(status, 200);

    for _ in 0..2 {
        let failed = m
            .ok(
                paths::SERP_ORGANIC,
                us(json!({"keyword": "specialty coffee"})),
            )
            .await;
        assert_eq!(
            failed["tasks"][0]["status_code"], 40101,
            "a permanent failure"
        );
        assert!(
            close(
                failed["cost"].as_f64().unwrap(),
                price(m.data(), paths::SERP_ORGANIC, 0)
            ),
            "and billed"
        );
    }

    let stats = m.mock.stats();
    assert_eq!(stats.requests_to(paths::RANKED_KEYWORDS), 3);
    assert_eq!(stats.requests_to(paths::SERP_ORGANIC), 4);
    let billed: f64 = stats.tasks.iter().map(|t| t.cost).sum();
    assert!(close(stats.total_cost, billed));
    m.mock.reset();
    assert_eq!(m.mock.stats(), MockStats::default());
    let again = m.ok(paths::RANKED_KEYWORDS, ranked).await;
    assert_eq!(
        again["tasks"][0]["status_code"], 40202,
        "reset re-arms the rules"
    );
}

#[tokio::test]
async fn only_the_configured_basic_credentials_are_let_in() {
    let config = MockConfig {
        login: "agency@example.com".into(),
        password: "s3cret:with colon".into(),
        ..MockConfig::default().without_faults()
    };
    let m = Mock::start(config).await;
    let task = json!([us(json!({"keywords": ["moka pot"]}))]);
    let (status, body) = m
        .raw(
            paths::KEYWORD_OVERVIEW,
            task.clone(),
            "agency@example.com",
            "wrong",
        )
        .await;
    assert_eq!(status, 401);
    assert_eq!(body["status_code"], 40100);
    let response = m
        .http
        .post(format!("{}{}", m.mock.base_url(), paths::KEYWORD_OVERVIEW))
        .json(&task)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 401, "no credentials at all");
    let (status, body) = m
        .raw(
            paths::KEYWORD_OVERVIEW,
            task,
            "agency@example.com",
            "s3cret:with colon",
        )
        .await;
    assert_eq!(
        (status, body["tasks"][0]["status_code"].as_i64()),
        (200, Some(20000))
    );
    let stats = m.mock.stats();
    assert_eq!(stats.requests_to(paths::KEYWORD_OVERVIEW), 3);
    assert_eq!(stats.tasks.len(), 1, "refused requests are not processed");
    assert!(close(
        stats.total_cost,
        price(m.data(), paths::KEYWORD_OVERVIEW, 1)
    ));
}

#[tokio::test]
async fn a_spent_balance_answers_payment_required_without_billing() {
    let one = price(
        &kr_tests::dataforseo_mock::MockData::load_default().unwrap(),
        paths::SERP_ORGANIC,
        0,
    );
    let m = Mock::start(
        MockConfig::default()
            .without_faults()
            .with_balance(one * 2.5),
    )
    .await;
    let serp = us(json!({"keyword": "moka pot"}));
    for _ in 0..2 {
        assert_eq!(
            m.ok(paths::SERP_ORGANIC, serp.clone()).await["tasks"][0]["status_code"],
            20000
        );
    }
    let (status, body) = m.post(paths::SERP_ORGANIC, serp.clone()).await;
    assert_eq!(status, 402, "the next request costs more than is left");
    assert_eq!(body["status_code"], 40200);
    let stats = m.mock.stats();
    assert!(close(stats.total_cost, one * 2.0));
    assert!(close(stats.balance_left.unwrap(), one * 0.5));
    // A free answer (no results) still goes through; a billed one does not.
    let (_, free) = m
        .post(
            paths::SERP_ORGANIC,
            us(json!({"keyword": "brightbrew coffee roasters"})),
        )
        .await;
    assert_eq!(free["tasks"][0]["status_code"], 40102);

    let m = Mock::start(MockConfig::default().without_faults().with_balance(one)).await;
    m.ok(paths::SERP_ORGANIC, serp.clone()).await;
    let (status, _) = m
        .post(
            paths::SERP_ORGANIC,
            us(json!({"keyword": "brightbrew coffee roasters"})),
        )
        .await;
    assert_eq!(status, 402, "nothing left: every request is refused");
}

#[tokio::test]
async fn statistics_are_served_over_http_for_curl() {
    let m = Mock::clean().await;
    m.ok(
        paths::SEARCH_INTENT,
        json!({"keywords": ["coffee catering"], "language_code": "en"}),
    )
    .await;
    m.ok(paths::SERP_ORGANIC, us(json!({"keyword": "latte art"})))
        .await;
    let served: Value = m
        .http
        .get(format!("{}/__mock/stats", m.mock.base_url()))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let stats: MockStats = serde_json::from_value(served).unwrap();
    assert_eq!(stats, m.mock.stats());
    assert_eq!(
        stats.tasks_to(paths::SERP_ORGANIC)[0].task["keyword"],
        "latte art"
    );
    let expected =
        price(m.data(), paths::SEARCH_INTENT, 1) + price(m.data(), paths::SERP_ORGANIC, 0);
    assert!(close(stats.total_cost, expected));
}

fn normalized(url: &str) -> String {
    let rest = url
        .split_once("://")
        .map_or(url, |(_, r)| r)
        .trim_end_matches('/');
    rest.strip_prefix("www.").unwrap_or(rest).to_lowercase()
}

#[test]
fn the_fixtures_hold_serp_clusters_near_misses_and_content_gaps() {
    let data = kr_tests::dataforseo_mock::MockData::load_default().unwrap();
    let sets: Vec<(String, HashSet<String>)> = data
        .serp_keywords()
        .into_iter()
        .map(|k| {
            (
                k.to_owned(),
                data.serp_urls(k)
                    .unwrap()
                    .iter()
                    .map(|u| normalized(u))
                    .collect(),
            )
        })
        .collect();
    let shared = |a: &HashSet<String>, b: &HashSet<String>| a.intersection(b).count();
    let mut clustered = 0;
    let mut exactly_two = 0;
    for (i, (_, a)) in sets.iter().enumerate() {
        for (_, b) in &sets[i + 1..] {
            match shared(a, b) {
                0 | 1 => {}
                2 => exactly_two += 1,
                _ => clustered += 1,
            }
        }
    }
    assert!(clustered >= 50, "{clustered} pairs share at least 3 URLs");
    assert!(
        exactly_two >= 10,
        "{exactly_two} pairs share exactly 2 URLs"
    );

    let primary: HashSet<String> = data
        .ranked(PRIMARY)
        .into_iter()
        .map(|r| r.keyword)
        .collect();
    for competitor in COMPETITORS {
        let gap = data
            .ranked(competitor)
            .into_iter()
            .filter(|r| !primary.contains(&r.keyword))
            .count();
        assert!(
            gap >= 5,
            "{competitor} ranks for keywords the primary does not"
        );
    }
    // A domain ranking organically in the top ten stands at that position of the SERP.
    for target in data.targets() {
        for ranked in data.ranked(target) {
            let urls = data.serp_urls(&ranked.keyword);
            if let (Some(urls), "organic", 1..=10) =
                (urls, ranked.item_type.as_str(), ranked.rank_group)
            {
                assert_eq!(
                    urls[ranked.rank_group as usize - 1],
                    ranked.url,
                    "{}",
                    ranked.keyword
                );
            }
        }
    }
    for keyword in data.seeds().into_iter().flat_map(|s| data.ideas(s)) {
        assert!(
            data.labs(&keyword).is_some(),
            "idea {keyword:?} has a record"
        );
    }
}
