//! What changed between two runs, end to end, through the results API and the dashboard's
//! Changes tab: the real pipeline runs twice with something edited in between.
//!
//! - With DataForSEO (the mock over a copy of its fixtures, edited between the runs): the
//!   changes are exactly the edits, a volume and three positions.
//! - Offline, over a copy of the roofer's sample site (its skylight service taken out, a solar
//!   panel service added): every keyword of the removed service is lost and every keyword of
//!   the added one is new. Offline keywords are chosen from the whole site, so such an edit
//!   also moves some ideas of other services; that run checks the edits are all there.
//! - AI citations gained and lost, on stored runs whose overviews and answers differ
//!   (`ai_citations`).

use std::path::{Path, PathBuf};

use kr_core::domain::{Job, JobId, UserId};
use kr_core::service::jobs::CreateJobRequest;
use kr_results::{router, ResultsState};
use kr_tests::dataforseo_mock::{fixtures_dir, MockConfig, MockDataForSeo};
use kr_tests::harness::{self, Call};
use kr_tests::pipeline_rig::{discovery_request, provider_at, rig, Rig};
use kr_tests::sites::{fixtures_root, DEMO_COMPETITOR, DEMO_PRIMARY};
use serde_json::Value;

mod ai_citations;

const SITE: &str = "ridgeline-edited.com";
const COMPETITOR: &str = "ironclad-roofers.com";

/// A copy of a folder of fixtures (a sample site, the mock's data) that a test may edit;
/// removed with it.
struct EditableCopy(PathBuf);

impl EditableCopy {
    fn of(folder: &Path) -> Self {
        let root = std::env::temp_dir().join(format!("kr-edited-{}", uuid::Uuid::new_v4()));
        copy_dir(folder, &root);
        Self(root)
    }

    fn edit_json(&self, relative: &str, edit: impl FnOnce(&mut Value)) {
        let file = self.0.join(relative);
        let mut value: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        edit(&mut value);
        std::fs::write(&file, serde_json::to_string(&value).unwrap()).unwrap();
    }

    fn path(&self) -> &Path {
        &self.0
    }

    /// Takes out every line naming `word` (any case) from every page, and the pages named
    /// after it: the service is gone from the site, its links and mentions too.
    fn remove_service(&self, word: &str) {
        for file in files(&self.0) {
            let name = file.file_name().unwrap().to_string_lossy().to_lowercase();
            if name.contains(word) {
                std::fs::remove_file(&file).unwrap();
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            if text.to_lowercase().contains(word) {
                let kept: Vec<&str> = text
                    .lines()
                    .filter(|line| !line.to_lowercase().contains(word))
                    .collect();
                std::fs::write(&file, kept.join("\n")).unwrap();
            }
        }
    }

    fn write(&self, relative: &str, text: &str) {
        std::fs::write(self.0.join(relative), text).unwrap();
    }

    /// Inserts `line` after the first line of `relative` containing `after`.
    fn insert_after(&self, relative: &str, after: &str, line: &str) {
        let file = self.0.join(relative);
        let text = std::fs::read_to_string(&file).unwrap();
        let at = text.find(after).expect("the anchor line");
        let end = at + text[at..].find('\n').unwrap() + 1;
        std::fs::write(&file, format!("{}{line}\n{}", &text[..end], &text[end..])).unwrap();
    }
}

impl Drop for EditableCopy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn files(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(root).unwrap().flatten() {
        if entry.file_type().unwrap().is_dir() {
            found.extend(files(&entry.path()));
        } else {
            found.push(entry.path());
        }
    }
    found
}

const SOLAR_PAGE: &str = r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Solar Panel Removal &amp; Reinstallation in Montclair NJ | Ridgeline Roofing</title>
<meta name="description" content="Solar panel removal and reinstallation for roof replacement in Montclair and Essex County NJ.">
</head>
<body>
<h1>Solar panel removal and reinstallation</h1>
<p>Replacing a roof under solar panels? We handle solar panel removal, store the panels and do the solar panel reinstallation once the new roof is on.</p>
<h2>Solar panel removal cost</h2>
<p>Solar panel removal is priced per panel; ask for a free estimate.</p>
</body>
</html>
"#;

fn request(primary: &str, competitor: &str) -> CreateJobRequest {
    discovery_request(primary, &[competitor], 2840)
}

async fn run(rig: &Rig, owner: UserId, primary: &str, competitor: &str) -> Job {
    let job = rig.start_for(owner, request(primary, competitor)).await;
    rig.complete(job.id).await
}

async fn changes(app: &axum::Router, key: &str, job: JobId, query: &str, status: u16) -> Value {
    Call::get(&format!("/api/v1/jobs/{job}/changes{query}"))
        .api_key(key)
        .send(app)
        .await
        .expect(status)
        .json
}

fn strings(list: &Value, field: &str) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|item| item[field].as_str().unwrap().to_lowercase())
        .collect()
}

