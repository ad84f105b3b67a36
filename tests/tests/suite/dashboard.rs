//! The dashboard in a real browser (headless Chromium over WebDriver) against every function
//! mounted on one local port as API Gateway routes them, the emulator, the sample sites and
//! the real pipeline. One scenario after another, as a user would go, each leaving a
//! screenshot in `target/screenshots/`.

mod ai_visibility_tab;
mod search_console;
mod search_console_tab;

use std::time::Duration;

use kr_brief_maker::BriefSettings;
use kr_briefs::BriefsState;
use kr_core::config::Config;
use kr_core::domain::{DomainName, JobStatus, LanguageCode, LocationCode, Plan};
use kr_core::service::jobs::{create_job, CreateJobRequest, JobPorts};
use kr_core::store::{JobStore, RegisteredDomains, User};
use kr_http::routes::Function;
use kr_jobs::EstimateSettings;
use kr_tests::bridge::{Bridge, InProcessPipeline};
use kr_tests::browser::Browser;
use kr_tests::gateway::Gateway;
use kr_tests::harness::{self, TEST_PASSWORD};
use kr_tests::pipeline_rig::{rig, Rig};
use kr_tests::sites::sample_sites_crawler;
use serde_json::{json, Value};

const SHORT: Duration = Duration::from_secs(10);
const JOB_RUN: Duration = Duration::from_secs(150);

struct Stack {
    base: String,
    rig: Rig,
}

