//! Terms most ranking pages use that the site's page does not: words and two-word phrases
//! of their main text, stop words and numbers aside.

use std::collections::{HashMap, HashSet};

use crate::text::{is_numeric_word, Analyzer, Language};

/// Terms a brief lists at most.
pub const MAX_TERMS: usize = 20;
/// Shortest word worth listing.
const MIN_WORD_CHARS: usize = 3;

#[derive(Default)]
struct Term {
    /// Pages using it.
    pages: usize,
    uses: usize,
    /// Its spellings and how often each was used; the most used one is shown.
    spellings: HashMap<String, usize>,
    words: usize,
}

/// Terms used by at least half of `pages` (two at least) and absent from `own_page`, the
/// most widely used first; with no page of its own the site lacks them all.
pub fn missing_terms(pages: &[&str], own_page: Option<&str>, language: &Language) -> Vec<String> {
    let analyzer = Analyzer::new(language);
    let mut terms: HashMap<String, Term> = HashMap::new();
    for text in pages {
        let mut on_page: HashSet<String> = HashSet::new();
        for_each_term(&analyzer, text, |key, spelling, words| {
            let term = terms.entry(key.to_string()).or_default();
            term.uses += 1;
            term.words = words;
            *term.spellings.entry(spelling.to_string()).or_default() += 1;
            if on_page.insert(key.to_string()) {
                term.pages += 1;
            }
        });
    }
    let mut owned: HashSet<String> = HashSet::new();
    if let Some(text) = own_page {
        for_each_term(&analyzer, text, |key, _, _| {
            owned.insert(key.to_string());
        });
    }
    let needed = pages.len().div_ceil(2).max(2);
    let mut common: Vec<(&String, &Term)> = terms
        .iter()
        .filter(|(key, term)| term.pages >= needed && !owned.contains(*key))
        .collect();
    common.sort_by(|a, b| {
        (b.1.pages, b.1.words, b.1.uses)
            .cmp(&(a.1.pages, a.1.words, a.1.uses))
            .then_with(|| a.0.cmp(b.0))
    });
    let mut listed: Vec<(String, &String)> = Vec::new();
    for (key, term) in common {
        // A word already inside a listed phrase adds nothing.
        if term.words == 1 && listed.iter().any(|(_, k)| k.split(' ').any(|w| w == key)) {
            continue;
        }
        let spelling = term
            .spellings
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
            .map(|(s, _)| s.clone())
            .unwrap_or_default();
        listed.push((spelling, key));
        if listed.len() == MAX_TERMS {
            break;
        }
    }
    listed.into_iter().map(|(spelling, _)| spelling).collect()
}

/// Calls `visit(stem key, spelling, word count)` for every content word and every pair of
/// adjacent content words of `text`.
fn for_each_term(analyzer: &Analyzer, text: &str, mut visit: impl FnMut(&str, &str, usize)) {
    analyzer.tokenizer().for_each_segment(text, |words| {
        let mut previous: Option<(String, &str)> = None;
        for word in words {
            let content = word.chars().count() >= MIN_WORD_CHARS
                && !analyzer.is_stop_word(word)
                && !is_numeric_word(word);
            if !content {
                previous = None;
                continue;
            }
            let stem = analyzer.stem(word).into_owned();
            visit(&stem, word, 1);
            if let Some((previous_stem, previous_word)) = &previous {
                let key = format!("{previous_stem} {stem}");
                let spelling = format!("{previous_word} {word}");
                visit(&key, &spelling, 2);
            }
            previous = Some((stem, word));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_most_pages_share_and_the_site_lacks() {
        let pages = [
            "Gutter guards keep leaves out. Downspout cleaning matters. Call 555 today.",
            "Install gutter guards before autumn leaves fall. Check the downspout.",
            "Gutter guards and a clear downspout stop ice dams.",
        ];
        let own = "We clean gutters and fix every downspout.";
        let terms = missing_terms(&pages, Some(own), &Language::english());
        assert_eq!(terms[0], "gutter guards");
        assert!(terms.contains(&"leaves".to_string()), "{terms:?}");
        // The site has it; and a word inside a listed phrase is not listed again.
        assert!(
            !terms.iter().any(|t| t == "downspout" || t == "guards"),
            "{terms:?}"
        );
        assert!(!terms.iter().any(|t| t == "555" || t == "the"), "{terms:?}");
        let without_page = missing_terms(&pages, None, &Language::english());
        assert!(
            without_page.contains(&"downspout".to_string()),
            "{without_page:?}"
        );
    }

    #[test]
    fn one_page_is_not_a_consensus() {
        assert!(missing_terms(&["gutter guards"], None, &Language::english()).is_empty());
    }
}
