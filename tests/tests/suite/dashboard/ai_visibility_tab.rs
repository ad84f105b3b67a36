//! A job's AI visibility tab in Chromium: the owner opens a job with AI Overviews and answers
//! (the dataset and answers of `dashboard_http::ai_visibility_tab`) from the tab bar and sees
//! the share-of-voice chart, the cluster to earn a citation in, the keywords' overviews and
//! the answers, the hostile answer as text; the cluster's link opens its keywords whose
//! overview cites a competitor.

use kr_core::domain::Plan;
use kr_tests::browser::Browser;
use kr_tests::gateway::Gateway;
use kr_tests::harness::{self, TEST_PASSWORD};

use super::{js, results_screenshot, SHORT};
use crate::dashboard_http::ai_visibility_tab::{store_job, HOSTILE_ANSWER};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_owner_opens_the_ai_visibility_tab() {
    let store = harness::store().await;
    let user = harness::new_user(&store, Plan::Agency, 1, 1).await;
    let job = store_job(user.id, true).await;

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

    // The tab bar's link opens the tab (in place, with the script).
    browser
        .click("nav.tabs a[href$='?tab=ai_visibility']")
        .await
        .unwrap();
    browser.wait_for("svg.share-of-voice", SHORT).await.unwrap();
    let current = browser
        .text("nav.tabs a[aria-current='page']")
        .await
        .unwrap();
    assert_eq!(current, "AI visibility");
    let shown = js(
        &browser,
        "return [
            document.querySelectorAll('svg.share-of-voice rect.sov-bar').length,
            Array.from(document.querySelectorAll('svg.share-of-voice rect.sov-bar')).map(r => Math.round(r.getBBox().width)),
            document.querySelectorAll('[data-earn-cluster]').length,
            document.querySelectorAll('[data-ai-keyword]').length,
            document.querySelectorAll('article.ai-answer').length,
            document.querySelectorAll('.ai-answer script, .ai-answer img, .ai-answer b').length,
        ];",
    )
    .await;
    // 1, 2 and 1 of 3 overviews: a third, two thirds and a third of the 384-unit plot.
    assert_eq!(
        shown,
        serde_json::json!([3, [128, 256, 128], 1, 3, 2, 0]),
        "bars, their lengths, clusters to earn, keywords, answers, elements from an answer"
    );
    let hostile = browser
        .text("article.ai-answer[data-engine='chat_gpt'] blockquote.answer-text")
        .await
        .unwrap();
    assert_eq!(hostile, HOSTILE_ANSWER);
    results_screenshot(&browser, "ai-visibility-tab").await;

    // The cluster to earn a citation in opens its keywords whose overview cites a competitor.
    browser
        .click("[data-earn-cluster='cold-brew'] a[data-cluster='cold-brew']")
        .await
        .unwrap();
    browser
        .wait_for_url(
            |url| url.contains("tab=keywords&cluster=cold-brew&aiOverview=cites_competitor"),
            SHORT,
        )
        .await
        .unwrap();
    browser
        .wait_until_text("#keyword-count", "2 keywords", SHORT)
        .await
        .unwrap();
    browser.quit().await.unwrap();
}
