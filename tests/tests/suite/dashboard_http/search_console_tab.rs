//! A job's Search Console on its page, on a dataset written here: the import's outcome at the
//! head (imported, skipped with its reason as text, nothing without a property), the Search
//! Console tab's three tables (striking distance, decaying, cannibalized) with their rows in
//! order, their links to the cluster and its brief, a hostile query and `javascript:` pages
//! inert; the keyword table's Search Console filters and columns; the tab through a share link.

use kr_aws::s3::S3ObjectStore;
use kr_core::dataset::{
    ClusterRecord, Intent, KeywordRecord, KeywordSource, ResultsDataset, SearchConsoleMetrics,
    SearchConsolePage, DATASET_FORMAT,
};
use kr_core::domain::{
    ImportStatus, Job, JobId, JobStatus, Plan, PropertyUrl, SearchConsoleImport, SharedTab,
};
use kr_tests::harness::{self, Call};

use super::share_page::link_to;
use super::{app, session};

pub(crate) const PROPERTY: &str = "sc-domain:brightbrew-coffee.com";
/// The hostile query: markup from Google's data is text.
pub(crate) const HOSTILE: &str = "<script>alert('kw')</script> coffee";

fn page(url: &str, clicks: u64, impressions: u64, position: f64) -> SearchConsolePage {
    SearchConsolePage {
        page: url.into(),
        clicks,
        impressions,
        position,
    }
}

fn figures(
    (clicks, impressions, position): (u64, u64, f64),
    previous_clicks: u64,
    pages: Vec<SearchConsolePage>,
) -> SearchConsoleMetrics {
    SearchConsoleMetrics {
        clicks,
        impressions,
        ctr: if impressions == 0 {
            0.0
        } else {
            (clicks as f64 / impressions as f64 * 10_000.0).round() / 10_000.0
        },
        position,
        // The page with the most clicks, as the import picks it (`pages` here in any order).
        page: pages
            .iter()
            .max_by_key(|p| p.clicks)
            .map(|p| p.page.clone()),
        previous_clicks,
        previous_impressions: previous_clicks * 20,
        pages,
        daily: Vec::new(),
    }
}

fn keyword(id: &str, text: &str, cluster: &str, sc: Option<SearchConsoleMetrics>) -> KeywordRecord {
    KeywordRecord {
        id: id.into(),
        keyword: text.into(),
        search_volume: Some(500),
        cpc: None,
        competition: None,
        difficulty: Some(20),
        intent: Intent::Informational,
        secondary_intents: Vec::new(),
        persona_avatar_name: None,
        cluster_id: cluster.into(),
        cluster_name: cluster.replace('-', " "),
        organic_opportunity_score: 10.0,
        paid_opportunity_score: 0.0,
        opportunity_value: 1.0,
        monthly_searches: Vec::new(),
        metrics_source: "estimate".into(),
        rankings: Vec::new(),
        content_gap: false,
        source: None,
        topic_id: None,
        serp_features: None,
        people_also_ask: None,
        weak_spots: None,
        search_console: sc,
        ai_overview: None,
    }
}

fn cluster(id: &str, keywords: usize) -> ClusterRecord {
    ClusterRecord {
        id: id.into(),
        name: id.replace('-', " "),
        primary_keyword: id.replace('-', " "),
        keyword_count: keywords,
        total_search_volume: keywords as i64 * 500,
        avg_difficulty: Some(20.0),
        dominant_intent: Intent::Informational,
        organic_opportunity_score: 10.0,
        opportunity_value: 1.0,
        ..ClusterRecord::default()
    }
}

