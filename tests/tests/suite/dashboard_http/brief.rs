//! The brief page: a cluster's stored brief as a page to print, hostile text from the pages
//! read inert; before it is made, the owner's button that has the API make it, and a notice
//! for anyone else; the "Brief" links.

use kr_aws::s3::S3ObjectStore;
use kr_core::dataset::{
    objects, BriefKeyword, BriefSource, BriefWording, CitedPage, ClusterAction, ClusterBrief,
    Intent, OutlineHeading, PageType, WordCountRange,
};
use kr_core::store::put_json;
use kr_tests::harness::{self, Call};

use super::plan_tab::{dataset, job_with, tab};

fn brief() -> ClusterBrief {
    let keyword = |keyword: &str, volume| BriefKeyword {
        keyword: keyword.into(),
        search_volume: Some(volume),
        intent: Intent::Informational,
    };
    ClusterBrief {
        cluster_id: "cold-brew".into(),
        cluster_name: "cold brew".into(),
        primary_keyword: keyword("cold brew", 12_100),
        secondary_keywords: vec![keyword("cold brew ratio", 1_900)],
        intent: Intent::Informational,
        page_type: Some(PageType::Guide),
        action: Some(ClusterAction::Improve),
        target_url: Some("https://brightbrew-coffee.com/cold-brew".into()),
        outline: vec![
            OutlineHeading {
                level: 2,
                text: "What is cold brew?".into(),
                pages: 3,
            },
            OutlineHeading {
                level: 3,
                text: "Ratio <script>alert('brief')</script>".into(),
                pages: 1,
            },
        ],
        questions: vec!["Is <img src=x onerror=alert(1)> cold brew stronger?".into()],
        word_count: Some(WordCountRange {
            min: 800,
            median: 1_200,
            max: 2_400,
        }),
        missing_terms: vec!["burr grinder".into()],
        internal_links: Vec::new(),
        sources: vec![
            BriefSource {
                url: "https://a.example/cold-brew".into(),
                position: Some(1),
                fetched: true,
                skipped_because: None,
                word_count: Some(1_200),
            },
            BriefSource {
                url: "javascript:alert(3)".into(),
                position: Some(2),
                fetched: false,
                skipped_because: Some("its robots.txt disallows reading it".into()),
                word_count: None,
            },
        ],
        generated_at: chrono::Utc::now(),
        // The model's answer is read as plain text before it is kept; the page escapes it
        // all the same.
        wording: Some(BriefWording {
            title: "Cold Brew at Home: Ratio and Time".into(),
            meta_description: "How to make cold brew at home, step by step.".into(),
            summary: "For home baristas <b>who</b> want smooth iced coffee.".into(),
            cost_usd: 0.0051,
        }),
        cited_pages: vec![CitedPage {
            url: "https://beanhub.test/cold-brew".into(),
            competitor: "beanhub.test".into(),
            title: Some("<img src=x onerror=alert('cited')>".into()),
            citations: 2,
            fetched: true,
            skipped_because: None,
            headings: vec![
                "<script>alert('heading')</script>".into(),
                "Steeping time".into(),
            ],
        }],
    }
}

#[tokio::test]
async fn a_stored_brief_shows_as_a_page_with_crawled_text_inert() {
    let (app, job, cookie) = job_with(dataset).await;
    let resources = harness::resources();
    let objects = S3ObjectStore::new(harness::clients().await.s3, resources.results_bucket);
    put_json(&objects, job.id, &objects::brief("cold-brew"), &brief())
        .await
        .unwrap();
    let page = Call::get(&format!("/jobs/{}/clusters/cold-brew/brief", job.id))
        .header("cookie", &cookie)
        .send(&app)
        .await
        .expect(200)
        .text;
    assert!(page.contains("<h1>Brief: cold brew</h1>"), "{page}");
    assert!(page.contains("What is cold brew?"));
    assert!(page.contains("burr grinder"));
    assert!(page.contains("800–2,400 words, median 1,200"), "{page}");
    assert!(page.contains("its robots.txt disallows reading it"));
    // Crawled text is text: no element, handler or link comes from it.
    assert!(!page.contains("<script>alert('brief')"));
    assert!(page.contains("&lt;script&gt;alert('brief')&lt;/script&gt;"));
    assert!(!page.contains("<img src=x"));
    assert!(!page.contains("href=\"javascript:"), "{page}");
    assert!(!page.contains("data-brief-endpoint"));
    assert!(page.contains("For the writer") && page.contains("Cold Brew at Home: Ratio and Time"));
    assert!(page.contains("&lt;b&gt;who&lt;/b&gt;") && !page.contains("<b>who"));
    // The pages AI Overviews cite, their overview titles and headings as text.
    assert!(page.contains("Pages AI Overviews cite"), "{page}");
    assert!(page.contains("cited for 2 keywords") && page.contains("Steeping time"));
    assert!(page.contains("&lt;script&gt;alert('heading')&lt;/script&gt;"));
    assert!(
        !page.contains("<script>alert('heading')")
            && !page.contains("<img src=x onerror=alert('cited')")
    );

    // Not made yet: the button that asks the API, and the API address without script.
    let page = Call::get(&format!("/jobs/{}/clusters/espresso/brief", job.id))
        .header("cookie", &cookie)
        .send(&app)
        .await
        .expect(200)
        .text;
    let endpoint = format!("/api/v1/jobs/{}/clusters/espresso/brief", job.id);
    assert!(
        page.contains(&format!("data-brief-endpoint=\"{endpoint}\"")),
        "{page}"
    );
    assert!(page.contains("data-make-brief"));
    // The hostile cluster name of the fixture is text here too.
    assert!(!page.contains("<img src=x onerror"));

    // Unknown cluster, and another account: not found.
    let unknown = Call::get(&format!("/jobs/{}/clusters/nowhere/brief", job.id))
        .header("cookie", &cookie)
        .send(&app)
        .await;
    assert_eq!(unknown.status, 404);
    assert!(unknown.text.contains("Cluster not found"));
    let signed_out = Call::get(&format!("/jobs/{}/clusters/cold-brew/brief", job.id))
        .send(&app)
        .await;
    assert_eq!(signed_out.status, 404, "not the visitor's job");

    // Every cluster row links to its brief.
    let (_, clusters) = tab(&app, &job, &cookie, "clusters", "").await;
    assert!(clusters.contains(&format!(
        "href=\"/jobs/{}/clusters/cold-brew/brief\"",
        job.id
    )));
    assert!(clusters.contains("aria-label=\"Brief for cold brew\""));
}

#[tokio::test]
async fn a_demo_jobs_visitors_are_told_the_brief_is_not_made_and_get_no_button() {
    let (_, job, _) = job_with(dataset).await;
    let mut config = harness::config();
    config.demo_user_id = Some(job.owner.as_uuid());
    let app = kr_web::router(kr_web::WebState::from_config(config, harness::resources()).await);
    let page = Call::get(&format!("/jobs/{}/clusters/espresso/brief", job.id))
        .send(&app)
        .await
        .expect(200)
        .text;
    assert!(page.contains("has not been made yet"), "{page}");
    assert!(!page.contains("data-brief-endpoint") && !page.contains("data-make-brief"));
    assert!(!page.contains("method=\"post\""), "{page}");
}
