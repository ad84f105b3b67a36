//! Personas: who searches for a job's keywords, and which keyword belongs to whom.
//!
//! [`PersonaGenerator`] is the seam of the research run, and [`OfflinePersonaGenerator`] is
//! deterministic; a language model writes personas through the async seam in [`model`] (its
//! prompt and the strict reading of its answer are there too). It starts from who the site serves
//! ([`SiteProfile`], read from the primary site's pages: consumers or businesses,
//! homeowners, the places it serves, its offerings, its price level) and sorts each keyword
//! into the searcher types it fits: local (a served place or "near me"), budget,
//! business, beginner, researcher (questions, guides), comparer (best, vs, reviews), ready
//! buyer (buy, book, quote, service) and existing customer (navigational); without a cue,
//! its intent is a weaker fit, and an informational keyword about nothing the site offers
//! fits no one. The up to six types most keywords fit first become personas; at least three:
//! a local site gets the local persona, a business-only site the business one, then the
//! researcher, comparer and ready buyer. Keywords are then handed out strongest fit first,
//! most valuable first, each to the first persona it fits that still has room: no persona
//! takes more than half of the job's keywords. A keyword that fits no chosen persona with
//! room has none. Texts are English, written from the profile.

mod archetypes;
mod describe;
mod extend;
mod fit;
pub(crate) mod lexicon;
pub mod model;
mod offerings;
mod places;
mod postal;
mod profile;

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

pub use extend::{extend_assignments, recount};
pub use kr_core::dataset::Persona;
pub(crate) use offerings::describes;
pub(crate) use places::is_direction;
pub(crate) use profile::primary_pages;
pub use profile::{Audience, PriceLevel, SiteProfile};

use crate::intent::Intent;
use crate::text::{Language, Tokenizer};
use archetypes::Archetype;
use describe::{texts, Context};
use fit::{Fitter, Strength};
use lexicon::is_cue_word;

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
    /// Who the primary site serves; empty when its pages are unknown.
    #[serde(default)]
    pub site: SiteProfile,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonaSet {
    pub personas: Vec<Persona>,
    /// Per input keyword, the index of its persona in `personas`, if any.
    pub assignments: Vec<Option<usize>>,
}

/// Produces personas and keyword assignments. A remote language model, which answers later,
/// reads the pages too and costs money, has its own async seam ([`model::PersonaModel`]) and
/// falls back to [`OfflinePersonaGenerator`] rather than return none.
pub trait PersonaGenerator {
    fn generate(&self, input: &PersonaInput) -> PersonaSet;
}

/// Rule-based, deterministic personas (module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct OfflinePersonaGenerator;

