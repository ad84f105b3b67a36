//! The distinct words of a crawl, each analysed once: stem, stop word, and the roles the
//! query-shape rules need.

use std::collections::{HashMap, HashSet};

use crate::personas::lexicon::persona_cues;
use crate::text::{is_numeric_word, is_unspaced_script, Analyzer};

/// Weak words that still lead a search query ("best coffee grinder", "easy cold brew",
/// "whole bean coffee").
const LEADING_MODIFIERS_EN: [&str; 15] = [
    "best",
    "better",
    "good",
    "great",
    "new",
    "easy",
    "simple",
    "quick",
    "popular",
    "modern",
    "traditional",
    "original",
    "latest",
    "top",
    "whole",
];

/// Function words that may join the two halves of an English query: "shoes for women",
/// "roofing in newark", "cup of coffee", "coffee with milk". Not "and": a crawled "A and B"
/// is nearly always a list ("recipes and tips"), rarely a query.
const LINKING_WORDS_EN: [&str; 9] = ["of", "for", "in", "near", "with", "to", "on", "at", "from"];

/// Articles and possessives: a phrase always followed by one ends in a verb taking an object
/// ("partials prevent" of "partials prevent your teeth from shifting"), a clause's start rather
/// than a query. Not "this" or "that", which also follow nouns ("coffee this week").
const OBJECT_STARTS_EN: [&str; 10] = [
    "the", "a", "an", "your", "our", "their", "its", "his", "her", "my",
];

/// A distinct normalised word and what the analyzer says about it, computed once.
pub(crate) struct Word {
    pub text: String,
    pub stem: u32,
    pub stop: bool,
    pub numeric: bool,
    /// A verb, adverb, vague adjective or page-copy word (English only): never a keyword's
    /// first or last word, nor a keyword alone.
    pub weak: bool,
    /// A word that may not start a keyword although it may end one ("right", "shop").
    pub weak_start: bool,
    /// A weak word that may still lead a query (a search modifier such as "best").
    pub leading: bool,
    /// A stop word that may join two parts of a query (English only; any stop word elsewhere).
    pub linking: bool,
    /// A Chinese or Japanese character: without a segmenter a part of a word, not a word.
    pub unspaced: bool,
    /// An article or a possessive ([`OBJECT_STARTS_EN`], English only).
    pub object_start: bool,
}

/// Interns words and stems so that each distinct word is stemmed once.
pub(crate) struct Vocabulary<'a> {
    analyzer: &'a Analyzer,
    english: bool,
    weak_stems: HashSet<String>,
    weak_words: HashSet<&'static str>,
    leading_weak_stems: HashSet<String>,
    /// Word id sequences a phrase may end with although they end in a stop word: "near me"
    /// and its translations, the commonest local-search modifier.
    pub allowed_endings: Vec<Vec<u32>>,
    word_ids: HashMap<String, u32>,
    stem_ids: HashMap<String, u32>,
    /// Indexed by word id; slot 0 is a placeholder.
    pub words: Vec<Word>,
}

impl<'a> Vocabulary<'a> {
    pub fn new(analyzer: &'a Analyzer) -> Self {
        let english = analyzer.language().code() == "en";
        let mut weak_stems = HashSet::new();
        let mut weak_words = HashSet::new();
        let mut leading_weak_stems = HashSet::new();
        if english {
            let lists = [
                include_str!("weak_words_en.txt"),
                include_str!("query_words_en.txt"),
            ];
            for line in lists.iter().flat_map(|list| list.lines()).map(str::trim) {
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                if let Some(exact) = line.strip_prefix('=') {
                    weak_words.insert(exact);
                } else if let Some(leading) = line.strip_prefix('^') {
                    leading_weak_stems.insert(analyzer.stem(leading).into_owned());
                } else {
                    weak_stems.insert(analyzer.stem(line).into_owned());
                }
            }
        }
        let mut vocabulary = Vocabulary {
            analyzer,
            english,
            weak_stems,
            weak_words,
            leading_weak_stems,
            allowed_endings: Vec::new(),
            word_ids: HashMap::new(),
            stem_ids: HashMap::new(),
            words: vec![Word {
                text: String::new(),
                stem: 0,
                stop: true,
                numeric: false,
                weak: false,
                weak_start: false,
                leading: false,
                linking: false,
                unspaced: false,
                object_start: false,
            }],
        };
        let tokenizer = *analyzer.tokenizer();
        for cue in persona_cues(analyzer.language()).local {
            let words = tokenizer.words(cue);
            if words.len() > 1 && words.last().is_some_and(|w| analyzer.is_stop_word(w)) {
                let ids = words.iter().map(|w| vocabulary.intern(w)).collect();
                vocabulary.allowed_endings.push(ids);
            }
        }
        vocabulary
    }

    pub fn is_english(&self) -> bool {
        self.english
    }

    pub fn analyzer(&self) -> &'a Analyzer {
        self.analyzer
    }

    pub fn intern(&mut self, word: &str) -> u32 {
        if let Some(&id) = self.word_ids.get(word) {
            return id;
        }
        let stem_text = self.analyzer.stem(word);
        let weak = self.weak_words.contains(word) || self.weak_stems.contains(stem_text.as_ref());
        let weak_start = self.leading_weak_stems.contains(stem_text.as_ref());
        let next_stem = self.stem_ids.len() as u32 + 1;
        let stem = match self.stem_ids.get(stem_text.as_ref()) {
            Some(&id) => id,
            None => {
                self.stem_ids.insert(stem_text.into_owned(), next_stem);
                next_stem
            }
        };
        let stop = self.analyzer.is_stop_word(word);
        let id = self.words.len() as u32;
        self.words.push(Word {
            text: word.to_string(),
            stem,
            stop,
            numeric: is_numeric_word(word),
            weak,
            weak_start,
            leading: LEADING_MODIFIERS_EN.contains(&word),
            linking: stop && (!self.english || LINKING_WORDS_EN.contains(&word)),
            unspaced: word.chars().all(is_unspaced_script),
            object_start: self.english && OBJECT_STARTS_EN.contains(&word),
        });
        self.word_ids.insert(word.to_string(), id);
        id
    }
}
