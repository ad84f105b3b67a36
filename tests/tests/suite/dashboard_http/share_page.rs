//! The page a share link opens (`/share/{token}`): the job's chosen tabs and nothing of the
//! account, kept out of search engines, links that stay on the share URL, and one plain 404 for
//! a token never made, revoked, expired or whose job was deleted. The owner's share page
//! (`/jobs/{jobId}/share`): make a link (shown once), see it listed, revoke it; nobody else's.

use chrono::{Duration, Utc};
use kr_core::domain::{
    Job, ShareLifetime, ShareLink, ShareLinkId, ShareToken, SharedTab, SharedTabs,
};
use kr_core::service::share_links;
use kr_core::store::{JobStore, ShareLinkStore};
use kr_tests::harness::{self, Call};

use super::plan_tab::{dataset, job_with};
use super::session;

const ORIGIN: &str = "https://app.keyword-research.test";

pub(super) async fn link_to(job: &Job, tabs: &[SharedTab]) -> ShareToken {
    let store = harness::store().await;
    let (_, token) = share_links::create_share_link(
        store.as_ref(),
        store.as_ref(),
        job.owner,
        job.id,
        SharedTabs::new(tabs.iter().copied()).unwrap(),
        ShareLifetime::default(),
        Utc::now(),
    )
    .await
    .unwrap();
    token
}

async fn open(app: &axum::Router, path: &str) -> (u16, String, Option<String>) {
    let reply = Call::get(path).send(app).await;
    let robots = reply.header("x-robots-tag").map(String::from);
    (reply.status, reply.text, robots)
}

/// Every `href` and form `action` of a page.
fn targets(page: &str) -> Vec<String> {
    let mut found = Vec::new();
    for attribute in ["href=\"", "action=\""] {
        for (at, _) in page.match_indices(attribute) {
            let rest = &page[at + attribute.len()..];
            found.push(rest[..rest.find('"').unwrap()].replace("&amp;", "&"));
        }
    }
    found
}

