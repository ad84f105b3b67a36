//! The account function against the emulator: authentication matrix, sign-in, API keys.

use axum::Router;
use chrono::{Duration, Utc};
use kr_account::{router, AccountState};
use kr_core::domain::{Plan, SessionToken};
use kr_core::store::{ApiKeyStore, Session, SessionStore, UserStore};
use kr_tests::harness::{self, Call, TEST_PASSWORD};
use serde_json::json;

/// Adds some (bad) credentials to a request.
type WithCredentials = Box<dyn Fn(Call) -> Call>;

const ALLOWED_ORIGIN: &str = "https://app.keyword-research.test";

async fn account() -> Router {
    let mut config = harness::config();
    config.allowed_origins = vec![ALLOWED_ORIGIN.to_string()];
    router(AccountState::from_config(config, harness::resources()).await)
}

async fn log_in(app: &Router, email: &str) -> String {
    let reply = Call::post("/api/v1/auth/login")
        .json(json!({"email": email, "password": TEST_PASSWORD}))
        .send(app)
        .await
        .expect(204);
    let cookie = reply
        .header("set-cookie")
        .expect("a session cookie")
        .to_string();
    for attribute in ["HttpOnly", "Secure", "SameSite=Lax", "Path=/"] {
        assert!(cookie.contains(attribute), "{cookie} lacks {attribute}");
    }
    cookie.split(';').next().unwrap().to_string()
}

#[tokio::test]
async fn users_me_answers_with_either_header_and_a_session() {
    let app = account().await;
    let store = harness::store().await;
    let (user, key) = harness::new_user_with_key(&store).await;

    for call in [
        Call::get("/api/v1/users/me").api_key(key.expose()),
        Call::get("/api/v1/users/me").bearer(key.expose()),
        Call::get("/api/v1/users/me")
            .api_key(key.expose())
            .bearer(key.expose()),
        Call::get("/api/v1/users/me").header("cookie", &log_in(&app, user.email.as_str()).await),
    ] {
        let reply = call.send(&app).await.expect(200);
        assert_eq!(reply.json["id"], user.id.to_string());
        assert_eq!(reply.json["email"], user.email.as_str());
        assert_eq!(reply.json["credits_balance"], 10);
        assert_eq!(reply.json["domains_balance"], 10);
        assert_eq!(reply.json["can_create_api_keys"], true);
    }
}

#[tokio::test]
async fn every_authenticated_endpoint_refuses_bad_credentials_with_401() {
    let app = account().await;
    let store = harness::store().await;
    let (user, key) = harness::new_user_with_key(&store).await;
    let (_, other_key) = harness::new_user_with_key(&store).await;

    let (revoked_user, revoked) = harness::new_user_with_key(&store).await;
    let revoked_id = store.list_api_keys(revoked_user.id).await.unwrap()[0].id;
    assert!(store
        .revoke_api_key(revoked_user.id, revoked_id)
        .await
        .unwrap());
    let expired = SessionToken::generate();
    store
        .create_session(
            &expired.hash(),
            &Session {
                user_id: user.id,
                expires_at: Utc::now() - Duration::seconds(1),
            },
        )
        .await
        .unwrap();
    let logged_out = log_in(&app, user.email.as_str()).await;
    Call::post("/api/v1/auth/logout")
        .header("cookie", &logged_out)
        .send(&app)
        .await
        .expect(204);
    // Another user's valid key is valid credentials, so it is not part of this matrix; the
    // per-user isolation of keys is covered below.
    let _ = other_key;

    let endpoints: [(&str, &str); 4] = [
        ("GET", "/api/v1/users/me"),
        ("GET", "/api/v1/api-keys"),
        ("POST", "/api/v1/api-keys"),
        (
            "DELETE",
            "/api/v1/api-keys/00000000-0000-4000-8000-000000000000",
        ),
    ];
    let bad: Vec<(&str, WithCredentials)> = vec![
        ("no credentials", Box::new(|c| c)),
        (
            "unknown key",
            Box::new(|c: Call| c.api_key(kr_core::domain::ApiKeySecret::generate().expose())),
        ),
        ("malformed key", Box::new(|c: Call| c.bearer("not-a-key"))),
        (
            "revoked key",
            Box::new(move |c: Call| c.api_key(revoked.expose())),
        ),
        (
            "expired session",
            Box::new({
                let cookie = format!("__session={}", expired.expose());
                move |c: Call| c.header("cookie", &cookie)
            }),
        ),
        (
            "logged-out session",
            Box::new({
                let cookie = logged_out.clone();
                move |c: Call| c.header("cookie", &cookie)
            }),
        ),
        (
            "two different keys",
            Box::new({
                let key = key.expose().to_string();
                move |c: Call| {
                    c.api_key(&key)
                        .bearer(kr_core::domain::ApiKeySecret::generate().expose())
                }
            }),
        ),
    ];
    for (method, path) in endpoints {
        for (label, credentials) in &bad {
            let reply = credentials(Call::new(method, path).json(json!({})))
                .send(&app)
                .await;
            assert_eq!(
                reply.status, 401,
                "{method} {path} with {label}: {}",
                reply.text
            );
            assert_eq!(reply.code(), "unauthorized");
        }
    }
}

