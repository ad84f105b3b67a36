//! Keywords another generator left out (a language model is sent only the top ones) join the
//! persona whose keywords share the most words with them: distinct content words in common
//! with each persona's keywords, the largest count wins, a tie or nothing in common leaves the
//! keyword without one. A persona still takes at most half of the job's keywords.

use std::collections::{HashMap, HashSet};

use super::{persona_capacity, PersonaInput, PersonaSet, TOP_KEYWORDS};
use crate::text::Analyzer;

/// Assigns the keywords of `input` that `set` has none for and that are not in `judged`
/// (keywords the generator saw and left out on purpose), then recounts every persona.
pub fn extend_assignments(set: &mut PersonaSet, input: &PersonaInput, judged: &HashSet<usize>) {
    let analyzer = Analyzer::new(&input.language);
    let content = |text: &str| -> HashSet<String> {
        analyzer
            .tokenizer()
            .words(text)
            .into_iter()
            .filter(|w| w.chars().count() > 2 && !analyzer.is_stop_word(w))
            .map(|w| analyzer.stem(&w).into_owned())
            .collect()
    };
    let personas = set.personas.len();
    set.assignments.resize(input.keywords.len(), None);
    // Which personas' keywords use each word.
    let mut users: HashMap<String, Vec<usize>> = HashMap::new();
    let mut held = vec![0usize; personas];
    for (index, slot) in set.assignments.iter().enumerate() {
        if let Some(p) = *slot {
            held[p] += 1;
            for word in content(&input.keywords[index].keyword) {
                let list = users.entry(word).or_default();
                if !list.contains(&p) {
                    list.push(p);
                }
            }
        }
    }
    let capacity = persona_capacity(input.keywords.len());
    let mut order: Vec<usize> = (0..input.keywords.len())
        .filter(|i| set.assignments[*i].is_none() && !judged.contains(i))
        .collect();
    order.sort_by(|&a, &b| {
        input.keywords[b]
            .value
            .total_cmp(&input.keywords[a].value)
            .then(a.cmp(&b))
    });
    for index in order {
        let mut shared = vec![0usize; personas];
        for word in content(&input.keywords[index].keyword) {
            for &p in users.get(&word).into_iter().flatten() {
                shared[p] += 1;
            }
        }
        let best = shared.iter().copied().max().unwrap_or(0);
        let winners: Vec<usize> = (0..personas).filter(|&p| shared[p] == best).collect();
        if let [winner] = winners[..] {
            if best > 0 && held[winner] < capacity {
                held[winner] += 1;
                set.assignments[index] = Some(winner);
            }
        }
    }
    recount(set, input);
}

/// Each persona's keyword count and top keywords from the assignments.
pub fn recount(set: &mut PersonaSet, input: &PersonaInput) {
    for (slot, persona) in set.personas.iter_mut().enumerate() {
        let mut mine: Vec<usize> = (0..input.keywords.len())
            .filter(|&i| set.assignments.get(i).copied().flatten() == Some(slot))
            .collect();
        mine.sort_by(|&a, &b| {
            input.keywords[b]
                .value
                .total_cmp(&input.keywords[a].value)
                .then_with(|| input.keywords[a].keyword.cmp(&input.keywords[b].keyword))
        });
        persona.keyword_count = mine.len();
        persona.top_keywords = mine
            .iter()
            .take(TOP_KEYWORDS)
            .map(|&i| input.keywords[i].keyword.clone())
            .collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intent::Intent;
    use crate::personas::{Persona, PersonaKeyword, SiteProfile};
    use crate::text::Language;

    fn persona(name: &str) -> Persona {
        Persona {
            id: format!("p-{name}"),
            avatar_name: name.to_string(),
            title: String::new(),
            description: String::new(),
            goals: Vec::new(),
            pain_points: Vec::new(),
            keyword_count: 0,
            top_keywords: Vec::new(),
        }
    }

    #[test]
    fn unsent_keywords_join_the_persona_sharing_their_words() {
        let keywords = [
            "roof repair newark",
            "gutter cleaning",
            "emergency roof repair",
            "gutter guards",
            "roof gutter",
            "black friday",
            "how to fix a roof",
            "cheap gutters",
        ];
        let input = PersonaInput {
            language: Language::english(),
            keywords: keywords
                .iter()
                .map(|k| PersonaKeyword {
                    keyword: k.to_string(),
                    intent: Intent::Commercial,
                    value: 1.0,
                })
                .collect(),
            site: SiteProfile::default(),
        };
        let mut set = PersonaSet {
            personas: vec![persona("Roofer"), persona("Gutters"), persona("Other")],
            assignments: vec![Some(0), Some(1), None, None, None, None, None, None],
        };
        // The model saw "how to fix a roof" and gave it no one.
        extend_assignments(&mut set, &input, &HashSet::from([6]));
        assert_eq!(set.assignments[2], Some(0), "emergency roof repair");
        assert_eq!(set.assignments[3], Some(1), "gutter guards");
        assert_eq!(set.assignments[4], None, "roof gutter: a tie");
        assert_eq!(set.assignments[5], None, "black friday: nothing shared");
        assert_eq!(set.assignments[6], None, "judged");
        assert_eq!(set.assignments[7], Some(1), "cheap gutters (stemmed)");
        assert_eq!(set.personas[1].keyword_count, 3);
    }
}
