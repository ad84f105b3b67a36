//! Stop word lists, kept as plain data files beside this module (one word per line).

use std::collections::HashSet;
use std::sync::OnceLock;

use super::Language;

const LISTS: [(&str, &str); 8] = [
    ("en", include_str!("stopwords/en.txt")),
    ("de", include_str!("stopwords/de.txt")),
    ("fr", include_str!("stopwords/fr.txt")),
    ("es", include_str!("stopwords/es.txt")),
    ("it", include_str!("stopwords/it.txt")),
    ("pt", include_str!("stopwords/pt.txt")),
    ("nl", include_str!("stopwords/nl.txt")),
    ("pl", include_str!("stopwords/pl.txt")),
];

/// The languages that have a stop word list.
pub fn stop_word_languages() -> impl Iterator<Item = Language> {
    LISTS.iter().map(|(code, _)| Language::new(code))
}

/// The stop words of a language; empty for languages without a list.
pub fn stop_words(language: &Language) -> &'static HashSet<&'static str> {
    static PARSED: OnceLock<Vec<(&'static str, HashSet<&'static str>)>> = OnceLock::new();
    static EMPTY: OnceLock<HashSet<&'static str>> = OnceLock::new();
    let parsed = PARSED.get_or_init(|| {
        LISTS
            .iter()
            .map(|(code, text)| (*code, parse_list(text)))
            .collect()
    });
    parsed
        .iter()
        .find(|(code, _)| *code == language.code())
        .map(|(_, words)| words)
        .unwrap_or_else(|| EMPTY.get_or_init(HashSet::new))
}

/// Lines of a word list, without blanks and `#` comments.
pub(crate) fn parse_list(text: &'static str) -> HashSet<&'static str> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_supported_language_has_a_reasonable_list() {
        for (code, _) in LISTS {
            let words = stop_words(&Language::new(code));
            assert!(
                (100..=300).contains(&words.len()),
                "{code}: {} words",
                words.len()
            );
            for word in words {
                assert_eq!(
                    *word,
                    word.to_lowercase(),
                    "{code}: {word} is not lowercase"
                );
            }
        }
    }

    #[test]
    fn regional_variants_share_the_list() {
        assert!(stop_words(&Language::new("pt-BR")).contains("você"));
        assert!(stop_words(&Language::new("de-AT")).contains("und"));
    }

    #[test]
    fn unknown_languages_have_none() {
        assert!(stop_words(&Language::new("zh-TW")).is_empty());
    }
}
