//! Fetches the job's sites safely and politely and extracts what the research engine reads.
//!
//! Safety: every connection goes through the address guard (`guard.rs`), which refuses
//! private, loopback and other non-public addresses at connect time (DNS answers, literal IPs
//! and every redirect hop), so a hostile site cannot point the crawler into the network it
//! runs in. Host names listed in
//! [`CrawlConfig::resolve_overrides`] are the only exception (tests and the local demo).
//!
//! Politeness: robots.txt is honoured for the configured user agent, requests to one site are
//! limited in concurrency and spaced in time, and `Crawl-delay` can only slow the crawler down.
//! The decisions, in one place:
//! - robots.txt is read per origin (scheme, host, port), once per crawl, before anything else
//!   there. Our product token's groups apply, else `*`; longest match wins, Allow wins ties.
//! - A 2xx robots.txt is obeyed; any other 4xx, or more redirects than allowed, means no rules
//!   (RFC 9309). A 429 or 5xx means "unavailable": nothing on that origin is fetched and a
//!   crawl that cannot start there fails with [`CrawlError::RobotsUnavailable`]. A robots.txt
//!   that times out or cannot be connected to fails the site the same cautious way (reported
//!   as a timeout or as unreachable).
//! - `Crawl-delay` (seconds, fractions allowed) raises the site's spacing up to
//!   [`CrawlConfig::max_crawl_delay`]; it never lowers [`CrawlConfig::min_delay`].
//! - Spacing is between request starts, and `www.<domain>` and `<domain>` share one budget.
//! - `rel="nofollow"` links and pages with `<meta name="robots" content="nofollow">` are not
//!   followed. `noindex` is not applied: nothing fetched is published or indexed.

mod charset;
mod config;
mod crawler;
mod error;
mod extract;
mod frontier;
mod gate;
mod guard;
mod http;
mod outbound;
mod reference;
mod robots;
mod session;
mod site;
mod sitemap;

pub use charset::decode_html;
pub use config::CrawlConfig;
pub use crawler::{CrawlCheckpoint, CrawlProgress, Crawler, Download, SiteCrawl};
pub use error::CrawlError;
pub use extract::{extract_outline, extract_page, ExtractedPage, OutLink, OutlinedPage};
pub use kr_core::address::is_public_ip;
pub use kr_core::dataset::Reference;
pub use outbound::{GuardedClient, PostOutcome};
pub use reference::extract_reference;

pub use kr_core::dataset::{PageContent, SiteRole};
