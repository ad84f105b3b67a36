//! The mock over HTTP, as a client of Google would use it: the consent flow with PKCE, paging,
//! aggregation, filters and faults.

use std::collections::HashMap;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use chrono::{Days, NaiveDate};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::*;

const VERIFIER: &str = "a-verifier-of-the-test-that-is-long-enough-0123456789";
const REDIRECT: &str = "http://127.0.0.1:9000/api/v1/search-console/callback";

fn end() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 6, 30).unwrap()
}

async fn mock() -> MockGoogle {
    let config = GoogleMockConfig {
        data_end_date: Some(end()),
        ..GoogleMockConfig::default()
    };
    MockGoogle::start(config).await.unwrap()
}

fn auth_url(mock: &MockGoogle, extra: &str) -> String {
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(VERIFIER));
    let scope = format!("openid email {SEARCH_CONSOLE_SCOPE}");
    let query = serde_urlencoded::to_string([
        ("client_id", "local-client-id"),
        ("redirect_uri", REDIRECT),
        ("response_type", "code"),
        ("scope", &scope),
        ("state", "st<ate>&1"),
        ("code_challenge", &challenge),
        ("code_challenge_method", "S256"),
        ("access_type", "offline"),
    ])
    .unwrap();
    format!("{}{}?{query}{extra}", mock.base_url(), paths::AUTH)
}

fn query_of(location: &str) -> HashMap<String, String> {
    let url = reqwest::Url::parse(location).unwrap();
    url.query_pairs().into_owned().collect()
}

async fn token(mock: &MockGoogle, form: &[(&str, &str)], basic: bool) -> (u16, Value) {
    let client = reqwest::Client::new();
    let mut request = client.post(format!("{}{}", mock.base_url(), paths::TOKEN));
    let mut form: Vec<(&str, &str)> = form.to_vec();
    if basic {
        request = request.basic_auth("local-client-id", Some("local-client-secret"));
    } else {
        form.extend([
            ("client_id", "local-client-id"),
            ("client_secret", "local-client-secret"),
        ]);
    }
    let response = request.form(&form).send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap())
}

async fn tokens(mock: &MockGoogle) -> (String, String) {
    let location = mock.consent(&auth_url(mock, ""), true).await.unwrap();
    let code = query_of(&location)["code"].clone();
    let form = [
        ("grant_type", "authorization_code"),
        ("code", code.as_str()),
        ("redirect_uri", REDIRECT),
        ("code_verifier", VERIFIER),
    ];
    let (status, body) = token(mock, &form, true).await;
    assert_eq!(status, 200, "{body}");
    let access = body["access_token"].as_str().unwrap().to_owned();
    (access, body["refresh_token"].as_str().unwrap().to_owned())
}

async fn query(mock: &MockGoogle, access: &str, site: &str, body: Value) -> (u16, Value) {
    let site = serde_urlencoded::to_string([("", site)]).unwrap()[1..].to_owned();
    let url = format!(
        "{}/webmasters/v3/sites/{site}/searchAnalytics/query",
        mock.base_url()
    );
    let response = reqwest::Client::new()
        .post(url)
        .bearer_auth(access)
        .json(&body)
        .send()
        .await
        .unwrap();
    (response.status().as_u16(), response.json().await.unwrap())
}

