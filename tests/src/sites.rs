//! Serves the sample websites in `tests/fixtures/sites/<domain>/` on loopback, choosing the
//! site by the request's Host (`www.` or not), so the crawler can reach them through
//! `KR_CRAWL_RESOLVE` exactly as it would reach real sites.

use std::net::SocketAddr;
use std::path::{Component, Path, PathBuf};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{CONTENT_TYPE, HOST};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Router;

use crate::template::workspace_root;

/// The sample sites shipped with the repository.
pub fn fixtures_root() -> PathBuf {
    workspace_root().join("tests/fixtures/sites")
}

/// The primary site and the competitor of the demo job.
pub const DEMO_PRIMARY: &str = "brightbrew-coffee.com";
pub const DEMO_COMPETITOR: &str = "roastrivals.com";

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("xml") => "application/xml",
        Some("txt") => "text/plain; charset=utf-8",
        Some("gz") => "application/gzip",
        _ => "application/octet-stream",
    }
}

async fn serve_file(State(root): State<PathBuf>, request: Request) -> Response {
    let host = request
        .headers()
        .get(HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let host = host.split(':').next().unwrap_or("").to_ascii_lowercase();
    let site = host.strip_prefix("www.").unwrap_or(&host);
    let relative = Path::new(request.uri().path().trim_start_matches('/'));
    // Only plain path segments: nothing outside the site's folder is reachable.
    if site.is_empty()
        || site.contains('/')
        || relative
            .components()
            .any(|c| !matches!(c, Component::Normal(_)))
    {
        return StatusCode::NOT_FOUND.into_response();
    }
    let mut path = root.join(site).join(relative);
    if path.is_dir() {
        path = path.join("index.html");
    } else if !path.exists() && path.extension().is_none() {
        // As GitHub Pages serves them: "/gutter-cleaning" is gutter-cleaning.html.
        path.set_extension("html");
    }
    match tokio::fs::read(&path).await {
        Ok(bytes) => ([(CONTENT_TYPE, content_type(&path))], Body::from(bytes)).into_response(),
        Err(_) => StatusCode::NOT_FOUND.into_response(),
    }
}

/// Starts the server on `address` (port 0 for any) and returns where it listens.
pub async fn serve_sites(address: SocketAddr, root: PathBuf) -> std::io::Result<SocketAddr> {
    let listener = tokio::net::TcpListener::bind(address).await?;
    let bound = listener.local_addr()?;
    let app = Router::new().fallback(serve_file).with_state(root);
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Ok(bound)
}

/// The requests a server of [`serve_sites_counted`] was sent, each as `host path`.
#[derive(Debug, Clone, Default)]
pub struct Hits(std::sync::Arc<std::sync::Mutex<Vec<String>>>);

impl Hits {
    pub fn all(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
}

/// [`serve_sites`], keeping every request it is sent.
pub async fn serve_sites_counted(
    address: SocketAddr,
    root: PathBuf,
) -> std::io::Result<(SocketAddr, Hits)> {
    let listener = tokio::net::TcpListener::bind(address).await?;
    let bound = listener.local_addr()?;
    let hits = Hits::default();
    let kept = hits.clone();
    let app = Router::new()
        .fallback(move |root: State<PathBuf>, request: Request| {
            let host = request
                .headers()
                .get(HOST)
                .and_then(|h| h.to_str().ok())
                .unwrap_or("")
                .to_string();
            kept.0
                .lock()
                .unwrap()
                .push(format!("{host} {}", request.uri().path()));
            serve_file(root, request)
        })
        .with_state(root);
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Ok((bound, hits))
}

/// `KR_CRAWL_RESOLVE` mapping every sample site (apex and www) to `address`.
pub fn resolve_spec(address: SocketAddr) -> String {
    let mut hosts = Vec::new();
    for entry in std::fs::read_dir(fixtures_root())
        .into_iter()
        .flatten()
        .flatten()
    {
        let name = entry.file_name().to_string_lossy().into_owned();
        hosts.push(format!("{name}={address},www.{name}={address}"));
    }
    hosts.sort();
    hosts.join(",")
}

/// `KR_CRAWL_RESOLVE` entries sending every other host of the DataForSEO mock's results
/// pages (`tests/fixtures/dataforseo/serp.json`) to `address`: a brief reading those pages
/// never looks a name up outside the machine. Point it at the ranking pages' server
/// (`tests/fixtures/ranking-pages/`, a 404 for hosts it has no folder for) or at a closed
/// port.
pub fn serp_hosts_resolve(address: SocketAddr) -> String {
    let text =
        std::fs::read_to_string(workspace_root().join("tests/fixtures/dataforseo/serp.json"))
            .expect("the mock's SERP fixture");
    let serps: serde_json::Value = serde_json::from_str(&text).expect("SERP fixture is JSON");
    let samples: Vec<String> = std::fs::read_dir(fixtures_root())
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    let mut hosts = std::collections::BTreeSet::new();
    for page in serps
        .as_object()
        .into_iter()
        .flat_map(|pages| pages.values())
    {
        for url in page["organic"].as_array().into_iter().flatten() {
            let rest = url
                .as_str()
                .unwrap_or_default()
                .split_once("://")
                .map_or("", |(_, r)| r);
            let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
            let bare = host
                .strip_prefix("www.")
                .unwrap_or(host)
                .to_ascii_lowercase();
            if !bare.is_empty() && !samples.contains(&bare) {
                hosts.insert(bare);
            }
        }
    }
    hosts
        .iter()
        .map(|host| format!("{host}={address},www.{host}={address}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// A crawler that reaches the hosts of `resolve` (a `KR_CRAWL_RESOLVE` value) and, through
/// them, nothing but this machine.
pub fn crawler_resolving(resolve: String) -> kr_crawler::Crawler {
    let config = kr_crawler::CrawlConfig::from_vars(|name| {
        (name == "KR_CRAWL_RESOLVE").then(|| resolve.clone())
    })
    .expect("a valid resolve list");
    kr_crawler::Crawler::new(config).expect("a crawler")
}

/// A crawler reaching the sample sites, served on loopback for it.
pub async fn sample_sites_crawler() -> kr_crawler::Crawler {
    let sites = serve_sites("127.0.0.1:0".parse().expect("an address"), fixtures_root())
        .await
        .expect("the sample sites are served");
    crawler_resolving(resolve_spec(sites))
}
