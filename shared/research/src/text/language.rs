//! The language a job's keywords are in, parsed from BCP 47-like codes ("en", "pt-BR", "zh-TW").

use std::fmt;
use std::str::FromStr;

use rust_stemmers::Algorithm;
use serde::{Deserialize, Serialize};

/// A language tag, normalised to lowercase with `-` separators.
///
/// Only the primary subtag drives behaviour: "pt-BR" and "pt-PT" share Portuguese stop words
/// and stemming. Any tag is accepted; a language the engine has no resources for still works,
/// just without stop words and stemming.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub struct Language {
    tag: String,
}

impl Language {
    /// Parses a code such as "en", "de-AT", "pt_BR" or "zh-TW". Never fails: an empty or
    /// malformed code becomes "und" (undetermined), which behaves like any unknown language.
    pub fn new(code: &str) -> Self {
        let tag = code.trim().replace('_', "-").to_lowercase();
        let valid = !tag.is_empty()
            && tag
                .split('-')
                .all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric()));
        Language {
            tag: if valid { tag } else { "und".to_string() },
        }
    }

    pub fn english() -> Self {
        Language::new("en")
    }

    /// The full normalised tag, e.g. "pt-br".
    pub fn tag(&self) -> &str {
        &self.tag
    }

    /// The primary subtag, e.g. "pt" for "pt-br".
    pub fn code(&self) -> &str {
        self.tag.split('-').next().unwrap_or("und")
    }

    /// The Snowball algorithm for this language, if rust-stemmers has one.
    pub fn stemmer_algorithm(&self) -> Option<Algorithm> {
        Some(match self.code() {
            "ar" => Algorithm::Arabic,
            "da" => Algorithm::Danish,
            "nl" => Algorithm::Dutch,
            "en" => Algorithm::English,
            "fi" => Algorithm::Finnish,
            "fr" => Algorithm::French,
            "de" => Algorithm::German,
            "el" => Algorithm::Greek,
            "hu" => Algorithm::Hungarian,
            "it" => Algorithm::Italian,
            "no" | "nb" | "nn" => Algorithm::Norwegian,
            "pt" => Algorithm::Portuguese,
            "ro" => Algorithm::Romanian,
            "ru" => Algorithm::Russian,
            "es" => Algorithm::Spanish,
            "sv" => Algorithm::Swedish,
            "ta" => Algorithm::Tamil,
            "tr" => Algorithm::Turkish,
            _ => return None,
        })
    }

    /// Whether the noun a phrase is about comes last ("running shoes", "Laufschuhe") rather
    /// than first ("chaussures de course", "zapatos para correr"). Clustering uses it to find
    /// a phrase's head term.
    pub fn head_is_first(&self) -> bool {
        matches!(self.code(), "fr" | "es" | "it" | "pt" | "ro" | "ca" | "gl")
    }

    /// The preposition that says whom an offering is for ("Carpetas LED para inmobiliarias",
    /// "Microgreens für Gastronomen"): what follows it is the audience, not the offering.
    pub fn audience_preposition(&self) -> Option<&'static str> {
        Some(match self.code() {
            "en" => "for",
            "es" | "pt" => "para",
            "fr" => "pour",
            "de" => "für",
            "it" => "per",
            "nl" => "voor",
            _ => return None,
        })
    }

    /// Whether words carry elided articles glued on with an apostrophe ("l'hôtel", "dell'arte").
    pub fn has_elisions(&self) -> bool {
        matches!(self.code(), "fr" | "it" | "ca")
    }
}

impl Default for Language {
    fn default() -> Self {
        Language::english()
    }
}

impl FromStr for Language {
    type Err = std::convert::Infallible;

    fn from_str(code: &str) -> Result<Self, Self::Err> {
        Ok(Language::new(code))
    }
}

impl From<String> for Language {
    fn from(code: String) -> Self {
        Language::new(&code)
    }
}

impl From<&str> for Language {
    fn from(code: &str) -> Self {
        Language::new(code)
    }
}

impl From<Language> for String {
    fn from(language: Language) -> Self {
        language.tag
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.tag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_region_and_script_subtags() {
        assert_eq!(Language::new("pt-BR").code(), "pt");
        assert_eq!(Language::new("pt_BR").tag(), "pt-br");
        assert_eq!(Language::new("zh-TW").code(), "zh");
        assert_eq!(Language::new(" DE ").code(), "de");
    }

    #[test]
    fn malformed_codes_become_undetermined() {
        assert_eq!(Language::new("").tag(), "und");
        assert_eq!(Language::new("en--us").tag(), "und");
        assert_eq!(Language::new("e n").tag(), "und");
    }

    #[test]
    fn stemmers_exist_for_the_supported_languages_only() {
        for code in ["en", "de", "fr", "es", "it", "pt-BR", "nl"] {
            assert!(Language::new(code).stemmer_algorithm().is_some(), "{code}");
        }
        assert!(Language::new("zh-TW").stemmer_algorithm().is_none());
        assert!(Language::new("ja").stemmer_algorithm().is_none());
    }

    #[test]
    fn serialises_as_its_tag() {
        let language: Language = serde_json::from_str("\"pt-BR\"").unwrap();
        assert_eq!(language.tag(), "pt-br");
        assert_eq!(serde_json::to_string(&language).unwrap(), "\"pt-br\"");
    }
}
