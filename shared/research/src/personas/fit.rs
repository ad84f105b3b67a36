//! Which personas a keyword fits, best first. A cue in the keyword (a place the site serves
//! or "near me", a price word, a business word, a beginner word, a question, a comparison, a
//! buying word) is a strong fit; without one, the keyword's intent is a weak fit, and an
//! informational keyword fits the researcher only when it is about what the site offers (a
//! word of an offering, or a phrase with a word of the site's titles and headings). Anything
//! else fits no persona.

use std::collections::HashSet;

use super::archetypes::Archetype;
use super::lexicon::persona_cues;
use super::{PersonaKeyword, SiteProfile};
use crate::intent::Intent;
use crate::text::{Language, Tokenizer};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Strength {
    Strong,
    Weak,
}

pub(crate) struct Fitter {
    tokenizer: Tokenizer,
    /// Cue lists in priority order, with the archetype each reveals.
    cues: Vec<(Archetype, Vec<Vec<String>>)>,
    /// Words of the site's offerings and of its titles and headings (for the researcher's
    /// weak fit).
    offering_words: HashSet<String>,
    topics: HashSet<String>,
}

fn contains_sequence(words: &[String], cue: &[String]) -> bool {
    !cue.is_empty() && words.windows(cue.len()).any(|window| window == cue)
}

impl Fitter {
    pub fn new(language: &Language, profile: &SiteProfile) -> Self {
        let tokenizer = Tokenizer::new(language);
        let lists = persona_cues(language);
        let tokenize =
            |cues: &mut dyn Iterator<Item = &str>| cues.map(|c| tokenizer.words(c)).collect();
        let places = profile.places.iter().map(String::as_str);
        let local = lists.local.iter().copied().chain(places);
        let offering_words = profile
            .offerings
            .iter()
            .flat_map(|o| tokenizer.words(o))
            .filter(|w| w.chars().count() > 2)
            .collect();
        Fitter {
            tokenizer,
            cues: vec![
                (Archetype::Local, tokenize(&mut local.into_iter())),
                (
                    Archetype::Budget,
                    tokenize(&mut lists.budget.iter().copied()),
                ),
                (
                    Archetype::Business,
                    tokenize(&mut lists.business.iter().copied()),
                ),
                (
                    Archetype::Beginner,
                    tokenize(&mut lists.beginner.iter().copied()),
                ),
                (
                    Archetype::Researcher,
                    tokenize(&mut lists.learn.iter().copied()),
                ),
                (
                    Archetype::Comparer,
                    tokenize(&mut lists.compare.iter().copied()),
                ),
                (
                    Archetype::ReadyBuyer,
                    tokenize(&mut lists.buy.iter().copied()),
                ),
            ],
            offering_words,
            topics: profile.topics.iter().cloned().collect(),
        }
    }

    /// The personas `keyword` fits, best first, with how well.
    pub fn fits(&self, keyword: &PersonaKeyword) -> Vec<(Archetype, Strength)> {
        let words = self.tokenizer.words(&keyword.keyword);
        let mut out = Vec::new();
        // Brand searches belong to existing customers whatever their modifiers.
        if keyword.intent == Intent::Navigational {
            out.push((Archetype::Loyal, Strength::Strong));
        }
        for (archetype, cues) in &self.cues {
            if cues.iter().any(|cue| contains_sequence(&words, cue)) {
                out.push((*archetype, Strength::Strong));
            }
        }
        let weak = match keyword.intent {
            Intent::Transactional => vec![Archetype::ReadyBuyer],
            Intent::Commercial => vec![Archetype::Comparer, Archetype::ReadyBuyer],
            Intent::Informational if self.about_offering(&words) => vec![Archetype::Researcher],
            _ => Vec::new(),
        };
        for archetype in weak {
            if !out.iter().any(|(a, _)| *a == archetype) {
                out.push((archetype, Strength::Weak));
            }
        }
        out
    }

    /// A word of an offering, or a phrase with a word the site's titles and headings use.
    fn about_offering(&self, words: &[String]) -> bool {
        words.iter().any(|w| self.offering_words.contains(w))
            || (words.len() > 1 && words.iter().any(|w| self.topics.contains(w)))
    }
}
