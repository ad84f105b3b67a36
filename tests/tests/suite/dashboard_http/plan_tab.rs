//! The content plan tab on a completed job whose dataset is written here: topics with their
//! clusters and actions, the action and intent filters and their 400, crawled URLs that are
//! not web URLs, and results from before content plans.

use kr_aws::s3::S3ObjectStore;
use kr_core::dataset::{
    ActionCounts, ClusterAction, ClusterRecord, Intent, KeywordRecord, ResultsDataset,
    SitePosition, TopicRecord, DATASET_FORMAT,
};
use kr_core::domain::{Job, JobId, JobStatus, Plan};
use kr_tests::harness::{self, Call};

use super::{app, session};

fn keyword(cluster: &str, topic: &str, n: usize, intent: Intent) -> KeywordRecord {
    KeywordRecord {
        id: format!("k-{cluster}-{n}"),
        keyword: format!("{cluster} keyword {n:02}"),
        search_volume: Some(1000 - n as i64 * 10),
        cpc: None,
        competition: None,
        difficulty: Some(n as i64 * 7),
        intent,
        secondary_intents: Vec::new(),
        persona_avatar_name: None,
        cluster_id: cluster.into(),
        cluster_name: cluster.into(),
        organic_opportunity_score: 10.0,
        paid_opportunity_score: 0.0,
        opportunity_value: 1.0,
        monthly_searches: Vec::new(),
        metrics_source: "estimate".into(),
        rankings: Vec::new(),
        content_gap: false,
        source: None,
        topic_id: Some(topic.into()),
        serp_features: None,
        people_also_ask: None,
        weak_spots: None,
        search_console: None,
        ai_overview: None,
    }
}

fn cluster(id: &str, topic: &str, action: ClusterAction, keywords: usize) -> ClusterRecord {
    ClusterRecord {
        id: id.into(),
        name: id.replace('-', " "),
        primary_keyword: id.into(),
        keyword_count: keywords,
        total_search_volume: keywords as i64 * 900,
        avg_difficulty: Some(20.0),
        avg_cpc: None,
        dominant_intent: Intent::Informational,
        organic_opportunity_score: 10.0,
        paid_opportunity_score: 0.0,
        opportunity_value: keywords as f64,
        topic_id: Some(topic.into()),
        action: Some(action),
        ..ClusterRecord::default()
    }
}

fn topic(id: &str, clusters: &[&ClusterRecord], opportunity_value: f64) -> TopicRecord {
    let mut actions = ActionCounts::default();
    for cluster in clusters {
        actions.add(cluster.action.unwrap());
    }
    TopicRecord {
        id: id.into(),
        name: clusters[0].name.clone(),
        pillar_cluster_id: clusters[0].id.clone(),
        cluster_ids: clusters.iter().map(|c| c.id.clone()).collect(),
        cluster_count: clusters.len(),
        keyword_count: clusters.iter().map(|c| c.keyword_count).sum(),
        total_search_volume: clusters.iter().map(|c| c.total_search_volume).sum(),
        dominant_intent: clusters[0].dominant_intent,
        opportunity_value,
        organic_opportunity_score: 10.0,
        actions,
        ai_share_of_voice: None,
    }
}

/// Two topics. Cold brew has more volume, espresso more value; its URLs are hostile.
pub(super) fn dataset(job: JobId) -> ResultsDataset {
    let mut cold_brew = cluster("cold-brew", "t-cold-brew", ClusterAction::Improve, 12);
    cold_brew.target_url = Some("https://brightbrew-coffee.com/cold-brew".into());
    cold_brew.target_position = Some(4);
    cold_brew.competitor_positions = vec![SitePosition {
        domain: "roastrivals.com".into(),
        position: 2,
        url: "https://roastrivals.com/cold-brew".into(),
    }];
    let mut ratio = cluster("cold-brew-ratio", "t-cold-brew", ClusterAction::Create, 2);
    ratio.content_gap = true;
    ratio.dominant_intent = Intent::Commercial;
    let mut espresso = cluster("espresso", "t-espresso", ClusterAction::Consolidate, 3);
    espresso.name = "espresso <img src=x onerror=alert(1)>".into();
    espresso.target_url = Some("javascript:alert(1)".into());
    espresso.cannibalizing_urls = vec![
        "https://brightbrew-coffee.com/espresso".into(),
        "JaVaScRiPt:alert(2)".into(),
    ];
    espresso.competitor_positions = vec![SitePosition {
        domain: "roastrivals.com".into(),
        position: 1,
        url: "javascript:alert(3)".into(),
    }];
    let mut machines = cluster("espresso-machines", "t-espresso", ClusterAction::Improve, 1);
    machines.target_url = Some("https://brightbrew-coffee.com/machines".into());
    machines.target_score = Some(0.82);
    let topics = vec![
        topic("t-cold-brew", &[&cold_brew, &ratio], 10.0),
        topic("t-espresso", &[&espresso, &machines], 500.0),
    ];
    let mut keywords = Vec::new();
    for (cluster, topic, count, intent) in [
        ("cold-brew", "t-cold-brew", 12, Intent::Informational),
        ("cold-brew-ratio", "t-cold-brew", 2, Intent::Commercial),
        ("espresso", "t-espresso", 3, Intent::Informational),
        ("espresso-machines", "t-espresso", 1, Intent::Informational),
    ] {
        keywords.extend((0..count).map(|n| keyword(cluster, topic, n, intent)));
    }
    ResultsDataset {
        format: DATASET_FORMAT,
        job_id: job,
        keywords,
        clusters: vec![espresso, machines, ratio, cold_brew],
        personas: Vec::new(),
        topics,
    }
}

