//! Which collected phrases are keywords people search for, and how much a competitor's
//! phrase has to do with the primary site.

use std::collections::{HashMap, HashSet};

use super::collect::{Collection, PhraseStats};
use crate::PageContent;

/// A competitor phrase that shares no word with the primary site keeps this share of its
/// competitor score: it may be a content gap, but it is more likely off-topic.
const UNRELATED_COMPETITOR_SHARE: f64 = 0.1;

/// A multi-word phrase that always continues into another content word ("mat with retro"
/// of "mat with retro print", "brew coffee" of "cold brew coffee") is a fragment of a
/// longer phrase, not a query of its own; so is one that otherwise always runs on into an
/// object ("fillings remove" of "fillings remove the decay"). Chinese and Japanese
/// characters are read one by one, so there a continuation says nothing.
pub(crate) fn is_fragment(phrase: &PhraseStats, collection: &Collection) -> bool {
    let unspaced = phrase.surfaces.first().is_some_and(|(surface, _)| {
        surface[..phrase.len]
            .iter()
            .any(|&id| collection.vocabulary.words[id as usize].unspaced)
    });
    phrase.len > 1
        && !unspaced
        && phrase.occurrences > 0
        && (phrase.continued_left == phrase.occurrences
            || phrase.continued_right + phrase.before_object == phrase.occurrences)
}

/// Mostly numbers: a quantity or a size ("12 oz", "2 cups"), not a topic.
pub(crate) fn is_quantity(phrase: &PhraseStats, collection: &Collection) -> bool {
    let Some(&(surface, _)) = phrase.surfaces.first() else {
        return false;
    };
    let numbers = surface[..phrase.len]
        .iter()
        .filter(|&&id| collection.vocabulary.words[id as usize].numeric)
        .count();
    numbers > 0 && numbers * 2 >= phrase.len
}

/// Decides whether a single word is specific enough to the sites to be a keyword: a lone
/// word is usually too vague ("black", "final", "delivered"), except a brand (a word of a
/// site's domain name), a name the site gives something (a whole title part, heading,
/// JSON-LD name or link text) that is also the head noun of several of the site's phrases
/// ("roofing" of "newark roofing", "flat roofing", "commercial roofing" and "roofing services").
/// A head noun alone is not enough: "tips", "colors" or "black" head phrases on many sites.
pub(crate) struct SingleWords {
    domain_words: HashSet<String>,
    /// Distinct multi-word phrases (not fragments) per head-word stem.
    phrases_per_head: HashMap<u32, usize>,
}

/// Distinct phrases a named head word must head to stand alone.
const MIN_PHRASES_PER_HEAD: usize = 4;

impl SingleWords {
    pub fn new(pages: &[PageContent], collection: &Collection) -> Self {
        let mut domain_words = HashSet::new();
        for page in pages {
            if let Some(host) = host_of(&page.url) {
                let host = host.strip_prefix("www.").unwrap_or(host);
                // Every label but the public suffix's last one: "brightbrew-coffee.com".
                let labels: Vec<&str> = host.split('.').collect();
                for label in &labels[..labels.len().saturating_sub(1)] {
                    domain_words.extend(
                        label
                            .split('-')
                            .filter(|w| w.chars().count() > 2)
                            .map(str::to_lowercase),
                    );
                }
            }
        }
        let head_first = collection.vocabulary.analyzer().language().head_is_first();
        let mut phrases_per_head: HashMap<u32, usize> = HashMap::new();
        for phrase in &collection.phrases {
            if phrase.len > 1 && !is_fragment(phrase, collection) {
                let head = if head_first {
                    phrase.stems[0]
                } else {
                    phrase.stems[phrase.len - 1]
                };
                *phrases_per_head.entry(head).or_default() += 1;
            }
        }
        SingleWords {
            domain_words,
            phrases_per_head,
        }
    }

    /// Whether `phrase` (any length) may be a keyword as far as this rule goes.
    pub fn keeps(&self, phrase: &PhraseStats, collection: &Collection) -> bool {
        if phrase.len != 1 {
            return true;
        }
        let Some(&(surface, _)) = phrase.surfaces.first() else {
            return false;
        };
        let word = &collection.vocabulary.words[surface[0] as usize];
        let phrases = self
            .phrases_per_head
            .get(&phrase.stems[0])
            .copied()
            .unwrap_or(0);
        self.is_domain_word(&word.text) || (phrase.named && phrases >= MIN_PHRASES_PER_HEAD)
    }
}

impl SingleWords {
    /// A domain label, a part of one between hyphens, or the start or end of one
    /// ("summit" of "summitroofing.com"), at least `MIN_DOMAIN_WORD` characters long.
    fn is_domain_word(&self, word: &str) -> bool {
        word.chars().count() >= MIN_DOMAIN_WORD
            && self
                .domain_words
                .iter()
                .any(|label| label == word || label.starts_with(word) || label.ends_with(word))
    }
}

const MIN_DOMAIN_WORD: usize = 4;

fn host_of(url: &str) -> Option<&str> {
    let rest = url.split_once("://")?.1;
    let host = rest.split(['/', '?', '#']).next()?;
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let host = host.split(':').next()?;
    (!host.is_empty()).then_some(host)
}

/// Weight of a competitor's evidence for a phrase: 1 when the primary site uses the phrase,
/// else growing with the share of its content words the primary site uses somewhere, from
/// `UNRELATED_COMPETITOR_SHARE` (none) to 1 (all).
pub(crate) fn competitor_weight(phrase: &PhraseStats, collection: &Collection) -> f64 {
    if phrase.sites.iter().any(|site| site.site == 0) {
        return 1.0;
    }
    let Some(&(surface, _)) = phrase.surfaces.first() else {
        return UNRELATED_COMPETITOR_SHARE;
    };
    let words = &collection.vocabulary.words;
    let (mut content, mut shared) = (0, 0);
    for &id in &surface[..phrase.len] {
        let word = &words[id as usize];
        if !word.stop {
            content += 1;
            shared += usize::from(collection.primary_stems.contains(&word.stem));
        }
    }
    let share = shared as f64 / content.max(1) as f64;
    UNRELATED_COMPETITOR_SHARE + (1.0 - UNRELATED_COMPETITOR_SHARE) * share * share
}
