//! A list of cues, indexed by first word: a keyword is checked only against the cues that
//! could start at one of its words, not against every cue of the list. Discovery, the metric
//! estimate and assembly read the cues of every candidate, so this is on the hot path.

use std::collections::HashMap;

use super::{starts_sequence_at, MIN_COMPOUND_CUE};

#[derive(Debug, Clone, Default)]
pub(super) struct CueSet {
    /// Tokenized cues by their first word, each with its position in the list.
    by_first_word: HashMap<String, Vec<(usize, Vec<String>)>>,
    /// Single-word cues a German or Dutch compound may end with ("preisvergleich"), with
    /// their positions; empty for other languages.
    compound_tails: Vec<(usize, String)>,
    len: usize,
}

impl CueSet {
    /// `compounds`: whether a word ending in a long single-word cue matches it.
    pub fn new(cues: Vec<Vec<String>>, compounds: bool) -> Self {
        let mut set = CueSet::default();
        for cue in cues {
            set.insert(cue, compounds);
        }
        set
    }

    /// Adds a cue unless it is empty or already in the set.
    pub fn insert(&mut self, cue: Vec<String>, compounds: bool) {
        let Some(first) = cue.first() else {
            return;
        };
        let bucket = self.by_first_word.entry(first.clone()).or_default();
        if bucket.iter().any(|(_, known)| *known == cue) {
            return;
        }
        let position = self.len;
        self.len += 1;
        if compounds && cue.len() == 1 && cue[0].chars().count() >= MIN_COMPOUND_CUE {
            self.compound_tails.push((position, cue[0].clone()));
        }
        bucket.push((position, cue));
    }

    /// Whether any cue occurs in `words` (also with a plural "s"/"es", or ending a compound).
    pub fn matches(&self, words: &[String]) -> bool {
        self.matching(words).next().is_some()
    }

    /// How many distinct cues occur in `words`.
    pub fn count(&self, words: &[String]) -> usize {
        let mut found: Vec<usize> = self.matching(words).collect();
        found.sort_unstable();
        found.dedup();
        found.len()
    }

    /// Positions of the cues that occur, possibly repeated.
    fn matching<'a>(&'a self, words: &'a [String]) -> impl Iterator<Item = usize> + 'a {
        let sequences = words.iter().enumerate().flat_map(move |(start, word)| {
            singular_forms(word)
                .filter_map(|form| self.by_first_word.get(form))
                .flatten()
                .filter(move |(_, cue)| starts_sequence_at(words, start, cue))
                .map(|(position, _)| *position)
        });
        let compounds = self
            .compound_tails
            .iter()
            .filter(|(_, tail)| {
                words
                    .iter()
                    .any(|w| w.len() > tail.len() && w.ends_with(tail.as_str()))
            })
            .map(|(position, _)| *position);
        sequences.chain(compounds)
    }
}

/// The word and what it would be without a plural "s" or "es": the first words a cue may have
/// to match it.
fn singular_forms(word: &str) -> impl Iterator<Item = &str> {
    [Some(word), word.strip_suffix('s'), word.strip_suffix("es")]
        .into_iter()
        .flatten()
}
