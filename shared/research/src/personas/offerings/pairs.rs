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
        // Only the pairs of names (titles and headings) are counted, in all the text.
        let mut fixed = FixedPairs::default();
        for page in pages {
            for name in std::iter::once(&page.title).chain(&page.headings) {
                let lowercase = name.to_lowercase();
                let words: Vec<&str> = words(&lowercase).collect();
                for_each_pair(&words, |first, second| {
                    fixed.words.insert(first.to_string(), 0);
                    fixed.words.insert(second.to_string(), 0);
                    fixed
                        .pairs
                        .insert((first.to_string(), second.to_string()), 0);
                });
            }
        }
        if fixed.pairs.is_empty() {
            return fixed;
        }
        let texts = pages.iter().flat_map(|page| {
            std::iter::once(&page.title)
                .chain(&page.headings)
                .chain(std::iter::once(&page.body_text))
        });
        for text in texts {
            let lowercase = text.to_lowercase();
            let words: Vec<&str> = words(&lowercase).collect();
            for word in &words {
                if let Some(count) = fixed.words.get_mut(*word) {
                    *count += 1;
                }
            }
            for_each_pair(&words, |first, second| {
                if let Some(count) = fixed
                    .pairs
                    .get_mut(&(first.to_string(), second.to_string()))
                {
                    *count += 1;
                }
            });
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

/// The words of a lowercase text, a spaced "&" read as "and" ("AT&T" stays a word).
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric() && !matches!(c, '-' | '\'' | '&'))
        .filter(|word| !word.is_empty())
        .map(|word| if word == "&" { "and" } else { word })
}

/// Calls `visit` with each "x and y" (or "x & y") of a text's [`words`].
fn for_each_pair(words: &[&str], mut visit: impl FnMut(&str, &str)) {
    for run in words.windows(3).filter(|run| run[1] == "and") {
        visit(run[0], run[2]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(heading: &str, body: &str) -> PageContent {
        PageContent {
            headings: vec![heading.into()],
            body_text: body.into(),
            ..PageContent::default()
        }
    }

    #[test]
    fn a_pair_is_fixed_when_its_words_are_mostly_written_together() {
        let pages = [
            page(
                "Health & Safety",
                "Our health and safety policy comes first.",
            ),
            page(
                "Roofing & Siding",
                "Roofing in Kent, roofing repairs, siding.",
            ),
            page("Our sites", "We put safety on every site."),
        ];
        let pages: Vec<&PageContent> = pages.iter().collect();
        let pairs = FixedPairs::of(&pages);
        assert!(pairs.holds("health", "safety"));
        assert!(!pairs.holds("roofing", "siding"));
        assert!(!pairs.holds("safety", "health"));
    }
}