#[tokio::test]
async fn a_second_run_after_the_site_changed_reports_exactly_the_edits() {
    let site = EditableCopy::of(&fixtures_root().join("ridgeline-roofing.com"));
    let rig = rig(None, &[(SITE, site.path().to_str().unwrap())]).await;
    let store = harness::store().await;
    let (user, key) = harness::user_with_key(&store, 10, 10).await;
    let first = run(&rig, user.id, SITE, COMPETITOR).await;

    site.remove_service("skylight");
    site.write("services/solar-panel-removal.html", SOLAR_PAGE);
    site.insert_after(
        "services/index.html",
        "/services/roof-repair.html",
        r#"<li><a href="/services/solar-panel-removal.html">Solar panel removal</a> before a new roof</li>"#,
    );
    let second = run(&rig, user.id, SITE, COMPETITOR).await;

    let app = router(ResultsState::from_config(harness::config(), harness::resources()).await);
    let body = changes(&app, &key, second.id, "?limit=200", 200).await;
    assert_eq!(body["since"]["jobId"], first.id.to_string(), "{body}");
    let new = strings(&body["newKeywords"], "keyword");
    let lost = strings(&body["lostKeywords"], "keyword");
    assert!(!new.is_empty() && !lost.is_empty(), "{body}");
    let (before, after) = (
        keywords_of(&rig, &first).await,
        keywords_of(&rig, &second).await,
    );
    let skylight: Vec<&String> = before.iter().filter(|k| k.contains("skylight")).collect();
    let solar: Vec<&String> = after.iter().filter(|k| k.contains("solar")).collect();
    assert!(!skylight.is_empty() && !solar.is_empty());
    assert!(
        !after.iter().any(|k| k.contains("skylight")),
        "the service is gone"
    );
    for keyword in &skylight {
        assert!(
            lost.contains(keyword),
            "{keyword} is not reported lost: {lost:?}"
        );
    }
    for keyword in &solar {
        assert!(
            new.contains(keyword),
            "{keyword} is not reported new: {new:?}"
        );
    }
    for keyword in &new {
        assert!(
            !before.contains(keyword) && after.contains(keyword),
            "{keyword}"
        );
    }
    for keyword in &lost {
        assert!(
            before.contains(keyword) && !after.contains(keyword),
            "{keyword}"
        );
    }
    assert_eq!(body["counts"]["newKeywords"], new.len());
    assert_eq!(body["counts"]["lostKeywords"], lost.len());
    let new_clusters = strings(&body["newClusters"], "name");
    let gone_clusters = strings(&body["goneClusters"], "name");
    assert!(
        new_clusters.iter().any(|c| c.contains("solar")),
        "{new_clusters:?}"
    );
    assert!(
        gone_clusters.iter().any(|c| c.contains("skylight")),
        "{gone_clusters:?}"
    );
    // Offline: estimates are not compared, and nothing measures positions.
    assert_eq!(body["volumesCompared"], false);
    assert_eq!(body["volumeMoves"], serde_json::json!([]));
    assert_eq!(body["positionGains"], serde_json::json!([]));
    let history = body["history"].as_array().unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[1]["jobId"], second.id.to_string());
    let summary = body["summary"].as_str().unwrap();
    assert!(
        summary.contains(&format!("{} appeared", plural(new.len())))
            && summary.contains("not compared"),
        "{summary}"
    );

    // The same with the earlier run named, and nothing for the first run itself.
    let named = changes(
        &app,
        &key,
        second.id,
        &format!("?since={}&limit=200", first.id),
        200,
    )
    .await;
    assert_eq!(named["counts"], body["counts"]);
    let first_changes = changes(&app, &key, first.id, "", 200).await;
    assert_eq!(first_changes["since"], Value::Null);
    assert_eq!(first_changes["counts"]["newKeywords"], 0);
    assert!(first_changes["summary"]
        .as_str()
        .unwrap()
        .contains("first completed run"));

    // Lists are cut at `limit`, counts stay whole.
    let one = changes(&app, &key, second.id, "?limit=1", 200).await;
    assert_eq!(one["newKeywords"].as_array().unwrap().len(), 1);
    assert_eq!(one["counts"]["newKeywords"], new.len());

    refusals(&rig, &app, &key, user.id, &first, &second).await;
    dashboard_tab(&second, &user, solar[0]).await;
}

