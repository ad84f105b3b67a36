//! Where the job's sites rank for a cluster's keywords: the provider's rankings and the
//! fetched SERPs, read together.

use std::collections::HashMap;

use kr_core::dataset::{KeywordRecord, RankingKind, SitePosition};

use crate::clusters::normalize_url;

/// A domain as compared: lowercase, no "www.", no final dot.
pub(crate) fn bare_domain(domain: &str) -> String {
    let lower = domain.trim().trim_end_matches('.').to_ascii_lowercase();
    lower.strip_prefix("www.").unwrap_or(&lower).to_string()
}

/// Whether `host` is `domain` or one of its subdomains (both bare).
fn belongs(host: &str, domain: &str) -> bool {
    host == domain
        || host
            .strip_suffix(domain)
            .is_some_and(|rest| rest.ends_with('.'))
}

/// The bare host of a result URL.
fn host_of(url: &str) -> String {
    let normal = normalize_url(url);
    bare_domain(normal.split(['/', '?']).next().unwrap_or_default())
}

/// Each page of one site that ranks for some of the keywords, with its best position,
/// best first (ties by address).
pub(crate) fn site_pages(
    domain: &str,
    members: &[&KeywordRecord],
    serps: &[Option<&[String]>],
) -> Vec<SitePosition> {
    let domain = bare_domain(domain);
    // normalised URL → best position and the URL as first seen there
    let mut best: HashMap<String, (u32, String)> = HashMap::new();
    let mut offer = |url: &str, position: u32| {
        let entry = best
            .entry(normalize_url(url))
            .or_insert_with(|| (position, url.to_string()));
        if position < entry.0 {
            *entry = (position, url.to_string());
        }
    };
    for (keyword, serp) in members.iter().zip(serps) {
        for ranking in &keyword.rankings {
            if ranking.kind == RankingKind::Organic
                && belongs(&bare_domain(&ranking.domain), &domain)
            {
                offer(&ranking.url, ranking.position);
            }
        }
        for (index, url) in serp.iter().copied().flatten().enumerate() {
            if belongs(&host_of(url), &domain) {
                offer(url, index as u32 + 1);
            }
        }
    }
    let mut pages: Vec<SitePosition> = best
        .into_values()
        .map(|(position, url)| SitePosition {
            domain: domain.clone(),
            position,
            url,
        })
        .collect();
    pages.sort_by(|a, b| a.position.cmp(&b.position).then_with(|| a.url.cmp(&b.url)));
    pages
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subdomains_belong_and_lookalikes_do_not() {
        assert!(belongs("acme.com", "acme.com"));
        assert!(belongs("blog.acme.com", "acme.com"));
        assert!(!belongs("notacme.com", "acme.com"));
        assert_eq!(host_of("https://WWW.Acme.com/x"), "acme.com");
    }
}