#[tokio::test]
async fn a_revoked_key_stops_working_at_once_and_keys_are_per_user() {
    let app = account().await;
    let store = harness::store().await;
    let (_, owner_key) = harness::new_user_with_key(&store).await;
    let (_, other_key) = harness::new_user_with_key(&store).await;

    let created = Call::post("/api/v1/api-keys")
        .api_key(owner_key.expose())
        .json(json!({"name": "CI"}))
        .send(&app)
        .await
        .expect(201);
    let new_key = created.json["key"].as_str().unwrap().to_string();
    let new_id = created.json["apiKey"]["id"].as_str().unwrap().to_string();
    assert!(new_key.starts_with("kr_"));
    assert_eq!(created.json["apiKey"]["name"], "CI");
    assert!(new_key.starts_with(created.json["apiKey"]["prefix"].as_str().unwrap()));
    assert!(created.json["apiKey"]["lastUsedAt"].is_null());

    Call::get("/api/v1/users/me")
        .api_key(&new_key)
        .send(&app)
        .await
        .expect(200);
    let listed = Call::get("/api/v1/api-keys")
        .api_key(owner_key.expose())
        .send(&app)
        .await
        .expect(200);
    let keys = listed.json["apiKeys"].as_array().unwrap();
    assert_eq!(keys.len(), 2);
    assert!(
        !listed.text.contains(&new_key),
        "listing must never show a secret"
    );
    let listed_new = keys.iter().find(|k| k["id"] == new_id.as_str()).unwrap();
    assert!(
        listed_new["lastUsedAt"].is_string(),
        "use is recorded: {listed_new}"
    );

    // Another user can neither see nor revoke it.
    let theirs = Call::get("/api/v1/api-keys")
        .api_key(other_key.expose())
        .send(&app)
        .await
        .expect(200);
    assert_eq!(theirs.json["apiKeys"].as_array().unwrap().len(), 1);
    Call::delete(&format!("/api/v1/api-keys/{new_id}"))
        .api_key(other_key.expose())
        .send(&app)
        .await
        .expect(404);
    Call::get("/api/v1/users/me")
        .api_key(&new_key)
        .send(&app)
        .await
        .expect(200);

    Call::delete(&format!("/api/v1/api-keys/{new_id}"))
        .api_key(owner_key.expose())
        .send(&app)
        .await
        .expect(204);
    Call::get("/api/v1/users/me")
        .api_key(&new_key)
        .send(&app)
        .await
        .expect(401);
    Call::delete(&format!("/api/v1/api-keys/{new_id}"))
        .api_key(owner_key.expose())
        .send(&app)
        .await
        .expect(404);
    Call::delete("/api/v1/api-keys/not-a-uuid")
        .api_key(owner_key.expose())
        .send(&app)
        .await
        .expect(404);
}

#[tokio::test]
async fn only_the_agency_plan_creates_keys() {
    let app = account().await;
    let store = harness::store().await;
    let user = harness::new_user(&store, Plan::Pro, 1, 1).await;
    let cookie = log_in(&app, user.email.as_str()).await;
    let me = Call::get("/api/v1/users/me")
        .header("cookie", &cookie)
        .send(&app)
        .await
        .expect(200);
    assert_eq!(me.json["can_create_api_keys"], false);
    let reply = Call::post("/api/v1/api-keys")
        .header("cookie", &cookie)
        .json(json!({"name": "x"}))
        .send(&app)
        .await
        .expect(403);
    assert_eq!(reply.code(), "forbidden");

    store.set_plan(user.id, Plan::Agency).await.unwrap();
    let reply = Call::post("/api/v1/api-keys")
        .header("cookie", &cookie)
        .header("origin", ALLOWED_ORIGIN)
        .json(json!({}))
        .send(&app)
        .await
        .expect(201);
    assert_eq!(reply.json["apiKey"]["name"], "API key");
    let reply = Call::post("/api/v1/api-keys")
        .header("cookie", &cookie)
        .json(json!({"name": ""}))
        .send(&app)
        .await
        .expect(400);
    assert_eq!(reply.invalid_fields(), ["name"]);
}

