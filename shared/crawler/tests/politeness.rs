//! robots.txt, Crawl-delay and per-site concurrency, against local sites.

mod support;

use std::time::{Duration, Instant};

use kr_crawler::{CrawlError, CrawlProgress, Crawler, SiteRole};
use support::*;

/// The page at `path`, titled with it (pages alike in content would be kept as one).
fn page(path: &str, links: &[&str]) -> String {
    let anchors: String = links
        .iter()
        .map(|p| format!("<a href=\"{p}\">{p}</a>"))
        .collect();
    format!("<html><head><title>{path}</title></head><body><main><p>Page</p>{anchors}</main></body></html>")
}

#[tokio::test]
async fn robots_rules_for_our_agent_are_honoured() {
    let site = TestSite::start(|hit| match hit.path.as_str() {
        // Our own group replaces the `*` group: /private is allowed for us, /secret is not.
        "/robots.txt" => html("User-agent: *\nDisallow: /private\n\nUser-agent: KeywordResearchBot\nDisallow: /secret\n"),
        "/" => html(page(&hit.path, &["/private/a", "/secret/b", "/public"])),
        "/private/a" | "/public" => html(page(&hit.path, &[])),
        _ => not_found(),
    })
    .await;
    let crawler = Crawler::new(site.config(&["shop.test"])).unwrap();
    let crawl = crawler
        .crawl_site("shop.test", SiteRole::Primary, 10, &no_progress())
        .await
        .unwrap();

    assert_eq!(
        site.count("/secret/b"),
        0,
        "a disallowed page must never be requested"
    );
    assert_eq!(site.count("/private/a"), 1);
    assert_eq!(site.count("/public"), 1);
    assert_eq!(crawl.pages_fetched, 3);
    assert_eq!(crawl.pages_refused, 1);
    assert!(crawl
        .pages
        .iter()
        .all(|page| page.site == Some(SiteRole::Primary)));
}

#[tokio::test]
async fn a_site_disallowing_everything_is_not_crawled() {
    let site = TestSite::start(|hit| match hit.path.as_str() {
        "/robots.txt" => html("User-agent: *\nDisallow: /\n"),
        _ => html(page(&hit.path, &["/a"])),
    })
    .await;
    let crawler = Crawler::new(site.config(&["shop.test"])).unwrap();
    let error = crawler
        .crawl_site("shop.test", SiteRole::Competitor(0), 10, &no_progress())
        .await
        .unwrap_err();
    assert_eq!(
        error,
        CrawlError::RobotsDisallowed {
            domain: "shop.test".into()
        }
    );
    assert_eq!(
        error.to_string(),
        "robots.txt disallows crawling the site shop.test"
    );
    let error = crawler.fetch_reference("shop.test").await.unwrap_err();
    assert!(matches!(error, CrawlError::RobotsDisallowed { .. }));
    assert!(
        site.paths().iter().all(|path| path == "/robots.txt"),
        "{:?}",
        site.paths()
    );
}

#[tokio::test]
async fn missing_robots_allows_all_and_a_failing_one_stops_the_crawl() {
    let open = TestSite::start(|hit| match hit.path.as_str() {
        "/robots.txt" => not_found(),
        "/" => html(page(&hit.path, &["/a"])),
        "/a" => html(page(&hit.path, &[])),
        _ => not_found(),
    })
    .await;
    let crawler = Crawler::new(open.config(&["shop.test"])).unwrap();
    let crawl = crawler
        .crawl_site("shop.test", SiteRole::Primary, 10, &no_progress())
        .await
        .unwrap();
    assert_eq!(crawl.pages_fetched, 2);

    // A server error on robots.txt may hide rules we cannot see: take nothing (RFC 9309).
    let failing = TestSite::start(|hit| match hit.path.as_str() {
        "/robots.txt" => status(503),
        _ => html(page(&hit.path, &["/a"])),
    })
    .await;
    let crawler = Crawler::new(failing.config(&["shop.test"])).unwrap();
    let error = crawler
        .crawl_site("shop.test", SiteRole::Primary, 10, &no_progress())
        .await
        .unwrap_err();
    assert_eq!(
        error,
        CrawlError::RobotsUnavailable {
            domain: "shop.test".into()
        }
    );
    assert_eq!(failing.paths(), ["/robots.txt"]);
}

