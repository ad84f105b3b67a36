//! Crawl benchmark: serves a local 200-page site (interlinked, with robots.txt and a sitemap)
//! on 127.0.0.1 with a fixed latency per response, crawls it through `resolve_overrides` and
//! prints the throughput.
//!
//! `cargo run --release -p kr-crawler --bin crawl-bench -- [--pages N] [--latency-ms N]
//! [--delay-ms N] [--concurrency N]`; without options: 200 pages, 20 ms latency, and the
//! crawler's default politeness (250 ms between requests, 2 at a time).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kr_crawler::{CrawlConfig, Crawler, SiteRole};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const HOST: &str = "bench.test";

struct Options {
    pages: usize,
    latency: Duration,
    delay: Option<Duration>,
    concurrency: Option<usize>,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        pages: 200,
        latency: Duration::from_millis(20),
        delay: None,
        concurrency: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value: u64 = args
            .next()
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("{flag} needs a whole number"))?;
        match flag.as_str() {
            "--pages" => options.pages = value.max(1) as usize,
            "--latency-ms" => options.latency = Duration::from_millis(value),
            "--delay-ms" => options.delay = Some(Duration::from_millis(value)),
            "--concurrency" => options.concurrency = Some(value as usize),
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(options)
}

#[tokio::main]
async fn main() {
    let options = match parse_options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("crawl-bench: {message}");
            std::process::exit(2);
        }
    };
    let site = Arc::new(BenchSite {
        pages: options.pages,
        requests: AtomicUsize::new(0),
    });
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind a local port");
    let addr = listener.local_addr().expect("local address");
    tokio::spawn(serve(listener, Arc::clone(&site), options.latency));

    let mut config = CrawlConfig {
        max_pages_primary: options.pages,
        resolve_overrides: vec![(HOST.to_owned(), addr), (format!("www.{HOST}"), addr)],
        ..CrawlConfig::default()
    };
    if let Some(delay) = options.delay {
        config.min_delay = delay;
    }
    if let Some(concurrency) = options.concurrency {
        config.per_host_concurrency = concurrency;
    }
    println!(
        "site: {} pages on {addr}, {} ms latency; crawler: {} ms between requests, {} at a time",
        options.pages,
        options.latency.as_millis(),
        config.min_delay.as_millis(),
        config.per_host_concurrency
    );
    let crawler = Crawler::new(config).expect("crawler configuration");
    let started = Instant::now();
    let crawl = crawler
        .crawl_site(HOST, SiteRole::Primary, options.pages, &|_| {})
        .await
        .expect("the benchmark site is crawlable");
    let wall = started.elapsed();
    let words: usize = crawl
        .pages
        .iter()
        .map(|p| p.body_text.split_whitespace().count())
        .sum();
    println!(
        "pages fetched: {} (skipped {}, refused {}), HTTP requests served: {}",
        crawl.pages_fetched,
        crawl.pages_skipped,
        crawl.pages_refused,
        site.requests.load(Ordering::Relaxed)
    );
    println!("words extracted: {words}");
    println!("wall time: {:.2} s", wall.as_secs_f64());
    println!(
        "throughput: {:.2} pages/s",
        crawl.pages_fetched as f64 / wall.as_secs_f64()
    );
}

/// The benchmark site: `/` and `/page/1` .. `/page/{pages-1}`.
struct BenchSite {
    pages: usize,
    requests: AtomicUsize,
}

impl BenchSite {
    fn page_path(index: usize) -> String {
        if index == 0 {
            "/".to_owned()
        } else {
            format!("/page/{index}")
        }
    }