/// Every function on one port, with the rig's queue drained by the real pipeline; the jobs
/// function previews costs with `estimates` when given (the pipeline has no provider either way).
async fn stack(demo_owner: &User, estimates: Option<EstimateSettings>) -> Stack {
    let rig = rig(None, &[]).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    let mut config: Config = harness::config();
    let mut resources = harness::resources();
    resources.jobs_queue_url = rig.queue_url.clone();
    config.allowed_origins.push(base.clone());
    config.demo_user_id = Some(demo_owner.id.as_uuid());
    let mut gateway = Gateway::with_every_function(config.clone(), resources.clone()).await;
    // Briefs read the sample sites, where the rig's crawler found them, and nothing else.
    let crawler = sample_sites_crawler().await;
    let briefs = BriefsState::with(
        config.clone(),
        resources.clone(),
        crawler,
        BriefSettings::default(),
    )
    .await;
    gateway = gateway.with_router(Function::Briefs, kr_briefs::router(briefs));
    if let Some(estimates) = estimates {
        let mut jobs = kr_jobs::JobsState::from_config(config, resources).await;
        jobs.estimates = estimates;
        gateway = gateway.with_router(Function::Jobs, kr_jobs::router(jobs));
    }
    gateway.serve(listener).await;
    let bridge = Bridge {
        sqs: rig.clients.sqs.clone(),
        queue_url: rig.queue_url.clone(),
        batch_size: 5,
    };
    let invoker = InProcessPipeline(rig.pipeline.clone());
    tokio::spawn(async move {
        loop {
            if bridge.poll_once(&invoker, 1).await.is_err() {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    });
    Stack { base, rig }
}

async fn sign_in(browser: &Browser, stack: &Stack, user: &User) {
    browser
        .goto(&format!("{}/login", stack.base))
        .await
        .unwrap();
    browser.fill("#email", user.email.as_str()).await.unwrap();
    browser.fill("#password", TEST_PASSWORD).await.unwrap();
    browser.click("form[action='/login'] button").await.unwrap();
    browser
        .wait_for_url(|url| url.ends_with("/jobs"), SHORT)
        .await
        .unwrap();
}

async fn sign_out(browser: &Browser) {
    browser
        .click("form[action='/logout'] button")
        .await
        .unwrap();
    browser
        .wait_for_url(|url| url.ends_with("/login"), SHORT)
        .await
        .unwrap();
}

async fn js(browser: &Browser, script: &str) -> Value {
    browser.execute(script, Vec::new()).await.unwrap()
}

/// A screenshot of the results, scrolled to them.
async fn results_screenshot(browser: &Browser, name: &str) {
    js(
        browser,
        "document.querySelector('nav.tabs').scrollIntoView(); return true;",
    )
    .await;
    browser.screenshot(name).await.unwrap();
}

/// The `data-*` values of every keyword row's cells matching `css`.
async fn column(browser: &Browser, css: &str, attribute: &str) -> Vec<String> {
    let script = format!(
        "return Array.from(document.querySelectorAll({css:?})).map(e => e.getAttribute({attribute:?}));"
    );
    js(browser, &script)
        .await
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap_or_default().to_string())
        .collect()
}

/// Nothing wider than the screen but the tables, which scroll inside their frames.
async fn assert_no_sideways_scroll(browser: &Browser) {
    let overflow = js(
        browser,
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
    )
    .await;
    let widest = js(
        browser,
        "return Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).slice(0, 6).map(e => e.tagName + '.' + e.className + '#' + e.id);",
    )
    .await;
    assert!(
        overflow.as_i64().unwrap() <= 1,
        "the page scrolls sideways by {overflow} px: {widest}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_user_researches_keywords_in_the_dashboard() {
    let store = harness::store().await;
    let ana = harness::new_user(&store, Plan::Agency, 5, 5).await;
    let stack = stack(&ana, None).await;
    let browser = Browser::start().await.expect("headless Chromium");
    let base = stack.base.clone();

    // Sign in: a wrong password is told, the right one lands on the jobs page.
    browser.goto(&format!("{base}/login")).await.unwrap();
    browser.fill("#email", ana.email.as_str()).await.unwrap();
    browser.fill("#password", "not the password").await.unwrap();
    browser.click("form[action='/login'] button").await.unwrap();
    let error = browser.wait_for("#login-error", SHORT).await.unwrap();
    assert!(error
        .text()
        .await
        .unwrap()
        .contains("Wrong e-mail or password"));
    browser.screenshot("sign-in-wrong-password").await.unwrap();
    sign_in(&browser, &stack, &ana).await;

    // The header shows who is signed in and the balances that gate new jobs.
    let header = browser.text("header.top").await.unwrap();
    assert!(header.contains(ana.email.as_str()), "{header}");
    assert!(header.contains("Agency"), "{header}");
    assert_eq!(
        browser.text("[data-balance=runs] strong").await.unwrap(),
        "5"
    );
    assert_eq!(
        browser.text("[data-balance=domains] strong").await.unwrap(),
        "5"
    );
    browser.screenshot("jobs-empty").await.unwrap();

    // A new job on the sample site; a double click creates one job.
    browser.goto(&format!("{base}/jobs/new")).await.unwrap();
    browser
        .fill("#primaryDomain", "brightbrew-coffee.com")
        .await
        .unwrap();
    browser
        .fill("#competitorDomains", "roastrivals.com\nhostile-preview.com")
        .await
        .unwrap();
    // The user's own keywords, from a CSV export: the page reads the file into the box.
    let export = std::env::temp_dir().join(format!("keywords-{}.csv", uuid::Uuid::new_v4()));
    std::fs::write(
        &export,
        "Keyword,Volume\nCold Brew Coffee,1900\nzebra crossing paint,10\n",
    )
    .unwrap();
    browser
        .choose_file("#keywords-file", &export)
        .await
        .unwrap();
    js(
        &browser,
        "return new Promise(r => { const t = setInterval(() => { if (document.getElementById('keywords').value.includes('zebra')) { clearInterval(t); r(true); } }, 50); });",
    )
    .await;
    assert_eq!(browser.value("#keywordsFormat").await.unwrap(), "csv");
    std::fs::remove_file(&export).unwrap();
    // The preview counts the file's keywords and says what no provider means.
    let preview = browser
        .wait_until_text(
            "#job-estimate",
            |text: &str| text.contains("2 of yours"),
            SHORT,
        )
        .await
        .unwrap();
    assert!(preview.contains("Uses 1 of your 5 runs"), "{preview}");
    assert!(
        preview.contains("No data provider is configured"),
        "{preview}"
    );
    js(
        &browser,
        "const b = document.querySelector('form[action=\"/jobs/new\"] button[type=submit]'); b.click(); b.click(); return true;",
    )
    .await;
    let url = browser
        .wait_for_url(
            |url| url.contains("/jobs/") && !url.ends_with("/new"),
            SHORT,
        )
        .await
        .unwrap();
    let listed = store.list_jobs(ana.id, None, 10, 0).await.unwrap();
    assert_eq!(listed.total, 1, "one job for a double click");
    let job_id = listed.jobs[0].id;
    assert!(url.ends_with(&format!("/jobs/{job_id}")), "{url}");

    // It runs to completion while the page follows it, without reloading.
    js(&browser, "window.__sameDocument = 42; return true;").await;
    browser
        .wait_until_text(
            "[data-status]",
            |text: &str| text.eq_ignore_ascii_case("completed"),
            JOB_RUN,
        )
        .await
        .unwrap();
    browser.wait_for("#keyword-count", SHORT).await.unwrap();
    assert_eq!(
        js(&browser, "return window.__sameDocument;").await,
        json!(42),
        "the page was not reloaded"
    );
    let job = store.job(job_id).await.unwrap().unwrap();
    assert_eq!(job.status, JobStatus::Completed);
    assert_eq!(job.imported_keywords, 2, "the CSV's keyword column");
    browser.screenshot("job-page").await.unwrap();

    // Crawled text is hostile: it shows as text, never runs, never becomes a link or image.
    let title = browser.title().await.unwrap();
    assert!(!title.contains("pwned"), "{title}");
    let page = browser.text("main").await.unwrap();
    assert!(
        page.contains("Hostile Preview Roofing"),
        "the preview is shown"
    );
    assert_eq!(
        js(&browser, "return document.querySelectorAll('a[href^=\"javascript\"], img[src^=\"javascript\"], script:not([src])').length;").await,
        json!(0)
    );
    assert_eq!(
        js(
            &browser,
            "return Array.from(document.scripts).map(s => new URL(s.src).pathname);"
        )
        .await,
        json!(["/assets/app.js"])
    );

    // The user's own keyword is in the table, marked as theirs.
    browser
        .goto(&format!("{base}/jobs/{job_id}?tab=keywords&search=zebra"))
        .await
        .unwrap();
    // The sites' preview images come from our origin and load; the hostile site's og:image
    // is a `javascript:` URL, so it has the placeholder.
    let loaded_images = "const images = Array.from(document.querySelectorAll('.previews img')); \
        return images.every(i => i.complete && i.naturalWidth > 0) \
        ? images.map(i => new URL(i.src).origin === location.origin && new URL(i.src).pathname) \
        : null;";
    let images = browser
        .wait_until_script(loaded_images, SHORT)
        .await
        .unwrap();
    assert_eq!(
        images,
        json!([
            format!("/jobs/{job_id}/previews/0"),
            format!("/jobs/{job_id}/previews/1")
        ])
    );
    assert_eq!(
        js(
            &browser,
            "return document.querySelectorAll('.previews .placeholder').length;"
        )
        .await,
        json!(1)
    );
    assert_eq!(
        js(&browser, "return Array.from(document.querySelectorAll('table.keywords tbody th')).map(th => [th.firstChild.textContent.trim(), !!th.querySelector('[data-source=imported]')]);").await,
        json!([["zebra crossing paint", true]])
    );

    // Keywords: filter by intent and volume; the URL keeps the filters and every row obeys.
    browser
        .goto(&format!("{base}/jobs/{job_id}?tab=keywords"))
        .await
        .unwrap();
    browser
        .click("input[name=intent][value=commercial]")
        .await
        .unwrap();
    browser.fill("input[name=minVolume]", "10").await.unwrap();
    browser
        .click("form.filters button[type=submit]")
        .await
        .unwrap();
    let filtered = browser
        .wait_for_url(
            |url| url.contains("intent=commercial") && url.contains("minVolume=10"),
            SHORT,
        )
        .await
        .unwrap();
    browser
        .wait_until_text("#keyword-count", "keywords", SHORT)
        .await
        .unwrap();
    let intents = column(&browser, "table.keywords [data-intent]", "data-intent").await;
    let volumes = column(&browser, "table.keywords [data-volume]", "data-volume").await;
    assert!(!intents.is_empty(), "some keywords match");
    assert!(
        intents.iter().all(|intent| intent == "commercial"),
        "{intents:?}"
    );
    assert_eq!(
        volumes.len(),
        intents.len(),
        "every matching keyword has a volume"
    );
    assert!(
        volumes.iter().all(|v| v.parse::<i64>().unwrap() >= 10),
        "{volumes:?}"
    );
    results_screenshot(&browser, "keywords-filtered").await;

    // The filtered view is a shareable link.
    browser.goto(&filtered).await.unwrap();
    assert_eq!(
        column(&browser, "table.keywords [data-intent]", "data-intent").await,
        intents
    );

    // Sorting by a column header.
    browser
        .goto(&format!("{base}/jobs/{job_id}?tab=keywords"))
        .await
        .unwrap();
    browser.click("a[data-sort=searchVolume]").await.unwrap();
    browser
        .wait_for_url(|url| url.contains("sortBy=searchVolume"), SHORT)
        .await
        .unwrap();
    browser
        .wait_for("th[aria-sort] a[data-sort=searchVolume]", SHORT)
        .await
        .unwrap();
    let sorted: Vec<i64> = column(&browser, "table.keywords [data-volume]", "data-volume")
        .await
        .iter()
        .map(|v| v.parse().unwrap())
        .collect();
    assert!(
        sorted.windows(2).all(|pair| pair[0] >= pair[1]),
        "{sorted:?}"
    );
    // The picture of the job page in the README.
    browser.set_size(1280, 1500).await.unwrap();
    browser.screenshot("job-page-keywords").await.unwrap();
    browser.set_size(1280, 900).await.unwrap();

    // A cluster opens its keywords.
    browser
        .goto(&format!("{base}/jobs/{job_id}?tab=clusters"))
        .await
        .unwrap();
    results_screenshot(&browser, "clusters").await;
    browser
        .click("table.clusters a[data-cluster]")
        .await
        .unwrap();
    browser
        .wait_until_text("#keyword-count", "in the cluster", SHORT)
        .await
        .unwrap();
    assert!(browser.current_url().await.unwrap().contains("cluster="));

    // A cluster's brief: the button asks the API, which reads the competitor's pages; the page
    // then shows it, and nothing from the hostile sample site runs.
    let dataset = stack.rig.dataset(job_id).await;
    let moka = &dataset
        .keywords
        .iter()
        .find(|k| k.keyword == "best coffee for moka pot")
        .expect("the competitor's moka pot pages")
        .cluster_id;
    browser
        .goto(&format!("{base}/jobs/{job_id}/clusters/{moka}/brief"))
        .await
        .unwrap();
    browser.click("button[data-make-brief]").await.unwrap();
    browser
        .wait_for("ol.outline", Duration::from_secs(30))
        .await
        .unwrap();
    let brief = browser.text("article.brief").await.unwrap();
    assert!(brief.contains("Brief: best coffee for moka pot"), "{brief}");
    assert!(
        brief.contains("Pages read") && brief.contains("roastrivals.com"),
        "{brief}"
    );
    assert_eq!(
        js(&browser, "return window.__xss === undefined && !document.querySelector('article.brief script, article.brief img');").await,
        json!(true)
    );
    browser.screenshot("brief").await.unwrap();

    // The content plan: a topic opens onto its clusters, each with what to do on the site.
    browser
        .goto(&format!("{base}/jobs/{job_id}?tab=plan"))
        .await
        .unwrap();
    browser.wait_for("details.topic", SHORT).await.unwrap();
    let actions = column(&browser, "details.cluster[data-action]", "data-action").await;
    assert!(actions.iter().any(|a| a == "create"), "{actions:?}");
    assert!(actions.iter().any(|a| a == "improve"), "{actions:?}");
    let opened = "return Array.from(document.querySelectorAll('details.topic')).map(d => d.open);";
    assert!(
        js(&browser, opened)
            .await
            .as_array()
            .unwrap()
            .iter()
            .all(|open| open == false),
        "topics start closed"
    );
    browser.click("details.topic > summary").await.unwrap();
    assert_eq!(js(&browser, opened).await[0], json!(true));
    // Its clusters' action badges are shown, in words, once the topic is open.
    let badges = js(
        &browser,
        "return Array.from(document.querySelectorAll('details.topic[open] details.cluster > summary .action')).filter(b => b.getClientRects().length > 0).map(b => b.textContent.trim());",
    )
    .await;
    let badges: Vec<&str> = badges
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_str().unwrap())
        .collect();
    assert!(
        !badges.is_empty(),
        "an open topic shows its clusters' actions"
    );
    assert!(
        badges
            .iter()
            .all(|b| ["+ Create", "↑ Improve", "⇄ Consolidate"].contains(b)),
        "{badges:?}"
    );
    browser
        .click("details.topic[open] details.cluster > summary")
        .await
        .unwrap();
    browser
        .wait_for("details.cluster[open] table.plan-keywords", SHORT)
        .await
        .unwrap();
    assert_eq!(
        js(
            &browser,
            "return document.querySelectorAll('a[href^=\"javascript\" i]').length;"
        )
        .await,
        json!(0)
    );
    // For the picture, a page to improve open as well, where the topic has one.
    js(
        &browser,
        "const c = document.querySelector('details.topic[open] details.cluster[data-action=improve]'); if (c) c.open = true; return true;",
    )
    .await;
    results_screenshot(&browser, "content-plan").await;
    // Filtered by action with the form: every cluster left is one to improve.
    js(
        &browser,
        "document.querySelector('form.filters select[name=action]').value = 'improve'; return true;",
    )
    .await;
    browser
        .click("form.filters button[type=submit]")
        .await
        .unwrap();
    browser
        .wait_for_url(
            |url| url.contains("tab=plan") && url.contains("action=improve"),
            SHORT,
        )
        .await
        .unwrap();
    browser.wait_for("details.topic", SHORT).await.unwrap();
    let actions = column(&browser, "details.cluster[data-action]", "data-action").await;
    assert!(!actions.is_empty());
    assert!(actions.iter().all(|a| a == "improve"), "{actions:?}");

    // A persona opens its keywords.
    browser
        .goto(&format!("{base}/jobs/{job_id}?tab=personas"))
        .await
        .unwrap();
    results_screenshot(&browser, "personas").await;
    browser.click("a[data-persona]").await.unwrap();
    browser
        .wait_for_url(|url| url.contains("personaAvatarNames="), SHORT)
        .await
        .unwrap();

    // The overview's charts.
    browser
        .goto(&format!("{base}/jobs/{job_id}?tab=overview"))
        .await
        .unwrap();
    assert!(
        js(
            &browser,
            "return document.querySelectorAll('figure.chart svg').length;"
        )
        .await
        .as_u64()
        .unwrap()
            >= 2
    );
    results_screenshot(&browser, "overview").await;

    // The CSV export downloads with the session cookie.
    let href = browser
        .attribute("a.export", "href")
        .await
        .unwrap()
        .expect("an export link");
    let csv = js(
        &browser,
        &format!("return fetch({href:?}).then(r => r.text());"),
    )
    .await;
    assert!(
        csv.as_str()
            .unwrap()
            .starts_with("Keyword,Cluster,Cluster ID,"),
        "{csv}"
    );

    // A phone-sized view: nothing wider than the screen but the tables, which scroll.
    browser.set_size(375, 812).await.unwrap();
    browser
        .goto(&format!("{base}/jobs/{job_id}?tab=keywords"))
        .await
        .unwrap();
    browser.screenshot("job-page-phone").await.unwrap();
    assert_no_sideways_scroll(&browser).await;
    // The content plan with a topic and a cluster open.
    browser
        .goto(&format!("{base}/jobs/{job_id}?tab=plan"))
        .await
        .unwrap();
    js(
        &browser,
        "const t = document.querySelector('details.topic'); t.open = true; t.querySelector('details.cluster').open = true; return true;",
    )
    .await;
    results_screenshot(&browser, "content-plan-phone").await;
    assert_no_sideways_scroll(&browser).await;
    // The changes tab (one run so far: it says what it will show).
    browser
        .goto(&format!("{base}/jobs/{job_id}?tab=changes"))
        .await
        .unwrap();
    results_screenshot(&browser, "changes-phone").await;
    assert_no_sideways_scroll(&browser).await;
    browser.set_size(1280, 900).await.unwrap();

    // Print → Save as PDF: the job page and a share link of it are reports, with the previews on
    // a page of their own and no navigation, buttons or account.
    let shared = js(
        &browser,
        &format!(
            "return fetch('/api/v1/jobs/{job_id}/share-links', {{method: 'POST', headers: {{'content-type': 'application/json'}}, body: JSON.stringify({{tabs: ['keywords', 'overview']}})}}).then(r => r.json());"
        ),
    )
    .await;
    let share_url = shared["url"].as_str().expect("a share link").to_string();
    let share_path = &share_url[share_url.find("/share/").unwrap()..];
    for (page, url) in [
        ("job", format!("{base}/jobs/{job_id}?tab=keywords")),
        ("shared", format!("{base}{share_path}?tab=keywords")),
    ] {
        browser.goto(&url).await.unwrap();
        browser.wait_for("table.keywords", SHORT).await.unwrap();
        let first_keyword = js(
            &browser,
            "return document.querySelector('table.keywords tbody th').firstChild.textContent.trim();",
        )
        .await;
        let first_keyword = first_keyword.as_str().unwrap();
        let (pages, text) = browser.print_to_pdf().await.unwrap();
        assert!(
            pages >= 2,
            "{page}: the previews, then the results: {pages} pages"
        );
        for expected in [
            "brightbrew-coffee.com",
            "roastrivals.com",
            first_keyword.trim(),
        ] {
            assert!(
                text.contains(expected),
                "{page}: {expected:?} not in {text}"
            );
        }
        for hidden in [
            ana.email.as_str(),
            "Sign out",
            "Repeat this job",
            "Delete",
            "Next",
        ] {
            assert!(!text.contains(hidden), "{page}: {hidden:?} printed: {text}");
        }
    }

    // API keys: created and shown once, listed, revoked after confirming.
    browser
        .goto(&format!("{base}/settings/api-keys"))
        .await
        .unwrap();
    browser.fill("#key-name", "Reporting script").await.unwrap();
    browser
        .click("form[action='/settings/api-keys'] button")
        .await
        .unwrap();
    browser.wait_for("#new-key", SHORT).await.unwrap();
    let secret = browser.value("#new-key").await.unwrap();
    assert!(secret.starts_with("kr_"), "{secret}");
    browser.screenshot("api-key-created").await.unwrap();
    browser
        .goto(&format!("{base}/settings/api-keys"))
        .await
        .unwrap();
    assert!(
        browser.find("#new-key").await.is_err(),
        "the secret is shown once"
    );
    assert!(browser
        .text("table.api-keys")
        .await
        .unwrap()
        .contains("Reporting script"));
    browser.click("table.api-keys a.danger").await.unwrap();
    browser
        .click("form[action$='/revoke'] button")
        .await
        .unwrap();
    browser
        .wait_for_url(|url| url.ends_with("/settings/api-keys"), SHORT)
        .await
        .unwrap();
    browser.wait_for("#no-keys", SHORT).await.unwrap();

    // Settings → Branding: the agency's name, and its logo as an ordinary file upload.
    let logo = std::env::temp_dir().join(format!("kr-logo-{}.png", uuid::Uuid::new_v4()));
    std::fs::write(&logo, harness::PIXEL_PNG).unwrap();
    browser
        .click("nav.settings-tabs a[href='/settings/branding']")
        .await
        .unwrap();
    browser.fill("#brand-name", "Northwind SEO").await.unwrap();
    browser
        .click("form[action='/settings/branding'] button")
        .await
        .unwrap();
    // Saved when the page comes back with the name as its field's value.
    browser
        .wait_until_script(
            "const f = document.querySelector('#brand-name'); return f && f.defaultValue === 'Northwind SEO';",
            SHORT,
        )
        .await
        .unwrap();
    browser.choose_file("#logo-file", &logo).await.unwrap();
    browser
        .click("form[action='/settings/branding/logo'] button")
        .await
        .unwrap();
    browser.wait_for("#current-logo", SHORT).await.unwrap();
    assert_eq!(browser.value("#brand-name").await.unwrap(), "Northwind SEO");
    assert_eq!(
        js(&browser, "const i = document.querySelector('#current-logo'); return i.decode().then(() => i.naturalWidth);").await,
        json!(1)
    );
    browser.screenshot("settings-branding").await.unwrap();
    let _ = std::fs::remove_file(logo);
    sign_out(&browser).await;

    // The demo job, without signing in.
    browser.goto(&format!("{base}/demo")).await.unwrap();
    browser
        .wait_for_url(|url| url.contains(&job_id.to_string()), SHORT)
        .await
        .unwrap();
    browser.wait_for("table.keywords", SHORT).await.unwrap();
    results_screenshot(&browser, "demo-job").await;

    // Someone else's job (or none) is a friendly not-found page.
    browser
        .goto(&format!("{base}/jobs/00000000-0000-4000-8000-000000000001"))
        .await
        .unwrap();
    assert!(browser
        .text("main")
        .await
        .unwrap()
        .contains("Job not found"));
    browser.goto(&format!("{base}/no/such/page")).await.unwrap();
    assert!(browser.text("main").await.unwrap().contains("not found"));
    browser.quit().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn plans_and_balances_gate_what_a_user_can_do() {
    let store = harness::store().await;
    let free = harness::new_user(&store, Plan::Free, 1, 1).await;
    let stack = stack(
        &free,
        Some(EstimateSettings {
            max_keywords: 2000,
            provider: Some((5.0, 1000)),
            answers: Default::default(),
        }),
    )
    .await;
    let browser = Browser::start().await.expect("headless Chromium");
    let base = stack.base.clone();

    // A free plan has no API keys: the page says which plan has them and offers no button.
    sign_in(&browser, &stack, &free).await;
    browser
        .goto(&format!("{base}/settings/api-keys"))
        .await
        .unwrap();
    let notice = browser.text("#plan-without-keys").await.unwrap();
    assert!(notice.contains("Agency"), "{notice}");
    assert!(browser.find("#key-name").await.is_err());
    browser.screenshot("api-keys-free-plan").await.unwrap();
    sign_out(&browser).await;

    // No runs left: the form says so and cannot be sent.
    let broke = harness::new_user(&store, Plan::Pro, 0, 3).await;
    sign_in(&browser, &stack, &broke).await;
    browser.goto(&format!("{base}/jobs/new")).await.unwrap();
    assert!(browser
        .text("#no-runs")
        .await
        .unwrap()
        .contains("no runs left"));
    assert_eq!(
        js(&browser, "return document.querySelector('form[action=\"/jobs/new\"] button[type=submit]').disabled;").await,
        json!(true)
    );
    browser.screenshot("new-job-no-runs").await.unwrap();
    sign_out(&browser).await;

    // The domain allowance used up: the form names the domains that can still be researched.
    let seasoned = harness::new_user(&store, Plan::Pro, 3, 1).await;
    let queue =
        kr_aws::sqs::SqsJobQueue::new(stack.rig.clients.sqs.clone(), stack.rig.queue_url.clone());
    let request = CreateJobRequest {
        primary_domain: DomainName::parse("brightbrew-coffee.com").unwrap(),
        competitor_domains: Vec::new(),
        language_code: LanguageCode::parse("en").unwrap(),
        location_code: LocationCode::parse(2840).unwrap(),
        keywords: None,
        discover_keywords: true,
        callback_url: None,
        search_console_property: None,
    };
    let objects = stack.rig.objects.as_ref();
    create_job(
        &JobPorts {
            jobs: store.as_ref(),
            queue: &queue,
            artifacts: objects,
            removals: objects,
        },
        seasoned.id,
        request,
        None,
        None,
    )
    .await
    .unwrap();
    assert_eq!(
        store.registered_domains(seasoned.id).await.unwrap(),
        vec![DomainName::parse("brightbrew-coffee.com").unwrap()]
    );
    sign_in(&browser, &stack, &seasoned).await;
    browser.goto(&format!("{base}/jobs/new")).await.unwrap();
    let notice = browser.text("#no-new-domains").await.unwrap();
    assert!(notice.contains("brightbrew-coffee.com"), "{notice}");
    // A new domain is refused beside its field, and what was typed stays. Before sending, the
    // form's preview already says so, with the provider's bound on SERPs and spend.
    browser.fill("#primaryDomain", "example.com").await.unwrap();
    let preview = browser
        .wait_until_text(
            "#job-estimate",
            |text: &str| text.contains("refused now"),
            SHORT,
        )
        .await
        .unwrap();
    assert!(
        preview.contains("allowance of new domains is used up"),
        "{preview}"
    );
    assert!(
        preview.contains("Search results for up to 1,000 keywords"),
        "{preview}"
    );
    assert!(preview.contains("costs at most $"), "{preview}");
    assert!(preview.contains("(per-job cap $5.00)"), "{preview}");
    browser.screenshot("new-job-estimate").await.unwrap();
    browser
        .click("form[action='/jobs/new'] button[type=submit]")
        .await
        .unwrap();
    let error = browser
        .wait_for("#primaryDomain-error", SHORT)
        .await
        .unwrap();
    assert!(error.text().await.unwrap().contains("allowance"));
    assert_eq!(
        browser.value("#primaryDomain").await.unwrap(),
        "example.com"
    );
    // A malformed competitor is named beside the list.
    browser
        .fill("#primaryDomain", "brightbrew-coffee.com")
        .await
        .unwrap();
    browser
        .fill("#competitorDomains", "not a domain")
        .await
        .unwrap();
    browser
        .fill("#keywords", "cold brew\nbest beans!")
        .await
        .unwrap();
    browser
        .click("form[action='/jobs/new'] button[type=submit]")
        .await
        .unwrap();
    let error = browser
        .wait_for("#competitorDomains-error", SHORT)
        .await
        .unwrap();
    assert!(error.text().await.unwrap().contains("not a domain"));
    // A keyword the provider would refuse is named by its line, and the box keeps the list.
    let keyword_error = browser.text("#keywords-error").await.unwrap();
    assert!(keyword_error.starts_with("Line 2:"), "{keyword_error}");
    assert_eq!(
        browser.value("#keywords").await.unwrap(),
        "cold brew\nbest beans!"
    );
    browser.screenshot("new-job-field-errors").await.unwrap();
    browser.quit().await.unwrap();
}
