//! Site preview images come from our own origin: the job page and a shared page point at
//! `…/previews/{index}` (never at a crawled site), the image is served to whoever may read the
//! job and to nobody else, and stored bytes that are not a whole image are never served.

use kr_aws::s3::S3ObjectStore;
use kr_core::dataset::{objects, PreviewImage, Reference};
use kr_core::domain::{Job, SharedTab};
use kr_core::store::{put_json, ArtifactStore, ShareLinkStore};
use kr_tests::harness::{self, Call};
use kr_tests::sites::fixtures_root;

use super::plan_tab::{dataset, job_with};
use super::session;
use super::share_page::link_to;

/// The primary site's og:image of the sample sites (an 8×8 JPEG).
fn og_home() -> Vec<u8> {
    std::fs::read(fixtures_root().join("brightbrew-coffee.com/images/og-home.jpg")).unwrap()
}

/// What the references stage keeps for a job whose primary site has an image and whose
/// competitor has none.
async fn keep_previews(job: &Job) -> S3ObjectStore {
    let resources = harness::resources();
    let results = S3ObjectStore::new(harness::clients().await.s3, resources.results_bucket);
    let reference = |domain: &str, image: &str| Reference {
        url: format!("https://{domain}/"),
        title: Some(format!("{domain} home")),
        description: None,
        image_url: Some(image.into()),
        link: Some(format!("https://{domain}/")),
    };
    let references = vec![
        Some(reference(
            "brightbrew-coffee.com",
            "https://brightbrew-coffee.com/images/og-home.jpg",
        )),
        Some(reference(
            "roastrivals.com",
            "https://roastrivals.com/og.svg",
        )),
    ];
    let images = vec![
        Some(PreviewImage {
            content_type: "image/jpeg".into(),
            width: 8,
            height: 8,
        }),
        None,
    ];
    put_json(&results, job.id, objects::REFERENCES, &references)
        .await
        .unwrap();
    put_json(&results, job.id, objects::PREVIEW_IMAGES, &images)
        .await
        .unwrap();
    results
        .put_artifact(job.id, &objects::preview_image(0), og_home())
        .await
        .unwrap();
    results
}

/// Every `src` of an `<img>` on a page.
fn image_sources(page: &str) -> Vec<String> {
    page.match_indices("<img ")
        .map(|(at, _)| {
            let tag = &page[at..];
            let tag = &tag[..tag.find('>').unwrap()];
            let src = &tag[tag.find("src=\"").unwrap() + 5..];
            src[..src.find('"').unwrap()].to_string()
        })
        .collect()
}

#[tokio::test]
async fn preview_images_are_served_from_our_origin_to_readers_of_the_job_only() {
    let (app, job, cookie) = job_with(dataset).await;
    let results = keep_previews(&job).await;
    let own = format!("/jobs/{}", job.id);

    let page = Call::get(&own)
        .header("cookie", &cookie)
        .send(&app)
        .await
        .expect(200);
    assert_eq!(image_sources(&page.text), [format!("{own}/previews/0")]);
    assert!(
        page.text.contains(r#"width="8" height="8""#),
        "sized, so nothing moves when it loads"
    );
    assert!(
        page.text
            .contains(r#"<div class="placeholder" aria-hidden="true">R</div>"#),
        "the competitor without an image has the placeholder"
    );
    let csp = page.header("content-security-policy").unwrap().to_string();
    assert!(csp.contains("img-src 'self';"), "{csp}");

    let image = Call::get(&format!("{own}/previews/0"))
        .header("cookie", &cookie)
        .send(&app)
        .await
        .expect(200);
    assert_eq!(image.header("content-type"), Some("image/jpeg"));
    assert_eq!(image.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(image.bytes, og_home());
    for missing in ["1", "2", "-1", "x", "99999999999999999999999"] {
        let reply = Call::get(&format!("{own}/previews/{missing}"))
            .header("cookie", &cookie)
            .send(&app)
            .await;
        assert_eq!(reply.status, 404, "{missing}");
        assert!(reply.bytes.is_empty());
    }
    // Another account, and nobody signed in, cannot reach it by the job's id.
    let store = harness::store().await;
    let stranger = harness::new_user(&store, kr_core::domain::Plan::Agency, 1, 1).await;
    let stranger = session(&app, stranger.email.as_str()).await;
    for visitor in [Some(stranger.as_str()), None] {
        let mut call = Call::get(&format!("{own}/previews/0"));
        if let Some(cookie) = visitor {
            call = call.header("cookie", cookie);
        }
        let reply = call.send(&app).await;
        assert_eq!(reply.status, 404, "{visitor:?}");
        assert!(reply.bytes.is_empty());
    }

    // Through a share link while it works, and not after it is revoked.
    let token = link_to(&job, &[SharedTab::Keywords]).await;
    let shared = format!("/share/{}", token.expose());
    let page = Call::get(&shared).send(&app).await.expect(200);
    assert_eq!(image_sources(&page.text), [format!("{shared}/previews/0")]);
    let image = Call::get(&format!("{shared}/previews/0"))
        .send(&app)
        .await
        .expect(200);
    assert_eq!(image.bytes, og_home());
    assert_eq!(
        Call::get(&format!("{shared}/previews/1"))
            .send(&app)
            .await
            .status,
        404
    );
    let link = store
        .resolve_share_link(&token.hash())
        .await
        .unwrap()
        .unwrap();
    assert!(store.revoke_share_link(job.id, link.id).await.unwrap());
    assert_eq!(
        Call::get(&format!("{shared}/previews/0"))
            .send(&app)
            .await
            .status,
        404
    );

    // Bytes that are not a whole image are never served, whatever the list says.
    let mut polyglot = og_home();
    polyglot.extend_from_slice(b"<html><script>alert(1)</script></html>");
    results
        .put_artifact(job.id, &objects::preview_image(0), polyglot)
        .await
        .unwrap();
    let refused = Call::get(&format!("{own}/previews/0"))
        .header("cookie", &cookie)
        .send(&app)
        .await;
    assert_eq!(refused.status, 404);
    assert!(refused.bytes.is_empty());
}
