//! A job's AI visibility tab on a dataset and answers document written here: the share of
//! voice chart (site and each competitor), the clusters to earn citations in with their
//! links, the keywords' AI Overviews with hostile titles and `javascript:` references inert,
//! the engines' answers with a hostile answer (script, markup) shown as text and its cited
//! addresses through the URL guard; no tab for a job without the data; the tab through a
//! share link.

use kr_aws::s3::S3ObjectStore;
use kr_core::dataset::{
    objects, AiAnswer, AiAnswersDocument, AiOverview, AiReference, ClusterRecord, Intent,
    KeywordRecord, ResultsDataset, AI_ANSWERS_FORMAT, DATASET_FORMAT,
};
use kr_core::domain::{
    AiAnswersOutcome, AiAnswersStatus, AiEngine, Job, JobId, JobStatus, Plan, SharedTab, UserId,
};
use kr_tests::harness::{self, Call};

use super::share_page::link_to;
use super::{app, session};

pub(crate) const SITE: &str = "brightbrew-coffee.com";
pub(crate) const RIVAL: &str = "roastrivals.com";
pub(crate) const OTHER: &str = "kettleandcrema.com";
/// What a hostile model answers: markup is text.
pub(crate) const HOSTILE_ANSWER: &str =
    "<script>alert('answer')</script> Try <b>BrightBrew</b> <img src=x onerror=alert(2)>";
/// A hostile reference title from a SERP.
pub(crate) const HOSTILE_TITLE: &str = "<img src=x onerror=alert(3)> Cold brew guide";

/// An AI Overview citing `urls` (titles: the hostile one for the first), `None` for a SERP
/// without an overview.
fn overview(urls: Option<&[&str]>) -> AiOverview {
    let Some(urls) = urls else {
        return AiOverview::from_serp(None, SITE, &[RIVAL, OTHER]);
    };
    let references: Vec<AiReference> = urls
        .iter()
        .enumerate()
        .filter_map(|(at, url)| {
            let title = (at == 0).then_some(HOSTILE_TITLE);
            // A `javascript:` reference is no reference: the reader drops it, so it is written
            // here as the record would hold one that slipped through.
            AiReference::new(url, None, title).or_else(|| {
                Some(AiReference {
                    url: url.to_string(),
                    domain: "evil.example".into(),
                    title: title.map(String::from),
                })
            })
        })
        .collect();
    AiOverview::from_serp(Some(&references), SITE, &[RIVAL, OTHER])
}

fn keyword(
    id: &str,
    text: &str,
    cluster: &str,
    volume: i64,
    ai: Option<AiOverview>,
) -> KeywordRecord {
    KeywordRecord {
        id: id.into(),
        keyword: text.into(),
        search_volume: Some(volume),
        difficulty: Some(20),
        intent: Intent::Informational,
        cluster_id: cluster.into(),
        cluster_name: cluster.replace('-', " "),
        metrics_source: "dataforseo".into(),
        ai_overview: ai,
        ..KeywordRecord::default()
    }
}

fn cluster(id: &str, keywords: usize, volume: i64) -> ClusterRecord {
    ClusterRecord {
        id: id.into(),
        name: id.replace('-', " "),
        primary_keyword: id.replace('-', " "),
        keyword_count: keywords,
        total_search_volume: volume,
        dominant_intent: Intent::Informational,
        ..ClusterRecord::default()
    }
}

