//! A local test site: an HTTP server on 127.0.0.1 (port 0) whose answers a test defines per
//! request, and which records every request it answers.

#![allow(dead_code)] // Each test binary uses a different part of this module.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use kr_crawler::CrawlConfig;

/// One request as the handler sees it.
#[derive(Debug, Clone)]
pub struct Hit {
    pub at: Instant,
    /// The Host header without the port.
    pub host: String,
    /// Path and query.
    pub path: String,
}

type Handler = dyn Fn(&Hit) -> Response + Send + Sync;

pub struct TestSite {
    pub addr: SocketAddr,
    hits: Arc<Mutex<Vec<Hit>>>,
    max_in_flight: Arc<AtomicUsize>,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for TestSite {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl TestSite {
    pub async fn start(handler: impl Fn(&Hit) -> Response + Send + Sync + 'static) -> Self {
        Self::start_with_latency(Duration::ZERO, handler).await
    }

    /// Like [`Self::start`], each response delayed by `latency`.
    pub async fn start_with_latency(
        latency: Duration,
        handler: impl Fn(&Hit) -> Response + Send + Sync + 'static,
    ) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let hits = Arc::new(Mutex::new(Vec::new()));
        let in_flight = Arc::new(AtomicUsize::new(0));
        let max_in_flight = Arc::new(AtomicUsize::new(0));
        let handler: Arc<Handler> = Arc::new(handler);
        let app = {
            let hits = Arc::clone(&hits);
            let max_in_flight = Arc::clone(&max_in_flight);
            axum::Router::new().fallback(move |request: Request| {
                let (hits, handler) = (Arc::clone(&hits), Arc::clone(&handler));
                let (in_flight, max_in_flight) =
                    (Arc::clone(&in_flight), Arc::clone(&max_in_flight));
                async move {
                    let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                    max_in_flight.fetch_max(now, Ordering::SeqCst);
                    let host = request
                        .headers()
                        .get(header::HOST)
                        .and_then(|h| h.to_str().ok())
                        .unwrap_or_default();
                    let host = host
                        .rsplit_once(':')
                        .map_or(host, |(name, _)| name)
                        .to_owned();
                    let path = request
                        .uri()
                        .path_and_query()
                        .map(|p| p.to_string())
                        .unwrap_or_default();
                    let hit = Hit {
                        at: Instant::now(),
                        host,
                        path,
                    };
                    hits.lock().unwrap().push(hit.clone());
                    tokio::time::sleep(latency).await;
                    let response = handler(&hit);
                    in_flight.fetch_sub(1, Ordering::SeqCst);
                    response
                }
            })
        };
        let server = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        Self {
            addr,
            hits,
            max_in_flight,
            server,
        }
    }

    pub fn hits(&self) -> Vec<Hit> {
        self.hits.lock().unwrap().clone()
    }

    pub fn paths(&self) -> Vec<String> {
        self.hits().into_iter().map(|hit| hit.path).collect()
    }

    pub fn count(&self, path: &str) -> usize {
        self.hits().iter().filter(|hit| hit.path == path).count()
    }

    pub fn max_in_flight(&self) -> usize {
        self.max_in_flight.load(Ordering::SeqCst)
    }

    /// A fast test configuration that maps `hosts` to this server.
    pub fn config(&self, hosts: &[&str]) -> CrawlConfig {
        CrawlConfig {
            resolve_overrides: hosts
                .iter()
                .map(|host| (host.to_string(), self.addr))
                .collect(),
            min_delay: Duration::ZERO,
            request_timeout: Duration::from_secs(5),
            connect_timeout: Duration::from_secs(2),
            ..CrawlConfig::default()
        }
    }
}

pub fn html(body: impl Into<String>) -> Response {
    with_type("text/html; charset=utf-8", Body::from(body.into()))
}

pub fn with_type(content_type: &str, body: Body) -> Response {
    let mut response = Response::new(body);
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_str(content_type).unwrap(),
    );
    response
}

pub fn status(code: u16) -> Response {
    let mut response = Response::new(Body::from(format!("status {code}")));
    *response.status_mut() = StatusCode::from_u16(code).unwrap();
    response
}

pub fn redirect(code: u16, location: &str) -> Response {
    let mut response = status(code);
    response
        .headers_mut()
        .insert(header::LOCATION, HeaderValue::from_str(location).unwrap());
    response
}

pub fn not_found() -> Response {
    status(404)
}

/// A body that never ends: `chunk` again and again, every `interval`.
pub fn endless(content_type: &str, chunk: &'static [u8], interval: Duration) -> Response {
    let stream = futures_util::stream::unfold((), move |()| async move {
        if !interval.is_zero() {
            tokio::time::sleep(interval).await;
        }
        Some((Ok::<_, Infallible>(Bytes::from_static(chunk)), ()))
    });
    with_type(content_type, Body::from_stream(stream))
}

pub fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

pub fn no_progress() -> impl Fn(usize) + Send + Sync {
    |_| {}
}
