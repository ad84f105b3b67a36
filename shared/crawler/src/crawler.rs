//! The public entry points: a site's reference preview, and a bounded breadth-first crawl.

use std::collections::{HashSet, VecDeque};

use futures_util::stream::{FuturesUnordered, StreamExt};
use serde::{Deserialize, Serialize};
use tokio::time::Instant;
use url::Url;

use kr_core::dataset::{PageContent, SiteRole};

use crate::charset::decode_html;
use crate::config::CrawlConfig;
use crate::error::CrawlError;
use crate::extract::{Document, ExtractedPage, OutlinedPage};
use crate::frontier::Frontier;
use crate::http::{FetchError, Fetched, HttpClient, Want};
use crate::session::{Scope, Session};
use crate::site::{crawlable, is_non_html_path, Site};
use crate::sitemap::{gunzip_if_needed, parse_sitemap};
use kr_core::dataset::Reference;

/// Requests a crawl may spend per page it is allowed to keep, so a site full of errors or
/// non-HTML links cannot keep the crawler busy without limit.
const REQUESTS_PER_PAGE: usize = 3;
/// Sitemap pages are queued as if two links away from the home page: after the pages the
/// home page links to (usually the site's main sections), which say most about the site.
const SITEMAP_DEPTH: usize = 2;
/// Sitemap indexes may list indexes; deeper than this is not a real site.
const MAX_SITEMAP_NESTING: usize = 2;

/// What a crawl of one site produced.
#[derive(Debug, Clone, PartialEq)]
pub struct SiteCrawl {
    /// The home page address the crawl started from: `https://<domain>/`, else `http://`, and
    /// the same with `www.` when the bare domain cannot be connected to.
    pub home_url: String,
    /// One entry per HTML page, `site` set to the role the crawl was asked for.
    pub pages: Vec<PageContent>,
    /// HTML pages fetched and extracted (`pages.len()`).
    pub pages_fetched: usize,
    /// Pages requested but not used: errors, non-HTML, redirects off the site or to a page
    /// already seen, a kept page's content at another address, too many redirects.
    pub pages_skipped: usize,
    /// Pages not requested because robots.txt or the address checks forbid them.
    pub pages_refused: usize,
    /// The home page preview; `None` when the home page could not be fetched.
    pub reference: Option<Reference>,
}

/// A body read by [`Crawler::fetch_image`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Download {
    pub bytes: Vec<u8>,
    /// The body was longer than asked for, or broke off: `bytes` is only its beginning.
    pub cut_off: bool,
}

/// Where a crawl of one site stood when it was stopped before it was done: enough to go on
/// later (in another process) without fetching any page twice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CrawlCheckpoint {
    pub home_url: String,
    /// The host the site moved to, when its home page redirected off the domain.
    pub host: Option<String>,
    /// Pages still to visit with their link depth, in visiting order.
    pub pending: Vec<(String, usize)>,
    /// Every page key already visited or queued.
    pub known: Vec<String>,
    pub pages: Vec<PageContent>,
    pub pages_skipped: usize,
    pub pages_refused: usize,
    pub requests: usize,
    pub reference: Option<Reference>,
}

/// A crawl that ran to its end, or stopped at the time it was given.
#[derive(Debug, Clone, PartialEq)]
pub enum CrawlProgress {
    Finished(SiteCrawl),
    Stopped(CrawlCheckpoint),
}

/// Crawls sites. One crawler is meant to serve a whole job: its politeness gates are shared
/// by every crawl it runs, so parallel crawls of one site still respect the per-site limits.
pub struct Crawler {
    config: CrawlConfig,
    http: HttpClient,
}

impl Crawler {
    pub fn new(config: CrawlConfig) -> Result<Self, CrawlError> {
        config.validate()?;
        let http = HttpClient::new(&config)?;
        Ok(Self { config, http })
    }

    pub fn config(&self) -> &CrawlConfig {
        &self.config
    }

    /// The reference preview of the site's home page (one robots.txt and one page request).
    pub async fn fetch_reference(&self, domain: &str) -> Result<Reference, CrawlError> {
        let session = Session::new(&self.http, &self.config, Site::from_domain(domain)?);
        let home = session.open().await?;
        let fetched = session
            .fetch(
                home.clone(),
                Want::Html,
                Scope::Anywhere,
                self.config.max_body_bytes,
            )
            .await
            .map_err(|error| session.error(error))?;
        Ok(extract_home(&fetched, &home).1)
    }

