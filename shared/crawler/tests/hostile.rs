//! Hostile sites: SSRF attempts, redirect loops, endless, huge, slow and compressed bodies,
//! bad encodings and broken markup, each against a local server.

mod support;

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{header, HeaderValue};
use kr_crawler::{CrawlError, Crawler, SiteRole};
use support::*;

fn refused(domain: &str) -> CrawlError {
    CrawlError::AddressRefused {
        domain: domain.into(),
    }
}

#[tokio::test]
async fn redirects_into_loopback_are_refused() {
    let site = TestSite::start(|hit| match hit.path.as_str() {
        "/robots.txt" => not_found(),
        _ => html("<title>should never be reached through a redirect</title>"),
    })
    .await;
    let port = site.addr.port();
    // Each host redirects its home page to one spelling of this very server.
    let targets = [
        format!("http://127.0.0.1:{port}/"),
        format!("http://[::ffff:127.0.0.1]:{port}/"),
        format!("http://2130706433:{port}/"),
        "http://localhost/".to_owned(),
        "http://169.254.169.254/latest/meta-data/".to_owned(),
    ];
    for (index, target) in targets.iter().enumerate() {
        let host = format!("r{index}.test");
        let redirecting = {
            let target = target.clone();
            TestSite::start(move |hit| match hit.path.as_str() {
                "/robots.txt" => not_found(),
                _ => redirect(302, &target),
            })
            .await
        };
        let crawler = Crawler::new(redirecting.config(&[&host])).unwrap();
        let error = crawler.fetch_reference(&host).await.unwrap_err();
        assert_eq!(error, refused(&host), "redirect to {target}");
        assert_eq!(
            error.to_string(),
            format!("the address of {host} resolves to a private network address and was refused")
        );
        assert_eq!(redirecting.paths(), ["/robots.txt", "/"]);
    }
    assert!(
        site.hits().is_empty(),
        "the loopback server was reached: {:?}",
        site.hits()
    );
}

#[tokio::test]
async fn names_and_literals_pointing_at_private_addresses_are_refused() {
    let crawler = Crawler::new(kr_crawler::CrawlConfig {
        min_delay: Duration::ZERO,
        ..Default::default()
    })
    .unwrap();
    // `localhost` resolves (without any network) to loopback, and is not an override.
    assert_eq!(
        crawler
            .crawl_site("localhost", SiteRole::Primary, 5, &no_progress())
            .await
            .unwrap_err(),
        refused("localhost")
    );
    assert_eq!(
        crawler.fetch_reference("127.0.0.1").await.unwrap_err(),
        refused("127.0.0.1")
    );
    assert_eq!(
        crawler.fetch_reference("10.0.0.1").await.unwrap_err(),
        refused("10.0.0.1")
    );
    assert!(matches!(
        crawler.fetch_reference("[::1]").await,
        Err(CrawlError::InvalidDomain { .. })
    ));
    assert!(matches!(
        crawler.fetch_reference("shop.test/path").await,
        Err(CrawlError::InvalidDomain { .. })
    ));
}

#[tokio::test]
async fn private_links_and_redirects_off_the_site_are_not_followed() {
    let site = TestSite::start(|hit| match hit.path.as_str() {
        "/robots.txt" => not_found(),
        "/" => html("<a href=\"http://127.0.0.1:8080/x\">ip</a><a href=\"/go\">go</a><a href=\"/ok\">ok</a>"),
        "/go" => redirect(301, "http://localhost/admin"),
        "/ok" => html("<title>ok</title>"),
        _ => not_found(),
    })
    .await;
    let crawler = Crawler::new(site.config(&["shop.test"])).unwrap();
    let crawl = crawler
        .crawl_site("shop.test", SiteRole::Primary, 10, &no_progress())
        .await
        .unwrap();
    assert_eq!(crawl.pages_fetched, 2);
    // The IP link is another site, never queued; the redirect leaving the site is not followed.
    assert_eq!(crawl.pages_skipped, 1);
    assert_eq!(site.count("/admin"), 0);
    assert_eq!(site.count("/x"), 0);
}