#[tokio::test]
async fn google_consent_flow_with_pkce_refresh_and_revoke() {
    let mock = mock().await;
    let page = reqwest::get(auth_url(&mock, ""))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("owner@brightbrew-coffee.test") && page.contains("id=\"allow\""));
    assert!(page.contains("st&lt;ate&gt;&amp;1") && !page.contains("st<ate>"));
    let bad = reqwest::get(auth_url(&mock, "").replace("S256", "plain"))
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
    let elsewhere = auth_url(&mock, "").replace("127.0.0.1%3A9000", "evil.test");
    assert_eq!(reqwest::get(elsewhere).await.unwrap().status(), 400);

    let denied = mock.consent(&auth_url(&mock, ""), false).await.unwrap();
    assert_eq!(query_of(&denied)["error"], "access_denied");
    assert_eq!(query_of(&denied)["state"], "st<ate>&1");

    let location = mock.consent(&auth_url(&mock, ""), true).await.unwrap();
    assert!(location.starts_with(REDIRECT));
    let code = query_of(&location)["code"].clone();
    let mut form = vec![
        ("grant_type", "authorization_code"),
        ("code", code.as_str()),
        ("redirect_uri", REDIRECT),
        (
            "code_verifier",
            "the-wrong-verifier-but-long-enough-to-be-well-formed",
        ),
    ];
    let (status, body) = token(&mock, &form, false).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("invalid_grant"))
    );
    form[3].1 = VERIFIER;
    let (status, _) = token(&mock, &form, false).await;
    assert_eq!(status, 400, "the code went with the first attempt");

    let (access, refresh) = tokens(&mock).await;
    let client = reqwest::Client::new();
    let me: Value = client
        .get(format!("{}/v1/userinfo", mock.base_url()))
        .bearer_auth(&access)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(me["email"], "owner@brightbrew-coffee.test");
    assert_eq!(me["email_verified"], true);
    let sites: Value = client
        .get(format!("{}/webmasters/v3/sites", mock.base_url()))
        .bearer_auth(&access)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        sites["siteEntry"][2]["permissionLevel"],
        "siteRestrictedUser"
    );

    let refreshed = [
        ("grant_type", "refresh_token"),
        ("refresh_token", refresh.as_str()),
    ];
    let (status, body) = token(&mock, &refreshed, true).await;
    assert_eq!(status, 200);
    assert!(body.get("refresh_token").is_none());
    let wrong = reqwest::Client::new()
        .post(format!("{}{}", mock.base_url(), paths::TOKEN))
        .basic_auth("local-client-id", Some("nope"))
        .form(&refreshed)
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 401);

    let revoke = |token: String| {
        let url = format!("{}{}", mock.base_url(), paths::REVOKE);
        async move {
            let form = [("token", token)];
            reqwest::Client::new()
                .post(url)
                .form(&form)
                .send()
                .await
                .unwrap()
                .status()
        }
    };
    assert_eq!(revoke(access.clone()).await, 200);
    assert_eq!(
        revoke(refresh.clone()).await,
        400,
        "the grant is gone already"
    );
    let (status, body) = token(&mock, &refreshed, true).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("invalid_grant"))
    );
    let (status, body) = query(&mock, &access, BIG_SITE_URL, json!({})).await;
    assert_eq!(
        (status, body["error"]["status"].as_str()),
        (401, Some("UNAUTHENTICATED"))
    );
    let stats = mock.stats();
    assert_eq!(
        (stats.codes_redeemed, stats.revocations, stats.refreshes),
        (1, 1, 1)
    );
}