/// Three clusters. Cold brew's overviews cite the rival and never the site (to earn);
/// espresso's cite the site (and the other competitor once); moka pot's keywords show no
/// overview or had no SERP.
pub(crate) fn dataset(job: JobId) -> ResultsDataset {
    let keywords = vec![
        keyword(
            "k-ratio",
            "cold brew ratio",
            "cold-brew",
            900,
            Some(overview(Some(&[
                "https://roastrivals.com/cold-brew-ratio",
                "javascript:alert(1)",
            ]))),
        ),
        keyword(
            "k-concentrate",
            "cold brew concentrate",
            "cold-brew",
            400,
            Some(overview(Some(&[
                "https://blog.roastrivals.com/concentrate",
            ]))),
        ),
        keyword(
            "k-espresso",
            "espresso grind size",
            "espresso",
            700,
            Some(overview(Some(&[
                "https://www.brightbrew-coffee.com/espresso-grind",
                "https://kettleandcrema.com/grind",
            ]))),
        ),
        keyword("k-moka", "moka pot", "moka-pot", 300, Some(overview(None))),
        keyword("k-moka-guide", "moka pot guide", "moka-pot", 100, None),
    ];
    ResultsDataset {
        format: DATASET_FORMAT,
        job_id: job,
        keywords,
        clusters: vec![
            cluster("cold-brew", 2, 1300),
            cluster("espresso", 1, 700),
            cluster("moka-pot", 2, 400),
        ],
        personas: Vec::new(),
        topics: Vec::new(),
    }
}

fn answer(
    engine: AiEngine,
    cluster: &str,
    text: &str,
    urls: &[&str],
    cites_site: bool,
) -> AiAnswer {
    AiAnswer {
        engine,
        prompt: format!("What is the best {}?", cluster.replace('-', " ")),
        cluster_id: cluster.into(),
        mentions_site: text.contains("BrightBrew"),
        cites_site,
        competitors: if urls.iter().any(|u| u.contains(RIVAL)) {
            vec![RIVAL.into()]
        } else {
            Vec::new()
        },
        cited_urls: urls.iter().map(|u| u.to_string()).collect(),
        text: text.into(),
        cached: false,
    }
}

/// Two engines' answers: ChatGPT's hostile one cites the site and a `javascript:` address;
/// Perplexity's cites the rival.
pub(crate) fn answers() -> AiAnswersDocument {
    AiAnswersDocument {
        format: AI_ANSWERS_FORMAT,
        answers: vec![
            answer(
                AiEngine::ChatGpt,
                "cold-brew",
                HOSTILE_ANSWER,
                &[
                    "https://www.brightbrew-coffee.com/cold-brew",
                    "javascript:alert(4)",
                ],
                true,
            ),
            answer(
                AiEngine::Perplexity,
                "cold-brew",
                "Roast Rivals explains the ratio.",
                &["https://roastrivals.com/cold-brew-ratio"],
                false,
            ),
        ],
        cost_usd: 0.0123,
    }
}

/// A completed job of `owner` with [`dataset`] and, when `with_answers`, [`answers`] stored
/// as the pipeline leaves them.
pub(crate) async fn store_job(owner: UserId, with_answers: bool) -> Job {
    let store = harness::store().await;
    let job = Job {
        completed_at: Some(chrono::Utc::now()),
        keyword_count: Some(5),
        ai_answers: with_answers.then(|| AiAnswersOutcome {
            status: AiAnswersStatus::Completed,
            reason: None,
            engines: vec![AiEngine::ChatGpt, AiEngine::Perplexity],
            prompts: 1,
            cost_usd: 0.0123,
        }),
        ..harness::job_record(owner, JobStatus::Completed, SITE, &[RIVAL, OTHER])
    };
    store.import_jobs(std::slice::from_ref(&job)).await.unwrap();
    let resources = harness::resources();
    let results = S3ObjectStore::new(harness::clients().await.s3, resources.results_bucket);
    kr_core::store::put_dataset(&results, &dataset(job.id))
        .await
        .unwrap();
    if with_answers {
        kr_core::store::put_json(&results, job.id, &objects::ai_answers(), &answers())
            .await
            .unwrap();
    }
    job
}

