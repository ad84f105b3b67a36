//! Terms most ranking pages use that the site's page does not: each page's keyphrases
//! ([`extract_keyphrases`], the same extraction discovery runs on crawled pages), compared
//! by their stems.

use std::collections::HashMap;

use crate::discovery::extract_keyphrases;
use crate::text::{Analyzer, Language};

/// Terms a brief lists at most.
pub const MAX_TERMS: usize = 20;
/// Keyphrases read per page.
const PHRASES_PER_PAGE: usize = 40;

struct Term {
    /// Pages using it, and its best rank on any of them (0 first).
    pages: usize,
    best_rank: usize,
    spelling: String,
    stems: Vec<String>,
}

/// Terms among the keyphrases of at least half of `pages` (two at least) that `own_page`
/// does not use, the most widely used first; with no page of its own the site lacks them
/// all. A word already inside a listed phrase is not listed again.
pub fn missing_terms(pages: &[&str], own_page: Option<&str>, language: &Language) -> Vec<String> {
    let analyzer = Analyzer::new(language);
    let mut terms: HashMap<String, Term> = HashMap::new();
    for text in pages {
        // Main text comes a block per line (headings, paragraphs): no phrase runs across two.
        let blocks = text.replace('\n', ".\n");
        for (rank, phrase) in extract_keyphrases(&blocks, language, PHRASES_PER_PAGE)
            .into_iter()
            .enumerate()
        {
            let stems = analyzer.stems(&phrase);
            let term = terms.entry(stems.join(" ")).or_insert_with(|| Term {
                pages: 0,
                best_rank: rank,
                spelling: phrase.clone(),
                stems,
            });
            term.pages += 1;
            term.best_rank = term.best_rank.min(rank);
        }
    }
    let own: Vec<String> = own_page
        .map(|text| analyzer.stems(text))
        .unwrap_or_default();
    let needed = pages.len().div_ceil(2).max(2);
    let mut common: Vec<&Term> = terms
        .values()
        .filter(|term| term.pages >= needed && !contains_run(&own, &term.stems))
        .collect();
    common.sort_by(|a, b| {
        b.pages
            .cmp(&a.pages)
            .then(b.stems.len().cmp(&a.stems.len()))
            .then(a.best_rank.cmp(&b.best_rank))
            .then_with(|| a.spelling.cmp(&b.spelling))
    });
    let mut listed: Vec<&Term> = Vec::new();
    for term in common {
        let inside = listed
            .iter()
            .any(|l| l.stems.len() > term.stems.len() && contains_run(&l.stems, &term.stems));
        if !inside {
            listed.push(term);
        }
        if listed.len() == MAX_TERMS {
            break;
        }
    }
    listed.into_iter().map(|t| t.spelling.clone()).collect()
}

/// Whether `run` occurs in `words` as consecutive words.
fn contains_run(words: &[String], run: &[String]) -> bool {
    !run.is_empty() && words.windows(run.len()).any(|window| window == run)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_most_pages_share_and_the_site_lacks() {
        let pages = [
            "Gutter guards keep autumn leaves out of the gutters. Downspout extensions move water away. Call 555 today.",
            "Install gutter guards before autumn leaves fall. Downspout extensions protect the foundation.",
            "Gutter guards and downspout extensions stop ice dams.",
        ];
        let without_page = missing_terms(&pages, None, &Language::english());
        assert_eq!(without_page, ["gutter guards", "autumn leaves"]);
        // The site has it; a word inside a listed phrase is not listed again.
        let own = "We clean gutters before the autumn leaves come down.";
        let terms = missing_terms(&pages, Some(own), &Language::english());
        assert_eq!(terms, ["gutter guards"]);
    }

    #[test]
    fn one_page_is_not_a_consensus() {
        assert!(missing_terms(&["gutter guards"], None, &Language::english()).is_empty());
    }
}