    /// One page of any site, read for its outline: its origin's robots.txt obeyed, the
    /// address guard on every hop, and the same politeness gates as every other request of
    /// this crawler. The error names the page's host.
    pub async fn fetch_outline(&self, url: &str) -> Result<OutlinedPage, CrawlError> {
        let fetched = self
            .fetch_one(url, Want::Html, self.config.max_body_bytes)
            .await?;
        Ok(Document::parse(&decode(&fetched), &fetched.url).outline())
    }

    /// An image anywhere on the web (a site's `og:image`), under the same rules as
    /// [`Crawler::fetch_outline`], reading at most `max_bytes` of it. Its type is not checked
    /// here: the caller reads it from the bytes.
    pub async fn fetch_image(&self, url: &str, max_bytes: usize) -> Result<Download, CrawlError> {
        let fetched = self.fetch_one(url, Want::Image, max_bytes).await?;
        Ok(Download {
            bytes: fetched.body,
            cut_off: fetched.truncated,
        })
    }

    async fn fetch_one(
        &self,
        url: &str,
        want: Want,
        max_bytes: usize,
    ) -> Result<Fetched, CrawlError> {
        let url =
            Url::parse(url)
                .ok()
                .and_then(crawlable)
                .ok_or_else(|| CrawlError::InvalidDomain {
                    domain: url.to_owned(),
                })?;
        let host = url.host_str().unwrap_or_default().to_owned();
        let session = Session::new(&self.http, &self.config, Site::from_host(&host));
        // The guard first: a forbidden address is refused as such, before any robots.txt.
        self.http
            .check_url(&url)
            .map_err(|error| session.error(error))?;
        let url = session.answering(url).await;
        session
            .fetch(url, want, Scope::Anywhere, max_bytes)
            .await
            .map_err(|error| session.error(error))
    }

    /// Crawls up to `max_pages` HTML pages of the site, breadth-first from the home page, plus
    /// the pages its sitemaps list. `on_progress` is called with the number of pages fetched
    /// so far after each page. Fails only when not a single page could be fetched.
    pub async fn crawl_site(
        &self,
        domain: &str,
        role: SiteRole,
        max_pages: usize,
        on_progress: &(dyn Fn(usize) + Send + Sync),
    ) -> Result<SiteCrawl, CrawlError> {
        match self
            .crawl_site_until(domain, role, max_pages, on_progress, None, None)
            .await?
        {
            CrawlProgress::Finished(crawl) => Ok(crawl),
            CrawlProgress::Stopped(_) => {
                unreachable!("a crawl without a stop time runs to its end")
            }
        }
    }