/// Gaps between the starts of consecutive requests the server saw, after robots.txt.
fn gaps(site: &TestSite) -> Vec<Duration> {
    let times: Vec<Instant> = site
        .hits()
        .iter()
        .filter(|hit| hit.path != "/robots.txt")
        .map(|hit| hit.at)
        .collect();
    times.windows(2).map(|pair| pair[1] - pair[0]).collect()
}

#[tokio::test]
async fn crawl_delay_spaces_requests() {
    let site = TestSite::start(|hit| match hit.path.as_str() {
        "/robots.txt" => html("User-agent: *\nCrawl-delay: 0.4\n"),
        "/" => html(page(&hit.path, &["/a", "/b"])),
        "/a" | "/b" => html(page(&hit.path, &[])),
        _ => not_found(),
    })
    .await;
    let crawler = Crawler::new(site.config(&["shop.test"])).unwrap();
    let crawl = crawler
        .crawl_site("shop.test", SiteRole::Primary, 10, &no_progress())
        .await
        .unwrap();
    assert_eq!(crawl.pages_fetched, 3);
    let gaps = gaps(&site);
    assert_eq!(gaps.len(), 3, "/, /sitemap.xml, /a, /b: {:?}", site.paths());
    for gap in gaps {
        assert!(
            gap >= Duration::from_millis(380),
            "requests only {gap:?} apart"
        );
    }
}

#[tokio::test]
async fn crawl_delay_is_capped() {
    let site = TestSite::start(|hit| match hit.path.as_str() {
        "/robots.txt" => html("User-agent: *\nCrawl-delay: 30\n"),
        "/" => html(page(&hit.path, &["/a"])),
        "/a" => html(page(&hit.path, &[])),
        _ => not_found(),
    })
    .await;
    let mut config = site.config(&["shop.test"]);
    config.max_crawl_delay = Duration::from_millis(300);
    let crawler = Crawler::new(config).unwrap();
    let started = Instant::now();
    crawler
        .crawl_site("shop.test", SiteRole::Primary, 10, &no_progress())
        .await
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    for gap in gaps(&site) {
        assert!(
            gap >= Duration::from_millis(280) && gap < Duration::from_secs(2),
            "gap {gap:?}"
        );
    }
}

#[tokio::test]
async fn the_minimum_delay_applies_without_robots() {
    let site = TestSite::start(|hit| match hit.path.as_str() {
        "/" => html(page(&hit.path, &["/a", "/b"])),
        "/a" | "/b" => html(page(&hit.path, &[])),
        _ => not_found(),
    })
    .await;
    let mut config = site.config(&["shop.test"]);
    config.min_delay = Duration::from_millis(150);
    let crawler = Crawler::new(config).unwrap();
    crawler
        .crawl_site("shop.test", SiteRole::Primary, 10, &no_progress())
        .await
        .unwrap();
    for gap in gaps(&site) {
        assert!(gap >= Duration::from_millis(130), "gap {gap:?}");
    }
}

#[tokio::test]
async fn concurrency_per_site_is_limited_but_used() {
    let pages: Vec<String> = (0..8).map(|i| format!("/p{i}")).collect();
    let home = page("/", &pages.iter().map(String::as_str).collect::<Vec<_>>());
    let site = TestSite::start_with_latency(Duration::from_millis(150), move |hit| {
        match hit.path.as_str() {
            "/" => html(home.clone()),
            path if path.starts_with("/p") => html(page(&hit.path, &[])),
            _ => not_found(),
        }
    })
    .await;
    let mut config = site.config(&["shop.test", "www.shop.test"]);
    config.per_host_concurrency = 2;
    let crawler = Crawler::new(config).unwrap();
    let progress = std::sync::Mutex::new(Vec::new());
    let crawl = crawler
        .crawl_site("shop.test", SiteRole::Primary, 50, &|pages| {
            progress.lock().unwrap().push(pages)
        })
        .await
        .unwrap();
    assert_eq!(crawl.pages_fetched, 9);
    assert_eq!(site.max_in_flight(), 2);
    assert_eq!(*progress.lock().unwrap(), (1..=9).collect::<Vec<_>>());
}

