//! Settings → Search Console in Chromium, against the Google mock: a user signs in, connects
//! (the API's consent URL, the mock's consent page, its Allow button, the dashboard's callback
//! page posting the code to the API), sees the Google account and its properties, and
//! disconnects (revoked at Google); Deny on the consent page is told, and nothing connects.

use kr_core::domain::Plan;
use kr_core::store::SearchConsoleStore;
use kr_http::routes::Function;
use kr_integrations::IntegrationsState;
use kr_tests::browser::Browser;
use kr_tests::gateway::Gateway;
use kr_tests::google_mock::{GoogleMockConfig, MockGoogle};
use kr_tests::harness::{self, TEST_PASSWORD};
use serde_json::Value;

use super::SHORT;

const PAGE: &str = "/settings/search-console";

/// The properties of the mock's account on the sample sites, with their permission in words.
const SAMPLE_PROPERTIES: [(&str, &str); 3] = [
    ("sc-domain:brightbrew-coffee.com", "Owner"),
    ("https://ridgeline-roofing.com/", "Full user"),
    ("https://ironclad-roofers.com/", "Restricted user"),
];

/// Opens the consent page from the settings page's button and presses `button` on it.
async fn consent(browser: &Browser, google: &MockGoogle, button: &str) {
    browser.click("[data-sc-connect]").await.unwrap();
    let mock = google.base_url();
    browser
        .wait_for_url(|url| url.starts_with(&mock), SHORT)
        .await
        .unwrap();
    browser.click(button).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_user_connects_and_disconnects_search_console() {
    let google = MockGoogle::start(GoogleMockConfig::default())
        .await
        .expect("the Google mock starts");
    let store = harness::store().await;
    let user = harness::new_user(&store, Plan::Agency, 5, 5).await;

    // Every function on one port, the integrations function's Google being the mock.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    let mut config = harness::config();
    let resources = harness::resources();
    config.allowed_origins.push(base.clone());
    let integrations =
        IntegrationsState::with_google(config.clone(), resources.clone(), google.settings()).await;
    Gateway::with_every_function(config, resources)
        .await
        .with_router(
            Function::Integrations,
            kr_integrations::router(integrations),
        )
        .serve(listener)
        .await;
    let browser = Browser::start().await.expect("headless Chromium");

    // Signed out, the page sends to sign in and comes back after.
    browser.goto(&format!("{base}{PAGE}")).await.unwrap();
    browser
        .wait_for_url(|url| url.contains("/login?next="), SHORT)
        .await
        .unwrap();
    browser.fill("#email", user.email.as_str()).await.unwrap();
    browser.fill("#password", TEST_PASSWORD).await.unwrap();
    browser
        .click("form[action^='/login'] button")
        .await
        .unwrap();
    browser
        .wait_for_url(|url| url.ends_with(PAGE), SHORT)
        .await
        .unwrap();

    // Not connected: what connecting grants and does, and the button; the third settings tab.
    assert_eq!(
        browser
            .text("nav.settings-tabs a[aria-current=page]")
            .await
            .unwrap(),
        "Search Console"
    );
    let explanation = browser.text("#sc-not-connected").await.unwrap();
    for expected in [
        "not connected",
        "read-only",
        "clicks, impressions and average positions",
    ] {
        assert!(
            explanation.contains(expected),
            "{expected:?} not in {explanation}"
        );
    }
    browser
        .wait_for("#sc-not-connected [data-sc-connect]", SHORT)
        .await
        .unwrap();
    browser
        .screenshot("search-console-not-connected")
        .await
        .unwrap();

    // Deny on Google's consent page: the callback page says so, and nothing is connected.
    consent(&browser, &google, "#deny").await;
    browser
        .wait_for_url(
            |url| url.contains("/settings/search-console/callback?"),
            SHORT,
        )
        .await
        .unwrap();
    let declined = browser.text("#sc-declined").await.unwrap();
    assert!(declined.contains("declined"), "{declined}");
    browser.screenshot("search-console-declined").await.unwrap();
    assert_eq!(google.stats().consents_denied, 1);
    assert!(store.connection(user.id).await.unwrap().is_none());
    browser
        .click("a[href='/settings/search-console']")
        .await
        .unwrap();
    browser.wait_for("#sc-not-connected", SHORT).await.unwrap();

    // Allow: back through the callback page to the settings page, connected.
    consent(&browser, &google, "#allow").await;
    browser
        .wait_for_url(
            |url| url.ends_with("/settings/search-console?connected=1"),
            SHORT,
        )
        .await
        .unwrap();
    browser.wait_for("#sc-just-connected", SHORT).await.unwrap();
    assert_eq!(browser.text("#sc-email").await.unwrap(), google.email());
    let rows: Value = browser
        .execute(
            "return Array.from(document.querySelectorAll('#sc-properties tbody tr')).map(r => [r.getAttribute('data-site-url'), r.querySelector('td').textContent]);",
            Vec::new(),
        )
        .await
        .unwrap();
    for (site_url, words) in SAMPLE_PROPERTIES {
        assert!(
            rows.as_array()
                .unwrap()
                .contains(&serde_json::json!([site_url, words])),
            "{site_url} ({words}) not in {rows}"
        );
    }
    assert!(browser.find("#sc-lapsed").await.is_err(), "not lapsed");
    browser
        .wait_for("#sc-connected [data-sc-disconnect]", SHORT)
        .await
        .unwrap();
    browser
        .screenshot("search-console-connected")
        .await
        .unwrap();
    let stored = store.connection(user.id).await.unwrap().expect("connected");
    assert_eq!(stored.email, google.email());

    // Disconnect, after confirming: revoked at Google, and the page says not connected.
    browser.click("[data-sc-disconnect]").await.unwrap();
    let question = browser.accept_dialog().await.unwrap();
    assert!(question.contains("Disconnect"), "{question}");
    browser.wait_for("#sc-not-connected", SHORT).await.unwrap();
    assert_eq!(
        browser.current_url().await.unwrap(),
        format!("{base}{PAGE}")
    );
    let stats: Value = reqwest::get(format!("{}/__mock/stats", google.base_url()))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(stats["revocations"], 1, "{stats}");
    assert!(store.connection(user.id).await.unwrap().is_none());

    // A callback the API refuses (no flow began with this state): its message, and the way back.
    browser
        .goto(&format!(
            "{base}/settings/search-console/callback?code=4%2F0bogus&state=not-a-state"
        ))
        .await
        .unwrap();
    let refused = browser
        .wait_until_text("[data-sc-error]", "Start again", SHORT)
        .await
        .unwrap();
    assert!(refused.contains("state does not match"), "{refused}");
    browser.wait_for("[data-sc-back] a", SHORT).await.unwrap();
    assert!(store.connection(user.id).await.unwrap().is_none());

    // What a link puts in `?error=` is shown as text, never as markup.
    browser
        .goto(&format!(
            "{base}{PAGE}?error=%3Cb%20id%3Dinjected%3Eboom%3C%2Fb%3E"
        ))
        .await
        .unwrap();
    assert_eq!(
        browser.text("#sc-problem").await.unwrap(),
        "<b id=injected>boom</b>"
    );
    assert!(browser.find("#injected").await.is_err());
    browser.quit().await.unwrap();
}
