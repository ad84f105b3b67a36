//! The real pipeline (crawler and research engine) end to end against the emulator and the
//! sample websites served on loopback.

use kr_core::dataset::{objects, Reference, ResultsDataset};
use kr_core::domain::JobStatus;
use kr_core::store::{get_json, UserStore};
use kr_tests::pipeline_rig::rig;
use kr_tests::sites::{DEMO_COMPETITOR, DEMO_PRIMARY};

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
