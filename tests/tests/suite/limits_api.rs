//! Abuse limits against the emulator: per-user request limits with their headers, sign-in
//! attempts, API keys of a plan without API access, and the API key cap.

use axum::Router;
use chrono::{TimeZone, Utc};
use kr_account::{router, AccountState};
use kr_core::domain::Plan;
use kr_core::service::rate_limits::{LoginAdmission, LoginThrottle, RateLimits, SlidingWindow};
use kr_core::store::{RequestCounters, UserStore};
use kr_tests::harness::{self, Call, TEST_PASSWORD};
use serde_json::json;
use std::time::Duration;

async fn account_with(limits: RateLimits) -> Router {
    let mut config = harness::config();
    config.limits = limits;
    router(AccountState::from_config(config, harness::resources()).await)
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
    // The window slides: the fourth call within a minute is refused, whatever the clock says.
    for _ in 0..4 {
        let reply = Call::get("/api/v1/users/me")
            .api_key(key.expose())
            .send(&app)
            .await;
        assert_eq!(reply.header("ratelimit-limit"), Some("3"));
        let reset: u32 = reply.header("ratelimit-reset").unwrap().parse().unwrap();
        assert!((1..=61).contains(&reset));
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
    assert_eq!(remaining, ["2", "1", "0"]);
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
    assert_eq!(statuses, [200, 200, 200, 200, 429, 429, 429, 429, 429, 429]);
}

fn sign_in(email: &str, password: &str, address: &str) -> Call {
    Call::post("/api/v1/auth/login")
        .json(json!({"email": email, "password": password}))
        .from_address(address)
}

#[tokio::test]
async fn failed_sign_ins_lock_one_address_out_of_an_email_but_never_the_owner() {
    let app = account_with(RateLimits {
        login_per_email_and_address: 10,
        ..RateLimits::default()
    })
    .await;
    let store = harness::store().await;
    let user = harness::new_user(&store, Plan::Free, 0, 0).await;
    let email = user.email.as_str();
    for _ in 0..10 {
        sign_in(email, "wrong", "192.0.2.10")
            .send(&app)
            .await
            .expect(401);
    }
    // The 11th from the same address is refused, the right password too, so the limit says
    // nothing about the password.
    for password in ["wrong", TEST_PASSWORD] {
        let refused = sign_in(&email.to_uppercase(), password, "192.0.2.10")
            .send(&app)
            .await
            .expect(429);
        assert_eq!(refused.code(), "rate_limited");
        let retry: u32 = refused.header("retry-after").unwrap().parse().unwrap();
        assert!((1..=915).contains(&retry), "{retry}");
        assert!(refused.header("set-cookie").is_none());
    }
    // The owner, from an address that has not failed, signs in.
    let signed_in = sign_in(email, TEST_PASSWORD, "192.0.2.20")
        .send(&app)
        .await
        .expect(204);
    assert!(signed_in.header("set-cookie").is_some());
}

#[tokio::test]
async fn successful_sign_ins_never_count() {
    let app = account_with(RateLimits {
        login_per_email_and_address: 2,
        login_per_email: 3,
        login_per_address: 3,
        ..RateLimits::default()
    })
    .await;
    let store = harness::store().await;
    let user = harness::new_user(&store, Plan::Free, 0, 0).await;
    for _ in 0..8 {
        sign_in(user.email.as_str(), TEST_PASSWORD, "192.0.2.30")
            .send(&app)
            .await
            .expect(204);
    }
    // Failures still count after them: two, then the third is refused.
    for status in [401, 401, 429] {
        sign_in(user.email.as_str(), "wrong", "192.0.2.30")
            .send(&app)
            .await
            .expect(status);
    }
}

#[tokio::test]
async fn guesses_spread_over_many_addresses_never_lock_the_owner_out_and_meet_a_growing_delay() {
    let limits = RateLimits {
        login_per_email_and_address: 2,
        login_per_email: 5,
        login_max_delay: Duration::from_millis(40),
        ..RateLimits::default()
    };
    let app = account_with(limits.clone()).await;
    let store = harness::store().await;
    let user = harness::new_user(&store, Plan::Free, 0, 0).await;
    let email = user.email.as_str();
    let mut statuses = Vec::new();
    for address in ["192.0.2.41", "192.0.2.42", "192.0.2.43", "192.0.2.44"] {
        for _ in 0..2 {
            statuses.push(sign_in(email, "wrong", address).send(&app).await.status);
        }
    }
    // Eight failures pass the e-mail's ceiling of five: guesses are still only slowed, since a
    // refusal here would lock the owner out.
    assert_eq!(statuses, [401; 8]);
    let signed_in = sign_in(email, TEST_PASSWORD, "192.0.2.45")
        .send(&app)
        .await
        .expect(204);
    assert!(signed_in.header("set-cookie").is_some());
    // An e-mail that failed past the strict limit is checked only after a delay that grows
    // with its failures, up to the ceiling, past the e-mail's window too.
    let other = harness::new_user(&store, Plan::Free, 0, 0).await;
    // The throttle alone, which says the delay without waiting it: the default ceiling.
    let limits = RateLimits {
        login_max_delay: RateLimits::default().login_max_delay,
        ..limits
    };
    let throttle = LoginThrottle::new(store.as_ref(), &limits);
    let mut delays = Vec::new();
    for address in ["192.0.2.51", "192.0.2.52", "192.0.2.53", "192.0.2.54"] {
        for _ in 0..2 {
            match throttle
                .begin(other.email.as_str(), Some(address), Utc::now())
                .await
                .unwrap()
            {
                LoginAdmission::Admitted(attempt) => {
                    delays.push(attempt.delay);
                    attempt.failed();
                }
                refused => panic!("{refused:?}"),
            }
        }
    }
    assert_eq!(delays[..2], [Duration::ZERO, Duration::ZERO]);
    assert!(
        Duration::ZERO < delays[2] && delays[2] < delays[3],
        "{delays:?}"
    );
    assert_eq!(delays[5..], [limits.login_max_delay; 3]);
}

#[tokio::test]
async fn addresses_of_one_network_count_together_and_never_refuse_another_network() {
    let app = account_with(RateLimits {
        login_per_network: 6,
        login_max_delay: Duration::from_millis(1),
        ..RateLimits::default()
    })
    .await;
    let store = harness::store().await;
    let user = harness::new_user(&store, Plan::Free, 0, 0).await;
    let email = user.email.as_str();
    let mut statuses = Vec::new();
    for host in 1..=4 {
        for _ in 0..2 {
            let address = format!("198.51.100.{host}");
            statuses.push(sign_in(email, "wrong", &address).send(&app).await.status);
        }
    }
    // One host with many addresses of a /24 meets the network's limit after six failures,
    // the right password from a fresh address of that network included.
    assert_eq!(statuses, [401, 401, 401, 401, 401, 401, 429, 429]);
    sign_in(email, TEST_PASSWORD, "198.51.100.77")
        .send(&app)
        .await
        .expect(429);
    // The owner elsewhere is untouched.
    sign_in(email, TEST_PASSWORD, "203.0.113.9")
        .send(&app)
        .await
        .expect(204);
    // IPv6: addresses of one /64 are one host.
    let mut statuses = Vec::new();
    for host in 1..=7 {
        let address = format!("2001:db8:5:6::{host:x}");
        statuses.push(sign_in(email, "wrong", &address).send(&app).await.status);
    }
    assert_eq!(statuses, [401, 401, 401, 401, 401, 401, 429]);
    sign_in(email, TEST_PASSWORD, "2001:db8:5:7::1")
        .send(&app)
        .await
        .expect(204);
}

#[tokio::test]
async fn no_span_of_a_minute_admits_more_than_the_limit_across_a_minute_boundary() {
    // A fixed window admits `limit` at the end of one minute and again at the start of the
    // next; a sliding one admits none of the second burst.
    let store = harness::store().await;
    let subject = format!("TEST#{}", uuid::Uuid::new_v4());
    let window = SlidingWindow::new(50, 60);
    let minute = 1_800_000_000_i64; // the start of a minute (30,000,000 × 60)
    let end_of_minute = Utc.timestamp_opt(minute + 59, 0).unwrap();
    let start_of_next = Utc.timestamp_opt(minute + 60, 0).unwrap();
    let mut admitted = 0;
    for _ in 0..50 {
        let (_, held) = window
            .admit(store.as_ref(), &subject, end_of_minute)
            .await
            .unwrap();
        admitted += usize::from(held.is_some());
    }
    assert_eq!(admitted, 50);
    let (refused, held) = window
        .admit(store.as_ref(), &subject, start_of_next)
        .await
        .unwrap();
    assert!(held.is_none() && refused.exceeded);
    assert_eq!(refused.remaining, 0);
    // The burst leaves the window 61 s after its second began: not before.
    assert_eq!(refused.reset_secs, 60);
    let (almost, held) = window
        .admit(
            store.as_ref(),
            &subject,
            Utc.timestamp_opt(minute + 119, 0).unwrap(),
        )
        .await
        .unwrap();
    assert!(held.is_none() && almost.exceeded);
    let (later, held) = window
        .admit(
            store.as_ref(),
            &subject,
            Utc.timestamp_opt(minute + 120, 0).unwrap(),
        )
        .await
        .unwrap();
    assert!(held.is_some() && !later.exceeded);
    assert_eq!(later.remaining, 49);
    // The item stays small: once 15 buckets the window no longer counts have piled up (20
    // seconds with a request each, then a silence), the next request drops them.
    for second in 200..220 {
        window
            .admit(
                store.as_ref(),
                &subject,
                Utc.timestamp_opt(minute + second, 0).unwrap(),
            )
            .await
            .unwrap();
    }
    let after_silence = Utc.timestamp_opt(minute + 10_000, 0).unwrap();
    window
        .admit(store.as_ref(), &subject, after_silence)
        .await
        .unwrap();
    let kept = store.buckets(&subject).await.unwrap();
    assert_eq!(kept.len(), 1, "{kept:?}");
}

#[tokio::test]
async fn concurrent_requests_never_pass_the_limit_together() {
    let store = harness::store().await;
    let subject = format!("TEST#{}", uuid::Uuid::new_v4());
    let window = SlidingWindow::new(10, 60);
    let now = Utc::now();
    let outcomes = futures_util::future::join_all(
        (0..30).map(|_| window.admit(store.as_ref(), &subject, now)),
    )
    .await;
    let admitted = outcomes
        .into_iter()
        .filter(|outcome| outcome.as_ref().unwrap().1.is_some())
        .count();
    assert_eq!(admitted, 10);
    // What was refused was taken back: exactly what was admitted is held.
    let held = window.held(store.as_ref(), &subject, now).await.unwrap();
    assert_eq!(held, admitted as u64);
}

#[tokio::test]
async fn anonymous_reads_are_limited_per_address() {
    let mut config = harness::config();
    config.limits = RateLimits {
        anonymous_per_minute: 3,
        ..RateLimits::default()
    };
    let app = kr_results::router(
        kr_results::ResultsState::from_config(config, harness::resources()).await,
    );
    let address = "198.51.100.7";
    let path = format!("/api/v1/jobs/{}/keywords", uuid::Uuid::new_v4());
    let mut remaining = Vec::new();
    for _ in 0..3 {
        let reply = Call::get(&path)
            .from_address(address)
            .send(&app)
            .await
            .expect(404);
        remaining.push(reply.header("ratelimit-remaining").unwrap().to_string());
    }
    assert_eq!(remaining, ["2", "1", "0"]);
    let refused = Call::get(&path)
        .from_address(address)
        .send(&app)
        .await
        .expect(429);
    assert!(refused.header("retry-after").is_some());
    // Another address is not affected.
    Call::get(&path)
        .from_address("198.51.100.250")
        .send(&app)
        .await
        .expect(404);
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