async fn keywords_of(rig: &Rig, job: &Job) -> Vec<String> {
    let dataset = rig.dataset(job.id).await;
    dataset
        .keywords
        .into_iter()
        .map(|k| k.keyword.to_lowercase())
        .collect()
}

fn plural(count: usize) -> String {
    if count == 1 {
        "1 keyword".into()
    } else {
        format!("{count} keywords")
    }
}

/// What does not compare is refused with the contract's errors.
async fn refusals(
    rig: &Rig,
    app: &axum::Router,
    key: &str,
    owner: UserId,
    first: &Job,
    second: &Job,
) {
    // Refused before either dataset is read: the other domain's job need not have run.
    let other_domain = rig
        .start_for(owner, request("ridgeline-roofing.com", COMPETITOR))
        .await;
    let refused = changes(
        app,
        key,
        second.id,
        &format!("?since={}", other_domain.id),
        400,
    )
    .await;
    assert_eq!(refused["code"], "validation_failed");
    assert_eq!(
        refused["details"]["fields"][0]["field"], "since",
        "{refused}"
    );
    let itself = changes(app, key, second.id, &format!("?since={}", second.id), 400).await;
    assert_eq!(itself["details"]["fields"][0]["field"], "since");
    changes(app, key, second.id, "?since=not-a-job", 400).await;
    changes(app, key, second.id, "?limit=0", 400).await;
    changes(
        app,
        key,
        second.id,
        &format!("?since={}", JobId::new()),
        404,
    )
    .await;

    // Another account sees neither job, and cannot compare with one of them.
    let store = harness::store().await;
    let (stranger, stranger_key) = harness::user_with_key(&store, 10, 10).await;
    changes(app, &stranger_key, second.id, "", 404).await;
    let theirs = rig.start_for(stranger.id, request(SITE, COMPETITOR)).await;
    changes(
        app,
        &stranger_key,
        theirs.id,
        &format!("?since={}", first.id),
        404,
    )
    .await;
    // A job still queued answers an empty comparison, like its other results, and cannot be
    // the earlier run.
    let waiting = changes(app, &stranger_key, theirs.id, "", 200).await;
    assert_eq!(waiting["since"], Value::Null);
    assert!(waiting["summary"]
        .as_str()
        .unwrap()
        .contains("not completed"));
    let queued = rig.start_for(owner, request(SITE, COMPETITOR)).await;
    let refused = changes(app, key, second.id, &format!("?since={}", queued.id), 409).await;
    assert_eq!(refused["code"], "job_not_ready");
}

/// The dashboard's Changes tab shows the summary, the chart and the new keywords, escaped.
async fn dashboard_tab(job: &Job, user: &kr_core::store::User, new_keyword: &str) {
    let app = kr_web::router(
        kr_web::WebState::from_config(harness::config(), harness::resources()).await,
    );
    let cookie = harness::web_session(&app, user.email.as_str()).await;
    let page = Call::get(&format!("/jobs/{}?tab=changes", job.id))
        .header("cookie", &cookie)
        .send(&app)
        .await
        .expect(200)
        .text;
    assert!(page.contains("aria-current=\"page\">Changes"), "{page}");
    assert!(page.contains("appeared"), "the summary");
    assert!(page.contains("Visibility per run"), "the history chart");
    assert!(page.contains("Average position"), "{page}");
    assert!(page.to_lowercase().contains(new_keyword), "{new_keyword}");
}

/// The mock's ranked keyword entry of `target` for `keyword`, to edit.
fn ranked_entry<'a>(ranked: &'a mut Value, target: &str, keyword: &str) -> &'a mut Value {
    ranked[target]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|entry| entry["keyword"] == keyword)
        .unwrap_or_else(|| panic!("{target} ranks for {keyword} in the fixtures"))
}