async fn job_with_ai(with_answers: bool) -> (axum::Router, Job, String) {
    let store = harness::store().await;
    let owner = harness::new_user(&store, Plan::Agency, 1, 1).await;
    let job = store_job(owner.id, with_answers).await;
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

fn nav(page: &str) -> &str {
    between(page, r#"<nav class="tabs""#, "</nav>")
}

/// The values of `attribute` in `part`, in order.
fn values(part: &str, attribute: &str) -> Vec<String> {
    let start = format!(r#"{attribute}=""#);
    part.match_indices(&start)
        .map(|(at, found)| {
            let rest = &part[at + found.len()..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect()
}

/// Every `href` of `part`.
fn hrefs(part: &str) -> Vec<String> {
    values(part, "href")
}

#[tokio::test]
async fn the_tab_shows_the_share_the_clusters_to_earn_the_overviews_and_the_answers_inert() {
    let (app, job, cookie) = job_with_ai(true).await;
    let (status, page) = get(
        &app,
        &format!("/jobs/{}?tab=ai_visibility", job.id),
        Some(&cookie),
    )
    .await;
    assert_eq!(status, 200, "{page}");
    assert!(
        nav(&page).contains(r#"aria-current="page">AI visibility</a>"#),
        "{page}"
    );

    // 4 keywords with a SERP, 3 with an overview: the site in 1, the rival in 2, the other 1.
    let share = between(&page, r#"id="ai-share""#, "</section>");
    assert!(
        share.contains("Of the 4 keywords whose results page was read, 3 showed a Google AI Overview; 1 of those cite your site."),
        "{share}"
    );
    let chart = between(share, "<svg", "</svg>");
    assert_eq!(values(chart, "data-domain"), [SITE, RIVAL, OTHER]);
    for (domain, percent) in [(SITE, "33%"), (RIVAL, "67%"), (OTHER, "33%")] {
        let bar = between(chart, &format!(r#"data-domain="{domain}""#), "</g>");
        assert!(
            bar.contains(&format!(">{percent}</text>")),
            "{domain}: {bar}"
        );
    }
    assert!(chart.contains(r#"class="sov-bar own""#));

    // Cold brew is the cluster to earn: its link shows its keywords whose overview cites a
    // competitor, and its brief.
    let earn = between(&page, r#"id="earn-citation""#, "</section>");
    assert_eq!(values(earn, "data-earn-cluster"), ["cold-brew"]);
    let keywords_link = format!(
        "/jobs/{}?tab=keywords&amp;cluster=cold-brew&amp;aiOverview=cites_competitor",
        job.id
    );
    assert!(hrefs(earn).contains(&keywords_link), "{earn}");
    assert!(hrefs(earn).contains(&format!("/jobs/{}/clusters/cold-brew/brief", job.id)));
    assert!(earn.contains(RIVAL) && earn.contains("100%"), "{earn}");
    let (status, listed) = get(&app, &keywords_link.replace("&amp;", "&"), Some(&cookie)).await;
    assert_eq!(status, 200, "{listed}");
    assert!(listed.contains("cold brew ratio") && listed.contains("cold brew concentrate"));
    assert!(!listed.contains("espresso grind size"), "{listed}");

    // The keywords with an overview, most searched first; references through the guard.
    let overviews = between(&page, r#"id="ai-overviews""#, "</section>");
    assert_eq!(
        values(overviews, "data-ai-keyword"),
        ["k-ratio", "k-espresso", "k-concentrate"]
    );
    assert_eq!(
        values(overviews, "data-cites-site"),
        ["false", "true", "false"]
    );
    assert!(overviews.contains(r#"href="https://roastrivals.com/cold-brew-ratio""#));
    assert!(overviews.contains("&lt;img src=x onerror=alert(3)&gt; Cold brew guide"));
    assert!(!overviews.contains("<img"), "{overviews}");
    assert!(
        !hrefs(overviews)
            .iter()
            .any(|h| h.to_lowercase().starts_with("javascript")),
        "{overviews}"
    );
    assert!(overviews.contains("javascript:alert(1)"), "shown as text");

    // The answers: the hostile one is text, its `javascript:` address is no link.
    let answers = between(&page, r#"id="ai-answers""#, "</section>");
    assert_eq!(values(answers, "data-engine"), ["chat_gpt", "perplexity"]);
    assert!(answers.contains("ChatGPT") && answers.contains("Perplexity"));
    assert!(answers.contains("What is the best cold brew?"));
    assert!(
        answers.contains(
            "&lt;script&gt;alert('answer')&lt;/script&gt; Try &lt;b&gt;BrightBrew&lt;/b&gt;"
        ),
        "{answers}"
    );
    assert!(!page.contains("<script>alert"), "no script from the answer");
    assert!(
        !answers.contains("<b>") && !answers.contains("<img"),
        "{answers}"
    );
    assert!(answers.contains(
        r#"href="https://www.brightbrew-coffee.com/cold-brew" rel="noopener noreferrer nofollow""#
    ));
    assert!(!hrefs(answers).iter().any(|h| h.starts_with("javascript")));
    assert!(answers.contains("javascript:alert(4)"), "shown as text");
    assert!(answers.contains("Cites your site") && answers.contains("Does not cite your site"));
    assert!(
        answers.contains("1 of 2 answers cite your site"),
        "{answers}"
    );
    assert!(
        answers.contains("$0.0123"),
        "the owner sees the cost: {answers}"
    );
}

#[tokio::test]
async fn without_answers_the_tab_says_why_and_without_overviews_there_is_no_tab() {
    let (app, job, cookie) = job_with_ai(false).await;
    let (status, page) = get(
        &app,
        &format!("/jobs/{}?tab=ai_visibility", job.id),
        Some(&cookie),
    )
    .await;
    assert_eq!(status, 200, "{page}");
    let answers = between(&page, r#"id="ai-answers""#, "</section>");
    assert!(answers.contains("No answer engine was asked"), "{answers}");

    // A job whose keywords show no AI Overview and asked no engine has no such tab.
    let store = harness::store().await;
    let owner = harness::new_user(&store, Plan::Agency, 1, 1).await;
    let plain = Job {
        completed_at: Some(chrono::Utc::now()),
        ..harness::job_record(owner.id, JobStatus::Completed, SITE, &[RIVAL])
    };
    store
        .import_jobs(std::slice::from_ref(&plain))
        .await
        .unwrap();
    let mut without = dataset(plain.id);
    for keyword in &mut without.keywords {
        keyword.ai_overview = None;
    }
    let results = S3ObjectStore::new(
        harness::clients().await.s3,
        harness::resources().results_bucket,
    );
    kr_core::store::put_dataset(&results, &without)
        .await
        .unwrap();
    let cookie = session(&app, owner.email.as_str()).await;
    let (status, page) = get(
        &app,
        &format!("/jobs/{}?tab=ai_visibility", plain.id),
        Some(&cookie),
    )
    .await;
    assert_eq!(status, 200, "{page}");
    assert!(!nav(&page).contains("AI visibility"), "{page}");
    assert!(!page.contains(r#"id="ai-share""#));
    let (_, share) = get(&app, &format!("/jobs/{}/share", plain.id), Some(&cookie)).await;
    assert!(!share.contains(r#"name="ai_visibility""#), "{share}");
}

#[tokio::test]
async fn a_share_link_can_show_the_ai_visibility_tab() {
    let (app, job, cookie) = job_with_ai(true).await;
    let (_, share) = get(&app, &format!("/jobs/{}/share", job.id), Some(&cookie)).await;
    assert!(
        share.contains(r#"name="ai_visibility" value="on">"#),
        "offered, not chosen by default: {share}"
    );
    let token = link_to(&job, &[SharedTab::Keywords, SharedTab::AiVisibility]).await;
    let base = format!("/share/{}", token.expose());
    let (status, page) = get(&app, &format!("{base}?tab=ai_visibility"), None).await;
    assert_eq!(status, 200, "{page}");
    assert!(nav(&page).contains(r#"aria-current="page">AI visibility</a>"#));
    let earn = between(&page, r#"id="earn-citation""#, "</section>");
    assert!(
        hrefs(earn).contains(&format!(
            "{base}?tab=keywords&amp;cluster=cold-brew&amp;aiOverview=cites_competitor"
        )),
        "{earn}"
    );
    assert!(!page.contains("/brief"), "briefs need an account: {page}");
    assert!(!page.contains("$0.0123"), "the owner's cost is not shared");
    assert!(page.contains("&lt;script&gt;alert('answer')"));

    // A link without the tab does not show it.
    let token = link_to(&job, &[SharedTab::Keywords]).await;
    let (_, page) = get(
        &app,
        &format!("/share/{}?tab=ai_visibility", token.expose()),
        None,
    )
    .await;
    assert!(!nav(&page).contains("AI visibility"));
    assert!(!page.contains(r#"id="ai-answers""#));
}