/// Three pages of 25,000 over HTTP, then the whole big property page by page: in order, every
/// row once.
#[tokio::test]
async fn google_big_property_pages_cover_every_row_once() {
    let mock = mock().await;
    let (access, _) = tokens(&mock).await;
    let facts = mock.facts(BIG_SITE_URL, None).unwrap();
    let (from, to) = (facts["dataStartDate"].clone(), facts["dataEndDate"].clone());
    let ask = |start_row: u64| {
        json!({"startDate": from, "endDate": to, "dimensions": ["query", "page", "date"],
               "rowLimit": 25_000, "startRow": start_row})
    };
    let mut seen = std::collections::HashSet::new();
    let mut last_clicks = u64::MAX;
    for page in 0..3 {
        let (status, body) = query(&mock, &access, BIG_SITE_URL, ask(page * 25_000)).await;
        assert_eq!(status, 200);
        let rows = body["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 25_000);
        for row in rows {
            let clicks = row["clicks"].as_u64().unwrap();
            assert!(clicks <= last_clicks);
            last_clicks = clicks;
            assert!(seen.insert(row["keys"].to_string()), "{row} twice");
        }
    }
    let (_, past) = query(&mock, &access, BIG_SITE_URL, ask(1_000_000)).await;
    assert!(past.get("rows").is_none() && past["responseAggregationType"] == "byPage");

    let (mut total, mut clicks, mut previous) = (0u64, 0u64, None::<(u64, Vec<String>)>);
    let data = &mock.shared.data;
    for page in 0.. {
        let body = serde_json::to_vec(&ask(page * 25_000)).unwrap();
        let rows = analytics::parse(&body).unwrap().run(data, BIG_SITE_URL);
        if rows.is_empty() {
            break;
        }
        for row in rows {
            let key = (u64::MAX - row.clicks, row.keys.clone());
            assert!(
                previous.as_ref().is_none_or(|p| *p < key),
                "out of order at {total}"
            );
            previous = Some(key);
            total += 1;
            clicks += row.clicks;
        }
    }
    assert_eq!(total, BIG_ROWS);
    assert_eq!(clicks, facts["clicks"].as_u64().unwrap());
}

#[tokio::test]
async fn google_rows_aggregate_over_the_dimensions_not_asked_for() {
    let mock = mock().await;
    let (access, _) = tokens(&mock).await;
    let site = "sc-domain:brightbrew-coffee.com";
    let (from, to) = ((end() - Days::new(27)).to_string(), end().to_string());
    let ask = |dimensions: Value, filters: Value| {
        json!({"startDate": from, "endDate": to, "dimensions": dimensions, "rowLimit": 25_000,
               "dimensionFilterGroups": filters})
    };
    let (_, raw) = query(
        &mock,
        &access,
        site,
        ask(json!(["date", "query", "page", "country"]), json!([])),
    )
    .await;
    let (_, by_query) = query(&mock, &access, site, ask(json!(["query"]), json!([]))).await;
    let mut sums: HashMap<String, (u64, u64, f64)> = HashMap::new();
    for row in raw["rows"].as_array().unwrap() {
        let entry = sums
            .entry(row["keys"][1].as_str().unwrap().to_owned())
            .or_default();
        let impressions = row["impressions"].as_u64().unwrap();
        entry.0 += row["clicks"].as_u64().unwrap();
        entry.1 += impressions;
        entry.2 += row["position"].as_f64().unwrap() * impressions as f64;
    }
    let rows = by_query["rows"].as_array().unwrap();
    assert_eq!(rows.len(), sums.len());
    assert_eq!(by_query["responseAggregationType"], "byProperty");
    for pair in rows.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        let ordered = a["clicks"].as_u64() > b["clicks"].as_u64()
            || (a["clicks"] == b["clicks"] && a["keys"][0].as_str() < b["keys"][0].as_str());
        assert!(ordered, "{a} before {b}");
    }
    for row in rows {
        let (clicks, impressions, weighted) = sums[row["keys"][0].as_str().unwrap()];
        assert_eq!(row["clicks"].as_u64(), Some(clicks));
        assert_eq!(row["impressions"].as_u64(), Some(impressions));
        let position = row["position"].as_f64().unwrap();
        assert!((position - weighted / impressions as f64).abs() < 1e-6);
        assert!((row["ctr"].as_f64().unwrap() - clicks as f64 / impressions as f64).abs() < 1e-9);
    }
    // The country filter matters: a few queries have British rows too.
    let only = |country: &str| {
        json!([{"groupType": "and", "filters": [
        {"dimension": "country", "operator": "equals", "expression": country}]}])
    };
    let (_, usa) = query(&mock, &access, site, ask(json!(["query"]), only("usa"))).await;
    let (_, gbr) = query(&mock, &access, site, ask(json!(["query"]), only("gbr"))).await;
    let count = |v: &Value| v["rows"].as_array().map_or(0, Vec::len);
    assert_eq!(count(&usa), rows.len());
    assert!((1..10).contains(&count(&gbr)));
    let (status, body) = query(
        &mock,
        &access,
        site,
        json!({"startDate": to, "endDate": from}),
    )
    .await;
    assert_eq!(
        (status, body["error"]["status"].as_str()),
        (400, Some("INVALID_ARGUMENT"))
    );
    let (status, _) = query(
        &mock,
        &access,
        "sc-domain:elsewhere.test",
        ask(json!([]), json!([])),
    )
    .await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn google_faults_play_in_order_then_stop() {
    let mock = mock().await;
    let (access, refresh) = tokens(&mock).await;
    let site = "https://ridgeline-roofing.com/";
    let body = json!({"startDate": "2026-06-01", "endDate": "2026-06-30"});
    let client = reqwest::Client::new();
    let faults: Value = client
        .post(format!("{}/__mock/faults", mock.base_url()))
        .json(&json!({"searchAnalytics429": 2, "searchAnalytics500": 1}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        faults,
        json!({"searchAnalytics429": 2, "searchAnalytics500": 1})
    );
    let mut statuses = Vec::new();
    for _ in 0..4 {
        let (status, answer) = query(&mock, &access, site, body.clone()).await;
        statuses.push((
            status,
            answer["error"]["status"].as_str().map(str::to_owned),
        ));
    }
    let quota = (429, Some("RESOURCE_EXHAUSTED".to_owned()));
    assert_eq!(
        statuses,
        [
            quota.clone(),
            quota,
            (500, Some("INTERNAL".into())),
            (200, None)
        ]
    );

    mock.set_faults(&FaultRequest {
        expire_access_tokens: true,
        ..FaultRequest::default()
    });
    assert_eq!(query(&mock, &access, site, body.clone()).await.0, 401);
    let (status, fresh) = token(
        &mock,
        &[("grant_type", "refresh_token"), ("refresh_token", &refresh)],
        true,
    )
    .await;
    assert_eq!(status, 200);
    let fresh = fresh["access_token"].as_str().unwrap().to_owned();
    assert_eq!(query(&mock, &fresh, site, body.clone()).await.0, 200);
    let typo = client
        .post(format!("{}/__mock/faults", mock.base_url()))
        .json(&json!({"searchAnalytics492": 1}))
        .send()
        .await
        .unwrap();
    assert_eq!(
        typo.status(),
        400,
        "an unknown fault is refused, not ignored"
    );
    mock.set_faults(&FaultRequest {
        revoke_all: true,
        ..FaultRequest::default()
    });
    assert_eq!(query(&mock, &fresh, site, body).await.0, 401);
    let (status, _) = token(
        &mock,
        &[("grant_type", "refresh_token"), ("refresh_token", &refresh)],
        true,
    )
    .await;
    assert_eq!(status, 400);
    let stats = mock.stats();
    assert_eq!(
        (stats.search_analytics_429, stats.search_analytics_500),
        (2, 1)
    );
}

/// A service account's assertion, signed with the fixture's key, with `change` applied.
fn assertion(mock: &MockGoogle, change: impl FnOnce(&mut Value)) -> String {
    let (key_json, email) = fixture_service_account_key();
    let key: Value = serde_json::from_str(&key_json).unwrap();
    let now = chrono::Utc::now().timestamp();
    let mut claims = json!({
        "iss": email,
        "scope": SEARCH_CONSOLE_SCOPE,
        "aud": format!("{}{}", mock.base_url(), paths::TOKEN),
        "iat": now,
        "exp": now + 3600,
    });
    change(&mut claims);
    let signing =
        jsonwebtoken::EncodingKey::from_rsa_pem(key["private_key"].as_str().unwrap().as_bytes())
            .unwrap();
    jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::RS256),
        &claims,
        &signing,
    )
    .unwrap()
}