#[tokio::test]
async fn redirect_loops_and_long_chains_stop() {
    let site = TestSite::start(|hit| match hit.path.as_str() {
        "/robots.txt" => not_found(),
        "/" => redirect(302, "/a"),
        "/a" => redirect(302, "/b"),
        "/b" => redirect(302, "/a"),
        _ => not_found(),
    })
    .await;
    let crawler = Crawler::new(site.config(&["shop.test"])).unwrap();
    let error = crawler.fetch_reference("shop.test").await.unwrap_err();
    assert_eq!(
        error,
        CrawlError::TooManyRedirects {
            domain: "shop.test".into()
        }
    );
    assert_eq!(site.paths(), ["/robots.txt", "/", "/a", "/b"]);

    let chain = TestSite::start(|hit| match hit.path.as_str() {
        "/robots.txt" => not_found(),
        path => {
            let n: u32 = path.trim_start_matches("/step").parse().unwrap_or(0);
            redirect(301, &format!("/step{}", n + 1))
        }
    })
    .await;
    let crawler = Crawler::new(chain.config(&["shop.test"])).unwrap();
    let error = crawler.fetch_reference("shop.test").await.unwrap_err();
    assert!(matches!(error, CrawlError::TooManyRedirects { .. }));
    // The first request and five redirects (max_redirects).
    assert_eq!(
        chain.paths(),
        [
            "/robots.txt",
            "/",
            "/step1",
            "/step2",
            "/step3",
            "/step4",
            "/step5"
        ]
    );
}

#[tokio::test]
async fn endless_bodies_are_cut_at_the_cap() {
    let site = TestSite::start(|hit| match hit.path.as_str() {
        "/robots.txt" => not_found(),
        "/" => endless("text/html", b"<p>widget gadget gizmo</p>\n", Duration::ZERO),
        _ => not_found(),
    })
    .await;
    let mut config = site.config(&["shop.test"]);
    config.max_body_bytes = 64 * 1024;
    let crawler = Crawler::new(config).unwrap();
    let started = Instant::now();
    let crawl = crawler
        .crawl_site("shop.test", SiteRole::Primary, 1, &no_progress())
        .await
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    let text = &crawl.pages[0].body_text;
    assert!(text.starts_with("widget gadget gizmo\n"));
    assert!(
        text.len() < 64 * 1024 && text.len() > 32 * 1024,
        "{}",
        text.len()
    );
}

#[tokio::test]
async fn a_gzip_bomb_is_cut_off() {
    // 32 MiB of page that compresses to a few dozen KiB.
    let mut page = b"<html><body><p>".to_vec();
    page.resize(32 * 1024 * 1024, b'a');
    let bomb = gzip(&page);
    assert!(bomb.len() < 256 * 1024);
    let site = TestSite::start(move |hit| match hit.path.as_str() {
        "/robots.txt" => not_found(),
        "/" => {
            let mut response = html("");
            *response.body_mut() = Body::from(bomb.clone());
            response
                .headers_mut()
                .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            response
        }
        _ => not_found(),
    })
    .await;
    let mut config = site.config(&["shop.test"]);
    config.max_body_bytes = 256 * 1024;
    let crawler = Crawler::new(config).unwrap();
    let started = Instant::now();
    let crawl = crawler
        .crawl_site("shop.test", SiteRole::Primary, 1, &no_progress())
        .await
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "took {:?}",
        started.elapsed()
    );
    let text = &crawl.pages[0].body_text;
    assert!(
        text.len() <= 256 * 1024 && text.len() > 200 * 1024,
        "{}",
        text.len()
    );
}