impl PersonaGenerator for OfflinePersonaGenerator {
    fn generate(&self, input: &PersonaInput) -> PersonaSet {
        let fitter = Fitter::new(&input.language, &input.site);
        let fits: Vec<Vec<(Archetype, Strength)>> =
            input.keywords.iter().map(|k| fitter.fits(k)).collect();
        let chosen = choose(&fits, &input.site);
        let assignments = assign(&input.keywords, &fits, &chosen);
        let personas = chosen
            .iter()
            .enumerate()
            .map(|(index, &archetype)| describe_persona(archetype, index, input, &assignments))
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

/// Most keywords one persona may hold: half of the job's (all of a tiny job's).
pub fn persona_capacity(keywords: usize) -> usize {
    if keywords < 4 {
        keywords
    } else {
        keywords / 2
    }
}

/// The types most keywords fit first (ties in `Archetype` order), at most six, padded to
/// three from the site profile, then the fallbacks.
fn choose(fits: &[Vec<(Archetype, Strength)>], site: &SiteProfile) -> Vec<Archetype> {
    let mut counts: HashMap<Archetype, usize> = HashMap::new();
    for fit in fits {
        if let Some((archetype, _)) = fit.first() {
            *counts.entry(*archetype).or_insert(0) += 1;
        }
    }
    let from_site = [
        site.is_local().then_some(Archetype::Local),
        site.serves_businesses().then_some(Archetype::Business),
    ];
    let mut ranked: Vec<(Archetype, usize)> = counts.into_iter().collect();
    // Who the site serves goes first when some keywords show them; then the most common.
    ranked.sort_by_key(|&(archetype, count)| {
        let served = from_site.contains(&Some(archetype));
        (!served, std::cmp::Reverse(count), archetype)
    });
    let mut chosen: Vec<Archetype> = ranked.iter().take(MAX_PERSONAS).map(|&(a, _)| a).collect();
    chosen.sort_by_key(|a| {
        let count = ranked.iter().find(|(r, _)| r == a).map_or(0, |&(_, c)| c);
        (std::cmp::Reverse(count), *a)
    });
    let from_site = [
        site.is_local().then_some(Archetype::Local),
        (site.audience == Audience::Businesses).then_some(Archetype::Business),
    ];
    for fallback in from_site.into_iter().flatten().chain(Archetype::FALLBACKS) {
        if chosen.len() >= MIN_PERSONAS {
            break;
        }
        if !chosen.contains(&fallback) {
            chosen.push(fallback);
        }
    }
    chosen
}

/// Strong fits first, then by value: each keyword to the first chosen persona it fits that
/// has room.
fn assign(
    keywords: &[PersonaKeyword],
    fits: &[Vec<(Archetype, Strength)>],
    chosen: &[Archetype],
) -> Vec<Option<usize>> {
    let capacity = persona_capacity(keywords.len());
    let mut order: Vec<usize> = (0..keywords.len()).collect();
    let strongest = |i: usize| fits[i].iter().map(|(_, s)| *s).min();
    order.sort_by(|&a, &b| {
        // `Strong` < `Weak` < no fit (None sorts first, hence the map).
        let rank = |i| strongest(i).map_or(2, |s| s as u8);
        rank(a)
            .cmp(&rank(b))
            .then(keywords[b].value.total_cmp(&keywords[a].value))
            .then(a.cmp(&b))
    });
    let mut held = vec![0usize; chosen.len()];
    let mut assignments = vec![None; keywords.len()];
    for index in order {
        let slot = fits[index].iter().find_map(|(archetype, _)| {
            let slot = chosen.iter().position(|c| c == archetype)?;
            (held[slot] < capacity).then_some(slot)
        });
        if let Some(slot) = slot {
            held[slot] += 1;
            assignments[index] = Some(slot);
        }
    }
    assignments
}

fn describe_persona(
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
    let focus = own_offering(&input.language, &input.site, &mine)
        .or_else(|| mine.first().map(|k| k.keyword.as_str()))
        .or_else(|| best_keyword(&input.keywords))
        .unwrap_or("what the site offers");
    let text = texts(
        archetype,
        &Context {
            offer: focus,
            profile: &input.site,
        },
    );
    Persona {
        id: format!("p-{}", archetype.slug()),
        avatar_name: archetype.avatar_name().to_string(),
        title: text.title,
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

/// What a persona's keywords are about: the site offering they name most (every word of it
/// in a keyword, weighted by the keyword's value); else the head noun of the site's offerings
/// most of them use ("coffee" for "easy cold brew coffee" and "coffee grinder for beginners");
/// else the site's first offering, if any.
fn own_offering<'a>(
    language: &Language,
    site: &'a SiteProfile,
    mine: &[&PersonaKeyword],
) -> Option<&'a str> {
    let tokenizer = Tokenizer::new(language);
    let keyword_words: Vec<Vec<String>> =
        mine.iter().map(|k| tokenizer.words(&k.keyword)).collect();
    let support = |offering: &str| -> f64 {
        let words = tokenizer.words(offering);
        mine.iter()
            .zip(&keyword_words)
            .filter(|(_, kw)| words.iter().all(|w| kw.contains(w)))
            .map(|(k, _)| 1.0 + k.value.max(0.0))
            .sum()
    };
    let mut best: Option<(&str, f64)> = None;
    for offering in &site.offerings {
        let score = support(offering);
        if score > 0.0 && best.is_none_or(|(_, b)| score > b) {
            best = Some((offering, score));
        }
    }
    let topic = || {
        let uses = |topic: &String| keyword_words.iter().filter(|kw| kw.contains(topic)).count();
        let mut best: Option<(&'a str, usize)> = None;
        // Only a word that names something alone: an offering's head noun ("coffee" of
        // "organic coffee"), never a modifier cut from it ("art" of "latte art pitchers").
        let offered: Vec<String> = site
            .offerings
            .iter()
            .filter_map(|o| {
                let words = tokenizer.words(o);
                if language.head_is_first() {
                    words.into_iter().next()
                } else {
                    words.into_iter().last()
                }
            })
            .collect();
        let topics = site
            .topics
            .iter()
            .filter(|t| offered.contains(t) && !is_cue_word(language, t));
        for topic in topics {
            let count = uses(topic);
            if count >= 2 && best.is_none_or(|(_, b)| count > b) {
                best = Some((topic, count));
            }
        }
        best.map(|(t, _)| t)
    };
    best.map(|(o, _)| o)
        .or_else(topic)
        .or_else(|| site.offerings.first().map(String::as_str))
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

#[cfg(test)]
pub(crate) mod site_tests;
#[cfg(test)]
mod tests;
