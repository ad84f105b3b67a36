//! A job's Search Console tab in Chromium: the owner opens a job with imported Search Console
//! data (the dataset of `dashboard_http::search_console_tab`), sees the import's outcome,
//! opens the tab from the tab bar and finds its three tables; a cluster link opens that
//! cluster's keywords.

use kr_core::domain::Plan;
use kr_tests::browser::Browser;
use kr_tests::gateway::Gateway;
use kr_tests::harness::{self, TEST_PASSWORD};

use super::{js, results_screenshot, SHORT};
use crate::dashboard_http::search_console_tab::{imported, store_job, PROPERTY};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_owner_opens_the_search_console_tab() {
    let store = harness::store().await;
    let user = harness::new_user(&store, Plan::Agency, 1, 1).await;
    let job = store_job(user.id, Some(imported())).await;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    let mut config = harness::config();
    config.allowed_origins.push(base.clone());
    Gateway::with_every_function(config, harness::resources())
        .await
        .serve(listener)
        .await;
    let browser = Browser::start().await.expect("headless Chromium");

    browser.goto(&format!("{base}/login")).await.unwrap();
    browser.fill("#email", user.email.as_str()).await.unwrap();
    browser.fill("#password", TEST_PASSWORD).await.unwrap();
    browser.click("form[action='/login'] button").await.unwrap();
    browser
        .wait_for_url(|url| url.ends_with("/jobs"), SHORT)
        .await
        .unwrap();

    browser
        .goto(&format!("{base}/jobs/{}", job.id))
        .await
        .unwrap();
    let notice = browser.text("#search-console-import").await.unwrap();
    assert!(notice.contains(PROPERTY), "{notice}");
    assert!(notice.contains("imported 12,345 rows"), "{notice}");

    // The tab bar's link opens the tab (in place, with the script).
    browser
        .click("nav.tabs a[href$='?tab=search_console']")
        .await
        .unwrap();
    browser.wait_for("table.sc.striking", SHORT).await.unwrap();
    let counts = js(
        &browser,
        "return ['striking', 'decaying', 'cannibalized'].map(t => document.querySelectorAll(`table.sc.${t} tbody tr`).length);",
    )
    .await;
    assert_eq!(counts, serde_json::json!([3, 2, 2]));
    let current = browser
        .text("nav.tabs a[aria-current='page']")
        .await
        .unwrap();
    assert_eq!(current, "Search Console");
    // The hostile query is text on the page, and no script of its ran.
    let hostile = browser
        .text("table.sc.striking [data-keyword-id='k-hostile']")
        .await
        .unwrap();
    assert_eq!(hostile, "<script>alert('kw')</script> coffee");
    results_screenshot(&browser, "search-console-tab").await;

    // A cluster link opens that cluster's keywords.
    browser
        .click("table.sc.decaying a[data-cluster='espresso']")
        .await
        .unwrap();
    browser
        .wait_for_url(|url| url.contains("tab=keywords&cluster=espresso"), SHORT)
        .await
        .unwrap();
    browser
        .wait_until_text("#keyword-count", "3 keywords", SHORT)
        .await
        .unwrap();
    browser.quit().await.unwrap();
}
