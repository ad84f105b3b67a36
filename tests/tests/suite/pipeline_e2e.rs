//! The real pipeline (crawler and research engine) end to end against the emulator and the
//! sample websites served on loopback, and the preview images it keeps (hostile ones are not).

use kr_core::dataset::{objects, PreviewImage, Reference, ResultsDataset};
use kr_core::domain::JobStatus;
use kr_core::store::{get_json, ArtifactStore, UserStore};
use kr_tests::harness::PIXEL_PNG;
use kr_tests::pipeline_rig::rig;
use kr_tests::sites::{fixtures_root, DEMO_COMPETITOR, DEMO_PRIMARY};

#[tokio::test]
async fn a_job_on_the_sample_sites_completes_with_real_results() {
    let rig = rig(None, &[]).await;
    let job = rig
        .start(DEMO_PRIMARY, &[DEMO_COMPETITOR, "down-competitor.com"])
        .await;
    let (done, progress) = rig.run(job.id).await;
    assert_eq!(
        done.status,
        JobStatus::Completed,
        "{:?}",
        done.error_message
    );
    assert!(
        progress.windows(2).all(|w| w[0] <= w[1]),
        "progress only grows: {progress:?}"
    );
    assert!(
        progress.iter().any(|p| *p > 0 && *p < 100),
        "progress moved through the stages: {progress:?}"
    );

    let references: Vec<Option<Reference>> =
        get_json(rig.objects.as_ref(), job.id, objects::REFERENCES)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(references.len(), 3);
    let primary = references[0]
        .as_ref()
        .expect("the primary site has a preview");
    assert!(
        primary
            .title
            .as_deref()
            .unwrap_or("")
            .contains("BrightBrew"),
        "{primary:?}"
    );
    assert!(references[1].is_some(), "the competitor has a preview");
    assert!(
        references[2].is_none(),
        "a competitor that is down leaves null"
    );
    // Both sites' og:images are kept with the job, checked and sized; none for the site down.
    let images: Vec<Option<PreviewImage>> =
        get_json(rig.objects.as_ref(), job.id, objects::PREVIEW_IMAGES)
            .await
            .unwrap()
            .unwrap();
    let jpeg = PreviewImage {
        content_type: "image/jpeg".into(),
        width: 8,
        height: 8,
    };
    assert_eq!(images, [Some(jpeg.clone()), Some(jpeg), None]);
    let kept = rig
        .objects
        .get_artifact(job.id, &objects::preview_image(0))
        .await
        .unwrap();
    let og_home = fixtures_root()
        .join(DEMO_PRIMARY)
        .join("images/og-home.jpg");
    assert_eq!(kept, Some(std::fs::read(og_home).unwrap()));

    let dataset: ResultsDataset = kr_core::store::get_dataset(rig.objects.as_ref(), job.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(done.keyword_count, Some(dataset.keywords.len() as i64));
    assert!(
        dataset.keywords.len() >= 50,
        "{} keywords",
        dataset.keywords.len()
    );
    assert!(
        (3..=6).contains(&dataset.personas.len()),
        "{} personas",
        dataset.personas.len()
    );
    assert!(!dataset.clusters.is_empty());
    let text: Vec<&str> = dataset
        .keywords
        .iter()
        .map(|k| k.keyword.as_str())
        .collect();
    assert!(text.iter().any(|k| k.contains("coffee")), "{text:?}");
    assert!(dataset
        .keywords
        .iter()
        .all(|k| k.metrics_source == "estimate" && !k.cluster_id.is_empty()));
    // No provider, no results pages: the SERP fields are null, not empty lists.
    assert!(dataset.keywords.iter().all(|k| k.serp_features.is_none()
        && k.people_also_ask.is_none()
        && k.weak_spots.is_none()));
    assert!(
        dataset.keywords.iter().any(|k| k.content_gap),
        "the competitor covers topics the primary does not"
    );
    let user = rig.store.user(job.owner).await.unwrap().unwrap();
    assert_eq!(user.credits_balance, 0, "a completed job keeps its run");
}

#[tokio::test]
async fn a_job_whose_primary_site_cannot_be_reached_fails_readably_and_refunds() {
    let rig = rig(None, &[]).await;
    let job = rig
        .start("unreachable-primary.com", &[DEMO_COMPETITOR])
        .await;
    let (failed, _) = rig.run(job.id).await;
    assert_eq!(failed.status, JobStatus::Failed);
    assert_eq!(
        failed.progress.stage,
        Some(kr_core::domain::Stage::References),
        "it fails on its first look at the primary, before any competitor is crawled"
    );
    let message = failed.error_message.unwrap();
    assert!(
        message.contains("unreachable-primary.com") && message.contains("could not"),
        "{message}"
    );
    assert!(!message.contains("127.0.0.1"), "no internals: {message}");
    let user = rig.store.user(job.owner).await.unwrap().unwrap();
    assert_eq!(user.credits_balance, 1, "the run is given back");
}

/// Files of a site: name and bytes.
type Files<'a> = &'a [(&'a str, &'a [u8])];

/// A site whose home page names `image` as its `og:image`, with `files` beside it.
fn site_with_image(root: &std::path::Path, domain: &str, image: &str, files: Files) {
    let dir = root.join(domain);
    std::fs::create_dir_all(&dir).unwrap();
    let home = format!(
        "<!doctype html><html lang=\"en\"><head><title>{domain}</title>\
         <meta property=\"og:image\" content=\"{image}\"></head><body><main>\
         <h1>Roof repair in Newark</h1><p>Roof repair and roof inspection for homes.</p>\
         </main></body></html>"
    );
    std::fs::write(dir.join("index.html"), home).unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
}

#[tokio::test]
async fn hostile_preview_images_are_not_kept_and_the_job_goes_on() {
    let root = std::env::temp_dir().join(format!("kr-hostile-images-{}", uuid::Uuid::new_v4()));
    let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>"#;
    let mut polyglot = PIXEL_PNG.to_vec();
    polyglot.extend_from_slice(b"<html><script>alert(1)</script></html>");
    let mut bomb = PIXEL_PNG.to_vec();
    bomb[16..20].copy_from_slice(&60_000u32.to_be_bytes());
    // A JPEG past the 1 MiB the crawler reads: cut off, so not kept.
    let mut huge = vec![0xFF, 0xD8, 0xFF, 0xE0];
    huge.resize(1536 * 1024, 0);
    huge.extend_from_slice(&[0xFF, 0xD9]);
    let sites: [(&str, &str, Files); 8] = [
        ("svg-preview.com", "/og.svg", &[("og.svg", svg)]),
        ("polyglot-preview.com", "/og.png", &[("og.png", &polyglot)]),
        ("bomb-preview.com", "/og.png", &[("og.png", &bomb)]),
        ("huge-preview.com", "/og.jpg", &[("og.jpg", &huge)]),
        ("page-preview.com", "/", &[]),
        (
            "metadata-preview.com",
            "http://169.254.169.254/latest/meta-data/og.png",
            &[],
        ),
        ("loopback-preview.com", "http://localhost/og.png", &[]),
        // Another host's image (a CDN's, say) is fetched from there.
        (
            "cdn-preview.com",
            "https://brightbrew-coffee.com/images/og-home.jpg",
            &[],
        ),
    ];
    let mut aliases = Vec::new();
    for (domain, image, files) in sites {
        site_with_image(&root, domain, image, files);
        aliases.push((domain, root.join(domain).to_string_lossy().into_owned()));
    }
    let aliases: Vec<(&str, &str)> = aliases.iter().map(|(d, p)| (*d, p.as_str())).collect();
    let rig = rig(None, &aliases).await;
    let competitors: Vec<&str> = sites.iter().map(|(domain, _, _)| *domain).collect();
    let job = rig.start(DEMO_PRIMARY, &competitors).await;
    let (done, _) = rig.run(job.id).await;
    assert_eq!(
        done.status,
        JobStatus::Completed,
        "{:?}",
        done.error_message
    );

    let images: Vec<Option<PreviewImage>> =
        get_json(rig.objects.as_ref(), job.id, objects::PREVIEW_IMAGES)
            .await
            .unwrap()
            .unwrap();
    let kept: Vec<bool> = images.iter().map(Option::is_some).collect();
    assert_eq!(
        kept,
        [true, false, false, false, false, false, false, false, true],
        "only the sample sites' JPEGs: {images:?}"
    );
    for index in 1..=7 {
        let stored = rig
            .objects
            .get_artifact(job.id, &objects::preview_image(index))
            .await
            .unwrap();
        assert!(stored.is_none(), "{index}: nothing of it is stored");
    }
    let _ = std::fs::remove_dir_all(root);
}
