//! The dashboard's HTTP rules, request by request: security headers on every page, the
//! Origin rule on every form that changes something, redirects to sign in, and the API's JSON
//! 404 for unknown paths under the API prefix (where the web function is the catch-all); the
//! content plan tab on a dataset written for it (`plan_tab`) and the keyword table's SERP
//! column (`serp_page`); the page a share link opens and the owner's share page (`share_page`);
//! the sites' preview images from our origin (`preview_images`); Settings → Branding
//! (`branding`); Settings → Search Console and Google's redirect page (`search_console_page`);
//! a job's Search Console tab, import notice and keyword-table figures (`search_console_tab`);
//! a job's AI visibility tab (`ai_visibility_tab`).

use kr_core::domain::Plan;
use kr_core::store::{ApiKeyStore, UserStore};
use kr_tests::harness::{self, Call, TEST_PASSWORD};

pub(crate) mod ai_visibility_tab;
mod branding;
mod brief;
mod plan_tab;
mod preview_images;
mod repeat_page;
mod search_console_page;
pub(crate) mod search_console_tab;
mod serp_page;
mod share_page;

async fn app() -> axum::Router {
    kr_web::router(kr_web::WebState::from_config(harness::config(), harness::resources()).await)
}

/// The session cookie of a signed-in user, through the sign-in form.
async fn session(app: &axum::Router, email: &str) -> String {
    harness::web_session(app, email).await
}

#[tokio::test]
async fn every_page_forbids_inline_script_framing_and_sniffing() {
    let app = app().await;
    for path in ["/login", "/demo", "/no/such/page", "/assets/app.js"] {
        let reply = Call::get(path).send(&app).await;
        let csp = reply.header("content-security-policy").unwrap_or_default();
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
        assert_eq!(
            reply.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
    }
}

#[tokio::test]
async fn forms_from_another_site_change_nothing() {
    let app = app().await;
    let store = harness::store().await;
    let user = harness::new_user(&store, Plan::Agency, 2, 2).await;
    let cookie = session(&app, user.email.as_str()).await;
    let form = |path: &str, body: &str| {
        Call::post(path)
            .header("content-type", "application/x-www-form-urlencoded")
            .header("origin", "https://evil.example")
            .header("cookie", &cookie)
            .raw_body(body.to_string())
    };
    for (path, body) in [
        (
            "/jobs/new",
            "primaryDomain=example.com&languageCode=en&locationCode=2840",
        ),
        ("/settings/api-keys", "name=stolen"),
        ("/logout", ""),
        ("/login", "email=a%40b.example&password=x"),
    ] {
        let reply = form(path, body).send(&app).await;
        assert_eq!(reply.status, 403, "{path}: {}", reply.text);
    }
    let after = store.user(user.id).await.unwrap().unwrap();
    assert_eq!(after.credits_balance, 2, "no job was charged");
    assert!(store.list_api_keys(user.id).await.unwrap().is_empty());
    // The session still works: the cross-site logout did nothing.
    let reply = Call::get("/jobs")
        .header("cookie", &cookie)
        .send(&app)
        .await;
    assert_eq!(reply.status, 200);
}

#[tokio::test]
async fn signed_out_visitors_are_sent_to_sign_in_and_back_only_to_this_site() {
    let app = app().await;
    let reply = Call::get("/jobs/new").send(&app).await;
    assert_eq!(reply.status, 303);
    assert_eq!(reply.header("location"), Some("/login?next=%2Fjobs%2Fnew"));
    let store = harness::store().await;
    let user = harness::new_user(&store, Plan::Free, 1, 1).await;
    let body = serde_urlencoded::to_string([
        ("email", user.email.as_str()),
        ("password", TEST_PASSWORD),
        ("next", "//evil.example/phish"),
    ])
    .unwrap();
    let reply = Call::post("/login")
        .header("content-type", "application/x-www-form-urlencoded")
        .raw_body(body)
        .send(&app)
        .await;
    assert_eq!(reply.header("location"), Some("/jobs"));
}

#[tokio::test]
async fn unknown_api_paths_answer_the_contracts_json_404() {
    let app = app().await;
    let reply = Call::get("/api/v1/nothing-here")
        .send(&app)
        .await
        .expect(404);
    assert_eq!(reply.code(), "not_found");
    let reply = Call::get("/jobs/not-a-job").send(&app).await;
    assert_eq!(reply.status, 404);
    assert!(reply.text.contains("<html"), "a page, not JSON");
}

#[tokio::test]
async fn page_views_past_the_limit_are_refused_per_user_and_per_address() {
    let mut config = harness::config();
    config.limits = kr_core::service::rate_limits::RateLimits {
        free_per_minute: 3,
        anonymous_per_minute: 2,
        ..Default::default()
    };
    let app = kr_web::router(kr_web::WebState::from_config(config, harness::resources()).await);
    let store = harness::store().await;
    let user = harness::new_user(&store, Plan::Free, 2, 2).await;
    let cookie = session(&app, user.email.as_str()).await;
    let mut statuses = Vec::new();
    for _ in 0..4 {
        let reply = Call::get("/jobs")
            .header("cookie", &cookie)
            .send(&app)
            .await;
        statuses.push(reply.status);
        if reply.status == 429 {
            assert!(reply.header("retry-after").is_some());
            assert!(reply.text.contains("Too many requests"), "{}", reply.text);
        }
    }
    assert_eq!(statuses, [200, 200, 200, 429]);
    // A visitor's views count against their address.
    let mut statuses = Vec::new();
    for _ in 0..3 {
        statuses.push(
            Call::get("/login")
                .from_address("203.0.113.9")
                .send(&app)
                .await
                .status,
        );
    }
    assert_eq!(statuses, [200, 200, 429]);
    Call::get("/login")
        .from_address("203.0.113.10")
        .send(&app)
        .await
        .expect(200);
}
