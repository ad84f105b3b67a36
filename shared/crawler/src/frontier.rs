//! The pages still to visit, shallowest first, each page of the site at most once.

use std::collections::{BTreeMap, HashSet, VecDeque};

use url::Url;

use crate::site::Site;

/// Bounds memory on sites that generate links without end (calendars, faceted search).
const MAX_KNOWN_PAGES: usize = 50_000;

#[derive(Default)]
pub(crate) struct Frontier {
    by_depth: BTreeMap<usize, VecDeque<Url>>,
    known: HashSet<String>,
}

impl Frontier {
    /// Queues a page at a link depth unless it is already known. Returns whether it was new.
    pub(crate) fn push(&mut self, site: &Site, url: Url, depth: usize) -> bool {
        if self.known.len() >= MAX_KNOWN_PAGES || !self.known.insert(site.page_key(&url)) {
            return false;
        }
        self.by_depth.entry(depth).or_default().push_back(url);
        true
    }

    /// Records a page as visited without queueing it (the final URL of a redirect).
    /// Returns whether it was new.
    pub(crate) fn mark_known(&mut self, site: &Site, url: &Url) -> bool {
        self.known.insert(site.page_key(url))
    }

    pub(crate) fn has_pending(&self) -> bool {
        !self.by_depth.is_empty()
    }

    /// What is left to visit, in visiting order, and every page key seen: for a crawl that
    /// stops and goes on later.
    pub(crate) fn into_parts(mut self) -> (Vec<(Url, usize)>, Vec<String>) {
        let pending = std::iter::from_fn(|| self.pop()).collect();
        (pending, self.known.into_iter().collect())
    }

    pub(crate) fn from_parts(pending: Vec<(Url, usize)>, known: Vec<String>) -> Self {
        let mut frontier = Self {
            by_depth: BTreeMap::new(),
            known: known.into_iter().collect(),
        };
        for (url, depth) in pending {
            frontier.by_depth.entry(depth).or_default().push_back(url);
        }
        frontier
    }

    /// The next page: breadth-first, so the pages closest to the home page come first.
    pub(crate) fn pop(&mut self) -> Option<(Url, usize)> {
        let mut entry = self.by_depth.first_entry()?;
        let depth = *entry.key();
        let url = entry.get_mut().pop_front();
        if entry.get().is_empty() {
            entry.remove();
        }
        url.map(|url| (url, depth))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_shallowest_first_and_dedupes_across_www() {
        let site = Site::from_domain("shop.example").unwrap();
        let mut frontier = Frontier::default();
        let url = |s: &str| Url::parse(s).unwrap();
        assert!(frontier.push(&site, url("https://shop.example/deep"), 2));
        assert!(frontier.push(&site, url("https://shop.example/a"), 1));
        assert!(!frontier.push(&site, url("http://www.shop.example/a"), 1));
        assert!(frontier.push(&site, url("https://shop.example/b"), 1));
        assert!(!frontier.mark_known(&site, &url("https://www.shop.example/b")));
        let order: Vec<String> = std::iter::from_fn(|| frontier.pop())
            .map(|(u, _)| u.path().to_owned())
            .collect();
        assert_eq!(order, ["/a", "/b", "/deep"]);
        assert!(frontier.pop().is_none());
    }
}