    /// [`Crawler::crawl_site`], from `resume` if given, stopping at `stop_at`: no page is
    /// started after it, the ones in flight are finished (within the request timeout and the
    /// site's crawl delay), and the rest is kept in the checkpoint, so the next part of the
    /// crawl (possibly in another process) fetches each page once.
    pub async fn crawl_site_until(
        &self,
        domain: &str,
        role: SiteRole,
        max_pages: usize,
        on_progress: &(dyn Fn(usize) + Send + Sync),
        resume: Option<CrawlCheckpoint>,
        stop_at: Option<Instant>,
    ) -> Result<CrawlProgress, CrawlError> {
        let mut session = Session::new(&self.http, &self.config, Site::from_domain(domain)?);
        let (mut crawl, mut frontier, mut requests, home_error) = match resume {
            Some(checkpoint) => {
                if let Some(host) = &checkpoint.host {
                    session.rescope(Site::from_host(host));
                }
                let pending = checkpoint
                    .pending
                    .into_iter()
                    .filter_map(|(url, depth)| Some((Url::parse(&url).ok()?, depth)))
                    .collect();
                let crawl = SiteCrawl {
                    home_url: checkpoint.home_url,
                    pages_fetched: checkpoint.pages.len(),
                    pages: checkpoint.pages,
                    pages_skipped: checkpoint.pages_skipped,
                    pages_refused: checkpoint.pages_refused,
                    reference: checkpoint.reference,
                };
                let frontier = Frontier::from_parts(pending, checkpoint.known);
                (crawl, frontier, checkpoint.requests, None)
            }
            None => {
                let mut frontier = Frontier::default();
                let (crawl, home_error) = self
                    .start(&mut session, &mut frontier, role, max_pages, on_progress)
                    .await?;
                if max_pages == 0 {
                    return Ok(CrawlProgress::Finished(crawl));
                }
                (crawl, frontier, 1, home_error)
            }
        };
        let max_requests = max_pages.saturating_mul(REQUESTS_PER_PAGE);
        let session = &session;
        let mut in_flight = FuturesUnordered::new();
        let stop = async {
            match stop_at {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        tokio::pin!(stop);
        let mut stopping = false;
        loop {
            while !stopping
                && in_flight.len() < self.config.per_host_concurrency
                && crawl.pages_fetched + in_flight.len() < max_pages
                && requests + in_flight.len() < max_requests
            {
                let Some((url, depth)) = frontier.pop() else {
                    break;
                };
                in_flight.push(async move {
                    let result = session
                        .fetch(
                            url.clone(),
                            Want::Html,
                            Scope::Site,
                            self.config.max_body_bytes,
                        )
                        .await;
                    (url, depth, result)
                });
            }
            if stopping && in_flight.is_empty() && frontier.has_pending() {
                // What was in flight at the stop is finished, not dropped: a request the site
                // has seen is never sent again by the next part.
                let host = session.site().apex();
                let (pending, known) = frontier.into_parts();
                return Ok(CrawlProgress::Stopped(CrawlCheckpoint {
                    host: (!Site::from_domain(domain).is_ok_and(|site| site.apex() == host))
                        .then(|| host.to_owned()),
                    home_url: crawl.home_url,
                    pending: pending
                        .into_iter()
                        .map(|(url, depth)| (url.to_string(), depth))
                        .collect(),
                    known,
                    pages: crawl.pages,
                    pages_skipped: crawl.pages_skipped,
                    pages_refused: crawl.pages_refused,
                    requests,
                    reference: crawl.reference,
                }));
            }
            let next = tokio::select! {
                next = in_flight.next() => next,
                _ = &mut stop, if !stopping => {
                    stopping = true;
                    continue;
                }
            };
            let Some((url, depth, result)) = next else {
                break;
            };
            if made_request(&result) {
                requests += 1;
            }
            let site = session.site();
            match result {
                // A redirect to a page known already (crawled or queued) is that page again.
                Ok(fetched)
                    if site.page_key(&fetched.url) != site.page_key(&url)
                        && !frontier.mark_known(site, &fetched.url) =>
                {
                    tracing::debug!(%url, to = %fetched.url, "page redirects to a known page");
                    crawl.pages_skipped += 1;
                }
                Ok(fetched) => {
                    let page = extract_fetched(&fetched);
                    self.keep_page(&mut crawl, &mut frontier, site, page, depth, role);
                    on_progress(crawl.pages_fetched);
                }
                Err(error) => {
                    tracing::debug!(%url, ?error, "page not used");
                    count_failure(&mut crawl, &error);
                }
            }
        }
        tracing::info!(
            site = session.site().apex(),
            fetched = crawl.pages_fetched,
            skipped = crawl.pages_skipped,
            refused = crawl.pages_refused,
            "site crawled"
        );

        if crawl.pages.is_empty() {
            return Err(home_error.unwrap_or_else(|| CrawlError::Unreachable {
                domain: session.site().apex().to_owned(),
            }));
        }
        Ok(CrawlProgress::Finished(crawl))
    }

    /// The first part of a crawl: the site's home page, which decides its host and gives the
    /// reference and the first links, then its sitemaps; and why the home page could not be
    /// used, if it could not.
    async fn start(
        &self,
        session: &mut Session<'_>,
        frontier: &mut Frontier,
        role: SiteRole,
        max_pages: usize,
        on_progress: &(dyn Fn(usize) + Send + Sync),
    ) -> Result<(SiteCrawl, Option<CrawlError>), CrawlError> {
        let home = session.open().await?;
        let mut crawl = SiteCrawl {
            home_url: home.to_string(),
            pages: Vec::new(),
            pages_fetched: 0,
            pages_skipped: 0,
            pages_refused: 0,
            reference: None,
        };
        if max_pages == 0 {
            return Ok((crawl, None));
        }
        frontier.mark_known(session.site(), &home);

        // The home page alone first: where it lands decides the site's host, and it gives
        // the reference and the first links.
        let mut robots_of = vec![home.clone()];
        let mut sitemap_home = home.clone();
        let mut home_scripts: (Vec<Url>, Url) = (Vec::new(), home.clone());
        let home_error = match session
            .fetch(
                home.clone(),
                Want::Html,
                Scope::Anywhere,
                self.config.max_body_bytes,
            )
            .await
        {
            Ok(fetched) => {
                if let Some(host) = fetched
                    .url
                    .host_str()
                    .filter(|host| !session.site().contains_host(host))
                {
                    // The domain moved (e.g. to another TLD): crawl where it went.
                    session.rescope(Site::from_host(host));
                }
                frontier.mark_known(session.site(), &fetched.url);
                if let Ok(root) = fetched.url.join("/") {
                    robots_of.push(root.clone());
                    sitemap_home = root;
                }
                let (page, reference) = extract_home(&fetched, &home);
                crawl.reference = Some(reference);
                home_scripts = (page.scripts.clone(), fetched.url.clone());
                self.keep_page(&mut crawl, frontier, session.site(), page, 0, role);
                on_progress(crawl.pages_fetched);
                None
            }
            Err(error) => {
                tracing::debug!(url = %home, ?error, "home page not used");
                count_failure(&mut crawl, &error);
                Some(session.error(error))
            }
        };

        self.queue_sitemap_pages(session, &robots_of, &sitemap_home, frontier, max_pages)
            .await;
        if !frontier.has_pending() {
            let (scripts, document) = home_scripts;
            self.queue_script_pages(session, &scripts, &document, frontier)
                .await;
        }
        Ok((crawl, home_error))
    }

    /// A home page that links nowhere and has no sitemap may load its navigation with a
    /// script (`fetch('navigation.html')`): the site's own scripts are read (a few, each cut
    /// at `MAX_SCRIPT_BYTES`) for the `.html` pages they name, resolved against the page as
    /// the browser would, and those are queued as its links.
    async fn queue_script_pages(
        &self,
        session: &Session<'_>,
        scripts: &[Url],
        document: &Url,
        frontier: &mut Frontier,
    ) {
        for script in scripts.iter().take(MAX_SCRIPTS) {
            let Ok(fetched) = session
                .fetch(script.clone(), Want::Any, Scope::Site, MAX_SCRIPT_BYTES)
                .await
            else {
                continue;
            };
            if !(200..300).contains(&fetched.status) {
                continue;
            }
            for path in html_paths_in_script(&String::from_utf8_lossy(&fetched.body)) {
                if let Some(page) = document.join(&path).ok().and_then(crawlable) {
                    if session.site().contains(&page) {
                        frontier.push(session.site(), page, 1);
                    }
                }
            }
        }
    }

    /// Adds a page to the result and queues the site links it has (unless it asks robots not
    /// to follow them). A page whose title, description, headings and text are a kept page's
    /// is that page at another address ("/" and "/index.html", "?sort=asc"): it is skipped,
    /// since counted twice it would name the site's offerings twice as often and make one
    /// page look like two competing for a content plan's cluster.
    fn keep_page(
        &self,
        crawl: &mut SiteCrawl,
        frontier: &mut Frontier,
        site: &Site,
        page: ExtractedPage,
        depth: usize,
        role: SiteRole,
    ) {
        if crawl
            .pages
            .iter()
            .any(|kept| same_content(kept, &page.content))
        {
            tracing::debug!(url = %page.content.url, "page repeats a kept page");
            crawl.pages_skipped += 1;
            return;
        }
        if !page.nofollow {
            for link in page.links.into_iter().filter(|link| !link.nofollow) {
                if site.contains(&link.url) && !is_non_html_path(&link.url) {
                    frontier.push(site, link.url, depth + 1);
                }
            }
        }
        crawl.pages.push(PageContent {
            site: Some(role),
            ..page.content
        });
        crawl.pages_fetched = crawl.pages.len();
    }

    /// Reads the site's sitemaps (indexes and gzip included, within the configured bounds) and
    /// queues the site pages they list. Stops once it has a generous supply of pages, since
    /// the crawl can use at most `max_pages`.
    async fn queue_sitemap_pages(
        &self,
        session: &Session<'_>,
        robots_of: &[Url],
        home: &Url,
        frontier: &mut Frontier,
        max_pages: usize,
    ) {
        let wanted = self
            .config
            .max_sitemap_urls
            .min(max_pages.saturating_mul(2));
        let mut queue: VecDeque<(Url, usize)> = session
            .sitemap_candidates(robots_of, home)
            .await
            .into_iter()
            .map(|url| (url, 0))
            .collect();
        let mut seen: HashSet<Url> = queue.iter().map(|(url, _)| url.clone()).collect();
        let (mut files, mut queued) = (0, 0);
        while let Some((url, nesting)) = queue.pop_front() {
            if files >= self.config.max_sitemap_files || queued >= wanted {
                break;
            }
            files += 1;
            let Ok(fetched) = session
                .fetch(
                    url,
                    Want::Any,
                    Scope::Anywhere,
                    self.config.max_sitemap_bytes,
                )
                .await
            else {
                continue;
            };
            if !(200..300).contains(&fetched.status) {
                continue;
            }
            let body = gunzip_if_needed(fetched.body, self.config.max_sitemap_bytes);
            let entries = parse_sitemap(&body, self.config.max_sitemap_urls);
            for page in entries.pages {
                let Some(page) = Url::parse(&page)
                    .ok()
                    .and_then(crawlable)
                    .map(|page| in_scheme_of(page, home))
                else {
                    continue;
                };
                if queued < wanted
                    && session.site().contains(&page)
                    && !is_non_html_path(&page)
                    && frontier.push(session.site(), page, SITEMAP_DEPTH)
                {
                    queued += 1;
                }
            }
            if nesting < MAX_SITEMAP_NESTING {
                for nested in entries
                    .sitemaps
                    .iter()
                    .filter_map(|s| fetched.url.join(s).ok())
                {
                    if seen.insert(nested.clone()) {
                        queue.push_back((nested, nesting + 1));
                    }
                }
            }
        }
    }
}

/// Scripts of the home page read for the pages they load, and how much of each.
const MAX_SCRIPTS: usize = 4;
const MAX_SCRIPT_BYTES: usize = 256 * 1024;

/// The quoted strings of a script that name an `.html` page ("navigation.html",
/// '/partials/footer.htm'), each once: no space, no scheme other than the page's own site.
fn html_paths_in_script(script: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for quote in ['\'', '"', '`'] {
        for (i, literal) in script.split(quote).enumerate() {
            let path = literal.trim();
            let names_a_page = i % 2 == 1
                && !path.is_empty()
                && path.len() <= 200
                && !path.contains(char::is_whitespace)
                && !path.contains("${")
                && [".html", ".htm"]
                    .iter()
                    .any(|end| path.to_ascii_lowercase().ends_with(end));
            if names_a_page && !found.iter().any(|f| f == path) {
                found.push(path.to_string());
            }
        }
    }
    found
}

/// `page` as the site is reached: a sitemap of a site reached over `http://` (TLS unavailable)
/// often lists its pages as `https://`, and queued so they would fail to fetch and, being
/// known, never be queued again from the links that reach them.
fn in_scheme_of(mut page: Url, home: &Url) -> Url {
    if page.scheme() != home.scheme() {
        // Only http and https are crawlable, and switching between them always succeeds.
        let _ = page.set_scheme(home.scheme());
    }
    page
}

/// Whether the fetch cost a request to the site (refusals are decided before any request).
fn made_request(result: &Result<Fetched, FetchError>) -> bool {
    !matches!(
        result,
        Err(FetchError::Refused(_)
            | FetchError::RobotsDisallowed
            | FetchError::RobotsUnavailable
            | FetchError::OffSite)
    )
}

fn count_failure(crawl: &mut SiteCrawl, error: &FetchError) {
    match error {
        FetchError::Refused(_) | FetchError::RobotsDisallowed | FetchError::RobotsUnavailable => {
            crawl.pages_refused += 1
        }
        _ => crawl.pages_skipped += 1,
    }
}

fn decode(fetched: &Fetched) -> String {
    decode_html(&fetched.body, fetched.content_type.as_deref())
}

/// Parsing stays in plain functions: the parsed tree is not `Send` and must not live across
/// an `.await`.
fn extract_fetched(fetched: &Fetched) -> ExtractedPage {
    Document::parse(&decode(fetched), &fetched.url).page()
}

fn extract_home(fetched: &Fetched, requested: &Url) -> (ExtractedPage, Reference) {
    let document = Document::parse(&decode(fetched), &fetched.url);
    (document.page(), document.reference(requested))
}

/// Two addresses of one page: everything the research reads from them is the same.
fn same_content(kept: &PageContent, page: &PageContent) -> bool {
    kept.title == page.title
        && kept.body_text == page.body_text
        && kept.meta_description == page.meta_description
        && kept.headings == page.headings
}
