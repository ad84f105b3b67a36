//! Where the job's sites rank for a cluster's keywords: the provider's rankings and the
//! fetched SERPs, read together in one pass over the cluster's keywords.

use std::collections::HashMap;

pub(crate) use kr_core::dataset::bare_domain;
use kr_core::dataset::{KeywordRecord, RankingKind, SitePosition};

use crate::clusters::normalize_url;
use crate::text::web_address::{belongs, host_of};

/// Per site of `domains` (bare), each of its pages that ranks for some of the keywords with
/// its best position, best first (ties by address).
pub(crate) fn site_pages<'a>(
    domains: &[String],
    members: &[&'a KeywordRecord],
    serps: &[Option<&'a [String]>],
) -> Vec<Vec<SitePosition>> {
    // Per site: normalised URL → best position and the URL as first seen there.
    let mut best: Vec<HashMap<String, (u32, &'a str)>> = vec![HashMap::new(); domains.len()];
    let mut offer = |site: usize, url: &'a str, position: u32| {
        let entry = best[site]
            .entry(normalize_url(url))
            .or_insert((position, url));
        if position < entry.0 {
            *entry = (position, url);
        }
    };
    let site_of = |host: &str| domains.iter().position(|domain| belongs(host, domain));
    for (keyword, serp) in members.iter().zip(serps) {
        for ranking in &keyword.rankings {
            if ranking.kind == RankingKind::Organic {
                if let Some(site) = site_of(&ranking.domain) {
                    offer(site, &ranking.url, ranking.position);
                }
            }
        }
        for (index, url) in serp.iter().copied().flatten().enumerate() {
            if let Some(site) = site_of(host_of(url)) {
                offer(site, url, index as u32 + 1);
            }
        }
    }
    best.into_iter()
        .zip(domains)
        .map(|(pages, domain)| {
            let mut pages: Vec<SitePosition> = pages
                .into_values()
                .map(|(position, url)| SitePosition {
                    domain: domain.clone(),
                    position,
                    url: url.to_string(),
                })
                .collect();
            pages.sort_by(|a, b| a.position.cmp(&b.position).then_with(|| a.url.cmp(&b.url)));
            pages
        })
        .collect()
}
