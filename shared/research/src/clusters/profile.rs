//! What the lexical clustering sees of a keyword: its content stems, its *core* (the stems
//! that carry its meaning) and its spelling without spaces.

use std::collections::HashMap;

use crate::text::us_states::US_STATE_CODES;
use crate::text::{Analyzer, Language};

/// Words that search engines answer the same with or without: a keyword that differs from
/// another only by these is a close variant of it ("best sump pump", "sump pump", "sump pump
/// ideas", "sump pump services"). Who makes or sells a product is one of these too: the
/// results for "cpp film manufacturer", "cpp film supplier" and "cpp film factory" are the
/// same makers' pages. Intent modifiers that change the page wanted ("buy",
/// "price", "how to", "near me", "review") are deliberately not here. English only; other
/// languages rely on their stop words. Chosen on the tune half of the dev sets.
const GENERIC_EN: [&str; 48] = [
    "best",
    "top",
    "good",
    "great",
    "amazing",
    "awesome",
    "cool",
    "useful",
    "popular",
    "list",
    "examples",
    "ideas",
    "free",
    "online",
    "services",
    "service",
    "company",
    "companies",
    "contractor",
    "contractors",
    "professional",
    "expert",
    "rated",
    "local",
    "fun",
    "crazy",
    "ultimate",
    "interesting",
    "effective",
    "latest",
    "newest",
    "most",
    "other",
    "beste",
    "greatest",
    "powered",
    "driven",
    "based",
    "types",
    "kinds",
    "manufacturer",
    "manufacturers",
    "supplier",
    "suppliers",
    "producer",
    "producers",
    "factory",
    "exporters",
];

/// Stop words that still change the question: "how many payday loans" and "who does payday
/// loans" ask for other answers than "payday loans". They stay in the core and are never the
/// one extra word a spoke may add ("how many payday loans can i get" is not "how do i get
/// payday loans"). Chosen on the tune half of the dev sets.
const KEPT_EN: [&str; 4] = ["much", "many", "who", "where"];

/// Modifiers that change what the searcher wants (to buy, to compare, to learn, to hire
/// nearby): a keyword that adds one of these to another is a different query, answered by
/// different pages ("buy sump pump" is not "sump pump"). English.
const INTENT_EN: [&str; 43] = [
    "buy",
    "price",
    "prices",
    "pricing",
    "cost",
    "costs",
    "cheap",
    "cheapest",
    "affordable",
    "sale",
    "deal",
    "deals",
    "coupon",
    "discount",
    "review",
    "reviews",
    "vs",
    "versus",
    "compare",
    "comparison",
    "alternative",
    "alternatives",
    "how",
    "what",
    "why",
    "when",
    "where",
    "who",
    "which",
    "guide",
    "tutorial",
    "diy",
    "install",
    "installation",
    "repair",
    "replace",
    "replacement",
    "fix",
    "near",
    "rent",
    "rental",
    "hire",
    "meaning",
];

/// Words that introduce a place ("roofing in newark", "pizza near montclair"): the word after
/// one is taken for a place wherever it occurs, since a different place is a different query.
const PLACE_MARKERS_EN: [&str; 3] = ["in", "near", "at"];
/// See [`Profiles::min_shared`].
const MIN_SHARED: usize = 3;

pub(super) struct Profiles {
    /// Sorted, deduplicated ids of each keyword's core stems.
    pub(super) cores: Vec<Vec<u32>>,
    /// Each keyword's content words joined without spaces or hyphens, less a final "s"
    /// ("sump-pumps" and "sump pump" both "sumppump"), empty when too short to trust.
    pub(super) spellings: Vec<String>,
    /// Content words per keyword, for centrality.
    pub(super) lengths: Vec<usize>,
    /// Per stem id: whether adding it to a keyword keeps the query the same kind (not an
    /// intent modifier, a number or a place).
    specific: Vec<bool>,
    /// The fewest core stems two keywords must share for one to extend the other.
    pub(super) min_shared: usize,
}

