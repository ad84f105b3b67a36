use std::net::SocketAddr;
use std::time::Duration;

use kr_core::dataset::SiteRole;

use crate::error::CrawlError;

/// Everything the crawler can be told. `Default` gives the production settings.
#[derive(Debug, Clone, PartialEq)]
pub struct CrawlConfig {
    /// Sent on every request; its product token (the part before `/`) is what robots.txt
    /// groups are matched against.
    pub user_agent: String,
    pub max_pages_primary: usize,
    pub max_pages_competitor: usize,
    /// Requests in flight to one site at once (`www.` and the bare domain count as one).
    pub per_host_concurrency: usize,
    /// Minimum time between the starts of two requests to one site.
    pub min_delay: Duration,
    /// robots.txt `Crawl-delay` raises `min_delay` up to this, never further: a site asking
    /// for a minute between pages would otherwise stall a job for hours.
    pub max_crawl_delay: Duration,
    /// Deadline for one request, from sending it to the last byte of the body.
    pub request_timeout: Duration,
    pub connect_timeout: Duration,
    pub max_redirects: usize,
    /// Cap on a page body after decompression; longer bodies are cut off there.
    pub max_body_bytes: usize,
    /// RFC 9309 asks crawlers to read at least 500 KiB of robots.txt.
    pub max_robots_bytes: usize,
    /// Cap on one sitemap after decompression (gzip sitemaps included).
    pub max_sitemap_bytes: usize,
    /// Page URLs taken from all sitemaps of one site together.
    pub max_sitemap_urls: usize,
    /// Sitemap documents (indexes included) fetched for one site.
    pub max_sitemap_files: usize,
    /// Host names that resolve to a fixed address instead of DNS, like curl's `--resolve`.
    /// Only these may point at private or loopback addresses.
    pub resolve_overrides: Vec<(String, SocketAddr)>,
}

impl Default for CrawlConfig {
    fn default() -> Self {
        Self {
            user_agent: "KeywordResearchBot/0.1 (+https://keyword-research.example/bot)".into(),
            max_pages_primary: 50,
            max_pages_competitor: 20,
            per_host_concurrency: 2,
            min_delay: Duration::from_millis(250),
            max_crawl_delay: Duration::from_secs(5),
            request_timeout: Duration::from_secs(10),
            connect_timeout: Duration::from_secs(5),
            max_redirects: 5,
            max_body_bytes: 2 * 1024 * 1024,
            max_robots_bytes: 500 * 1024,
            max_sitemap_bytes: 10 * 1024 * 1024,
            max_sitemap_urls: 10_000,
            max_sitemap_files: 10,
            resolve_overrides: Vec::new(),
        }
    }
}

impl CrawlConfig {
    /// The page cap for a site of this role.
    pub fn max_pages_for(&self, role: SiteRole) -> usize {
        match role {
            SiteRole::Primary => self.max_pages_primary,
            SiteRole::Competitor(_) => self.max_pages_competitor,
        }
    }

