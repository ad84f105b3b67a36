//! The plan from the job's Search Console data (`searchConsole` on its keywords): what the
//! site's pages were measured doing for a cluster's queries decides before rankings, page
//! text and estimates.

use std::collections::HashMap;

use kr_core::dataset::{ClusterSearchConsole, KeywordRecord, SearchConsolePage};

use super::COMPETING_DEPTH;

/// What Search Console decided for a cluster.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum MeasuredPlan {
    /// Two or more of the site's pages had impressions for one of its queries: those pages
    /// (over every such query of the cluster), most clicks first, with the first one's
    /// measured position.
    Consolidate { pages: Vec<String>, position: u32 },
    /// The page its queries bring the most impressions to, at a position within
    /// [`COMPETING_DEPTH`], and that position.
    Improve { page: String, position: u32 },
    /// Impressions, but only past position [`COMPETING_DEPTH`]: no page targets it.
    Create,
}

/// A page's figures summed over some of a cluster's queries.
#[derive(Debug, Default, Clone, Copy)]
struct PageSum {
    clicks: u64,
    impressions: u64,
    /// Position × impressions, summed.
    weighted: f64,
}

impl PageSum {
    fn add(&mut self, page: &SearchConsolePage) {
        self.clicks += page.clicks;
        self.impressions += page.impressions;
        self.weighted += page.position * page.impressions as f64;
    }

    /// The average position weighted by impressions, as a whole position (at least 1).
    fn position(&self) -> u32 {
        let average = self.weighted / self.impressions.max(1) as f64;
        (average.round() as u32).max(1)
    }
}

/// Pages summed, in order: most clicks, then most impressions, then address.
fn by_clicks(sums: HashMap<&str, PageSum>) -> Vec<(&str, PageSum)> {
    let mut pages: Vec<(&str, PageSum)> = sums.into_iter().collect();
    pages.sort_by(|(a, x), (b, y)| {
        (y.clicks, y.impressions)
            .cmp(&(x.clicks, x.impressions))
            .then_with(|| a.cmp(b))
    });
    pages
}

/// The baseline a plan records: the members' figures summed; `None` when none has any.
pub(crate) fn baseline(members: &[&KeywordRecord]) -> Option<ClusterSearchConsole> {
    ClusterSearchConsole::sum(
        members
            .iter()
            .filter_map(|k| k.search_console.as_ref())
            .map(|sc| (sc.clicks, sc.impressions, sc.position)),
    )
}

/// The plan Search Console decides for a cluster of `members`; `None` when none of them
/// has impressions (the other rules decide).
///
/// 1. A query shown with two or more of the site's pages, each with impressions, is
///    measured cannibalization: `consolidate` those pages (every such query's, summed), most
///    clicks first.
/// 2. Otherwise the page the queries bring the most impressions to (ties: clicks, then
///    address) is the one serving the cluster: `improve` it at its measured position (weighted
///    by impressions), when that is within [`COMPETING_DEPTH`].
/// 3. Impressions only past that depth (the home page at 45): no page targets the cluster,
///    and [`MeasuredPlan::Create`] lets the crawl's rules say whether one does by its title.
pub(crate) fn measured_plan(members: &[&KeywordRecord]) -> Option<MeasuredPlan> {
    let measured: Vec<&[SearchConsolePage]> = members
        .iter()
        .filter_map(|k| k.search_console.as_ref())
        .filter(|sc| sc.impressions > 0)
        .map(|sc| sc.pages.as_slice())
        .collect();
    if measured.is_empty() {
        return None;
    }
    let mut competing: HashMap<&str, PageSum> = HashMap::new();
    let mut all: HashMap<&str, PageSum> = HashMap::new();
    for pages in &measured {
        let shown: Vec<&SearchConsolePage> = pages.iter().filter(|p| p.impressions > 0).collect();
        for page in &shown {
            all.entry(page.page.as_str()).or_default().add(page);
            if shown.len() >= 2 {
                competing.entry(page.page.as_str()).or_default().add(page);
            }
        }
    }
    if competing.len() >= 2 {
        let pages = by_clicks(competing);
        let position = pages[0].1.position();
        return Some(MeasuredPlan::Consolidate {
            pages: pages
                .into_iter()
                .map(|(page, _)| page.to_string())
                .collect(),
            position,
        });
    }
    let best = all.into_iter().max_by(|(a, x), (b, y)| {
        (x.impressions, x.clicks)
            .cmp(&(y.impressions, y.clicks))
            .then_with(|| b.cmp(a))
    });
    Some(match best {
        Some((page, sum)) if sum.position() <= COMPETING_DEPTH => MeasuredPlan::Improve {
            page: page.to_string(),
            position: sum.position(),
        },
        _ => MeasuredPlan::Create,
    })
}