/// Seven keywords in two clusters: three in striking distance (1,234, 300 and exactly 10
/// impressions, the last only in Search Console), two decaying (400 and 10 clicks lost), two
/// cannibalized (5,000 and 300 impressions), one near miss of each, one without data.
pub(crate) fn dataset(job: JobId) -> ResultsDataset {
    let site = "https://brightbrew-coffee.com";
    let mut only_here = keyword(
        "k-only",
        "only in search console",
        "cold-brew",
        Some(figures(
            (0, 10, 15.0),
            0,
            vec![page(&format!("{site}/only"), 0, 10, 15.0)],
        )),
    );
    only_here.source = Some(KeywordSource::SearchConsole);
    only_here.metrics_source = "search_console".into();
    let keywords = vec![
        keyword(
            "k-ratio",
            "cold brew ratio",
            "cold-brew",
            Some(figures(
                (40, 1234, 7.34),
                45,
                vec![page(&format!("{site}/cold-brew"), 40, 1234, 7.34)],
            )),
        ),
        keyword(
            "k-hostile",
            HOSTILE,
            "cold-brew",
            Some(figures(
                (3, 300, 12.0),
                2,
                vec![
                    page("javascript:alert(2)", 2, 100, 10.0),
                    page(&format!("{site}/a"), 1, 200, 13.0),
                ],
            )),
        ),
        keyword(
            "k-machine",
            "espresso machine",
            "espresso",
            Some(figures(
                (500, 5000, 2.1),
                900,
                vec![
                    page(&format!("{site}/machines"), 100, 1500, 3.5),
                    page(&format!("{site}/espresso"), 400, 3500, 1.5),
                ],
            )),
        ),
        keyword(
            "k-grind",
            "espresso grind",
            "espresso",
            Some(figures(
                (20, 400, 25.0),
                30,
                vec![page("javascript:alert(1)", 20, 400, 25.0)],
            )),
        ),
        // Top 3, fewer than 20 clicks before, one page with impressions: in no table.
        keyword(
            "k-home",
            "cold brew at home",
            "cold-brew",
            Some(figures(
                (0, 50, 3.0),
                19,
                vec![
                    page(&format!("{site}/home"), 0, 50, 3.0),
                    page(&format!("{site}/other"), 0, 0, 0.0),
                ],
            )),
        ),
        keyword("k-press", "french press", "espresso", None),
        only_here,
    ];
    ResultsDataset {
        format: DATASET_FORMAT,
        job_id: job,
        keywords,
        clusters: vec![cluster("cold-brew", 4), cluster("espresso", 3)],
        personas: Vec::new(),
        topics: Vec::new(),
    }
}

pub(crate) fn imported() -> SearchConsoleImport {
    SearchConsoleImport {
        status: ImportStatus::Imported,
        reason: None,
        rows: 12_345,
        queries: 40,
        keywords: 6,
        added_keywords: 1,
        start_date: Some("2026-01-01".into()),
        end_date: Some("2026-03-31".into()),
    }
}

/// A completed job of `owner` on the property, with Search Console import `import` (`None`:
/// the job names no property) and the results [`dataset`], stored as the pipeline leaves one.
pub(crate) async fn store_job(
    owner: kr_core::domain::UserId,
    import: Option<SearchConsoleImport>,
) -> Job {
    let store = harness::store().await;
    let job = Job {
        completed_at: Some(chrono::Utc::now()),
        keyword_count: Some(7),
        search_console_property: import
            .as_ref()
            .map(|_| PropertyUrl::parse(PROPERTY).unwrap()),
        search_console: import,
        ..harness::job_record(
            owner,
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
    job
}

/// [`store_job`] for a new Agency user, with the dashboard and that user's session.
async fn job_with_search_console(
    import: Option<SearchConsoleImport>,
) -> (axum::Router, Job, String) {
    let store = harness::store().await;
    let owner = harness::new_user(&store, Plan::Agency, 1, 1).await;
    let job = store_job(owner.id, import).await;
    let app = app().await;
    let cookie = session(&app, owner.email.as_str()).await;
    (app, job, cookie)
}

async fn get(app: &axum::Router, path: &str, cookie: Option<&str>) -> (u16, String) {
    let mut call = Call::get(path);
    if let Some(cookie) = cookie {
        call = call.header("cookie", cookie);
    }
    let reply = call.send(app).await;
    (reply.status, reply.text)
}

/// The part of `page` from `start` to the next `end`.
fn between<'a>(page: &'a str, start: &str, end: &str) -> &'a str {
    let from = page
        .find(start)
        .unwrap_or_else(|| panic!("{start} in {page}"));
    let rest = &page[from..];
    &rest[..rest.find(end).unwrap_or(rest.len())]
}