#[tokio::test]
async fn a_slow_site_is_crawled_in_parts_that_never_fetch_a_page_twice() {
    // Crawl-delay: 1 and 12 pages: longer than the part of a crawl one function call has here.
    // (Each part reads robots.txt again, as a new function instance would.)
    let site = TestSite::start(|hit| match hit.path.as_str() {
        "/robots.txt" => html("User-agent: *\nCrawl-delay: 1\n"),
        "/" => html(page(
            &hit.path,
            &(1..=12)
                .map(|i| format!("/p{i}"))
                .collect::<Vec<_>>()
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        )),
        path if path.starts_with("/p") => html(page(&hit.path, &[])),
        _ => not_found(),
    })
    .await;
    let config = site.config(&["shop.test"]);
    // Pages in flight at a stop are finished: each may wait out the crawl delay once.
    let finishing =
        Duration::from_secs(config.per_host_concurrency as u64) + Duration::from_millis(500);
    let crawler = Crawler::new(config).unwrap();
    let mut resume = None;
    let mut parts = 0;
    let started = Instant::now();
    let crawl = loop {
        parts += 1;
        let stop_at = tokio::time::Instant::now() + Duration::from_millis(3500);
        let progress = crawler
            .crawl_site_until(
                "shop.test",
                SiteRole::Primary,
                50,
                &no_progress(),
                resume.take(),
                Some(stop_at),
            )
            .await
            .unwrap();
        assert!(
            tokio::time::Instant::now() < stop_at + finishing,
            "a part ends when its time does"
        );
        match progress {
            CrawlProgress::Finished(crawl) => break crawl,
            // Through JSON, as it is kept between function calls.
            CrawlProgress::Stopped(checkpoint) => {
                let stored = serde_json::to_vec(&checkpoint).unwrap();
                resume = Some(serde_json::from_slice(&stored).unwrap());
            }
        }
    };
    assert!(parts >= 3, "{parts} parts in {:?}", started.elapsed());
    assert_eq!(crawl.pages_fetched, 13);
    for i in 1..=12 {
        assert_eq!(site.count(&format!("/p{i}")), 1, "/p{i} fetched once");
    }
    assert_eq!(site.count("/"), 1);
}

#[tokio::test]
async fn one_page_for_an_outline_obeys_robots_and_the_address_guard() {
    let site = TestSite::start(|hit| match hit.path.as_str() {
        "/robots.txt" => html("User-agent: *\nDisallow: /members\n"),
        "/guide" => html("<main><h2>Why</h2><h3>How</h3><p>Steep it.</p></main>"),
        "/members/guide" => html("<h2>Secret</h2>"),
        _ => not_found(),
    })
    .await;
    let crawler = Crawler::new(site.config(&["shop.test"])).unwrap();
    // The address is https, the test site plain http: read as a crawl opens a site.
    let page = crawler
        .fetch_outline("https://shop.test/guide")
        .await
        .unwrap();
    assert_eq!(page.headings, [(2, "Why".into()), (3, "How".into())]);
    assert_eq!(page.main_text, "Why\nHow\nSteep it.");
    let refused = crawler
        .fetch_outline("http://shop.test/members/guide")
        .await
        .unwrap_err();
    assert!(matches!(refused, CrawlError::RobotsDisallowed { .. }));
    assert_eq!(site.count("/members/guide"), 0);
    assert!(matches!(
        crawler.fetch_outline("http://127.0.0.1:9/x").await,
        Err(CrawlError::AddressRefused { .. })
    ));
    assert!(matches!(
        crawler.fetch_outline("ftp://shop.test/x").await,
        Err(CrawlError::InvalidDomain { .. })
    ));
}
