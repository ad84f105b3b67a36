//! The outline the ranking pages share: their H2/H3 headings, similar ones merged (most of
//! their content words in common), in the order the pages put them.

use std::collections::HashSet;

use kr_core::dataset::OutlineHeading;

use crate::text::{Analyzer, Language};

/// Headings an outline keeps at most.
pub const MAX_OUTLINE: usize = 30;
/// With this few headings shared by two pages or more, the best-ranked pages' own fill up.
const MIN_OUTLINE: usize = 8;
/// Share of content words two headings have in common (Jaccard) to be one.
const SIMILAR: f64 = 0.6;
/// Longer "headings" are paragraphs styled as one.
const MAX_HEADING_CHARS: usize = 150;

/// Headings of a site's chrome and of comment sections, never a subject to write about.
const BOILERPLATE: [&str; 24] = [
    "related posts",
    "related articles",
    "recent posts",
    "popular posts",
    "you may also like",
    "leave a reply",
    "leave a comment",
    "comments",
    "share this",
    "share",
    "subscribe",
    "newsletter",
    "about the author",
    "table of contents",
    "contents",
    "categories",
    "tags",
    "follow us",
    "contact us",
    "get in touch",
    "search",
    "menu",
    "quick links",
    "post navigation",
];

struct Group {
    stems: HashSet<String>,
    text: String,
    levels: Vec<u8>,
    pages: Vec<usize>,
    /// Where the pages put it, each as a share of that page's headings (0 first, 1 last).
    positions: Vec<f64>,
}

/// Merges the headings of `pages` (each page's `(level, text)` in document order, the
/// pages best-ranked first) into one outline of at most [`MAX_OUTLINE`] headings.
pub fn merge_outline(pages: &[&[(u8, String)]], language: &Language) -> Vec<OutlineHeading> {
    let analyzer = Analyzer::new(language);
    let mut groups: Vec<Group> = Vec::new();
    for (page, headings) in pages.iter().enumerate() {
        let kept: Vec<(u8, &str, HashSet<String>)> = headings
            .iter()
            .filter(|(_, text)| text.chars().count() <= MAX_HEADING_CHARS && !is_boilerplate(text))
            .map(|(level, text)| (*level, text.as_str(), content_stems(&analyzer, text)))
            .filter(|(_, _, stems)| !stems.is_empty())
            .collect();
        for (index, (level, text, stems)) in kept.iter().enumerate() {
            let position = index as f64 / kept.len().max(2).saturating_sub(1) as f64;
            let similar = groups
                .iter_mut()
                .filter(|group| !group.pages.contains(&page))
                .map(|group| (jaccard(&group.stems, stems), group))
                .filter(|(likeness, _)| *likeness >= SIMILAR)
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, group)| group);
            match similar {
                Some(group) => {
                    group.pages.push(page);
                    group.levels.push(*level);
                    group.positions.push(position);
                }
                None => groups.push(Group {
                    stems: stems.clone(),
                    text: text.to_string(),
                    levels: vec![*level],
                    pages: vec![page],
                    positions: vec![position],
                }),
            }
        }
    }
    let shared = groups.iter().filter(|g| g.pages.len() >= 2).count();
    let mut kept: Vec<&Group> = if pages.len() < 2 || shared >= MIN_OUTLINE {
        groups
            .iter()
            .filter(|g| pages.len() < 2 || g.pages.len() >= 2)
            .collect()
    } else {
        // Too little in common: the shared headings, then the best-ranked pages' own.
        let mut by_support: Vec<&Group> = groups.iter().collect();
        by_support.sort_by_key(|g| (std::cmp::Reverse(g.pages.len()), g.pages[0]));
        by_support
            .into_iter()
            .take(MIN_OUTLINE.max(shared))
            .collect()
    };
    kept.truncate(MAX_OUTLINE);
    kept.sort_by(|a, b| mean(&a.positions).total_cmp(&mean(&b.positions)));
    kept.into_iter()
        .map(|group| OutlineHeading {
            level: common_level(&group.levels),
            text: group.text.clone(),
            pages: group.pages.len(),
        })
        .collect()
}

fn is_boilerplate(text: &str) -> bool {
    let plain: String = text
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || c.is_whitespace())
        .collect();
    let plain = plain.split_whitespace().collect::<Vec<_>>().join(" ");
    BOILERPLATE.contains(&plain.as_str())
}

/// The stems of a heading's content words, and of its first word even when a stop word:
/// "What is…", "How to…" and "Why…" are different sections on the same subject.
fn content_stems(analyzer: &Analyzer, text: &str) -> HashSet<String> {
    analyzer
        .tokenizer()
        .words(text)
        .iter()
        .enumerate()
        .filter(|(index, word)| *index == 0 || !analyzer.is_stop_word(word))
        .map(|(_, word)| analyzer.stem(word).into_owned())
        .collect()
}

fn jaccard(a: &HashSet<String>, b: &HashSet<String>) -> f64 {
    let common = a.intersection(b).count();
    common as f64 / (a.len() + b.len() - common).max(1) as f64
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

/// The level most pages give it; H2 on a tie.
fn common_level(levels: &[u8]) -> u8 {
    let h2 = levels.iter().filter(|l| **l == 2).count();
    if h2 * 2 >= levels.len() {
        2
    } else {
        3
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(headings: &[(u8, &str)]) -> Vec<(u8, String)> {
        headings.iter().map(|(l, t)| (*l, t.to_string())).collect()
    }

    #[test]
    fn similar_headings_merge_and_keep_the_pages_order() {
        let a = page(&[
            (2, "What is gutter cleaning?"),
            (2, "How often to clean gutters"),
            (3, "Signs your gutters are clogged"),
            (2, "Gutter cleaning cost"),
            (2, "Related posts"),
        ]);
        let b = page(&[
            (2, "Gutter Cleaning Costs"),
            (2, "How Often Should You Clean Gutters"),
            (2, "Hire a pro"),
        ]);
        let c = page(&[
            (2, "What gutter cleaning is"),
            (3, "Clogged gutters: the signs"),
            (2, "Leave a reply"),
        ]);
        let outline = merge_outline(&[&a, &b, &c], &Language::english());
        let texts: Vec<(&str, usize)> =
            outline.iter().map(|h| (h.text.as_str(), h.pages)).collect();
        assert_eq!(
            texts[..4],
            [
                ("What is gutter cleaning?", 2),
                ("How often to clean gutters", 2),
                // Last on one page, first on the other: halfway on average.
                ("Gutter cleaning cost", 2),
                ("Signs your gutters are clogged", 2),
            ]
        );
        assert!(outline
            .iter()
            .all(|h| h.text != "Related posts" && h.text != "Leave a reply"));
        assert_eq!(outline[3].level, 3);
        // Little in common: the best-ranked pages' own headings fill the outline.
        assert!(texts.contains(&("Hire a pro", 1)));
    }

    #[test]
    fn one_page_gives_its_own_outline() {
        let a = page(&[(2, "Sizes"), (3, "Small"), (2, "Share")]);
        let outline = merge_outline(&[&a], &Language::english());
        assert_eq!(outline.len(), 2);
        assert_eq!(merge_outline(&[], &Language::english()), []);
    }
}
