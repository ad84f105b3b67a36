//! Personas: who searches for a job's keywords, and which keyword belongs to whom.
//!
//! [`PersonaGenerator`] is the seam for a language-model implementation; the default
//! [`OfflinePersonaGenerator`] is deterministic. It sorts each keyword into a searcher type
//! by its modifiers, first match wins: local ("near me"), budget ("cheap", "price"),
//! business ("enterprise", "for teams"), beginner ("for beginners"), and otherwise by intent
//! (informational → researcher, commercial → comparer, transactional → ready buyer,
//! navigational → existing customer). The up to six most common types become personas (at
//! least three: the researcher, comparer and ready buyer fill in when the keywords show
//! fewer kinds); each persona's texts are written around its most valuable keyword. A
//! keyword whose type did not make the cut goes to the persona of its intent if there is
//! one, else to none. Persona texts are English for now; cue words exist for en, de, fr, es,
//! it, pt and nl.

mod archetypes;
pub(crate) mod lexicon;

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

pub use kr_core::dataset::Persona;

use crate::intent::{contains_sequence, Intent};
use crate::text::{Language, Tokenizer};
use archetypes::Archetype;
use lexicon::persona_cues;

pub const MIN_PERSONAS: usize = 3;
pub const MAX_PERSONAS: usize = 6;
/// Keywords listed per persona.
pub const TOP_KEYWORDS: usize = 10;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonaKeyword {
    pub keyword: String,
    pub intent: Intent,
    /// Orders a persona's keywords (e.g. opportunity value or volume); higher first.
    pub value: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonaInput {
    pub language: Language,
    pub keywords: Vec<PersonaKeyword>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonaSet {
    pub personas: Vec<Persona>,
    /// Per input keyword, the index of its persona in `personas`, if any.
    pub assignments: Vec<Option<usize>>,
}

/// Produces personas and keyword assignments. Implementations that can fail (a remote
/// language model) should fall back to [`OfflinePersonaGenerator`] rather than return none.
pub trait PersonaGenerator {
    fn generate(&self, input: &PersonaInput) -> PersonaSet;
}

/// Rule-based, deterministic personas (module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct OfflinePersonaGenerator;

impl PersonaGenerator for OfflinePersonaGenerator {
    fn generate(&self, input: &PersonaInput) -> PersonaSet {
        let sorter = Sorter::new(&input.language);
        let kinds: Vec<Archetype> = input.keywords.iter().map(|k| sorter.archetype(k)).collect();
        let chosen = choose(&kinds);
        let slot: HashMap<Archetype, usize> =
            chosen.iter().enumerate().map(|(i, &a)| (a, i)).collect();
        let assignments: Vec<Option<usize>> = input
            .keywords
            .iter()
            .zip(&kinds)
            .map(|(keyword, kind)| {
                slot.get(kind)
                    .or_else(|| slot.get(&by_intent(keyword.intent)))
                    .copied()
            })
            .collect();
        let personas = chosen
            .iter()
            .enumerate()
            .map(|(index, &archetype)| describe(archetype, index, input, &assignments))
            .collect();
        PersonaSet {
            personas,
            assignments,
        }
    }
}

/// Personas of `input` from the offline generator.
pub fn generate_personas(input: &PersonaInput) -> PersonaSet {
    OfflinePersonaGenerator.generate(input)
}

/// The most common kinds (ties in `Archetype` order), at most six, padded to three.
fn choose(kinds: &[Archetype]) -> Vec<Archetype> {
    let mut counts: Vec<(Archetype, usize)> = Archetype::ALL
        .iter()
        .map(|&a| (a, kinds.iter().filter(|&&k| k == a).count()))
        .filter(|&(_, count)| count > 0)
        .collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut chosen: Vec<Archetype> = counts.iter().take(MAX_PERSONAS).map(|&(a, _)| a).collect();
    for fallback in Archetype::FALLBACKS {
        if chosen.len() >= MIN_PERSONAS {
            break;
        }
        if !chosen.contains(&fallback) {
            chosen.push(fallback);
        }
    }
    chosen
}

fn by_intent(intent: Intent) -> Archetype {
    match intent {
        Intent::Informational => Archetype::Researcher,
        Intent::Commercial => Archetype::Comparer,
        Intent::Transactional => Archetype::ReadyBuyer,
        Intent::Navigational => Archetype::Loyal,
    }
}

fn describe(
    archetype: Archetype,
    index: usize,
    input: &PersonaInput,
    assignments: &[Option<usize>],
) -> Persona {
    let mut mine: Vec<&PersonaKeyword> = input
        .keywords
        .iter()
        .zip(assignments)
        .filter(|(_, slot)| **slot == Some(index))
        .map(|(keyword, _)| keyword)
        .collect();
    mine.sort_by(|a, b| {
        b.value
            .total_cmp(&a.value)
            .then_with(|| a.keyword.cmp(&b.keyword))
    });
    // Without keywords of its own, a persona is written around the job's best keyword.
    let focus = mine
        .first()
        .map(|k| k.keyword.as_str())
        .or_else(|| best_keyword(&input.keywords))
        .unwrap_or("this topic");
    let text = archetype.describe(focus);
    Persona {
        id: format!("p-{}", text.slug),
        avatar_name: text.avatar_name.to_string(),
        title: text.title.to_string(),
        description: text.description,
        goals: text.goals,
        pain_points: text.pain_points,
        keyword_count: mine.len(),
        top_keywords: mine
            .iter()
            .take(TOP_KEYWORDS)
            .map(|k| k.keyword.clone())
            .collect(),
    }
}

fn best_keyword(keywords: &[PersonaKeyword]) -> Option<&str> {
    keywords
        .iter()
        .max_by(|a, b| {
            a.value
                .total_cmp(&b.value)
                .then_with(|| b.keyword.cmp(&a.keyword))
        })
        .map(|k| k.keyword.as_str())
}

/// Sorts keywords into archetypes by their modifiers.
struct Sorter {
    tokenizer: Tokenizer,
    /// Cue lists in priority order, with the archetype each reveals.
    cues: Vec<(Archetype, Vec<Vec<String>>)>,
}

impl Sorter {
    fn new(language: &Language) -> Self {
        let tokenizer = Tokenizer::new(language);
        let lists = persona_cues(language);
        let tokenize = |cues: &[&str]| cues.iter().map(|c| tokenizer.words(c)).collect();
        Sorter {
            tokenizer,
            cues: vec![
                (Archetype::Local, tokenize(lists.local)),
                (Archetype::Budget, tokenize(lists.budget)),
                (Archetype::Business, tokenize(lists.business)),
                (Archetype::Beginner, tokenize(lists.beginner)),
            ],
        }
    }

    fn archetype(&self, keyword: &PersonaKeyword) -> Archetype {
        // Brand searches belong to existing customers whatever their modifiers.
        if keyword.intent == Intent::Navigational {
            return Archetype::Loyal;
        }
        let words = self.tokenizer.words(&keyword.keyword);
        self.cues
            .iter()
            .find(|(_, cues)| cues.iter().any(|cue| contains_sequence(&words, cue)))
            .map_or_else(|| by_intent(keyword.intent), |(archetype, _)| *archetype)
    }
}

#[cfg(test)]
mod tests;