    fn respond(&self, path: &str) -> (u16, &'static str, String) {
        if path == "/robots.txt" {
            return (
                200,
                "text/plain",
                format!("User-agent: *\nAllow: /\nSitemap: http://{HOST}/sitemap.xml\n"),
            );
        }
        if path == "/sitemap.xml" {
            let urls: String = (0..self.pages)
                .map(|i| format!("<url><loc>http://{HOST}{}</loc></url>", Self::page_path(i)))
                .collect();
            let body = format!("<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">{urls}</urlset>");
            return (200, "application/xml", body);
        }
        let index = match path {
            "/" => Some(0),
            _ => path
                .strip_prefix("/page/")
                .and_then(|n| n.parse().ok())
                .filter(|&n| n > 0 && n < self.pages),
        };
        match index {
            Some(index) => (200, "text/html; charset=utf-8", self.page(index)),
            None => (404, "text/plain", "not found".to_owned()),
        }
    }

    /// A page of realistic size: navigation, a few sections of text, links onwards.
    fn page(&self, index: usize) -> String {
        const TOPICS: [&str; 8] = [
            "widgets",
            "gadgets",
            "repairs",
            "pricing",
            "delivery",
            "gift cards",
            "spare parts",
            "workshops",
        ];
        let topic = TOPICS[index % TOPICS.len()];
        let nav: String = (1..6.min(self.pages))
            .map(|i| {
                format!(
                    "<li><a href=\"{}\">Section {i}</a></li>",
                    Self::page_path(i)
                )
            })
            .collect();
        let onward: String = (1..=5)
            .map(|step| (index * 7 + step * 13) % self.pages)
            .map(|i| {
                format!(
                    "<li><a href=\"{}\">More about {} {i}</a></li>",
                    Self::page_path(i),
                    TOPICS[i % TOPICS.len()]
                )
            })
            .collect();
        let sections: String = (0..6)
            .map(|s| {
                format!(
                    "<h2>{topic} guide part {s}</h2><p>Our {topic} are made to order in small batches. \
                     Compare {topic} by size, material and price, read reviews from customers, and \
                     order online with free delivery on orders over fifty pounds. Page {index} section {s} \
                     explains how to choose, care for and recycle {topic}.</p>"
                )
            })
            .collect();
        format!(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{topic} page {index} | Bench Shop</title>\
             <meta name=\"description\" content=\"Everything about {topic}, page {index}.\">\
             <script type=\"application/ld+json\">{{\"@type\":\"Product\",\"name\":\"Bench {topic} {index}\"}}</script></head>\
             <body><header><nav><ul>{nav}</ul></nav></header><main><h1>{topic} page {index}</h1>{sections}\
             <ul>{onward}</ul></main><footer><a href=\"/\">Home</a> © Bench Shop</footer></body></html>"
        )
    }
}

async fn serve(listener: TcpListener, site: Arc<BenchSite>, latency: Duration) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let site = Arc::clone(&site);
        tokio::spawn(async move {
            // A broken connection ends only that connection.
            let _ = serve_connection(stream, &site, latency).await;
        });
    }
}

/// Minimal HTTP/1.1 with keep-alive, enough for GET requests from the crawler.
async fn serve_connection(
    mut stream: TcpStream,
    site: &BenchSite,
    latency: Duration,
) -> std::io::Result<()> {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let head_end = loop {
            if let Some(at) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                break at + 4;
            }
            let read = stream.read(&mut chunk).await?;
            // End of stream, or not HTTP at all (the crawler's TLS attempt comes first).
            if read == 0
                || (buffer.is_empty() && !chunk[0].is_ascii_alphabetic())
                || buffer.len() > 64 * 1024
            {
                return Ok(());
            }
            buffer.extend_from_slice(&chunk[..read]);
        };
        let head = String::from_utf8_lossy(&buffer[..head_end]).into_owned();
        buffer.drain(..head_end);
        let path = head.split_whitespace().nth(1).unwrap_or("/").to_owned();
        let close = head.to_ascii_lowercase().contains("\r\nconnection: close");
        site.requests.fetch_add(1, Ordering::Relaxed);
        tokio::time::sleep(latency).await;
        let (status, content_type, body) = site.respond(&path);
        let reason = if status == 200 { "OK" } else { "Not Found" };
        let response = format!(
            "HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n{}\r\n{body}",
            body.len(),
            if close { "Connection: close\r\n" } else { "" }
        );
        stream.write_all(response.as_bytes()).await?;
        if close {
            return Ok(());
        }
    }
}
