//! Language-aware text handling shared by every stage: tokenization, stop words, stemming.

mod grammar;
mod language;
mod stopwords;
mod tokenize;
pub(crate) mod us_states;
pub(crate) mod web_address;

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use rust_stemmers::Stemmer;

pub use grammar::{
    ends_without_english_noun, english_parts, is_noun_phrase, is_noun_phrase_naming,
    possessive_opening, CommonNouns, LowercaseOnly, Parts,
};
pub use language::Language;
pub use stopwords::{stop_word_languages, stop_words};
pub use tokenize::{is_numeric_word, is_unspaced_script, join_words, normalize, Tokenizer};

/// The names of legal pages, one per line ("impressum", "privacy policy"); `#` starts a comment.
pub const LEGAL_NOTICES: &str = include_str!("legal_notices.txt");

/// Everything needed to read text in one language: tokenizer, stop words and stemmer.
pub struct Analyzer {
    language: Language,
    tokenizer: Tokenizer,
    stop_words: &'static HashSet<&'static str>,
    stemmer: Option<Stemmer>,
}

impl Analyzer {
    pub fn new(language: &Language) -> Self {
        Analyzer {
            language: language.clone(),
            tokenizer: Tokenizer::new(language),
            stop_words: stop_words(language),
            stemmer: language.stemmer_algorithm().map(Stemmer::create),
        }
    }

    pub fn language(&self) -> &Language {
        &self.language
    }

    pub fn tokenizer(&self) -> &Tokenizer {
        &self.tokenizer
    }

    /// `word` must already be normalised (as the tokenizer returns it).
    pub fn is_stop_word(&self, word: &str) -> bool {
        self.stop_words.contains(word)
    }

    /// The Snowball stem of a normalised word, or the word itself without a stemmer.
    pub fn stem<'a>(&self, word: &'a str) -> Cow<'a, str> {
        match &self.stemmer {
            Some(stemmer) => stemmer.stem(word),
            None => Cow::Borrowed(word),
        }
    }

    /// Stems of the words of `text`, in order (stop words included).
    pub fn stems(&self, text: &str) -> Vec<String> {
        self.tokenizer
            .words(text)
            .iter()
            .map(|word| self.stem(word).into_owned())
            .collect()
    }
}

impl fmt::Debug for Analyzer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Analyzer")
            .field("language", &self.language)
            .field("stemmer", &self.stemmer.is_some())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_per_language() {
        let cases = [
            ("en", "shoes", "shoe"),
            ("de", "schuhe", "schuh"),
            ("fr", "chaussures", "chaussur"),
            ("es", "zapatos", "zapat"),
            ("it", "scarpe", "scarp"),
            ("pt-BR", "sapatos", "sapat"),
            ("nl", "schoenen", "schoen"),
        ];
        for (code, word, stem) in cases {
            assert_eq!(
                Analyzer::new(&Language::new(code)).stem(word),
                stem,
                "{code}"
            );
        }
    }

    #[test]
    fn unknown_language_keeps_words_and_has_no_stop_words() {
        let analyzer = Analyzer::new(&Language::new("xx"));
        assert_eq!(analyzer.stem("shoes"), "shoes");
        assert!(!analyzer.is_stop_word("the"));
        assert_eq!(analyzer.stems("Red Shoes"), vec!["red", "shoes"]);
    }
}
