//! A document as the keyphrase extractor reads it: candidate phrases with their occurrences
//! and the frequency of every content word.

use std::collections::{HashMap, HashSet};

use crate::text::{is_numeric_word, join_words, Analyzer};

/// Words per candidate at most. Gold keyphrases of every corpus we measured are 1 to 3 words
/// long in nine cases out of ten; longer runs of content words yield their sub-phrases.
pub(super) const MAX_WORDS: usize = 4;

/// One distinct candidate (a stem sequence) and where it occurs.
pub(super) struct Candidate {
    pub stems: Vec<usize>,
    /// Word positions (index in the whole word stream) of each occurrence, in order.
    pub positions: Vec<usize>,
    /// Surface forms in order of first appearance, with their counts.
    pub surfaces: Vec<(String, usize)>,
}

impl Candidate {
    /// The most frequent surface form; the earliest among equally frequent ones.
    pub fn display_form(&self) -> &str {
        let mut best = &self.surfaces[0];
        for surface in &self.surfaces[1..] {
            if surface.1 > best.1 {
                best = surface;
            }
        }
        &best.0
    }
}

pub(super) struct Document {
    /// Occurrences of each content-word stem, indexed by stem id.
    pub stem_counts: Vec<usize>,
    pub candidates: Vec<Candidate>,
}

impl Document {
    pub fn read(text: &str, analyzer: &Analyzer, filter: &WordFilter) -> Document {
        let mut stem_ids: HashMap<String, usize> = HashMap::new();
        let mut stem_counts: Vec<usize> = Vec::new();
        let mut index: HashMap<Vec<usize>, usize> = HashMap::new();
        let mut candidates: Vec<Candidate> = Vec::new();
        let mut position = 0;
        let mut add_run = |run: &[(&str, usize)], end: usize| {
            filter.for_each_phrase(run, |start, len| {
                let words = &run[start..start + len];
                let stems: Vec<usize> = words.iter().map(|&(_, stem)| stem).collect();
                let next = candidates.len();
                let id = *index.entry(stems.clone()).or_insert(next);
                if id == next {
                    candidates.push(Candidate {
                        stems,
                        positions: Vec::new(),
                        surfaces: Vec::new(),
                    });
                }
                let candidate = &mut candidates[id];
                candidate.positions.push(end - run.len() + start);
                let surface: Vec<&str> = words.iter().map(|&(word, _)| word).collect();
                let surface = join_words(&surface);
                match candidate.surfaces.iter_mut().find(|(s, _)| *s == surface) {
                    Some((_, count)) => *count += 1,
                    None => candidate.surfaces.push((surface, 1)),
                }
            });
        };
        analyzer.tokenizer().for_each_segment(text, |words| {
            let mut run: Vec<(&str, usize)> = Vec::new();
            for word in words {
                let stem = analyzer.stem(word);
                if filter.is_content_word(word, &stem) {
                    let next = stem_ids.len();
                    let id = *stem_ids.entry(stem.into_owned()).or_insert(next);
                    if id == stem_counts.len() {
                        stem_counts.push(0);
                    }
                    stem_counts[id] += 1;
                    run.push((word, id));
                } else {
                    add_run(&run, position);
                    run.clear();
                }
                position += 1;
            }
            add_run(&run, position);
        });
        Document {
            stem_counts,
            candidates,
        }
    }
}

/// Decides which words may be part of a keyphrase: not stop words, numbers, single letters,
/// web addresses, nor (in English) the weak words that make a run of words a clause rather
/// than a noun phrase. Without a part-of-speech tagger this list is what keeps "proposed
/// method" from beating "neural network".
pub(super) struct WordFilter<'a> {
    analyzer: &'a Analyzer,
    english: bool,
    weak_stems: HashSet<String>,
    weak_words: HashSet<&'static str>,
}

impl<'a> WordFilter<'a> {
    pub fn new(analyzer: &'a Analyzer) -> Self {
        let english = analyzer.language().code() == "en";
        let mut weak_stems = HashSet::new();
        let mut weak_words = HashSet::new();
        if english {
            for line in include_str!("../weak_words_en.txt").lines().map(str::trim) {
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                match line.strip_prefix('=') {
                    Some(exact) => {
                        weak_words.insert(exact);
                    }
                    None => {
                        weak_stems.insert(analyzer.stem(line).into_owned());
                    }
                }
            }
        }
        WordFilter {
            analyzer,
            english,
            weak_stems,
            weak_words,
        }
    }

    pub fn is_content_word(&self, word: &str, stem: &str) -> bool {
        !self.analyzer.is_stop_word(word)
            && !is_numeric_word(word)
            && word.chars().count() > 1
            && !word.contains(['.', '@', '_'])
            && !self.weak_words.contains(word)
            && !self.weak_stems.contains(stem)
    }

    /// Calls `visit(start, len)` for every sub-phrase of a run of content words that may be
    /// a candidate: at most `MAX_WORDS` words and, in English, not starting with an "-ing"
    /// word, which there is usually a verb ("supplying web-based platforms"); inside or at
    /// the end it is usually a noun ("signal processing").
    fn for_each_phrase(&self, run: &[(&str, usize)], mut visit: impl FnMut(usize, usize)) {
        for start in 0..run.len() {
            if self.english && run[start].0.ends_with("ing") && start + 1 < run.len() {
                continue;
            }
            for len in 1..=MAX_WORDS.min(run.len() - start) {
                visit(start, len);
            }
        }
    }
}
