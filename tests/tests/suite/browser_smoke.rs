//! The browser harness drives a real headless Chromium: pages load, forms take typing, links
//! navigate, dialogs are answered, and screenshots are PNGs, at desktop and phone widths.

use std::net::SocketAddr;
use std::time::Duration;

use axum::response::Html;
use axum::routing::get;
use axum::Router;
use kr_tests::browser::Browser;
use serde_json::json;

const WAIT: Duration = Duration::from_secs(10);
const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

const HOME: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Smoke home</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body>
  <h1>Keyword research</h1>
  <form action="/next" method="get">
    <label>Seed keyword <input id="seed" name="seed" value="placeholder"></label>
    <button type="submit">Research</button>
  </form>
  <a id="next" href="/next?from=link">Next page</a>
</body></html>"#;

const NEXT: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Smoke next</title></head>
<body><h1 id="heading">Arrived</h1></body></html>"#;

const CONFIRM: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Smoke confirm</title></head>
<body>
  <button id="delete" onclick="document.getElementById('outcome').textContent =
    confirm('Delete this project?') ? 'deleted' : 'kept'">Delete</button>
  <p id="outcome">untouched</p>
</body></html>"#;

async fn serve() -> SocketAddr {
    let app = Router::new()
        .route("/", get(|| async { Html(HOME) }))
        .route("/next", get(|| async { Html(NEXT) }))
        .route("/confirm", get(|| async { Html(CONFIRM) }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    address
}

/// The PNG's width in pixels, from its IHDR chunk.
fn png_width(png: &[u8]) -> u32 {
    u32::from_be_bytes(png[16..20].try_into().unwrap())
}

fn read_png(path: &std::path::Path) -> Vec<u8> {
    let png = std::fs::read(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    assert!(
        png.starts_with(PNG_SIGNATURE),
        "{} is not a PNG",
        path.display()
    );
    png
}

#[tokio::test]
async fn a_headless_chromium_loads_fills_navigates_and_screenshots() {
    let base = format!("http://{}", serve().await);
    let browser = Browser::start().await.expect("starting the browser");

    browser.goto(&format!("{base}/")).await.unwrap();
    assert_eq!(browser.title().await.unwrap(), "Smoke home");
    assert_eq!(browser.text("h1").await.unwrap(), "Keyword research");

    browser.fill("#seed", "running shoes").await.unwrap();
    assert_eq!(browser.value("#seed").await.unwrap(), "running shoes");
    assert_eq!(
        browser
            .attribute("#seed", "value")
            .await
            .unwrap()
            .as_deref(),
        Some("placeholder"),
        "the attribute is the page's, not what was typed"
    );

    browser.click("#next").await.unwrap();
    let url = browser
        .wait_for_url(|url| url.ends_with("/next?from=link"), WAIT)
        .await
        .unwrap();
    assert!(url.starts_with(&base), "{url}");
    browser.wait_for("#heading", WAIT).await.unwrap();
    assert_eq!(browser.title().await.unwrap(), "Smoke next");

    let desktop = browser.screenshot("browser_smoke_desktop").await.unwrap();
    assert!(desktop.ends_with("target/screenshots/browser_smoke_desktop.png"));
    let png = read_png(&desktop);
    assert_eq!(png_width(&png), 1280, "the window is 1280 px wide");

    // The form submits too, with what was typed.
    browser.back().await.unwrap();
    browser.wait_for("#seed", WAIT).await.unwrap();
    browser.fill("#seed", "trail shoes").await.unwrap();
    browser.click("button[type=submit]").await.unwrap();
    browser
        .wait_for_url(|url| url.contains("seed=trail+shoes"), WAIT)
        .await
        .unwrap();

    browser.set_size(375, 812).await.unwrap();
    let inner_width = browser
        .execute("return window.innerWidth;", vec![])
        .await
        .unwrap();
    assert_eq!(inner_width, json!(375));
    let phone = browser.screenshot("browser_smoke_phone").await.unwrap();
    assert_eq!(png_width(&read_png(&phone)), 375);

    browser.goto(&format!("{base}/confirm")).await.unwrap();
    browser.click("#delete").await.unwrap();
    assert_eq!(
        browser.dismiss_dialog().await.unwrap(),
        "Delete this project?"
    );
    browser
        .wait_until_text("#outcome", "kept", WAIT)
        .await
        .unwrap();
    browser.click("#delete").await.unwrap();
    browser.accept_dialog().await.unwrap();
    browser
        .wait_until_text("#outcome", |text: &str| text == "deleted", WAIT)
        .await
        .unwrap();

    browser.quit().await.unwrap();
}
