//! Pairs a site never writes apart: "Health & Safety", "Terms and Conditions". A list splits
//! at its "and" ("Roofing & Siding" names roofing and siding), but such a pair is one thing,
//! and neither of its words alone is something the site offers.

use std::collections::HashMap;

use crate::PageContent;

/// Times at least that a site writes a pair before it can be fixed.
const MIN_PAIRS: usize = 2;
/// The least share of each word's uses that are inside the pair.
const MIN_SHARE: f64 = 0.5;

#[derive(Debug, Default)]
pub(super) struct FixedPairs {
    /// How often each word occurs, lowercase.
    words: HashMap<String, usize>,
    /// How often each "x and y" (or "x & y") occurs.
    pairs: HashMap<(String, String), usize>,
}

impl FixedPairs {
    pub(super) fn of(pages: &[&PageContent]) -> Self {
        let mut fixed = FixedPairs::default();
        let texts = pages.iter().flat_map(|page| {
            std::iter::once(&page.title)
                .chain(&page.headings)
                .chain(std::iter::once(&page.body_text))
        });
        for text in texts {
            let spaced = text.to_lowercase().replace('&', " and ");
            let words: Vec<&str> = spaced
                .split(|c: char| !c.is_alphanumeric() && c != '-' && c != '\'')
                .filter(|w| !w.is_empty())
                .collect();
            for word in &words {
                *fixed.words.entry(word.to_string()).or_default() += 1;
            }
            for run in words.windows(3).filter(|run| run[1] == "and") {
                let pair = (run[0].to_string(), run[2].to_string());
                *fixed.pairs.entry(pair).or_default() += 1;
            }
        }
        fixed
    }

    /// `first` and `second` (lowercase words) are written together more than apart.
    pub(super) fn holds(&self, first: &str, second: &str) -> bool {
        let together = self
            .pairs
            .get(&(first.to_string(), second.to_string()))
            .copied()
            .unwrap_or(0);
        let mostly_in_pair = |word: &str| {
            let uses = self.words.get(word).copied().unwrap_or(0);
            together as f64 >= uses as f64 * MIN_SHARE
        };
        together >= MIN_PAIRS && mostly_in_pair(first) && mostly_in_pair(second)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(body: &str) -> PageContent {
        PageContent {
            body_text: body.into(),
            ..PageContent::default()
        }
    }

    #[test]
    fn a_pair_is_fixed_when_its_words_are_mostly_written_together() {
        let pages = [
            page("Our Health & Safety policy. Health and safety first."),
            page("Roofing and siding. Roofing in Kent, roofing repairs, siding."),
            page("We put safety on every site."),
        ];
        let pages: Vec<&PageContent> = pages.iter().collect();
        let pairs = FixedPairs::of(&pages);
        assert!(pairs.holds("health", "safety"));
        assert!(!pairs.holds("roofing", "siding"));
        assert!(!pairs.holds("safety", "health"));
    }
}
