//! Settings → Search Console and Google's redirect page, request by request: signed-in only,
//! the stored connection shown with everything from Google or a link as text (a hostile
//! e-mail, lapse reason, `?error=` and callback parameters included), and the callback page
//! carrying the code and state to its script, or telling a refusal without calling anything.

use chrono::Utc;
use kr_core::domain::{PermissionLevel, Plan, PropertyUrl, SearchConsoleProperty};
use kr_core::service::search_console::CredentialKey;
use kr_core::store::{SearchConsoleConnection, SearchConsoleStore};
use kr_tests::harness::{self, Call};

use super::{app, session};

const PAGE: &str = "/settings/search-console";
const CALLBACK: &str = "/settings/search-console/callback";

#[tokio::test]
async fn the_pages_are_for_signed_in_users() {
    let app = app().await;
    for path in [PAGE, &format!("{CALLBACK}?code=c&state=s")] {
        let reply = Call::get(path).send(&app).await;
        assert_eq!(reply.status, 303, "{path}: {}", reply.text);
        let location = reply.header("location").unwrap_or_default();
        assert!(
            location.starts_with("/login?next=%2Fsettings%2Fsearch-console"),
            "{path}: {location}"
        );
    }
}

#[tokio::test]
async fn the_connection_is_shown_as_text() {
    let app = app().await;
    let store = harness::store().await;
    let user = harness::new_user(&store, Plan::Agency, 1, 1).await;
    let cookie = session(&app, user.email.as_str()).await;
    let get = |path: String| Call::get(&path).header("cookie", &cookie);

    // Not connected: the explanation, the button the script shows, and why it needs a script.
    let page = get(PAGE.to_string()).send(&app).await.expect(200);
    assert!(
        page.text.contains(r#"id="sc-not-connected""#),
        "{}",
        page.text
    );
    assert!(page.text.contains("Connect Search Console"));
    assert!(page.text.contains("read-only"));
    assert!(page.text.contains("<noscript>"));
    assert!(page
        .text
        .contains(r#"data-search-console="/api/v1/integrations/search-console""#));
    assert!(page
        .text
        .contains(r#"href="/settings/search-console" aria-current="page""#));
    assert!(
        !page.text.contains("sc-just-connected"),
        "not connected, so no notice"
    );

    // Connected, its grant lapsed, with text from Google that would be markup.
    let key = CredentialKey::from_secret(&[7u8; 32]).unwrap();
    let now = Utc::now();
    store
        .put_connection(&SearchConsoleConnection {
            owner: user.id,
            email: "<script>alert(1)</script>@evil.test".into(),
            credential: key.seal(user.id, b"not a real grant"),
            properties: vec![
                SearchConsoleProperty {
                    site_url: PropertyUrl::parse("sc-domain:example.com").unwrap(),
                    permission_level: PermissionLevel::SiteOwner,
                },
                SearchConsoleProperty {
                    site_url: PropertyUrl::parse("https://www.example.com/").unwrap(),
                    permission_level: PermissionLevel::SiteUnverifiedUser,
                },
            ],
            connected_at: now,
            checked_at: now,
            lapsed: Some("invalid_grant <img src=x onerror=alert(2)>".into()),
        })
        .await
        .unwrap();
    let page = get(format!("{PAGE}?connected=1&error=%3Cb%3Eboom%3C%2Fb%3E"))
        .send(&app)
        .await
        .expect(200);
    let html = &page.text;
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt;@evil.test"),
        "{html}"
    );
    assert!(!html.contains("<script>alert(1)"));
    assert!(html
        .contains("Google refused the grant: invalid_grant &lt;img src=x onerror=alert(2)&gt;."));
    assert!(!html.contains("<img src=x"));
    assert!(html.contains("&lt;b&gt;boom&lt;/b&gt;"));
    assert!(!html.contains("<b>boom"));
    assert!(html.contains(r#"id="sc-just-connected""#));
    assert!(html.contains("Connect again."));
    for expected in [
        "sc-domain:example.com",
        "Owner",
        "https://www.example.com/",
        "Unverified (no data can be read)",
        "Reconnect",
        "Disconnect",
    ] {
        assert!(html.contains(expected), "{expected:?} not in {html}");
    }
    store.delete_connection(user.id).await.unwrap();
}

#[tokio::test]
async fn a_service_account_connection_asks_for_its_address_to_be_added() {
    let app = app().await;
    let store = harness::store().await;
    let user = harness::new_user(&store, Plan::Agency, 1, 1).await;
    let cookie = session(&app, user.email.as_str()).await;
    let page = Call::get(PAGE)
        .header("cookie", &cookie)
        .send(&app)
        .await
        .expect(200);
    // The upload form, shown by the script, in both states.
    assert!(page.text.contains(
        r#"data-sc-service-account="/api/v1/integrations/search-console/service-account""#
    ));
    assert!(page.text.contains("Upload a service-account key"));

    let key = CredentialKey::from_secret(&[7u8; 32]).unwrap();
    let now = Utc::now();
    let robot = "reader@agency-project.iam.gserviceaccount.com";
    store
        .put_connection(&SearchConsoleConnection {
            owner: user.id,
            email: robot.into(),
            credential: key.seal(user.id, b"not a real key"),
            properties: Vec::new(),
            connected_at: now,
            checked_at: now,
            lapsed: None,
        })
        .await
        .unwrap();
    let page = Call::get(PAGE)
        .header("cookie", &cookie)
        .send(&app)
        .await
        .expect(200);
    let html = &page.text;
    assert!(html.contains("Service account"), "{html}");
    assert!(html.contains(r#"data-kind="serviceAccount""#), "{html}");
    assert!(html.contains("Add this address as a user of the property in Search Console"));
    assert!(html.contains(robot));
    assert!(html.contains("Upload a service-account key"));
    store.delete_connection(user.id).await.unwrap();
}

#[tokio::test]
async fn the_callback_page_carries_googles_answer_to_its_script() {
    let app = app().await;
    let store = harness::store().await;
    let user = harness::new_user(&store, Plan::Agency, 1, 1).await;
    let cookie = session(&app, user.email.as_str()).await;
    let get = |path: String| Call::get(&path).header("cookie", &cookie);

    // A code and state as attributes (escaped), for the script; a noscript for the rest.
    let page = get(format!("{CALLBACK}?code=4%2F0%22%3E%3Cx&state=st%27ate"))
        .send(&app)
        .await
        .expect(200);
    let html = &page.text;
    assert!(html.contains("Finishing the connection…"), "{html}");
    assert!(html.contains(r#"data-sc-callback="/api/v1/integrations/search-console/callback""#));
    assert!(html.contains(r#"data-code="4/0&quot;&gt;&lt;x""#), "{html}");
    assert!(html.contains(r#"data-state="st'ate""#), "{html}");
    assert!(html.contains("<noscript>"));
    assert!(html.contains("needs JavaScript"));
    let csp = page.header("content-security-policy").unwrap_or_default();
    assert!(
        csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
        "{csp}"
    );

    // Deny on the consent page: told, and nothing for the script to post.
    let denied = get(format!("{CALLBACK}?error=access_denied&state=s"))
        .send(&app)
        .await
        .expect(200);
    assert!(denied.text.contains("declined"), "{}", denied.text);
    assert!(!denied.text.contains("data-sc-callback"));

    // Another refusal from Google, named as text; and a visit without Google's answer.
    let refused = get(format!("{CALLBACK}?error=%3Cb%3Einvalid_scope&state=s"))
        .send(&app)
        .await;
    assert_eq!(refused.status, 400);
    assert!(
        refused.text.contains("&lt;b&gt;invalid_scope"),
        "{}",
        refused.text
    );
    assert!(!refused.text.contains("data-sc-callback"));
    let bare = get(CALLBACK.to_string()).send(&app).await;
    assert_eq!(bare.status, 400);
    assert!(!bare.text.contains("data-sc-callback"));
    assert!(bare.text.contains(r#"href="/settings/search-console""#));
}
