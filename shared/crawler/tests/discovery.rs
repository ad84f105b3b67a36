//! Finding a site's pages: links, sitemaps, www and apex as one site, the page cap.

mod support;

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{header, HeaderValue};
use kr_crawler::{CrawlError, Crawler, SiteRole};
use support::*;

fn page(title: &str, links: &[&str]) -> String {
    let anchors: String = links
        .iter()
        .map(|l| format!("<a href=\"{l}\">{title} link</a>"))
        .collect();
    format!("<html><head><title>{title}</title></head><body><main><h1>{title}</h1>{anchors}</main></body></html>")
}

#[tokio::test]
async fn a_site_reached_over_http_gets_the_pages_its_sitemap_lists_as_https() {
    let site = TestSite::start(|hit| match hit.path.as_str() {
        "/robots.txt" => html("Sitemap: https://shop.test/sitemap.xml\n"),
        "/sitemap.xml" => with_type(
            "application/xml",
            Body::from(
                "<urlset><url><loc>https://shop.test/blog/</loc></url>\
                 <url><loc>https://shop.test/blog/post</loc></url></urlset>",
            ),
        ),
        "/" => html(page("Home", &["/blog/"])),
        "/blog/" => html(page("Blog", &["/blog/post"])),
        "/blog/post" => html(page("Post", &[])),
        _ => not_found(),
    })
    .await;
    let crawler = Crawler::new(site.config(&["shop.test"])).unwrap();
    let crawl = crawler
        .crawl_site("shop.test", SiteRole::Primary, 10, &no_progress())
        .await
        .unwrap();
    let mut titles: Vec<&str> = crawl.pages.iter().map(|p| p.title.as_str()).collect();
    titles.sort();
    assert_eq!(titles, ["Blog", "Home", "Post"]);
}

#[tokio::test]
async fn sitemap_indexes_and_gzip_sitemaps_are_read() {
    let index = "<?xml version=\"1.0\"?><sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\
        <sitemap><loc>http://shop.test/sitemaps/pages.xml.gz</loc></sitemap>\
        <sitemap><loc>/sitemaps/posts.xml</loc></sitemap></sitemapindex>";
    let pages = gzip(
        b"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\
          <url><loc>http://shop.test/hidden-1</loc></url>\
          <url><loc>http://www.shop.test/hidden-2</loc></url>\
          <url><loc>https://elsewhere.test/not-ours</loc></url>\
          <url><loc>http://shop.test/brochure.pdf</loc></url></urlset>",
    );
    let posts = gzip(b"<urlset><url><loc>http://shop.test/post-1</loc></url></urlset>");
    let site = TestSite::start(move |hit| match hit.path.as_str() {
        "/robots.txt" => html("Sitemap: http://shop.test/sitemap_index.xml\n"),
        "/sitemap_index.xml" => with_type("application/xml", Body::from(index)),
        // A gzip file served as a file: no Content-Encoding, so the crawler must unpack it.
        "/sitemaps/pages.xml.gz" => with_type("application/x-gzip", Body::from(pages.clone())),
        // Gzip as a transfer encoding: the HTTP client unpacks it.
        "/sitemaps/posts.xml" => {
            let mut response = with_type("application/xml", Body::from(posts.clone()));
            response
                .headers_mut()
                .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            response
        }
        "/" => html(page("Home", &[])),
        "/hidden-1" | "/hidden-2" | "/post-1" => html(page(&hit.path[1..], &[])),
        _ => not_found(),
    })
    .await;
    let crawler = Crawler::new(site.config(&["shop.test", "www.shop.test"])).unwrap();
    let crawl = crawler
        .crawl_site("shop.test", SiteRole::Primary, 10, &no_progress())
        .await
        .unwrap();

    let mut titles: Vec<&str> = crawl.pages.iter().map(|p| p.title.as_str()).collect();
    titles.sort();
    assert_eq!(titles, ["Home", "hidden-1", "hidden-2", "post-1"]);
    assert_eq!(
        site.count("/brochure.pdf"),
        0,
        "non-HTML files are never requested"
    );
    assert!(site
        .hits()
        .iter()
        .all(|hit| hit.host.ends_with("shop.test")));
    assert_eq!(
        crawl.home_url, "http://shop.test/",
        "https is tried first, then http"
    );
}

#[tokio::test]
async fn www_and_apex_are_one_site() {
    let site = TestSite::start(|hit| match (hit.host.as_str(), hit.path.as_str()) {
        (_, "/robots.txt") => not_found(),
        ("shop.test", "/") => html(page(
            "Home",
            &[
                "http://www.shop.test/about",
                "/about",
                "http://www.shop.test/about#team",
                "https://other.test/x",
            ],
        )),
        ("www.shop.test", "/about") => html(page(
            "About",
            &[
                "http://shop.test/",
                "http://www.shop.test/contact?x=1",
                "/contact?x=1",
            ],
        )),
        (_, "/contact?x=1") => html(page("Contact", &[])),
        _ => not_found(),
    })
    .await;
    let crawler = Crawler::new(site.config(&["shop.test", "www.shop.test"])).unwrap();
    let crawl = crawler
        .crawl_site("shop.test", SiteRole::Primary, 10, &no_progress())
        .await
        .unwrap();

    let titles: Vec<&str> = crawl.pages.iter().map(|p| p.title.as_str()).collect();
    assert_eq!(titles, ["Home", "About", "Contact"]);
    assert_eq!(site.count("/about"), 1, "{:?}", site.hits());
    assert_eq!(site.count("/"), 1);
    assert_eq!(site.count("/contact?x=1"), 1);
    // Links to the www host are internal: their texts are anchors.
    assert_eq!(crawl.pages[0].anchors, ["Home link"]);
    assert_eq!(crawl.pages[0].site, Some(SiteRole::Primary));
}