/// A completed job of a new user with `dataset` as its results, and that user's session.
pub(super) async fn job_with(
    dataset: impl FnOnce(JobId) -> ResultsDataset,
) -> (axum::Router, Job, String) {
    let store = harness::store().await;
    let owner = harness::new_user(&store, Plan::Agency, 1, 1).await;
    let job = Job {
        completed_at: Some(chrono::Utc::now()),
        ..harness::job_record(
            owner.id,
            JobStatus::Completed,
            "brightbrew-coffee.com",
            &["roastrivals.com"],
        )
    };
    store.import_jobs(std::slice::from_ref(&job)).await.unwrap();
    let resources = harness::resources();
    let results = S3ObjectStore::new(harness::clients().await.s3, resources.results_bucket);
    kr_core::store::put_dataset(&results, &dataset(job.id))
        .await
        .unwrap();
    let app = app().await;
    let cookie = session(&app, owner.email.as_str()).await;
    (app, job, cookie)
}

/// The job page's `tab` with `query` appended, as the signed-in owner sees it.
pub(super) async fn tab(
    app: &axum::Router,
    job: &Job,
    cookie: &str,
    tab: &str,
    query: &str,
) -> (u16, String) {
    let reply = Call::get(&format!("/jobs/{}?tab={tab}{query}", job.id))
        .header("cookie", cookie)
        .send(app)
        .await;
    (reply.status, reply.text)
}

async fn plan(app: &axum::Router, job: &Job, cookie: &str, query: &str) -> (u16, String) {
    tab(app, job, cookie, "plan", query).await
}

