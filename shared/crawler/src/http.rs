//! One HTTP request at a time, safely: the SSRF guard, the politeness gate, a deadline over
//! the whole exchange and a cap on the decompressed body. Redirects are returned, not followed,
//! so the caller checks every hop before going there.

use std::sync::Arc;
use std::time::Duration;

use reqwest::header::{ACCEPT, CONTENT_TYPE, LOCATION};
use tokio::time::Instant;
use url::Url;

use crate::config::CrawlConfig;
use crate::error::CrawlError;
use crate::gate::HostGates;
use crate::guard::{refusal_in, resolve_failed, AddressPolicy, GuardedResolver, Refusal};
use crate::site::crawlable;

/// What the caller will accept as a response body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Want {
    /// A 2xx HTML page; anything else fails without reading the body.
    Html,
    /// Any type (robots.txt, sitemaps); bodies are read only for 2xx answers.
    Any,
    /// A 2xx answer of any declared type (servers often misname images: the caller reads the
    /// type from the bytes); anything else fails without reading the body.
    Image,
}

/// A response with its (possibly cut off) body.
#[derive(Debug)]
pub(crate) struct Fetched {
    pub(crate) url: Url,
    pub(crate) status: u16,
    pub(crate) content_type: Option<String>,
    pub(crate) body: Vec<u8>,
    /// The body was longer than the cap, or broke off, and is only its beginning.
    pub(crate) truncated: bool,
}

pub(crate) enum Hop {
    Redirect(Url),
    Done(Fetched),
}

/// Why a fetch gave no usable response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum FetchError {
    /// Not fetched: the URL or the address it resolves to is not allowed.
    Refused(Refusal),
    /// The host name does not resolve.
    NoSuchHost,
    /// No connection: refused, unreachable, TLS failure.
    Connect,
    Timeout,
    Status(u16),
    NotHtml,
    TooManyRedirects,
    /// A redirect left the site being crawled.
    OffSite,
    RobotsDisallowed,
    /// robots.txt answered with a server error or could not be read.
    RobotsUnavailable,
    /// The server broke the protocol (bad response, bad redirect, undecodable body).
    Broken,
}

pub(crate) struct HttpClient {
    client: reqwest::Client,
    policy: Arc<AddressPolicy>,
    pub(crate) gates: HostGates,
    request_timeout: Duration,
}

const HTML_ACCEPT: &str = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1";
/// The types we keep, so a server that can choose sends one of them (no SVG).
const IMAGE_ACCEPT: &str = "image/webp,image/png,image/jpeg;q=0.9,*/*;q=0.1";

impl HttpClient {
    pub(crate) fn new(config: &CrawlConfig) -> Result<Self, CrawlError> {
        let policy = Arc::new(AddressPolicy::new(&config.resolve_overrides));
        let client = reqwest::Client::builder()
            .user_agent(config.user_agent.clone())
            // Followed by the caller, hop by hop, through the same checks as the first request.
            .redirect(reqwest::redirect::Policy::none())
            // A proxy would connect on our behalf, past the resolver's address checks.
            .no_proxy()
            .dns_resolver(Arc::new(GuardedResolver(Arc::clone(&policy))))
            .timeout(config.request_timeout)
            .connect_timeout(config.connect_timeout)
            .pool_max_idle_per_host(config.per_host_concurrency)
            .pool_idle_timeout(Duration::from_secs(30))
            .tcp_nodelay(true)
            .referer(false)
            .build()
            .map_err(|error| CrawlError::Setup(error.to_string()))?;
        Ok(Self {
            client,
            policy,
            gates: HostGates::new(
                config.per_host_concurrency,
                config.min_delay,
                config.max_crawl_delay,
            ),
            request_timeout: config.request_timeout,
        })
    }

    /// Whether `url`'s host is a stand-in named in `KR_CRAWL_RESOLVE`.
    pub(crate) fn is_stand_in(&self, url: &Url) -> bool {
        self.policy.is_stand_in(url)
    }

