//! Abuse limits against the emulator: per-user request limits with their headers, sign-in
//! attempts, API keys of a plan without API access, and the API key cap.

use axum::Router;
use kr_account::{router, AccountState};
use kr_core::domain::Plan;
use kr_core::service::rate_limits::RateLimits;
use kr_core::store::UserStore;
use kr_tests::harness::{self, Call, TEST_PASSWORD};
use serde_json::json;

async fn account_with(limits: RateLimits) -> Router {
    let mut config = harness::config();
    config.limits = limits;
    router(AccountState::from_config(config).await)
}

#[tokio::test]
async fn requests_over_the_plans_limit_are_refused_with_429_and_every_answer_says_where_it_stands()
{
    let app = account_with(RateLimits {
        agency_per_minute: 3,
        ..RateLimits::default()
    })
    .await;
    let store = harness::store().await;
    let (_, key) = harness::new_user_with_key(&store).await;
    let (_, other_key) = harness::new_user_with_key(&store).await;

    let mut remaining = Vec::new();
    let mut refused = None;
    // Four calls in one minute-window: the count may cross a minute boundary once, so
    // allow for a fresh window by sending up to eight.
    for _ in 0..8 {
        let reply = Call::get("/api/v1/users/me")
            .api_key(key.expose())
            .send(&app)
            .await;
        assert_eq!(reply.header("ratelimit-limit"), Some("3"));
        let reset: u32 = reply.header("ratelimit-reset").unwrap().parse().unwrap();
        assert!((1..=60).contains(&reset));
        if reply.status == 429 {
            refused = Some(reply);
            break;
        }
        assert_eq!(reply.status, 200, "{}", reply.text);
        remaining.push(reply.header("ratelimit-remaining").unwrap().to_string());
    }
    let refused = refused.expect("the fourth call in a window is refused");
    assert_eq!(refused.code(), "rate_limited");
    assert_eq!(refused.header("ratelimit-remaining"), Some("0"));
    assert_eq!(
        refused.header("retry-after"),
        refused.header("ratelimit-reset")
    );
    assert!(remaining.ends_with(&["2".into(), "1".into(), "0".into()]));
    // The limit is the user's, not the function's.
    Call::get("/api/v1/users/me")
        .api_key(other_key.expose())
        .send(&app)
        .await
        .expect(200);
    // Unauthenticated answers carry no rate headers.
    let anonymous = Call::get("/api/v1/users/me").send(&app).await.expect(401);
    assert!(anonymous.header("ratelimit-limit").is_none());
}

#[tokio::test]
async fn the_limit_is_shared_by_every_instance_of_every_function() {
    let limits = RateLimits {
        agency_per_minute: 4,
        ..RateLimits::default()
    };
    let (one, two) = (
        account_with(limits.clone()).await,
        account_with(limits).await,
    );
    let store = harness::store().await;
    let (_, key) = harness::new_user_with_key(&store).await;
    let mut statuses = Vec::new();
    for app in [&one, &two, &one, &two, &one, &two, &one, &two, &one, &two] {
        let reply = Call::get("/api/v1/users/me")
            .api_key(key.expose())
            .send(app)
            .await;
        statuses.push(reply.status);
    }
    // At most two windows are touched, so at most 8 of the 10 calls pass.
    let passed = statuses.iter().filter(|status| **status == 200).count();
    assert!(
        (4..=8).contains(&passed) && statuses.contains(&429),
        "{statuses:?}"
    );
}

#[tokio::test]
async fn sign_in_attempts_are_limited_per_email() {
    let app = account_with(RateLimits {
        login_per_email: 3,
        ..RateLimits::default()
    })
    .await;
    let store = harness::store().await;
    let user = harness::new_user(&store, Plan::Free, 0, 0).await;
    let attempt = |email: String, password: &str| {
        Call::post("/api/v1/auth/login")
            .json(json!({"email": email, "password": password}))
            .send(&app)
    };
    let mut statuses = Vec::new();
    for _ in 0..3 {
        statuses.push(
            attempt(user.email.as_str().to_string(), "wrong")
                .await
                .status,
        );
    }
    // The right password does not get past the limit, so the limit says nothing about it.
    let refused = attempt(user.email.as_str().to_uppercase(), TEST_PASSWORD).await;
    if statuses == [401, 401, 401] {
        assert_eq!(refused.status, 429, "{}", refused.text);
        assert_eq!(refused.code(), "rate_limited");
        let retry: u32 = refused.header("retry-after").unwrap().parse().unwrap();
        assert!((1..=900).contains(&retry));
        assert!(refused.header("set-cookie").is_none());
    }
    // Another address is not affected.
    let other = harness::new_user(&store, Plan::Free, 0, 0).await;
    attempt(other.email.as_str().to_string(), TEST_PASSWORD)
        .await
        .expect(204);
}

#[tokio::test]
async fn an_api_key_rests_while_the_plan_lacks_api_access() {
    let app = account_with(RateLimits::default()).await;
    let store = harness::store().await;
    let (user, key) = harness::new_user_with_key(&store).await;
    let me = || {
        Call::get("/api/v1/users/me")
            .api_key(key.expose())
            .send(&app)
    };
    me().await.expect(200);
    store.set_plan(user.id, Plan::Pro).await.unwrap();
    assert_eq!(me().await.expect(401).code(), "unauthorized");
    store.set_plan(user.id, Plan::Agency).await.unwrap();
    me().await.expect(200);
}

#[tokio::test]
async fn an_account_holds_at_most_50_api_keys() {
    let app = account_with(RateLimits::default()).await;
    let store = harness::store().await;
    let (_, key) = harness::new_user_with_key(&store).await;
    let create = || {
        Call::post("/api/v1/api-keys")
            .api_key(key.expose())
            .json(json!({"name": "ci"}))
            .send(&app)
    };
    let created = futures_util::future::join_all((0..52).map(|_| create())).await;
    let statuses: Vec<u16> = created.iter().map(|reply| reply.status).collect();
    // One key existed already: 49 more fit, concurrent creates included.
    assert_eq!(
        statuses.iter().filter(|s| **s == 201).count(),
        49,
        "{statuses:?}"
    );
    let refused = created.iter().find(|reply| reply.status == 403).unwrap();
    assert_eq!(refused.code(), "forbidden");
    assert!(refused.text.contains("50"));
    let some_key = created.iter().find(|reply| reply.status == 201).unwrap();
    let id = some_key.json["apiKey"]["id"].as_str().unwrap().to_string();
    Call::delete(&format!("/api/v1/api-keys/{id}"))
        .api_key(key.expose())
        .send(&app)
        .await
        .expect(204);
    create().await.expect(201);
    create().await.expect(403);
}
