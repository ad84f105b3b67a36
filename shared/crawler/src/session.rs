//! One visit to one site: which scheme it answers on, its robots.txt per origin, and
//! redirect following where every hop passes the same checks as the first request.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::OnceCell;
use url::Url;

use crate::config::CrawlConfig;
use crate::error::CrawlError;
use crate::guard::Refusal;
use crate::http::{FetchError, Fetched, Hop, HttpClient, Want};
use crate::robots::Robots;
use crate::site::Site;

/// Where redirects may lead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// Every hop stays on the site (pages found while crawling).
    Site,
    /// Any host the address checks allow (the home page, robots.txt, sitemaps).
    Anywhere,
}

/// robots.txt of one origin as far as the crawler is concerned.
#[derive(Debug, Clone)]
enum RobotsState {
    Rules(Arc<Robots>),
    /// A server error or no answer: nothing on the origin is fetched (RFC 9309 §2.3.1.4).
    Unavailable,
    /// No connection could be made: the origin is down, or answers only on another scheme.
    Unreachable,
    /// The origin itself may not be contacted.
    Refused(Refusal),
}

pub(crate) struct Session<'c> {
    http: &'c HttpClient,
    config: &'c CrawlConfig,
    site: Site,
    robots: Mutex<HashMap<String, Arc<OnceCell<RobotsState>>>>,
}

impl<'c> Session<'c> {
    pub(crate) fn new(http: &'c HttpClient, config: &'c CrawlConfig, site: Site) -> Self {
        Self {
            http,
            config,
            site,
            robots: Mutex::new(HashMap::new()),
        }
    }

    pub(crate) fn site(&self) -> &Site {
        &self.site
    }

    /// Moves the crawl to another site, when the home page redirects to one.
    pub(crate) fn rescope(&mut self, site: Site) {
        self.site = site;
    }