/// The `data-keyword-id`s of the rows of the table with class `table`.
fn rows(page: &str, table: &str) -> Vec<String> {
    let body = between(page, &format!(r#"<table class="sc {table}">"#), "</table>");
    body.match_indices(r#"data-keyword-id=""#)
        .map(|(at, found)| {
            let rest = &body[at + found.len()..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect()
}

/// The row of `keyword_id` in the table with class `table`.
fn row<'a>(page: &'a str, table: &str, keyword_id: &str) -> &'a str {
    let body = between(page, &format!(r#"<table class="sc {table}">"#), "</table>");
    let at = body
        .find(&format!(r#"data-keyword-id="{keyword_id}""#))
        .unwrap();
    let start = body[..at].rfind("<tr").unwrap();
    &body[start..start + body[start..].find("</tr>").unwrap()]
}

fn nav(page: &str) -> &str {
    between(page, r#"<nav class="tabs""#, "</nav>")
}

#[tokio::test]
async fn the_search_console_tab_shows_striking_decaying_and_cannibalized_queries() {
    let (app, job, cookie) = job_with_search_console(Some(imported())).await;
    let base = format!("/jobs/{}", job.id);
    let (status, page) = get(&app, &format!("{base}?tab=search_console"), Some(&cookie)).await;
    assert_eq!(status, 200, "{page}");
    assert!(
        nav(&page).contains(r#"aria-current="page">Search Console</a>"#),
        "{}",
        nav(&page)
    );
    // The import's outcome at the head.
    let notice = between(&page, r#"id="search-console-import""#, "</p>");
    assert!(notice.contains(PROPERTY), "{notice}");
    assert!(
        notice.contains("imported 12,345 rows for 2026-01-01–2026-03-31, 6 keywords (1 only in Search Console)."),
        "{notice}"
    );

    // Striking distance: by impressions, the one at exactly 10 impressions included.
    assert_eq!(rows(&page, "striking"), ["k-ratio", "k-hostile", "k-only"]);
    let ratio = row(&page, "striking", "k-ratio");
    for cell in [
        r#"<td class="num">7.3</td>"#,
        r#"title="1,234">1.2K</span>"#,
        r#"<td class="num">40</td>"#,
        r#"<td class="num">3.2%</td>"#,
        r#"<a href="https://brightbrew-coffee.com/cold-brew" rel="noopener noreferrer nofollow" target="_blank">brightbrew-coffee.com/cold-brew</a>"#,
    ] {
        assert!(ratio.contains(cell), "{cell} in {ratio}");
    }
    // Each row links to its cluster's keywords and its brief.
    assert!(ratio.contains(&format!(
        r#"href="{base}?tab=keywords&amp;cluster=cold-brew" data-partial data-cluster="cold-brew">cold brew</a>"#
    )), "{ratio}");
    assert!(ratio.contains(&format!(
        r#"href="{base}/clusters/cold-brew/brief" aria-label="Brief for cold brew""#
    )));

    // Decaying: by clicks lost, 900 → 500 before 30 → 20.
    assert_eq!(rows(&page, "decaying"), ["k-machine", "k-grind"]);
    let machine = row(&page, "decaying", "k-machine");
    assert!(machine.contains("900 → 500"), "{machine}");
    assert!(machine.contains("−44%"), "{machine}");
    assert!(machine.contains(r#"href="https://brightbrew-coffee.com/espresso""#));
    assert!(machine.contains(&format!("{base}/clusters/espresso/brief")));
    let grind = row(&page, "decaying", "k-grind");
    assert!(
        grind.contains("30 → 20") && grind.contains("−33%"),
        "{grind}"
    );

    // Cannibalized: by impressions; each query's pages by clicks with their figures.
    assert_eq!(rows(&page, "cannibalized"), ["k-machine", "k-hostile"]);
    let machine = row(&page, "cannibalized", "k-machine");
    let espresso = machine.find("brightbrew-coffee.com/espresso").unwrap();
    let machines = machine.find("brightbrew-coffee.com/machines").unwrap();
    assert!(espresso < machines, "most clicks first: {machine}");
    assert!(machine.contains("400 clicks · "), "{machine}");
    assert!(
        machine.contains(r#"title="3,500">3.5K</span> impr. · #1.5"#),
        "{machine}"
    );
    assert!(
        machine.contains(r#"title="1,500">1.5K</span> impr. · #3.5"#),
        "{machine}"
    );
    let hostile = row(&page, "cannibalized", "k-hostile");
    assert!(
        hostile.contains("2 clicks · ") && hostile.contains("1 click · "),
        "{hostile}"
    );

    // Near misses and keywords without data are in no table.
    for absent in ["k-home", "k-press"] {
        assert!(
            !page.contains(&format!(r#"data-keyword-id="{absent}""#)),
            "{absent}"
        );
    }
}

#[tokio::test]
async fn hostile_queries_and_pages_from_search_console_are_inert() {
    let (app, job, cookie) = job_with_search_console(Some(imported())).await;
    let (status, page) = get(
        &app,
        &format!("/jobs/{}?tab=search_console", job.id),
        Some(&cookie),
    )
    .await;
    assert_eq!(status, 200, "{page}");
    assert!(
        !page.contains("<script>alert('kw')"),
        "the query is escaped"
    );
    assert!(page.contains("&lt;script&gt;alert('kw')&lt;/script&gt; coffee"));
    // `javascript:` pages are text, never a link.
    assert!(!page.to_lowercase().contains("href=\"javascript"), "{page}");
    let hostile = row(&page, "striking", "k-hostile");
    assert!(hostile.contains("javascript:alert(2)"), "{hostile}");
    assert!(!hostile.contains("<a href=\"javascript"));
    let grind = row(&page, "decaying", "k-grind");
    assert!(grind.contains("javascript:alert(1)"), "{grind}");
    // Every link out is one the page it leads to cannot act through.
    for (at, _) in page.match_indices("target=\"_blank\"") {
        let tag = &page[page[..at].rfind('<').unwrap()..at];
        assert!(
            tag.contains(r#"rel="noopener noreferrer nofollow""#),
            "{tag}"
        );
    }
}

#[tokio::test]
async fn a_skipped_import_is_told_and_the_tab_is_not_offered() {
    let reason = "Google refused the grant: <b>invalid_grant</b>";
    let (app, job, cookie) =
        job_with_search_console(Some(SearchConsoleImport::skipped(reason))).await;
    let base = format!("/jobs/{}", job.id);
    let (status, page) = get(&app, &base, Some(&cookie)).await;
    assert_eq!(status, 200, "{page}");
    let notice = between(&page, r#"id="search-console-import""#, "</p>");
    assert!(notice.contains(r#"data-status="skipped""#), "{notice}");
    assert!(notice.contains(PROPERTY));
    assert!(
        notice.contains("skipped: Google refused the grant: &lt;b&gt;invalid_grant&lt;/b&gt;."),
        "{notice}"
    );
    assert!(!page.contains("<b>invalid_grant"));
    assert!(!nav(&page).contains("Search Console"), "{}", nav(&page));
    // Asked for anyway, the page opens on its first tab.
    let (status, page) = get(&app, &format!("{base}?tab=search_console"), Some(&cookie)).await;
    assert_eq!(status, 200);
    assert!(nav(&page).contains(r#"aria-current="page">Keywords</a>"#));
    assert!(!page.contains(r#"<table class="sc "#));
    // Nor is it offered for a share link.
    let (_, share) = get(&app, &format!("{base}/share"), Some(&cookie)).await;
    assert!(share.contains(r#"name="changes""#), "{share}");
    assert!(!share.contains(r#"name="search_console""#));

    // A job without a property says nothing of Search Console.
    let (app, job, cookie) = job_with_search_console(None).await;
    let (_, page) = get(&app, &format!("/jobs/{}", job.id), Some(&cookie)).await;
    assert!(!page.contains("search-console-import"), "{page}");
    assert!(!nav(&page).contains("Search Console"));
    assert!(!page.contains(r#"name="strikingDistance""#));
    assert!(!page.contains(">Impr.<"));
}

#[tokio::test]
async fn the_keyword_table_filters_by_striking_distance_and_decay_and_shows_the_figures() {
    let (app, job, cookie) = job_with_search_console(Some(imported())).await;
    let keywords = |query: &str| format!("/jobs/{}?tab=keywords&limit=200{query}", job.id);
    let total = |page: &str| {
        let at = page.find(r#"data-total=""#).expect("a count") + r#"data-total=""#.len();
        page[at..at + page[at..].find('"').unwrap()].to_string()
    };
    let (status, page) = get(&app, &keywords(""), Some(&cookie)).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(total(&page), "7");
    assert!(
        page.contains(r#"name="strikingDistance" value="true""#),
        "{page}"
    );
    assert!(page.contains(r#"name="decaying" value="true""#));
    assert!(page.contains(r#"data-sort="impressions">Impr.</a>"#));
    assert!(page.contains(r#"data-sort="position">Pos.</a>"#));
    assert!(
        page.contains(r#"data-impressions="5000"><span title="5,000">5K</span>"#),
        "{page}"
    );

    let (_, page) = get(&app, &keywords("&strikingDistance=true"), Some(&cookie)).await;
    assert_eq!(total(&page), "3");
    assert!(page.contains(r#"name="strikingDistance" value="true" checked"#));
    let (_, page) = get(&app, &keywords("&decaying=true"), Some(&cookie)).await;
    assert_eq!(total(&page), "2");
    assert!(page.contains("espresso machine") && page.contains("espresso grind"));
    assert!(!page.contains("cold brew ratio"));
    let (_, page) = get(
        &app,
        &keywords("&sortBy=impressions&sortOrder=desc"),
        Some(&cookie),
    )
    .await;
    let first = page.find("espresso machine").unwrap();
    assert!(first < page.find("cold brew ratio").unwrap());
    // The keyword without data sorts last and shows dashes.
    assert!(page.find("french press").unwrap() > page.find("only in search console").unwrap());
    let (status, page) = get(&app, &keywords("&decaying=maybe"), Some(&cookie)).await;
    assert_eq!(status, 400, "{page}");
}

#[tokio::test]
async fn a_share_link_can_show_the_search_console_tab() {
    let (app, job, cookie) = job_with_search_console(Some(imported())).await;
    let (_, share) = get(&app, &format!("/jobs/{}/share", job.id), Some(&cookie)).await;
    assert!(
        share.contains(r#"name="search_console" value="on">"#),
        "offered, not chosen by default: {share}"
    );
    let token = link_to(&job, &[SharedTab::Keywords, SharedTab::SearchConsole]).await;
    let base = format!("/share/{}", token.expose());
    let (status, page) = get(&app, &format!("{base}?tab=search_console"), None).await;
    assert_eq!(status, 200, "{page}");
    assert!(nav(&page).contains(r#"aria-current="page">Search Console</a>"#));
    assert_eq!(rows(&page, "striking"), ["k-ratio", "k-hostile", "k-only"]);
    // Clusters link to the keywords tab on the share URL; briefs need an account.
    assert!(page.contains(&format!(
        r#"href="{base}?tab=keywords&amp;cluster=cold-brew""#
    )));
    assert!(!page.contains("/brief"), "{page}");
    assert!(page.contains("imported 12,345 rows"));

    // A link without the tab does not show it.
    let token = link_to(&job, &[SharedTab::Keywords]).await;
    let (_, page) = get(
        &app,
        &format!("/share/{}?tab=search_console", token.expose()),
        None,
    )
    .await;
    assert!(!nav(&page).contains("Search Console"));
    assert!(!page.contains(r#"<table class="sc "#));
}