#[tokio::test]
async fn a_link_shows_its_tabs_of_its_job_and_nothing_of_the_account() {
    let (app, job, cookie) = job_with(dataset).await;
    let token = link_to(&job, &[SharedTab::Plan, SharedTab::Clusters]).await;
    let base = format!("/share/{}", token.expose());
    let (status, page, robots) = open(&app, &base).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(robots.as_deref(), Some("noindex, nofollow"));
    assert!(page.contains(r#"<meta name="robots" content="noindex, nofollow">"#));
    assert!(page.contains("brightbrew-coffee.com"));
    // The first of its tabs in the dashboard's order, and only its tabs.
    let nav = &page[page.find(r#"<nav class="tabs""#).unwrap()..];
    let nav = &nav[..nav.find("</nav>").unwrap()];
    assert!(nav.contains(r#"aria-current="page">Clusters<"#), "{nav}");
    assert!(nav.contains(">Content plan<"));
    for hidden in [">Keywords<", ">Personas<", ">Overview<"] {
        assert!(!nav.contains(hidden), "{hidden} in {nav}");
    }
    // Nothing of the account or of other jobs, nothing that needs an account.
    for absent in [
        "Sign out",
        "Runs left",
        "Settings",
        "Export CSV",
        ">Brief<",
        "Delete",
        ">Share<",
        "/api/v1/",
    ] {
        assert!(!page.contains(absent), "{absent} on a shared page");
    }
    for target in targets(&page) {
        assert!(
            target.starts_with(&base)
                || target.starts_with("/assets/")
                || target.starts_with("https://")
                || target == "#main",
            "{target} leaves the shared page"
        );
    }
    // A tab it does not show is its first tab instead; the plan's filters stay on the link.
    let (status, hidden, _) = open(&app, &format!("{base}?tab=keywords")).await;
    assert_eq!(status, 200);
    assert!(hidden.contains(r#"aria-current="page">Clusters<"#));
    assert!(!hidden.contains("Filter keywords"));
    let (status, plan, _) = open(&app, &format!("{base}?tab=plan&action=create")).await;
    assert_eq!(status, 200);
    assert!(
        plan.contains(&format!(r#"action="{base}""#)),
        "the filter form posts to the link"
    );
    assert!(plan.contains("cold brew ratio") && !plan.contains("espresso machines"));
    // Hostile text from crawled sites is escaped here as everywhere.
    let (_, espresso, _) = open(&app, &format!("{base}?tab=plan&action=consolidate")).await;
    assert!(!espresso.contains("<img src=x"));

    // The owner still sees the whole dashboard.
    let own = Call::get(&format!("/jobs/{}", job.id))
        .header("cookie", &cookie)
        .send(&app)
        .await;
    assert!(own.text.contains("Export CSV") && own.text.contains(">Share<"));
}

#[tokio::test]
async fn revoked_expired_unknown_and_deleted_links_are_one_plain_404() {
    let (app, job, _) = job_with(dataset).await;
    let store = harness::store().await;
    let revoked = link_to(&job, &[SharedTab::Keywords]).await;
    let id = store
        .resolve_share_link(&revoked.hash())
        .await
        .unwrap()
        .unwrap()
        .id;
    assert_eq!(
        open(&app, &format!("/share/{}", revoked.expose())).await.0,
        200
    );
    assert!(store.revoke_share_link(job.id, id).await.unwrap());

    let expired = ShareToken::generate();
    let long_ago = Utc::now() - Duration::days(31);
    let link = ShareLink {
        id: ShareLinkId::new(),
        job_id: job.id,
        owner: job.owner,
        tabs: SharedTabs::all(),
        created_at: long_ago,
        expires_at: Utc::now() - Duration::seconds(1),
    };
    assert!(store
        .create_share_link(&link, &expired.hash(), 20, long_ago)
        .await
        .unwrap());

    let (deleted_app, deleted_job, _) = job_with(dataset).await;
    let orphan = link_to(&deleted_job, &[SharedTab::Keywords]).await;
    store
        .delete_job(deleted_job.owner, deleted_job.id)
        .await
        .unwrap();

    let mut pages = Vec::new();
    for path in [
        format!("/share/{}", revoked.expose()),
        format!("/share/{}", expired.expose()),
        format!("/share/{}", ShareToken::generate().expose()),
        format!("/share/{}", orphan.expose()),
        "/share/not-a-token".to_string(),
        format!("/share/{}", "A".repeat(5000)),
    ] {
        let (status, page, robots) = open(&deleted_app, &path).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(robots.as_deref(), Some("noindex, nofollow"));
        assert!(
            !page.contains("brightbrew"),
            "{path} says nothing of the job"
        );
        pages.push(page.replace(&path, ""));
    }
    assert!(
        pages.windows(2).all(|pair| pair[0] == pair[1]),
        "one answer for every reason"
    );
}

#[tokio::test]
async fn the_owner_makes_sees_and_revokes_links_from_the_share_page() {
    let (app, job, cookie) = job_with(dataset).await;
    let page = format!("/jobs/{}/share", job.id);
    let form = |body: &str| {
        Call::post(&page)
            .header("content-type", "application/x-www-form-urlencoded")
            .header("origin", ORIGIN)
            .header("host", "127.0.0.1:9000")
            .header("cookie", &cookie)
            .raw_body(body.to_string())
    };
    let empty = Call::get(&page).header("cookie", &cookie).send(&app).await;
    assert_eq!(empty.status, 200);
    assert!(empty.text.contains("No live links."));

    let made = form("plan=on&overview=on&days=7").send(&app).await;
    assert_eq!(made.status, 201, "{}", made.text);
    let start = made
        .text
        .find("http://127.0.0.1:9000/share/")
        .expect("the new link, shown once");
    let url = &made.text[start..];
    let url = &url[..url.find('"').unwrap()];
    let path = url.strip_prefix("http://127.0.0.1:9000").unwrap();
    assert!(made.text.contains("plan, overview"));
    let (status, shared, _) = open(&app, path).await;
    assert_eq!(status, 200);
    assert!(shared.contains(r#"aria-current="page">Content plan<"#));

    let again = Call::get(&page).header("cookie", &cookie).send(&app).await;
    assert!(!again.text.contains(path), "the token is shown only once");
    for bad in [
        "days=7",
        "plan=on&days=0",
        "plan=on&days=400",
        "plan=on&days=soon",
    ] {
        let refused = form(bad).send(&app).await;
        assert_eq!(refused.status, 400, "{bad}");
        assert!(refused.text.contains("Choose at least one tab"), "{bad}");
    }
    let foreign = Call::post(&page)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("origin", "https://evil.example")
        .header("cookie", &cookie)
        .raw_body("plan=on".to_string())
        .send(&app)
        .await;
    assert_eq!(foreign.status, 403);

    let store = harness::store().await;
    let links = store.list_share_links(job.id, Utc::now()).await.unwrap();
    assert_eq!(links.len(), 1, "refused forms made nothing");
    let revoke = format!("{page}/{}/revoke", links[0].id);
    let stranger = harness::new_user(&store, kr_core::domain::Plan::Agency, 1, 1).await;
    let stranger_cookie = session(&app, stranger.email.as_str()).await;
    let theirs = Call::get(&page)
        .header("cookie", &stranger_cookie)
        .send(&app)
        .await;
    assert_eq!(
        theirs.status, 404,
        "another account's job has no share page for them"
    );
    let not_theirs = Call::post(&revoke)
        .header("origin", ORIGIN)
        .header("cookie", &stranger_cookie)
        .send(&app)
        .await;
    assert_eq!(not_theirs.status, 404);
    assert_eq!(open(&app, path).await.0, 200, "still live");

    let revoked = Call::post(&revoke)
        .header("origin", ORIGIN)
        .header("cookie", &cookie)
        .send(&app)
        .await;
    assert_eq!(revoked.status, 303);
    assert_eq!(open(&app, path).await.0, 404, "revoked at once");
    let signed_out = Call::get(&page).send(&app).await;
    assert_eq!(signed_out.status, 303, "sent to sign in");
}