#[tokio::test]
async fn login_refuses_wrong_credentials_and_bad_bodies() {
    let app = account().await;
    let store = harness::store().await;
    let user = harness::new_user(&store, Plan::Free, 0, 0).await;

    for body in [
        json!({"email": user.email.as_str(), "password": "wrong password"}),
        json!({"email": harness::unique_email(), "password": TEST_PASSWORD}),
    ] {
        let reply = Call::post("/api/v1/auth/login")
            .json(body)
            .send(&app)
            .await
            .expect(401);
        assert!(reply.header("set-cookie").is_none());
    }
    let reply = Call::post("/api/v1/auth/login")
        .json(json!({"password": "x"}))
        .send(&app)
        .await
        .expect(400);
    assert_eq!(reply.invalid_fields(), ["email"]);
    let reply = Call::post("/api/v1/auth/login")
        .json(json!({"email": "a@b.co"}))
        .send(&app)
        .await
        .expect(400);
    assert_eq!(reply.invalid_fields(), ["password"]);
    let reply = Call::post("/api/v1/auth/login")
        .header("content-type", "application/json")
        .raw_body("{not json")
        .send(&app)
        .await
        .expect(400);
    assert_eq!(reply.code(), "validation_failed");
    let huge = json!({"email": "a@b.co", "password": "x".repeat(70 * 1024)});
    let reply = Call::post("/api/v1/auth/login")
        .json(huge)
        .send(&app)
        .await
        .expect(413);
    assert_eq!(reply.code(), "payload_too_large");
    // E-mail addresses are matched without regard to case.
    log_in(&app, &user.email.as_str().to_uppercase()).await;
}

#[tokio::test]
async fn login_takes_only_json_from_allowed_origins() {
    let app = account().await;
    let store = harness::store().await;
    let user = harness::new_user(&store, Plan::Free, 0, 0).await;
    let body = json!({"email": user.email.as_str(), "password": TEST_PASSWORD}).to_string();

    // What a cross-site HTML form can send: no preflight, so no JSON content type.
    for content_type in [
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        Some("multipart/form-data; boundary=x"),
        None,
    ] {
        let mut call = Call::post("/api/v1/auth/login").raw_body(body.clone());
        if let Some(content_type) = content_type {
            call = call.header("content-type", content_type);
        }
        let reply = call.send(&app).await.expect(415);
        assert_eq!(reply.code(), "unsupported_media_type", "{content_type:?}");
        assert!(reply.header("set-cookie").is_none());
    }
    let reply = Call::post("/api/v1/auth/login")
        .header("origin", "https://evil.example.com")
        .json(serde_json::from_str(&body).unwrap())
        .send(&app)
        .await
        .expect(403);
    assert_eq!(reply.code(), "forbidden");
    assert!(reply.header("set-cookie").is_none());

    for content_type in ["application/json; charset=utf-8", "application/ld+json"] {
        Call::post("/api/v1/auth/login")
            .header("origin", "https://app.keyword-research.test")
            .header("content-type", content_type)
            .raw_body(body.clone())
            .send(&app)
            .await
            .expect(204);
    }
}

#[tokio::test]
async fn cookie_requests_from_foreign_origins_are_refused() {
    let app = account().await;
    let store = harness::store().await;
    let user = harness::new_user(&store, Plan::Agency, 1, 1).await;
    let cookie = log_in(&app, user.email.as_str()).await;

    let reply = Call::post("/api/v1/api-keys")
        .header("cookie", &cookie)
        .header("origin", "https://evil.example.com")
        .json(json!({"name": "x"}))
        .send(&app)
        .await
        .expect(403);
    assert_eq!(reply.code(), "forbidden");
    Call::post("/api/v1/auth/logout")
        .header("cookie", &cookie)
        .header("origin", "https://evil.example.com")
        .send(&app)
        .await
        .expect(403);
    // The session survived the refused logout; reads are not subject to the check.
    Call::get("/api/v1/users/me")
        .header("cookie", &cookie)
        .header("origin", "https://evil.example.com")
        .send(&app)
        .await
        .expect(200);
    Call::post("/api/v1/auth/logout")
        .header("cookie", &cookie)
        .header("origin", ALLOWED_ORIGIN)
        .send(&app)
        .await
        .expect(204);
    Call::get("/api/v1/users/me")
        .header("cookie", &cookie)
        .send(&app)
        .await
        .expect(401);
}

#[tokio::test]
async fn a_removed_user_makes_its_credentials_invalid() {
    let app = account().await;
    let store = harness::store().await;
    let (user, key) = harness::new_user_with_key(&store).await;
    assert!(store.user(user.id).await.unwrap().is_some());
    harness::delete_profile(&store, user.id).await;
    Call::get("/api/v1/users/me")
        .api_key(key.expose())
        .send(&app)
        .await
        .expect(401);
}

#[tokio::test]
async fn unknown_paths_and_wrong_methods_answer_json() {
    let app = account().await;
    let reply = Call::get("/api/v1/nope").send(&app).await.expect(404);
    assert_eq!(reply.code(), "not_found");
    let reply = Call::new("PUT", "/api/v1/users/me")
        .send(&app)
        .await
        .expect(405);
    assert_eq!(reply.code(), "method_not_allowed");
}
