//! Agency branding: the account API sets a name and uploads a logo; every hostile upload is
//! refused naming `logo` (or 413) and changes nothing; a shared page shows the name and the
//! logo, served from our own origin through the link only (a link that does not work, or an
//! owner without a logo, is a plain 404), and the name is text, never markup. The same from
//! the dashboard's Settings → Branding page, whose logo is an ordinary file upload.

use kr_account::{router as account_router, AccountState};
use kr_core::domain::SharedTab;
use kr_core::store::BrandingStore;
use kr_tests::harness::{self, Call, Reply, PIXEL_PNG};
use serde_json::json;

use super::plan_tab::{dataset, job_with};
use super::share_page::link_to;

const ORIGIN: &str = "https://app.keyword-research.test";
const BRANDING: &str = "/api/v1/users/me/branding";
const LOGO: &str = "/api/v1/users/me/branding/logo";

async fn account() -> axum::Router {
    account_router(AccountState::from_config(harness::config(), harness::resources()).await)
}

async fn upload(app: &axum::Router, key: &str, content_type: &str, bytes: Vec<u8>) -> Reply {
    Call::put(LOGO)
        .api_key(key)
        .header("content-type", content_type)
        .raw_body(bytes)
        .send(app)
        .await
}

fn refused_field(reply: &Reply) -> Vec<String> {
    reply.json["details"]["fields"]
        .as_array()
        .map(|fields| {
            fields
                .iter()
                .map(|f| f["field"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn a_name_and_a_logo_are_set_and_hostile_uploads_change_nothing() {
    let app = account().await;
    let store = harness::store().await;
    let (_, key) = harness::user_with_key(&store, 1, 1).await;
    let empty = Call::get(BRANDING)
        .api_key(&key)
        .send(&app)
        .await
        .expect(200);
    assert_eq!(
        empty.json,
        json!({"branding": {"name": null, "logo": null}})
    );

    let named = Call::patch(BRANDING)
        .api_key(&key)
        .json(json!({"name": "  Northwind SEO "}))
        .send(&app)
        .await
        .expect(200);
    assert_eq!(named.json["branding"]["name"], "Northwind SEO");
    for bad in [
        json!({}),
        json!({"name": ""}),
        json!({"name": 3}),
        json!({"name": "x".repeat(81)}),
    ] {
        let refused = Call::patch(BRANDING)
            .api_key(&key)
            .json(bad.clone())
            .send(&app)
            .await
            .expect(400);
        assert_eq!(refused_field(&refused), ["name"], "{bad}");
    }

    let stored = upload(&app, &key, "image/png", PIXEL_PNG.to_vec())
        .await
        .expect(200);
    let logo = &stored.json["branding"]["logo"];
    assert_eq!(
        (logo["contentType"].as_str(), logo["width"].as_u64()),
        (Some("image/png"), Some(1))
    );

    let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>"#.to_vec();
    let mut polyglot = PIXEL_PNG.to_vec();
    polyglot.extend_from_slice(b"<html><script>alert(1)</script></html>");
    let mut huge = PIXEL_PNG.to_vec();
    huge[16..20].copy_from_slice(&60_000u32.to_be_bytes());
    for (content_type, bytes, why) in [
        ("image/svg+xml", svg.clone(), "SVG declared"),
        ("image/png", svg, "SVG sent as a PNG"),
        ("image/png", polyglot, "an HTML page after the PNG"),
        ("image/png", PIXEL_PNG[..30].to_vec(), "cut short"),
        ("image/jpeg", PIXEL_PNG.to_vec(), "a PNG sent as a JPEG"),
        ("text/html", b"<script>alert(1)</script>".to_vec(), "a page"),
        ("image/png", huge, "60,000 pixels a side"),
        ("image/png", Vec::new(), "empty"),
    ] {
        let refused = upload(&app, &key, content_type, bytes).await.expect(400);
        assert_eq!(refused_field(&refused), ["logo"], "{why}: {}", refused.text);
    }
    let too_big = upload(&app, &key, "image/png", vec![0u8; 100 * 1024 + 1]).await;
    assert_eq!(too_big.status, 413, "{}", too_big.text);
    assert_eq!(too_big.json["code"], "payload_too_large");

    let after = Call::get(BRANDING)
        .api_key(&key)
        .send(&app)
        .await
        .expect(200);
    assert_eq!(
        after.json["branding"]["logo"], *logo,
        "nothing refused replaced the logo"
    );
    Call::delete(LOGO)
        .api_key(&key)
        .send(&app)
        .await
        .expect(204);
    Call::delete(LOGO)
        .api_key(&key)
        .send(&app)
        .await
        .expect(404);
    Call::get(BRANDING).send(&app).await.expect(401);
}

#[tokio::test]
async fn a_shared_page_shows_the_agency_and_serves_its_logo_through_the_link_only() {
    let (web, job, cookie) = job_with(dataset).await;
    let app = account().await;
    // The owner, signed in to the dashboard, names the agency (markup in it stays text).
    Call::patch(BRANDING)
        .header("cookie", &cookie)
        .header("origin", ORIGIN)
        .json(json!({"name": "Northwind <b>SEO</b>"}))
        .send(&app)
        .await
        .expect(200);
    let token = link_to(&job, &[SharedTab::Keywords]).await;
    let page_path = format!("/share/{}", token.expose());
    let logo_path = format!("{page_path}/logo");

    let page = Call::get(&page_path).send(&web).await.expect(200);
    assert!(
        page.text.contains("Northwind &lt;b&gt;SEO&lt;/b&gt;"),
        "{}",
        page.text
    );
    assert!(!page.text.contains("<b>SEO</b>"));
    assert!(!page.text.contains("brand-logo"), "no logo yet");
    assert_eq!(Call::get(&logo_path).send(&web).await.status, 404);

    Call::put(LOGO)
        .header("cookie", &cookie)
        .header("origin", ORIGIN)
        .header("content-type", "image/png")
        .raw_body(PIXEL_PNG.to_vec())
        .send(&app)
        .await
        .expect(200);
    let page = Call::get(&page_path).send(&web).await.expect(200);
    let src = format!("src=\"{logo_path}?v=");
    assert!(
        page.text.contains(&src),
        "served from our origin: {}",
        page.text
    );
    let image = Call::get(&logo_path).send(&web).await.expect(200);
    assert_eq!(image.header("content-type"), Some("image/png"));
    assert_eq!(image.header("x-content-type-options"), Some("nosniff"));
    assert!(image
        .header("content-security-policy")
        .is_some_and(|csp| csp.starts_with("default-src 'none'")));
    assert_eq!(image.bytes, PIXEL_PNG);
    // Only through a link that works.
    let stranger = Call::get("/share/not-a-token/logo").send(&web).await;
    assert_eq!(stranger.status, 404);
    assert!(stranger.bytes.is_empty());
}

/// A browser's upload of `file` as the form's `logo` field.
fn logo_form(file: &[u8], content_type: &str) -> (String, Vec<u8>) {
    let boundary = "----kr-logo-form";
    let mut body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"logo\"; filename=\"logo\"\r\n\
         Content-Type: {content_type}\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(file);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

#[tokio::test]
async fn the_settings_page_names_the_agency_and_uploads_and_removes_its_logo() {
    let (web, job, cookie) = job_with(dataset).await;
    let store = harness::store().await;
    let form = |path: &str, origin: &str, content_type: &str, body: Vec<u8>| {
        Call::post(path)
            .header("cookie", &cookie)
            .header("origin", origin)
            .header("content-type", content_type)
            .raw_body(body)
    };
    let urlencoded = "application/x-www-form-urlencoded";
    let page = Call::get("/settings/branding")
        .header("cookie", &cookie)
        .send(&web)
        .await
        .expect(200);
    assert!(page.text.contains(r#"enctype="multipart/form-data""#));
    assert!(page.text.contains(r#"id="no-logo""#));

    let saved = form(
        "/settings/branding",
        ORIGIN,
        urlencoded,
        b"name=Northwind+SEO".to_vec(),
    )
    .send(&web)
    .await
    .expect(303);
    assert_eq!(saved.header("location"), Some("/settings/branding"));
    assert_eq!(
        store.branding(job.owner).await.unwrap().name.as_deref(),
        Some("Northwind SEO")
    );
    let too_long = format!("name={}", "x".repeat(81));
    let refused = form(
        "/settings/branding",
        ORIGIN,
        urlencoded,
        too_long.into_bytes(),
    )
    .send(&web)
    .await;
    assert_eq!(refused.status, 400);
    assert!(
        refused.text.contains("at most 80 characters"),
        "{}",
        refused.text
    );

    let (content_type, body) = logo_form(PIXEL_PNG, "image/png");
    form("/settings/branding/logo", ORIGIN, &content_type, body)
        .send(&web)
        .await
        .expect(303);
    let page = Call::get("/settings/branding")
        .header("cookie", &cookie)
        .send(&web)
        .await
        .expect(200);
    assert!(page.text.contains(r#"src="/settings/branding/logo?v="#));
    let own = Call::get("/settings/branding/logo")
        .header("cookie", &cookie)
        .send(&web)
        .await
        .expect(200);
    assert_eq!(
        (own.header("content-type"), own.bytes.as_slice()),
        (Some("image/png"), PIXEL_PNG)
    );

    // Hostile files and forms from other sites change nothing.
    let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>"#;
    let mut polyglot = PIXEL_PNG.to_vec();
    polyglot.extend_from_slice(b"<html><script>alert(1)</script></html>");
    for (file, declared, status, message) in [
        (
            svg.to_vec(),
            "image/svg+xml",
            400,
            "must be sent as image/png",
        ),
        (svg.to_vec(), "image/png", 400, "is not a PNG, JPEG or WebP"),
        (polyglot, "image/png", 400, "bytes after the image"),
        (vec![0; 100 * 1024 + 1], "image/png", 413, "at most 100 KiB"),
        (vec![0; 300 * 1024], "image/png", 413, "at most 100 KiB"),
    ] {
        let (content_type, body) = logo_form(&file, declared);
        let reply = form("/settings/branding/logo", ORIGIN, &content_type, body)
            .send(&web)
            .await;
        assert_eq!(reply.status, status, "{message}: {}", reply.text);
        assert!(reply.text.contains(message), "{message}: {}", reply.text);
    }
    let (content_type, body) = logo_form(PIXEL_PNG, "image/png");
    for (path, content_type, body) in [
        ("/settings/branding/logo", content_type.as_str(), body),
        ("/settings/branding/logo/delete", urlencoded, Vec::new()),
        ("/settings/branding", urlencoded, b"name=Stolen".to_vec()),
    ] {
        let reply = form(path, "https://evil.example", content_type, body)
            .send(&web)
            .await;
        assert_eq!(reply.status, 403, "{path}");
    }
    let branding = store.branding(job.owner).await.unwrap();
    assert_eq!(branding.name.as_deref(), Some("Northwind SEO"));
    assert_eq!(branding.logo.map(|logo| logo.width), Some(1));

    form(
        "/settings/branding/logo/delete",
        ORIGIN,
        urlencoded,
        Vec::new(),
    )
    .send(&web)
    .await
    .expect(303);
    form("/settings/branding", ORIGIN, urlencoded, b"name=".to_vec())
        .send(&web)
        .await
        .expect(303);
    assert_eq!(
        store.branding(job.owner).await.unwrap(),
        Default::default(),
        "an empty name removes it"
    );
    let gone = Call::get("/settings/branding/logo")
        .header("cookie", &cookie)
        .send(&web)
        .await;
    assert_eq!(gone.status, 404);
    // Signed out: sent to sign in.
    assert_eq!(Call::get("/settings/branding").send(&web).await.status, 303);
}
