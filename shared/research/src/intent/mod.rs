//! Search intent of a keyword, by rules in the keyword's language.
//!
//! Rules, first match wins:
//! 1. it names one of the job's brands or domains (`brand_terms`) → navigational;
//! 2. it has a navigational cue ("login", "customer service") → navigational;
//! 3. it has a transactional cue ("buy", "price", "near me", "hire") → transactional;
//! 4. it has a commercial cue ("best", "vs", "review", "alternatives") → commercial;
//! 5. otherwise → informational.
//!
//! Cues match whole words in order, also with a plural "s"/"es"; German and Dutch compounds
//! also match when a word ends with a cue of five letters or more ("Preisvergleich").

mod lexicon;

use crate::text::{Language, Tokenizer};
use lexicon::lexicon;

pub use kr_core::dataset::Intent;

/// Which kinds of cue a keyword carries; several can hold at once ("best price").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cues {
    pub brand: bool,
    pub navigational: bool,
    pub transactional: bool,
    pub commercial: bool,
}

/// Classifies many keywords of one job: the lexicon and brand terms are prepared once.
#[derive(Debug, Clone)]
pub struct IntentClassifier {
    tokenizer: Tokenizer,
    /// Tokenized cues, per kind.
    transactional: Vec<Vec<String>>,
    commercial: Vec<Vec<String>>,
    navigational: Vec<Vec<String>>,
    brands: Vec<Vec<String>>,
    compounds: bool,
}

/// Shortest cue that may end a compound word.
const MIN_COMPOUND_CUE: usize = 5;

impl IntentClassifier {
    /// `brand_terms`: brand and domain names of the job's sites, e.g. "acme", "acme.com" or
    /// "Acme Tools". A domain also yields its name without "www." and the suffix.
    pub fn new(language: &Language, brand_terms: &[String]) -> Self {
        let tokenizer = Tokenizer::new(language);
        let lexicon = lexicon(language);
        let tokenize = |cues: &[&str]| cues.iter().map(|cue| tokenizer.words(cue)).collect();
        let mut brands: Vec<Vec<String>> = Vec::new();
        for term in brand_terms {
            let words = tokenizer.words(term);
            if let [single] = words.as_slice() {
                if let Some(name) = domain_name(single) {
                    brands.push(vec![name]);
                }
            }
            // One-letter "brands" would match nearly everything.
            if words.concat().chars().count() > 1 {
                brands.push(words);
            }
        }
        brands.sort();
        brands.dedup();
        IntentClassifier {
            tokenizer,
            transactional: tokenize(lexicon.transactional),
            commercial: tokenize(lexicon.commercial),
            navigational: tokenize(lexicon.navigational),
            brands,
            compounds: matches!(language.code(), "de" | "nl"),
        }
    }

    pub fn cues(&self, keyword: &str) -> Cues {
        let words = self.tokenizer.words(keyword);
        Cues {
            brand: self.brands.iter().any(|brand| names_brand(&words, brand)),
            navigational: self.has_cue(&words, &self.navigational),
            transactional: self.has_cue(&words, &self.transactional),
            commercial: self.has_cue(&words, &self.commercial),
        }
    }

    pub fn classify(&self, keyword: &str) -> Intent {
        let cues = self.cues(keyword);
        if cues.brand || cues.navigational {
            Intent::Navigational
        } else if cues.transactional {
            Intent::Transactional
        } else if cues.commercial {
            Intent::Commercial
        } else {
            Intent::Informational
        }
    }

    fn has_cue(&self, words: &[String], cues: &[Vec<String>]) -> bool {
        cues.iter().any(|cue| {
            contains_sequence(words, cue)
                || (self.compounds
                    && cue.len() == 1
                    && cue[0].chars().count() >= MIN_COMPOUND_CUE
                    && words
                        .iter()
                        .any(|w| w.len() > cue[0].len() && w.ends_with(&cue[0])))
        })
    }
}

/// Intent of one keyword. For many keywords build an [`IntentClassifier`] once instead.
pub fn classify(keyword: &str, language: &Language, brand_terms: &[String]) -> Intent {
    IntentClassifier::new(language, brand_terms).classify(keyword)
}

/// "www.acme.co.uk" → "acme": the registrable name people type as a brand.
fn domain_name(word: &str) -> Option<String> {
    let labels: Vec<&str> = word.split('.').filter(|l| !l.is_empty()).collect();
    let labels = match labels.first() {
        Some(&"www") => &labels[1..],
        _ => &labels[..],
    };
    (labels.len() >= 2 && labels[0].chars().count() > 1).then(|| labels[0].to_string())
}

fn word_matches(word: &str, cue: &str) -> bool {
    word == cue
        || word
            .strip_prefix(cue)
            .is_some_and(|rest| rest == "s" || rest == "es")
}

pub(crate) fn contains_sequence(words: &[String], cue: &[String]) -> bool {
    !cue.is_empty()
        && words.windows(cue.len()).any(|window| {
            window
                .iter()
                .zip(cue)
                .all(|(word, cue_word)| word_matches(word, cue_word))
        })
}

/// A brand is named by its words in order ("acme tools"), its possessive ("acme's"), its
/// domain ("acme.com") or its words run together ("acmetools", "acme-tools").
fn names_brand(words: &[String], brand: &[String]) -> bool {
    if contains_sequence(words, brand) {
        return true;
    }
    let compact: String = brand.concat();
    words.iter().any(|word| {
        let bare = word.strip_suffix("'s").unwrap_or(word);
        let joined: String = bare.chars().filter(|c| !matches!(c, '-' | '_')).collect();
        joined == compact || domain_name(bare).is_some_and(|name| name == compact)
    })
}

#[cfg(test)]
mod tests;
