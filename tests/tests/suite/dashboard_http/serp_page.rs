//! The keyword table's SERP column: feature marks with their names, weak spots counted, the
//! filters by both, hostile questions inert, and the reason when a job has no SERPs.

use kr_core::dataset::{ResultsDataset, SerpFeature, WeakSpot, WeakSpotKind};
use kr_core::domain::{Job, JobId};

use super::plan_tab::{dataset as plain_dataset, job_with, tab};

/// The content plan's dataset, two of its keywords with a results page.
fn with_serps(job: JobId) -> ResultsDataset {
    let mut data = plain_dataset(job);
    let first = &mut data.keywords[0];
    first.serp_features = Some(vec![SerpFeature::PeopleAlsoAsk, SerpFeature::LocalPack]);
    first.people_also_ask = Some(vec!["Is <script>alert('paa')</script> safe?".into()]);
    first.weak_spots = Some(vec![WeakSpot {
        position: 3,
        url: "https://www.reddit.com/r/coffee/comments/1/".into(),
        site: "reddit.com".into(),
        kind: WeakSpotKind::Forum,
    }]);
    let second = &mut data.keywords[1];
    second.serp_features = Some(Vec::new());
    second.people_also_ask = Some(Vec::new());
    second.weak_spots = Some(Vec::new());
    data
}

async fn keywords_tab(app: &axum::Router, job: &Job, cookie: &str, query: &str) -> (u16, String) {
    tab(app, job, cookie, "keywords", query).await
}

fn total(page: &str) -> &str {
    let at = page.find("data-total=\"").expect("a count") + "data-total=\"".len();
    &page[at..at + page[at..].find('"').unwrap()]
}

#[tokio::test]
async fn the_keyword_table_shows_serp_features_and_weak_spots_and_filters_by_them() {
    let (app, job, cookie) = job_with(with_serps).await;
    let (status, page) = keywords_tab(&app, &job, &cookie, "&limit=200").await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains(r#"data-feature="people_also_ask""#), "{page}");
    assert!(page.contains(r#"<span class="sr-only">People Also Ask</span>"#));
    assert!(page.contains(r#"<span class="sr-only">Local pack</span>"#));
    assert!(page.contains(r#"data-weak-spots="1""#));
    assert!(page.contains("reddit.com #3 (forum)"));
    // The question is text in a tooltip, never markup.
    assert!(!page.contains("<script>alert('paa')"));
    assert!(page.contains("&lt;script&gt;alert("));
    assert!(page.contains(r#"select name="serpFeature""#));
    assert!(page.contains(r#"id="serp-legend""#));

    let (_, page) = keywords_tab(&app, &job, &cookie, "&serpFeature=local_pack").await;
    assert_eq!(total(&page), "1");
    let (_, page) = keywords_tab(&app, &job, &cookie, "&minWeakSpots=0").await;
    assert_eq!(total(&page), "2", "keywords with a SERP only");
    let (_, page) = keywords_tab(&app, &job, &cookie, "&minWeakSpots=1").await;
    assert_eq!(total(&page), "1");
    let (status, page) = keywords_tab(&app, &job, &cookie, "&serpFeature=snippet").await;
    assert_eq!(status, 400);
    assert!(page.contains(r#"id="filter-error""#), "{page}");
}

#[tokio::test]
async fn without_serps_the_table_says_why_its_serp_column_is_empty() {
    let (app, job, cookie) = job_with(plain_dataset).await;
    let (status, page) = keywords_tab(&app, &job, &cookie, "").await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("this job ran without one"), "{page}");
    assert!(!page.contains(r#"select name="serpFeature""#));
    assert!(!page.contains("data-feature="));
}