fn set_rank(entry: &mut Value, rank: u32) {
    entry["serp_item"]["rank_group"] = rank.into();
    entry["serp_item"]["rank_absolute"] = rank.into();
}

async fn provider_run(data: &Path, owner: UserId) -> Job {
    let mock = MockDataForSeo::start(MockConfig {
        data_dir: data.to_path_buf(),
        ..MockConfig::default()
    })
    .await
    .unwrap();
    // Positions and volumes come from Labs; results pages (and their queue) add nothing to
    // what this test compares, and would double its time.
    let provider = provider_at(
        &mock.base_url(),
        "mock-login",
        "mock-password",
        &[("KR_DATAFORSEO_SERP_BUDGET", "0")],
    )
    .await;
    let rig = rig(Some(provider), &[]).await;
    run(&rig, owner, DEMO_PRIMARY, DEMO_COMPETITOR).await
}

#[tokio::test]
async fn with_measured_data_the_changes_are_exactly_what_moved_in_search() {
    let data = EditableCopy::of(&fixtures_dir());
    let store = harness::store().await;
    let (user, key) = harness::user_with_key(&store, 10, 10).await;
    let first = provider_run(data.path(), user.id).await;

    // A month later: one keyword's volume doubled, the site fell on one keyword, rose on
    // another, and entered the results for a third (the competitor's).
    data.edit_json("ranked_keywords.json", |ranked| {
        set_rank(
            ranked_entry(ranked, DEMO_PRIMARY, "easy cold brew coffee"),
            7,
        );
        set_rank(
            ranked_entry(ranked, DEMO_PRIMARY, "conical burr grinder"),
            4,
        );
        let mut entered = ranked_entry(ranked, DEMO_COMPETITOR, "nitro cold brew").clone();
        entered["serp_item"]["domain"] = DEMO_PRIMARY.into();
        entered["serp_item"]["main_domain"] = DEMO_PRIMARY.into();
        entered["serp_item"]["url"] =
            format!("https://{DEMO_PRIMARY}/blog/cold-brew-recipe.html").into();
        set_rank(&mut entered, 9);
        ranked[DEMO_PRIMARY].as_array_mut().unwrap().push(entered);
    });
    data.edit_json("keywords.json", |keywords| {
        let moka = keywords
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .find(|k| k["keyword"] == "moka pot")
            .expect("moka pot has Labs data");
        let volume = moka["keyword_info"]["search_volume"].as_i64().unwrap();
        moka["keyword_info"]["search_volume"] = (volume * 2).into();
    });
    let second = provider_run(data.path(), user.id).await;

    let app = router(ResultsState::from_config(harness::config(), harness::resources()).await);
    let body = changes(&app, &key, second.id, "?limit=200", 200).await;
    assert_eq!(body["since"]["jobId"], first.id.to_string());
    let moves = |list: &str| -> Vec<(String, Value, Value, i64)> {
        body[list]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["keyword"].as_str().unwrap().to_string(),
                    m["from"].clone(),
                    m["to"].clone(),
                    m["change"].as_i64().unwrap(),
                )
            })
            .collect()
    };
    assert_eq!(
        moves("positionGains"),
        [
            ("nitro cold brew".into(), Value::Null, 9.into(), 92),
            ("conical burr grinder".into(), 19.into(), 4.into(), 15),
        ]
    );
    assert_eq!(
        moves("positionLosses"),
        [("easy cold brew coffee".into(), 2.into(), 7.into(), -5)]
    );
    assert_eq!(body["volumesCompared"], true);
    let volume_moves: Vec<String> = strings(&body["volumeMoves"], "keyword");
    assert_eq!(volume_moves, ["moka pot"]);
    let counts = &body["counts"];
    for nothing in ["newKeywords", "lostKeywords", "newTopics", "goneTopics"] {
        assert_eq!(counts[nothing], 0, "{nothing}: {body}");
    }
    let history = body["history"].as_array().unwrap();
    assert_eq!(history.len(), 2);
    assert!(
        history[1]["rankedKeywords"].as_u64() > history[0]["rankedKeywords"].as_u64(),
        "{history:?}"
    );
    let summary = body["summary"].as_str().unwrap();
    assert!(summary.contains("2 moved up and 1 down"), "{summary}");
}