    /// Finds where the site answers and reads its robots.txt there: `https://<domain>/`
    /// first, `http://<domain>/` only when no TLS connection can be made, and the same two
    /// for `www.<domain>` when the bare domain does not resolve (some domains only exist with
    /// `www.`). Returns the home page URL.
    pub(crate) async fn open(&self) -> Result<Url, CrawlError> {
        let apex = self.site.apex();
        let www = format!("www.{apex}");
        let mut failure = FetchError::Connect;
        'hosts: for host in [apex, www.as_str()] {
            for scheme in ["https", "http"] {
                // `www.` before an IP address is no host name; skip it.
                let Ok(home) = Url::parse(&format!("{scheme}://{host}/")) else {
                    continue 'hosts;
                };
                match self.fetch_robots(&home).await {
                    Ok(robots) => {
                        self.remember_robots(&home, RobotsState::Rules(Arc::new(robots)));
                        return Ok(home);
                    }
                    Err(FetchError::NoSuchHost) => {
                        failure = FetchError::NoSuchHost;
                        continue 'hosts;
                    }
                    // A name that resolves but refuses connections is the site being down:
                    // its `www.` is not tried.
                    Err(FetchError::Connect) if scheme == "https" => {}
                    Err(error) => return Err(self.error(error)),
                }
            }
        }
        Err(self.error(failure))
    }

    /// `url` on the scheme its origin answers on. An address given as https is only read over
    /// https: falling back to plain http when TLS cannot connect would let anyone who can
    /// block a port read, or change, what the site sent. The one exception is a stand-in named
    /// in `KR_CRAWL_RESOLVE` (a sample site on this machine, which serves plain http). The
    /// origin's robots.txt is read on the way and kept.
    pub(crate) async fn answering(&self, url: Url) -> Url {
        let state = match self.fetch_robots(&url).await {
            Ok(robots) => RobotsState::Rules(Arc::new(robots)),
            Err(FetchError::Connect) if url.scheme() == "https" && self.http.is_stand_in(&url) => {
                let mut plain = url.clone();
                if plain.set_scheme("http").is_ok() {
                    return plain;
                }
                RobotsState::Unavailable
            }
            Err(FetchError::Connect) => RobotsState::Unreachable,
            Err(FetchError::Refused(refusal)) => RobotsState::Refused(refusal),
            Err(_) => RobotsState::Unavailable,
        };
        self.remember_robots(&url, state);
        url
    }

    /// The message a user sees for a failure on this site.
    pub(crate) fn error(&self, error: FetchError) -> CrawlError {
        let domain = self.site.apex().to_owned();
        match error {
            FetchError::Refused(refusal) if refusal.is_address() => {
                CrawlError::AddressRefused { domain }
            }
            FetchError::Refused(_)
            | FetchError::NoSuchHost
            | FetchError::Connect
            | FetchError::Broken
            | FetchError::OffSite => CrawlError::Unreachable { domain },
            FetchError::Timeout => CrawlError::TimedOut { domain },
            FetchError::Status(status) => CrawlError::HttpStatus { domain, status },
            FetchError::NotHtml => CrawlError::NotHtml { domain },
            FetchError::TooManyRedirects => CrawlError::TooManyRedirects { domain },
            FetchError::RobotsDisallowed => CrawlError::RobotsDisallowed { domain },
            FetchError::RobotsUnavailable => CrawlError::RobotsUnavailable { domain },
        }
    }

    /// Fetches `start`, following redirects up to the configured limit. Every hop is checked
    /// by the address guard, against `scope`, and (for pages) against its origin's robots.txt.
    pub(crate) async fn fetch(
        &self,
        start: Url,
        want: Want,
        scope: Scope,
        max_bytes: usize,
    ) -> Result<Fetched, FetchError> {
        self.follow(start, want, scope, true, max_bytes).await
    }

    async fn follow(
        &self,
        start: Url,
        want: Want,
        scope: Scope,
        obey_robots: bool,
        max_bytes: usize,
    ) -> Result<Fetched, FetchError> {
        let mut url = start;
        let mut visited: Vec<Url> = Vec::new();
        loop {
            if scope == Scope::Site && !self.site.contains(&url) {
                return Err(FetchError::OffSite);
            }
            // Before robots.txt: a forbidden address must be refused as such, not reported as
            // an origin whose robots.txt could not be read.
            self.http.check_url(&url)?;
            if obey_robots {
                self.check_robots(&url).await?;
            }
            match self.http.fetch_hop(&url, want, max_bytes).await? {
                Hop::Done(fetched) => return Ok(fetched),
                Hop::Redirect(next) => {
                    // A loop can never end well; stop at the first repeat instead of the limit.
                    if visited.len() >= self.config.max_redirects
                        || visited.contains(&next)
                        || next == url
                    {
                        return Err(FetchError::TooManyRedirects);
                    }
                    visited.push(std::mem::replace(&mut url, next));
                }
            }
        }
    }

    async fn check_robots(&self, url: &Url) -> Result<(), FetchError> {
        match self.robots_for(url).await {
            RobotsState::Rules(robots) if robots.allows(url) => Ok(()),
            RobotsState::Rules(_) => Err(FetchError::RobotsDisallowed),
            RobotsState::Unavailable => Err(FetchError::RobotsUnavailable),
            RobotsState::Unreachable => Err(FetchError::Connect),
            RobotsState::Refused(refusal) => Err(FetchError::Refused(refusal)),
        }
    }

    fn robots_cell(&self, url: &Url) -> Arc<OnceCell<RobotsState>> {
        let origin = url.origin().ascii_serialization();
        let mut cells = self.robots.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(cells.entry(origin).or_default())
    }

    /// A `Crawl-delay` slows down the whole site (the gates treat `www.` and the apex as one).
    fn apply_crawl_delay(&self, url: &Url, state: &RobotsState) {
        if let RobotsState::Rules(robots) = state {
            if let (Some(host), Some(delay)) = (url.host_str(), robots.crawl_delay()) {
                self.http.gates.apply_crawl_delay(host, delay);
            }
        }
    }

    fn remember_robots(&self, url: &Url, state: RobotsState) {
        self.apply_crawl_delay(url, &state);
        // Already known is fine: both came from the same origin's robots.txt.
        let _ = self.robots_cell(url).set(state);
    }

    /// The robots.txt rules of the URL's origin, fetched once per origin and session.
    async fn robots_for(&self, url: &Url) -> RobotsState {
        let cell = self.robots_cell(url);
        cell.get_or_init(|| async {
            let state = match self.fetch_robots(url).await {
                Ok(robots) => RobotsState::Rules(Arc::new(robots)),
                Err(FetchError::Refused(refusal)) => RobotsState::Refused(refusal),
                Err(_) => RobotsState::Unavailable,
            };
            self.apply_crawl_delay(url, &state);
            state
        })
        .await
        .clone()
    }

    /// Reads `/robots.txt` of the URL's origin (RFC 9309): a 2xx body is parsed, other 4xx
    /// answers and redirect loops mean no rules, 429 and 5xx mean "unavailable".
    fn fetch_robots<'a>(
        &'a self,
        url: &'a Url,
    ) -> Pin<Box<dyn Future<Output = Result<Robots, FetchError>> + Send + 'a>> {
        // Boxed because robots.txt is fetched through `follow`, which itself asks for robots.txt.
        Box::pin(async move {
            let robots_url = url.join("/robots.txt").map_err(|_| FetchError::Broken)?;
            let token = self.config.robots_token();
            match self
                .follow(
                    robots_url,
                    Want::Any,
                    Scope::Anywhere,
                    false,
                    self.config.max_robots_bytes,
                )
                .await
            {
                Ok(fetched) if (200..300).contains(&fetched.status) => {
                    let robots = Robots::parse(&String::from_utf8_lossy(&fetched.body), &token);
                    // The final answer is that origin's robots.txt too (`example.com` redirecting
                    // to `www.example.com` is common), which saves fetching it again.
                    if fetched.url.origin() != url.origin() {
                        self.remember_robots(
                            &fetched.url,
                            RobotsState::Rules(Arc::new(robots.clone())),
                        );
                    }
                    Ok(robots)
                }
                Ok(fetched) if fetched.status == 429 || fetched.status >= 500 => {
                    Err(FetchError::RobotsUnavailable)
                }
                Ok(_) | Err(FetchError::TooManyRedirects) => Ok(Robots::allow_all()),
                Err(error) => Err(error),
            }
        })
    }

    /// Sitemap URLs to try: those the robots.txt of each origin in `robots_of` lists, then
    /// the conventional `/sitemap.xml` of `home`.
    pub(crate) async fn sitemap_candidates(&self, robots_of: &[Url], home: &Url) -> Vec<Url> {
        let mut candidates: Vec<Url> = Vec::new();
        for origin in robots_of {
            if let RobotsState::Rules(robots) = self.robots_for(origin).await {
                candidates.extend(robots.sitemaps().iter().filter_map(|s| origin.join(s).ok()));
            }
        }
        candidates.extend(home.join("/sitemap.xml").ok());
        let mut unique: Vec<Url> = Vec::new();
        for candidate in candidates {
            if !unique.contains(&candidate) {
                unique.push(candidate);
            }
        }
        unique
    }
}