impl Profiles {
    pub(super) fn build(keywords: &[&str], language: &Language) -> Profiles {
        let analyzer = Analyzer::new(language);
        let generic: &[&str] = if language.code() == "en" {
            &GENERIC_EN
        } else {
            &[]
        };
        let english = language.code() == "en";
        let mut ids: HashMap<String, u32> = HashMap::new();
        let mut unspecific: Vec<u32> = Vec::new();
        let mut intern = |stem: &str| {
            let next = ids.len() as u32;
            *ids.entry(stem.to_string()).or_insert(next)
        };
        let mut cores = Vec::with_capacity(keywords.len());
        let mut spellings = Vec::with_capacity(keywords.len());
        let mut lengths = Vec::with_capacity(keywords.len());
        for keyword in keywords {
            let words = analyzer.tokenizer().words(keyword);
            for (i, word) in words.iter().enumerate() {
                let after_marker = i > 0 && PLACE_MARKERS_EN.contains(&words[i - 1].as_str());
                let before_state = words
                    .get(i + 1)
                    .is_some_and(|next| US_STATE_CODES.contains(&next.as_str()));
                let unspecific_word = english
                    && (INTENT_EN.contains(&word.as_str())
                        || KEPT_EN.contains(&word.as_str())
                        || US_STATE_CODES.contains(&word.as_str())
                        || after_marker
                        || before_state);
                if unspecific_word || word.chars().any(|c| c.is_numeric()) {
                    unspecific.push(intern(&analyzer.stem(word)));
                }
            }
            let content: Vec<&String> = words
                .iter()
                .filter(|w| !analyzer.is_stop_word(w) || (english && KEPT_EN.contains(&w.as_str())))
                .collect();
            // A keyword of stop words only ("the who") still needs a profile.
            let content = if content.is_empty() {
                words.iter().collect()
            } else {
                content
            };
            // "roofing in newark nj" is "roofing in newark": a state code after a marked town
            // only says where that town is.
            let town_state: Vec<&String> = words
                .windows(3)
                .filter(|w| {
                    english
                        && PLACE_MARKERS_EN.contains(&w[0].as_str())
                        && US_STATE_CODES.contains(&w[2].as_str())
                })
                .map(|w| &w[2])
                .collect();
            let meaningful: Vec<&&String> = content
                .iter()
                .filter(|w| {
                    !generic.contains(&w.as_str())
                        && !is_year(w)
                        && !town_state.iter().any(|state| std::ptr::eq(*state, **w))
                })
                .collect();
            let stems: Vec<String> = if meaningful.is_empty() {
                content
                    .iter()
                    .map(|w| analyzer.stem(w).into_owned())
                    .collect()
            } else {
                meaningful
                    .iter()
                    .map(|w| analyzer.stem(w).into_owned())
                    .collect()
            };
            let mut core: Vec<u32> = stems.iter().map(|s| intern(s)).collect();
            core.sort_unstable();
            core.dedup();
            cores.push(core);
            // Raw words, not stems: "runningshoes" has no stem in common with "running".
            let mut joined: String = meaningful
                .iter()
                .flat_map(|w| w.chars().filter(|c| c.is_alphanumeric()))
                .collect();
            if joined.ends_with('s') {
                joined.pop();
            }
            spellings.push(if joined.chars().count() >= 6 {
                joined
            } else {
                String::new()
            });
            lengths.push(content.len());
        }
        let mut specific = vec![true; ids.len()];
        for stem in unspecific {
            specific[stem as usize] = false;
        }
        Profiles {
            cores,
            spellings,
            lengths,
            specific,
            min_shared: MIN_SHARED,
        }
    }

    pub(super) fn is_specific(&self, stem: u32) -> bool {
        self.specific[stem as usize]
    }
}

/// A year ("ai tools 2024"): searchers add it for freshness, the pages wanted are the same.
fn is_year(word: &str) -> bool {
    word.len() == 4
        && word.chars().all(|c| c.is_ascii_digit())
        && (word.starts_with("19") || word.starts_with("20"))
}