#[tokio::test]
async fn a_home_page_redirecting_to_www_is_followed_and_previewed() {
    let site = TestSite::start(|hit| match (hit.host.as_str(), hit.path.as_str()) {
        (_, "/robots.txt") => not_found(),
        ("shop.test", "/") => redirect(301, "http://www.shop.test/"),
        ("www.shop.test", "/") => html(
            "<html><head><title>Shop</title><meta property=og:image content=/og.png></head><body><a href=/a>A</a></body></html>",
        ),
        ("www.shop.test", "/a") => html(page("A", &[])),
        _ => not_found(),
    })
    .await;
    let crawler = Crawler::new(site.config(&["shop.test", "www.shop.test"])).unwrap();
    let crawl = crawler
        .crawl_site("shop.test", SiteRole::Competitor(2), 10, &no_progress())
        .await
        .unwrap();
    let reference = crawl.reference.unwrap();
    assert_eq!(reference.url, "http://shop.test/");
    assert_eq!(reference.link.as_deref(), Some("http://www.shop.test/"));
    assert_eq!(reference.title.as_deref(), Some("Shop"));
    assert_eq!(
        reference.image_url.as_deref(),
        Some("http://www.shop.test/og.png")
    );
    assert_eq!(crawl.pages.len(), 2);
    assert_eq!(crawl.pages[0].url, "http://www.shop.test/");
    assert!(crawl
        .pages
        .iter()
        .all(|p| p.site == Some(SiteRole::Competitor(2))));
    assert_eq!(
        crawler.fetch_reference("shop.test").await.unwrap(),
        reference
    );
}

#[tokio::test]
async fn an_endless_link_trap_stops_at_the_page_cap() {
    let site = TestSite::start(|hit| {
        if hit.path == "/robots.txt" || hit.path == "/sitemap.xml" {
            return not_found();
        }
        let n: u64 = hit
            .path
            .trim_start_matches('/')
            .split('?')
            .next()
            .unwrap()
            .parse()
            .unwrap_or(0);
        // Each address its own page (the query too), or the variants would be one page.
        html(page(
            &format!("Page {}", hit.path),
            &[
                &format!("/{}", n + 1),
                &format!("/{}?sort=asc", n + 1),
                &format!("/{}?sort=desc", n + 1),
            ],
        ))
    })
    .await;
    let crawler = Crawler::new(site.config(&["shop.test"])).unwrap();
    let crawl = crawler
        .crawl_site("shop.test", SiteRole::Primary, 10, &no_progress())
        .await
        .unwrap();
    assert_eq!(crawl.pages_fetched, 10);
    // robots.txt, the sitemap, the ten pages and at most one request in flight at the end.
    assert!(site.hits().len() <= 13, "{:?}", site.paths());
}

#[tokio::test]
async fn one_page_at_two_addresses_is_kept_once() {
    let home = || html(page("Home", &["/index.html", "/about"]));
    let site = TestSite::start(move |hit| match hit.path.as_str() {
        "/" | "/index.html" => home(),
        "/about" => html(page("About", &["/index.html"])),
        _ => not_found(),
    })
    .await;
    let crawler = Crawler::new(site.config(&["shop.test"])).unwrap();
    let crawl = crawler
        .crawl_site("shop.test", SiteRole::Primary, 10, &no_progress())
        .await
        .unwrap();

    let urls: Vec<&str> = crawl.pages.iter().map(|p| p.url.as_str()).collect();
    assert_eq!(urls, ["http://shop.test/", "http://shop.test/about"]);
    assert_eq!(crawl.pages_fetched, 2);
    assert_eq!(crawl.pages_skipped, 1);
    assert_eq!(site.count("/index.html"), 1, "{:?}", site.hits());
}

#[tokio::test]
async fn non_html_answers_are_skipped_without_reading_them() {
    let site = TestSite::start(|hit| match hit.path.as_str() {
        "/robots.txt" => not_found(),
        "/" => html(page("Home", &["/report", "/photo.JPG", "/page"])),
        // Endless: reading it would take until the request deadline.
        "/report" => endless(
            "application/pdf",
            b"%PDF-1.7 ......",
            Duration::from_millis(1),
        ),
        "/page" => html(page("Page", &[])),
        _ => not_found(),
    })
    .await;
    let mut config = site.config(&["shop.test"]);
    config.request_timeout = Duration::from_secs(20);
    let crawler = Crawler::new(config).unwrap();
    let started = Instant::now();
    let crawl = crawler
        .crawl_site("shop.test", SiteRole::Primary, 10, &no_progress())
        .await
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(crawl.pages_fetched, 2);
    assert_eq!(crawl.pages_skipped, 1);
    assert_eq!(site.count("/report"), 1);
    assert_eq!(site.count("/photo.JPG"), 0);
}