/// The ids of `attribute` in the page, in order.
fn ids(page: &str, attribute: &str) -> Vec<String> {
    let marker = format!("{attribute}=\"");
    page.match_indices(&marker)
        .map(|(at, _)| {
            let rest = &page[at + marker.len()..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect()
}

#[tokio::test]
async fn the_plan_tab_shows_topics_their_clusters_actions_and_keywords() {
    let (app, job, cookie) = job_with(dataset).await;
    let (status, page) = plan(&app, &job, &cookie, "").await;
    assert_eq!(status, 200, "{page}");
    assert!(
        page.contains(r#"aria-current="page">Content plan</a>"#),
        "the tab is current"
    );
    // By volume: cold brew (14 keywords) before espresso (4); the pillar first in each.
    assert_eq!(ids(&page, "data-topic"), ["t-cold-brew", "t-espresso"]);
    assert_eq!(
        ids(&page, "data-cluster"),
        [
            "cold-brew",
            "cold-brew-ratio",
            "espresso",
            "espresso-machines"
        ]
    );
    assert_eq!(
        ids(&page, "data-action"),
        ["improve", "create", "consolidate", "improve"]
    );
    assert!(
        page.contains(r#"class="action action-consolidate" title="Several pages"#),
        "{page}"
    );
    assert!(page.contains("Consolidate</span>"), "the badge says it");
    // The page to improve, its position and the competitor's; the other chosen by its match.
    assert!(page.contains(
        r#"<a href="https://brightbrew-coffee.com/cold-brew" rel="noopener noreferrer nofollow" target="_blank">brightbrew-coffee.com/cold-brew</a>"#
    ));
    assert!(page.contains(">#4</span>"), "{page}");
    assert!(page.contains(r#"href="https://roastrivals.com/cold-brew""#));
    assert!(page.contains("roastrivals.com #2"));
    assert!(page.contains("match 82%"));
    assert!(page.contains(">gap</span>"));
    // Ten keywords of twelve, the highest volumes, and a link to all of them.
    assert!(page.contains("cold-brew keyword 00"));
    assert!(page.contains("cold-brew keyword 09"));
    assert!(!page.contains("cold-brew keyword 10"));
    assert!(page.contains("All 12 keywords of this cluster"));
    assert!(page.contains(&format!(
        "/jobs/{}?tab=keywords&amp;cluster=cold-brew&amp;sortBy=searchVolume&amp;sortOrder=desc",
        job.id
    )));

    let (_, by_value) = plan(&app, &job, &cookie, "&sortBy=opportunityValue").await;
    assert_eq!(ids(&by_value, "data-topic"), ["t-espresso", "t-cold-brew"]);
}

#[tokio::test]
async fn the_plan_filters_by_action_and_intent_and_refuses_unknown_values() {
    let (app, job, cookie) = job_with(dataset).await;
    let (status, page) = plan(&app, &job, &cookie, "&action=create").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(ids(&page, "data-topic"), ["t-cold-brew"]);
    assert_eq!(ids(&page, "data-cluster"), ["cold-brew-ratio"]);
    assert!(page.contains("Showing 1 of its 2 clusters; the filters hide the others."));
    assert!(
        page.contains("</strong> topic with matching clusters"),
        "{page}"
    );
    assert!(page.contains(r#"<option value="create" selected>Create</option>"#));

    let (_, page) = plan(&app, &job, &cookie, "&action=improve").await;
    assert_eq!(
        ids(&page, "data-cluster"),
        ["cold-brew", "espresso-machines"]
    );
    let (_, page) = plan(&app, &job, &cookie, "&intent=commercial&action=").await;
    assert_eq!(ids(&page, "data-cluster"), ["cold-brew-ratio"]);
    let (_, page) = plan(&app, &job, &cookie, "&action=consolidate&intent=commercial").await;
    assert!(page.contains("No cluster matches these filters."), "{page}");

    let (status, page) = plan(&app, &job, &cookie, "&action=delete").await;
    assert_eq!(status, 400);
    assert!(
        page.contains("Invalid action: must be one of create, improve, consolidate"),
        "{page}"
    );
    assert!(page.contains(r#"role="alert""#));
    let (status, page) = plan(&app, &job, &cookie, "&intent=curious").await;
    assert_eq!(status, 400);
    assert!(page.contains("Invalid intent"), "{page}");
    let (status, _) = plan(&app, &job, &cookie, "&sortBy=keyword").await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn crawled_urls_that_are_not_web_urls_are_shown_as_text() {
    let (app, job, cookie) = job_with(dataset).await;
    let (status, page) = plan(&app, &job, &cookie, "&action=consolidate").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(ids(&page, "data-cluster"), ["espresso"]);
    let lowercase = page.to_lowercase();
    assert!(!lowercase.contains("href=\"javascript"), "{page}");
    assert!(page.contains("javascript:alert(1)"), "the target as text");
    assert!(page.contains("JaVaScRiPt:alert(2)"));
    assert!(page.contains("roastrivals.com #1"));
    assert!(page.contains(r#"href="https://brightbrew-coffee.com/espresso""#));
    assert!(!page.contains("<img src=x"), "the name is escaped");
    assert!(page.contains("espresso &lt;img src=x onerror=alert(1)&gt;"));
    // Every link out of the dashboard is one the crawled page cannot act through.
    for (at, _) in page.match_indices("target=\"_blank\"") {
        let tag = &page[page[..at].rfind('<').unwrap()..at];
        assert!(
            tag.contains(r#"rel="noopener noreferrer nofollow""#),
            "{tag}"
        );
    }
}

#[tokio::test]
async fn results_from_before_content_plans_say_the_plan_is_not_available() {
    let (app, job, cookie) = job_with(|job| {
        let mut old = dataset(job);
        old.topics.clear();
        for cluster in &mut old.clusters {
            cluster.topic_id = None;
            cluster.action = None;
        }
        old
    })
    .await;
    let (status, page) = plan(&app, &job, &cookie, "").await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("The content plan is not available for this job"));
    assert!(page.contains("Run the job again"));
    assert!(ids(&page, "data-topic").is_empty());
    assert!(!page.contains("<details"));
}