#[tokio::test]
async fn slow_bodies_and_slow_headers_hit_the_deadline() {
    let site = TestSite::start(|hit| match (hit.host.as_str(), hit.path.as_str()) {
        (_, "/robots.txt") => not_found(),
        ("trickle.test", "/") => endless("text/html", b"<p>", Duration::from_millis(100)),
        _ => not_found(),
    })
    .await;
    let mut config = site.config(&["trickle.test"]);
    config.request_timeout = Duration::from_secs(1);
    let crawler = Crawler::new(config).unwrap();
    let started = Instant::now();
    let error = crawler.fetch_reference("trickle.test").await.unwrap_err();
    assert_eq!(
        error,
        CrawlError::TimedOut {
            domain: "trickle.test".into()
        }
    );
    assert_eq!(error.to_string(), "the site trickle.test timed out");
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "took {:?}",
        started.elapsed()
    );

    let stalled = TestSite::start_with_latency(Duration::from_secs(30), |_| not_found()).await;
    let mut config = stalled.config(&["stalled.test"]);
    config.request_timeout = Duration::from_millis(500);
    let crawler = Crawler::new(config).unwrap();
    let started = Instant::now();
    let error = crawler
        .crawl_site("stalled.test", SiteRole::Primary, 5, &no_progress())
        .await
        .unwrap_err();
    assert_eq!(
        error,
        CrawlError::TimedOut {
            domain: "stalled.test".into()
        }
    );
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "took {:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn declared_and_broken_encodings_are_decoded() {
    let site = TestSite::start(|hit| match hit.path.as_str() {
        "/robots.txt" => not_found(),
        "/" => html("<a href=/latin1>a</a><a href=/header>b</a><a href=/broken>c</a>"),
        "/latin1" => with_type(
            "text/html",
            Body::from(&b"<html><head><meta charset=\"windows-1252\"><title>Caf\xe9 \x93menu\x94</title></head><body>cr\xe8me br\xfbl\xe9e</body></html>"[..]),
        ),
        "/header" => with_type(
            "text/html; charset=ISO-8859-1",
            Body::from(&b"<meta charset=utf-8><title>Na\xefve</title>"[..]),
        ),
        "/broken" => with_type("text/html", Body::from(&b"<title>ok \xff\xfe\xc3 end</title><p>\x00\x01 text</p>"[..])),
        _ => not_found(),
    })
    .await;
    let crawler = Crawler::new(site.config(&["shop.test"])).unwrap();
    let crawl = crawler
        .crawl_site("shop.test", SiteRole::Primary, 10, &no_progress())
        .await
        .unwrap();
    let titled = |url_end: &str| {
        crawl
            .pages
            .iter()
            .find(|p| p.url.ends_with(url_end))
            .unwrap()
            .clone()
    };
    assert_eq!(titled("/latin1").title, "Café “menu”");
    assert_eq!(titled("/latin1").body_text, "crème brûlée");
    assert_eq!(titled("/header").title, "Naïve");
    let broken = titled("/broken");
    assert!(
        broken.title.starts_with("ok ")
            && broken.title.ends_with(" end")
            && broken.title.contains('\u{fffd}')
    );
}

#[tokio::test]
async fn broken_markup_is_still_extracted() {
    let site = TestSite::start(|hit| match hit.path.as_str() {
        "/robots.txt" => not_found(),
        "/" => html(
            "<html><head><title>Widgets</title><body><h1>Blue <b>widgets</h1><h2>Sizes</b></h2><p>Small<p>Large</div></span>\
             <table><td>In stock</table><a href='/a'>More widgets <a href=/b>Even more</body></html>",
        ),
        _ => not_found(),
    })
    .await;
    let crawler = Crawler::new(site.config(&["shop.test"])).unwrap();
    let crawl = crawler
        .crawl_site("shop.test", SiteRole::Primary, 1, &no_progress())
        .await
        .unwrap();
    let home = &crawl.pages[0];
    assert_eq!(home.title, "Widgets");
    assert_eq!(home.headings, ["Blue widgets", "Sizes"]);
    assert_eq!(
        home.body_text,
        "Blue widgets\nSizes\nSmall\nLarge\nIn stock\nMore widgets Even more"
    );
    assert_eq!(home.anchors, ["More widgets", "Even more"]);
}

#[tokio::test]
async fn crawl_futures_can_be_spawned() {
    fn assert_send<T: Send>(_: &T) {}
    let crawler = Crawler::new(kr_crawler::CrawlConfig::default()).unwrap();
    let progress = no_progress();
    let crawl = crawler.crawl_site("shop.test", SiteRole::Primary, 1, &progress);
    assert_send(&crawl);
    let reference = crawler.fetch_reference("shop.test");
    assert_send(&reference);
}