#[tokio::test]
async fn a_failing_home_page_is_reported_unless_other_pages_work() {
    let broken = TestSite::start(|hit| match hit.path.as_str() {
        "/robots.txt" => not_found(),
        _ => status(500),
    })
    .await;
    let crawler = Crawler::new(broken.config(&["shop.test"])).unwrap();
    let error = crawler
        .crawl_site("shop.test", SiteRole::Primary, 10, &no_progress())
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the home page of shop.test answered with HTTP status 500"
    );

    let partly = TestSite::start(|hit| match hit.path.as_str() {
        "/robots.txt" => html("Sitemap: /sitemap.txt"),
        "/sitemap.txt" => with_type("text/plain", Body::from("http://shop.test/works\n")),
        "/works" => html(page("Works", &[])),
        _ => status(500),
    })
    .await;
    let crawler = Crawler::new(partly.config(&["shop.test"])).unwrap();
    let crawl = crawler
        .crawl_site("shop.test", SiteRole::Primary, 10, &no_progress())
        .await
        .unwrap();
    assert_eq!(crawl.pages_fetched, 1);
    assert_eq!(crawl.reference, None);
    assert_eq!(crawl.pages_skipped, 1);
}

#[tokio::test]
async fn a_domain_resolving_only_with_www_is_crawled_there() {
    let site = TestSite::start(|hit| match hit.path.as_str() {
        "/robots.txt" => not_found(),
        "/" => html(page("Www home", &["/about"])),
        "/about" => html(page("About", &[])),
        _ => not_found(),
    })
    .await;
    // `.invalid` names never resolve (RFC 6761), so the bare domain has no address; only
    // its www name is mapped to the site.
    let crawler = Crawler::new(site.config(&["www.shop.invalid"])).unwrap();
    let crawl = crawler
        .crawl_site("shop.invalid", SiteRole::Primary, 10, &no_progress())
        .await
        .unwrap();
    assert_eq!(crawl.home_url, "http://www.shop.invalid/");
    assert_eq!(crawl.pages_fetched, 2);
    assert!(site.hits().iter().all(|hit| hit.host == "www.shop.invalid"));
}

#[tokio::test]
async fn a_domain_refusing_connections_is_unreachable_without_trying_www() {
    let site = TestSite::start(|_| html("<title>www</title>")).await;
    // The bare domain resolves, to a port nobody listens on.
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap()
        .local_addr()
        .unwrap();
    let mut config = site.config(&["www.shop.test"]);
    config.resolve_overrides.push(("shop.test".into(), closed));
    let crawler = Crawler::new(config).unwrap();
    let error = crawler.fetch_reference("shop.test").await.unwrap_err();
    assert_eq!(error.to_string(), "the site shop.test could not be reached");
    assert!(site.hits().is_empty());
    let error = crawler
        .crawl_site("shop.test", SiteRole::Primary, 5, &no_progress())
        .await
        .unwrap_err();
    assert_eq!(
        error,
        CrawlError::Unreachable {
            domain: "shop.test".into()
        }
    );
}

#[tokio::test]
async fn a_home_page_that_loads_its_navigation_with_a_script_leads_to_the_pages_it_names() {
    let site = TestSite::start(|hit| match hit.path.as_str() {
        "/" => html(
            "<html><head><title>Atelier</title><script src=\"js/navigation.js\"></script>\
             <script src=\"https://cdn.elsewhere.test/lib.js\"></script></head>\
             <body><main><h1>Atelier</h1><div id=\"nav\"></div></main></body></html>",
        ),
        "/js/navigation.js" => with_type(
            "application/javascript",
            Body::from(
                "fetch('navigation.html').then(r => r.text()).then(t => nav.innerHTML = t);\n\
                 const tpl = `${base}/x.html`; const off = \"https://elsewhere.test/a.html\";",
            ),
        ),
        "/navigation.html" => html("<nav><a href=\"services.html\">Services</a></nav>"),
        "/services.html" => html(page("Services", &[])),
        _ => not_found(),
    })
    .await;
    let crawler = Crawler::new(site.config(&["atelier.test"])).unwrap();
    let crawl = crawler
        .crawl_site("atelier.test", SiteRole::Primary, 10, &no_progress())
        .await
        .unwrap();
    let urls: Vec<&str> = crawl.pages.iter().map(|p| p.url.as_str()).collect();
    assert!(
        urls.iter().any(|u| u.ends_with("/services.html")),
        "{urls:?}"
    );
    assert_eq!(site.count("/js/navigation.js"), 1);
    assert!(
        !site.paths().iter().any(|p| p.contains("x.html")),
        "a template is no page"
    );
}
