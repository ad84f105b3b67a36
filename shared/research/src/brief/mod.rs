//! The text work of a cluster's brief, on pages already fetched: their outlines merged
//! ([`merge_outline`]), how long they are ([`word_count_range`]), the terms they share that
//! the site's page lacks ([`missing_terms`]), the kind of page that ranks
//! ([`dominant_page_type`]) and the questions to answer ([`questions`]).

mod outline;
mod terms;
pub mod wording;

use kr_core::dataset::{KeywordRecord, PageType, WordCountRange};

use crate::intent::IntentClassifier;
use crate::serp_page::page_type;
use crate::text::{Language, Tokenizer};

pub use outline::{merge_outline, MAX_OUTLINE};
pub use terms::{missing_terms, MAX_TERMS};

/// Questions a brief lists at most.
pub const MAX_QUESTIONS: usize = 15;

/// Words in a text, as the tokenizer counts them.
pub fn word_count(text: &str, language: &Language) -> usize {
    let mut count = 0;
    Tokenizer::new(language).for_each_segment(text, |words| count += words.len());
    count
}

/// Least, median and most of `counts`; `None` for none.
pub fn word_count_range(counts: &[usize]) -> Option<WordCountRange> {
    let mut sorted = counts.to_vec();
    sorted.sort_unstable();
    let (min, max) = (*sorted.first()?, *sorted.last()?);
    let middle = sorted.len() / 2;
    let median = if sorted.len().is_multiple_of(2) {
        (sorted[middle - 1] + sorted[middle]).div_ceil(2)
    } else {
        sorted[middle]
    };
    Some(WordCountRange { min, median, max })
}

/// The most common page type among `urls` (ranked results), pages of no telling address
/// aside; ties go to the better-ranked type. `None` without URLs.
pub fn dominant_page_type(urls: &[String]) -> Option<PageType> {
    let types: Vec<PageType> = urls.iter().map(|url| page_type(url)).collect();
    let telling: Vec<PageType> = types
        .iter()
        .copied()
        .filter(|kind| *kind != PageType::Other)
        .collect();
    let pool = if telling.is_empty() { &types } else { &telling };
    let count = |kind: PageType| pool.iter().filter(|k| **k == kind).count();
    // `max_by_key` keeps the last of equals: walk from the worst rank to prefer the best.
    pool.iter().rev().copied().max_by_key(|kind| count(*kind))
}

/// The People Also Ask questions of `keywords` (in their order), then the keywords that are
/// questions themselves; each once, case aside, at most [`MAX_QUESTIONS`].
pub fn questions(keywords: &[&KeywordRecord], language: &Language) -> Vec<String> {
    let classifier = IntentClassifier::new(language, &[]);
    let asked = keywords
        .iter()
        .flat_map(|k| k.people_also_ask.iter().flatten().cloned());
    let question_keywords = keywords
        .iter()
        .filter(|k| classifier.cues(&k.keyword).question)
        .map(|k| k.keyword.clone());
    let mut seen = std::collections::HashSet::new();
    asked
        .chain(question_keywords)
        .filter(|question| seen.insert(question.trim().to_lowercase()))
        .take(MAX_QUESTIONS)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_counts_and_their_range() {
        let english = Language::english();
        assert_eq!(word_count("Clean gutters twice a year.", &english), 5);
        assert_eq!(word_count_range(&[]), None);
        assert_eq!(
            word_count_range(&[900, 300, 1200]),
            Some(WordCountRange {
                min: 300,
                median: 900,
                max: 1200
            })
        );
        assert_eq!(word_count_range(&[100, 201]).unwrap().median, 151);
    }

    #[test]
    fn the_page_type_most_results_share_else_the_best_ranked() {
        let urls = |list: &[&str]| list.iter().map(|u| u.to_string()).collect::<Vec<_>>();
        assert_eq!(dominant_page_type(&[]), None);
        assert_eq!(
            dominant_page_type(&urls(&[
                "https://a.com/blog/gutter-guide",
                "https://b.com/shop/gutters",
                "https://c.com/how-to-clean-gutters",
                "https://d.com/x",
                "https://e.com/y",
            ])),
            Some(PageType::Guide)
        );
        assert_eq!(
            dominant_page_type(&urls(&["https://b.com/shop/x", "https://a.com/blog/y"])),
            Some(PageType::Category)
        );
        assert_eq!(
            dominant_page_type(&urls(&["https://d.com/x"])),
            Some(PageType::Other)
        );
    }

    #[test]
    fn questions_from_people_also_ask_then_question_keywords_once_each() {
        let record = |keyword: &str, asked: Option<&[&str]>| KeywordRecord {
            keyword: keyword.to_string(),
            people_also_ask: asked.map(|a| a.iter().map(|q| q.to_string()).collect()),
            ..KeywordRecord::default()
        };
        let a = record(
            "gutter cleaning",
            Some(&["How often should gutters be cleaned?"]),
        );
        let b = record("how much does gutter cleaning cost", None);
        let c = record(
            "gutter guards",
            Some(&["how often should gutters be cleaned?"]),
        );
        assert_eq!(
            questions(&[&a, &b, &c], &Language::english()),
            [
                "How often should gutters be cleaned?",
                "how much does gutter cleaning cost"
            ]
        );
    }
}