    /// Parses `host=ip:port,host2=[v6]:port` into overrides. Host names are lowercased and
    /// lose a trailing dot so they compare equal to what URLs carry.
    pub fn parse_resolve(spec: &str) -> Result<Vec<(String, SocketAddr)>, CrawlError> {
        let mut overrides: Vec<(String, SocketAddr)> = Vec::new();
        for entry in spec.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let invalid =
                |why: &str| CrawlError::InvalidConfig(format!("resolve entry \"{entry}\": {why}"));
            let (host, addr) = entry
                .split_once('=')
                .ok_or_else(|| invalid("expected host=ip:port"))?;
            let host = host.trim().trim_end_matches('.').to_ascii_lowercase();
            let valid_host = !host.is_empty()
                && host.parse::<std::net::IpAddr>().is_err()
                && host
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
            if !valid_host {
                return Err(invalid("the host must be a host name"));
            }
            let addr: SocketAddr = addr
                .trim()
                .parse()
                .map_err(|_| invalid("the address must be ip:port, or [ipv6]:port"))?;
            if overrides.iter().any(|(known, _)| *known == host) {
                return Err(invalid("the host is listed twice"));
            }
            overrides.push((host, addr));
        }
        Ok(overrides)
    }

    /// Reads `KR_CRAWL_*` environment variables over the defaults (see [`Self::from_vars`]).
    pub fn from_env() -> Result<Self, CrawlError> {
        Self::from_vars(|name| std::env::var(name).ok())
    }

    /// The defaults, overridden by whichever of these variables `lookup` knows:
    /// `KR_CRAWL_USER_AGENT`, `KR_CRAWL_MAX_PAGES_PRIMARY`, `KR_CRAWL_MAX_PAGES_COMPETITOR`,
    /// `KR_CRAWL_CONCURRENCY`, `KR_CRAWL_DELAY_MS`, `KR_CRAWL_TIMEOUT_MS`, `KR_CRAWL_RESOLVE`.
    pub fn from_vars(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, CrawlError> {
        let mut config = Self::default();
        let number = |name: &str| -> Result<Option<u64>, CrawlError> {
            match lookup(name) {
                None => Ok(None),
                Some(text) => text.trim().parse().map(Some).map_err(|_| {
                    CrawlError::InvalidConfig(format!(
                        "{name} must be a whole number, not \"{text}\""
                    ))
                }),
            }
        };
        if let Some(agent) = lookup("KR_CRAWL_USER_AGENT").filter(|a| !a.trim().is_empty()) {
            config.user_agent = agent.trim().to_owned();
        }
        if let Some(pages) = number("KR_CRAWL_MAX_PAGES_PRIMARY")? {
            config.max_pages_primary = pages as usize;
        }
        if let Some(pages) = number("KR_CRAWL_MAX_PAGES_COMPETITOR")? {
            config.max_pages_competitor = pages as usize;
        }
        if let Some(concurrency) = number("KR_CRAWL_CONCURRENCY")? {
            config.per_host_concurrency = concurrency as usize;
        }
        if let Some(ms) = number("KR_CRAWL_DELAY_MS")? {
            config.min_delay = Duration::from_millis(ms);
        }
        if let Some(ms) = number("KR_CRAWL_TIMEOUT_MS")? {
            config.request_timeout = Duration::from_millis(ms);
        }
        if let Some(spec) = lookup("KR_CRAWL_RESOLVE") {
            config.resolve_overrides = Self::parse_resolve(&spec)?;
        }
        config.validate()?;
        Ok(config)
    }

    /// Rejects settings under which the crawler could not make progress or could not stop.
    pub fn validate(&self) -> Result<(), CrawlError> {
        let invalid = |why: &str| Err(CrawlError::InvalidConfig(why.to_owned()));
        if self.user_agent.trim().is_empty() || self.user_agent.contains(['\r', '\n']) {
            return invalid("the user agent must be one non-empty line");
        }
        if self.per_host_concurrency == 0 {
            return invalid("per-host concurrency must be at least 1");
        }
        if self.request_timeout.is_zero() || self.connect_timeout.is_zero() {
            return invalid("timeouts must be longer than zero");
        }
        if self.max_body_bytes == 0 || self.max_robots_bytes == 0 || self.max_sitemap_bytes == 0 {
            return invalid("body size limits must be larger than zero");
        }
        Ok(())
    }

    /// The robots.txt product token: what comes before the first `/` or space of the user
    /// agent, lowercased (RFC 9309 matches it case-insensitively).
    pub(crate) fn robots_token(&self) -> String {
        self.user_agent
            .split(['/', ' '])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_resolve_entries_like_curl() {
        let parsed =
            CrawlConfig::parse_resolve(" Shop.Test.=127.0.0.1:8080, www.shop.test=[::1]:9000,")
                .unwrap();
        assert_eq!(
            parsed,
            vec![
                ("shop.test".to_owned(), "127.0.0.1:8080".parse().unwrap()),
                ("www.shop.test".to_owned(), "[::1]:9000".parse().unwrap()),
            ]
        );
        assert_eq!(CrawlConfig::parse_resolve("").unwrap(), vec![]);
    }

    #[test]
    fn rejects_malformed_resolve_entries() {
        for spec in [
            "shop.test",
            "shop.test=127.0.0.1",
            "=127.0.0.1:80",
            "127.0.0.1=127.0.0.1:80",
            "shop test=127.0.0.1:80",
            "a.test=127.0.0.1:80,A.test=127.0.0.2:80",
        ] {
            let error = CrawlConfig::parse_resolve(spec).unwrap_err();
            assert!(
                matches!(error, CrawlError::InvalidConfig(_)),
                "{spec}: {error:?}"
            );
        }
    }

    #[test]
    fn reads_environment_variables_over_defaults() {
        let vars = [
            ("KR_CRAWL_RESOLVE", "demo.test=127.0.0.1:3000"),
            ("KR_CRAWL_DELAY_MS", "10"),
            ("KR_CRAWL_MAX_PAGES_PRIMARY", "7"),
        ];
        let config = CrawlConfig::from_vars(|name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        })
        .unwrap();
        assert_eq!(config.min_delay, Duration::from_millis(10));
        assert_eq!(config.max_pages_primary, 7);
        assert_eq!(config.max_pages_competitor, 20);
        assert_eq!(config.resolve_overrides[0].0, "demo.test");

        let bad =
            CrawlConfig::from_vars(|name| (name == "KR_CRAWL_DELAY_MS").then(|| "soon".into()));
        assert!(matches!(bad, Err(CrawlError::InvalidConfig(_))));
    }

    #[test]
    fn robots_token_is_the_product_name() {
        assert_eq!(CrawlConfig::default().robots_token(), "keywordresearchbot");
    }
}
