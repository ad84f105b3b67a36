//! A crawl longer than one function call: it goes on in parts from a checkpoint, never
//! fetching a page twice, and a job whose crawl outlasts its budget goes on with what it has.

use std::time::Duration;

use chrono::Utc;
use kr_core::dataset::{objects, PageContent};
use kr_core::domain::{Job, Stage};
use kr_core::store::{get_json, JobStore, PipelineMessage};
use kr_crawler::CrawlConfig;
use kr_pipeline::engine::{Handled, FINISHING_TIME};
use kr_pipeline::stages::crawl::stop_margin;
use kr_pipeline::stages::ResearchSettings;
use kr_tests::pipeline_rig::{rig_with_crawl_delay, Rig};
use kr_tests::sites::DEMO_PRIMARY;

/// A crawler that waits 150 ms between requests: the sample site takes seconds to crawl.
async fn slow_rig(settings: ResearchSettings) -> Rig {
    rig_with_crawl_delay(None, &[], settings, Duration::from_millis(150)).await
}

/// Runs the job's crawl in parts of about `part` each; returns how many parts it took.
async fn crawl_in_parts(rig: &Rig, job: &Job, part: Duration) -> usize {
    let message = |stage| PipelineMessage {
        job_id: job.id,
        stage,
    };
    let first = rig.pipeline.handle(&message(Stage::References), 1).await;
    assert_eq!(first.unwrap(), Handled::Ran);
    let mut parts = 0;
    loop {
        parts += 1;
        // A deadline that leaves the crawl `part` after what it keeps back.
        let deadline = Utc::now()
            + FINISHING_TIME
            + stop_margin(&CrawlConfig::default())
            + chrono::Duration::from_std(part).unwrap();
        let handled = rig
            .pipeline
            .handle_until(&message(Stage::Crawl), 1, deadline)
            .await
            .unwrap();
        match handled {
            Handled::Continued => continue,
            Handled::Ran => return parts,
            other => panic!("unexpected {other:?}"),
        }
    }
}

async fn crawled_pages(rig: &Rig, job: &Job) -> Vec<PageContent> {
    get_json(rig.objects.as_ref(), job.id, &objects::stage("crawl"))
        .await
        .unwrap()
        .expect("the crawl stage saved its pages")
}

#[tokio::test]
async fn a_long_crawl_goes_on_in_parts_and_the_job_completes() {
    let rig = slow_rig(ResearchSettings::default()).await;
    let job = rig.start(DEMO_PRIMARY, &[]).await;
    let parts = crawl_in_parts(&rig, &job, Duration::from_millis(1500)).await;
    assert!(parts >= 2, "{parts} parts");
    let pages = crawled_pages(&rig, &job).await;
    let mut urls: Vec<&str> = pages.iter().map(|page| page.url.as_str()).collect();
    let count = urls.len();
    urls.sort_unstable();
    urls.dedup();
    assert_eq!(urls.len(), count, "no page twice");
    assert!(count >= 20, "{count} pages");

    rig.complete(job.id).await;
}

#[tokio::test]
async fn a_crawl_over_its_budget_goes_on_with_the_pages_it_has() {
    let settings = ResearchSettings {
        crawl_budget: Duration::from_secs(2),
        ..ResearchSettings::default()
    };
    let rig = slow_rig(settings).await;
    let job = rig.start(DEMO_PRIMARY, &[]).await;
    let started = std::time::Instant::now();
    crawl_in_parts(&rig, &job, Duration::from_secs(60)).await;
    assert!(started.elapsed() < Duration::from_secs(10));
    let pages = crawled_pages(&rig, &job).await;
    assert!(
        !pages.is_empty() && pages.len() < 30,
        "{} pages in a 2 s budget",
        pages.len()
    );
    let at = rig.store.job(job.id).await.unwrap().unwrap();
    assert_eq!(at.stage, Some(Stage::Discovery));
    rig.complete(job.id).await;
}