#[tokio::test]
async fn google_service_account_assertions_are_verified_and_see_the_properties() {
    let mock = mock().await;
    let grant = "urn:ietf:params:oauth:grant-type:jwt-bearer";
    let good = assertion(&mock, |_| {});
    let form = [("grant_type", grant), ("assertion", good.as_str())];
    let (status, body) = token(&mock, &form, false).await;
    assert_eq!(status, 200, "{body}");
    let access = body["access_token"].as_str().unwrap().to_string();
    let sites = reqwest::Client::new()
        .get(format!("{}{}", mock.base_url(), paths::SITES))
        .bearer_auth(&access)
        .send()
        .await
        .unwrap();
    assert_eq!(sites.status(), 200);
    let sites: Value = sites.json().await.unwrap();
    assert!(sites["siteEntry"].as_array().unwrap().len() >= 3, "{sites}");

    let bad = [
        assertion(&mock, |c| {
            c["aud"] = json!("https://oauth2.googleapis.com/token")
        }),
        assertion(&mock, |c| {
            c["iss"] = json!("stranger@elsewhere.iam.gserviceaccount.com")
        }),
        assertion(&mock, |c| {
            c["iat"] = json!(c["iat"].as_i64().unwrap() - 7200);
            c["exp"] = json!(c["exp"].as_i64().unwrap() - 7200);
        }),
        assertion(&mock, |c| {
            c["exp"] = json!(c["iat"].as_i64().unwrap() + 7200)
        }),
        format!("{}x", &good[..good.len() - 1]),
    ];
    for assertion in bad {
        let form = [("grant_type", grant), ("assertion", assertion.as_str())];
        let (status, body) = token(&mock, &form, false).await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["error"], "invalid_grant", "{body}");
    }
}