    /// The address guard's verdict on a URL, before any request.
    pub(crate) fn check_url(&self, url: &Url) -> Result<(), FetchError> {
        self.policy.check_url(url).map_err(FetchError::Refused)
    }

    /// Sends one GET and reads at most `max_bytes` of its decompressed body.
    pub(crate) async fn fetch_hop(
        &self,
        url: &Url,
        want: Want,
        max_bytes: usize,
    ) -> Result<Hop, FetchError> {
        self.check_url(url)?;
        let _pass = self.gates.enter(url.host_str().unwrap_or_default()).await;
        // One deadline for headers and body together: a server trickling bytes forever
        // cannot hold a request open past it.
        let deadline = Instant::now() + self.request_timeout;
        let accept = match want {
            Want::Html => HTML_ACCEPT,
            Want::Any => "*/*",
            Want::Image => IMAGE_ACCEPT,
        };
        let request = self.client.get(url.clone()).header(ACCEPT, accept).send();
        let mut response = tokio::time::timeout_at(deadline, request)
            .await
            .map_err(|_| FetchError::Timeout)?
            .map_err(|error| classify(&error))?;

        let status = response.status();
        if status.is_redirection() {
            if let Some(location) = response.headers().get(LOCATION) {
                let location = String::from_utf8_lossy(location.as_bytes());
                let next = url.join(location.trim()).ok().and_then(crawlable);
                return next.map(Hop::Redirect).ok_or(FetchError::Broken);
            }
        }
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned());
        let mut fetched = Fetched {
            url: url.clone(),
            status: status.as_u16(),
            content_type,
            body: Vec::new(),
            truncated: false,
        };
        match want {
            Want::Html if !status.is_success() => return Err(FetchError::Status(status.as_u16())),
            Want::Html if !fetched.content_type.as_deref().is_none_or(is_html) => {
                return Err(FetchError::NotHtml)
            }
            Want::Image if !status.is_success() => return Err(FetchError::Status(status.as_u16())),
            Want::Any if !status.is_success() => return Ok(Hop::Done(fetched)),
            _ => {}
        }

        loop {
            let chunk = tokio::time::timeout_at(deadline, response.chunk())
                .await
                .map_err(|_| FetchError::Timeout)?;
            match chunk {
                Ok(Some(chunk)) => {
                    let room = max_bytes - fetched.body.len();
                    if chunk.len() > room {
                        // Dropping the response closes the connection: the rest is never read
                        // or decompressed, which is what stops endless and bomb bodies.
                        fetched.body.extend_from_slice(&chunk[..room]);
                        fetched.truncated = true;
                        break;
                    }
                    fetched.body.extend_from_slice(&chunk);
                }
                Ok(None) => break,
                Err(error) if error.is_timeout() => return Err(FetchError::Timeout),
                // A body that breaks off (bad compression, dropped connection) keeps what
                // arrived intact before the break.
                Err(_) if !fetched.body.is_empty() => {
                    fetched.truncated = true;
                    break;
                }
                Err(_) => return Err(FetchError::Broken),
            }
        }
        Ok(Hop::Done(fetched))
    }
}

/// Whether a Content-Type value names an HTML document.
fn is_html(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or_default().trim();
    essence.eq_ignore_ascii_case("text/html")
        || essence.eq_ignore_ascii_case("application/xhtml+xml")
}

fn classify(error: &reqwest::Error) -> FetchError {
    if let Some(refusal) = refusal_in(error) {
        FetchError::Refused(refusal)
    } else if resolve_failed(error) {
        FetchError::NoSuchHost
    } else if error.is_connect() {
        FetchError::Connect
    } else if error.is_timeout() {
        FetchError::Timeout
    } else {
        FetchError::Broken
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_content_types() {
        assert!(is_html("text/html"));
        assert!(is_html("Text/HTML; charset=utf-8"));
        assert!(is_html("application/xhtml+xml"));
        assert!(!is_html("application/pdf"));
        assert!(!is_html("text/plain; charset=utf-8"));
        assert!(!is_html("text/htmlx"));
    }
}
