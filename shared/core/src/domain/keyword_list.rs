//! Keywords a user brings to a job: each phrase cleaned the way the data provider needs it,
//! the list deduplicated, and every phrase that cannot be used named with its position, so a
//! client learns what to fix instead of losing a part of its list without a word.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::validation::FieldError;

/// Most phrases one job takes.
pub const MAX_IMPORTED_KEYWORDS: usize = 10_000;
/// Longest phrase in characters, and most words: what Google Ads accepts (DataForSEO's
/// "Rules and limitations of keyword fields"); a longer phrase would make the provider refuse
/// the whole batch it is in.
pub const MAX_PHRASE_CHARS: usize = 80;
pub const MAX_PHRASE_WORDS: usize = 10;
/// Invalid phrases listed one by one in a 400; the rest are counted in one more entry.
pub const MAX_LISTED_ERRORS: usize = 100;

/// Symbols Google Ads refuses in a keyword (DataForSEO's list). `.`, `-` and `+` are allowed.
pub const REFUSED_SYMBOLS: &[char] = &[
    ',', '!', '@', '%', '^', '(', ')', '=', '{', '}', ';', '~', '`', '<', '>', '?', '\\', '|',
    '\u{2015}',
];

/// A symbol the provider refuses, a control character, or a character outside the Basic
/// Multilingual Plane (emoji and the like), which Google Ads refuses too.
pub fn is_refused_char(c: char) -> bool {
    REFUSED_SYMBOLS.contains(&c) || c.is_control() || c.len_utf8() == 4
}

/// One phrase as a search would be typed: trimmed, single spaces, lower case, within the
/// provider's limits.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct KeywordPhrase(String);

impl KeywordPhrase {
    pub fn parse(raw: &str) -> Result<Self, String> {
        let words: Vec<&str> = raw.split_whitespace().collect();
        if words.is_empty() {
            return Err("is empty".into());
        }
        let phrase = words.join(" ").to_lowercase();
        if !phrase.chars().any(char::is_alphanumeric) {
            return Err("has no letter or digit".into());
        }
        let mut refused: Vec<char> = phrase.chars().filter(|c| is_refused_char(*c)).collect();
        refused.dedup();
        if !refused.is_empty() {
            let shown: Vec<String> = refused
                .iter()
                .take(5)
                .map(|c| match c {
                    c if c.is_control() => format!("U+{:04X}", *c as u32),
                    c => format!("\"{c}\""),
                })
                .collect();
            return Err(format!(
                "contains {} that the keyword data provider refuses",
                shown.join(", ")
            ));
        }
        if words.len() > MAX_PHRASE_WORDS {
            return Err(format!(
                "has {} words; at most {MAX_PHRASE_WORDS} are allowed",
                words.len()
            ));
        }
        // Counted as sent, so the documented `maxLength` holds for the raw string too.
        let chars = raw.chars().count();
        if chars > MAX_PHRASE_CHARS {
            return Err(format!(
                "is {chars} characters long; at most {MAX_PHRASE_CHARS} are allowed"
            ));
        }
        Ok(Self(phrase))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for KeywordPhrase {
    type Error = String;

    fn try_from(raw: String) -> Result<Self, Self::Error> {
        Self::parse(&raw)
    }
}

impl From<KeywordPhrase> for String {
    fn from(phrase: KeywordPhrase) -> Self {
        phrase.0
    }
}

/// A deduplicated list of 1 to [`MAX_IMPORTED_KEYWORDS`] phrases, in the order first given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeywordList {
    phrases: Vec<KeywordPhrase>,
    /// Entries dropped because an earlier one was the same phrase once cleaned.
    duplicates: usize,
}

impl KeywordList {
    pub fn phrases(&self) -> &[KeywordPhrase] {
        &self.phrases
    }

    pub fn len(&self) -> usize {
        self.phrases.len()
    }

    pub fn is_empty(&self) -> bool {
        self.phrases.is_empty()
    }

    pub fn duplicates(&self) -> usize {
        self.duplicates
    }

    /// The `keywords` array of a JSON body; errors are named `keywords[i]`.
    pub fn from_json(raw: &Value) -> Result<Self, Vec<FieldError>> {
        let Value::Array(items) = raw else {
            return Err(vec![FieldError::new(
                "keywords",
                "must be an array of strings",
            )]);
        };
        let entries = items.iter().enumerate().map(|(index, item)| {
            let phrase = match item {
                Value::String(text) => KeywordPhrase::parse(text),
                _ => Err("must be a string".to_string()),
            };
            (format!("keywords[{index}]"), phrase)
        });
        Self::collect(entries, "keywords")
    }

    /// Phrases with the name each is reported under, in order.
    pub fn collect(
        entries: impl Iterator<Item = (String, Result<KeywordPhrase, String>)>,
        whole: &str,
    ) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut invalid = 0usize;
        let mut seen = HashSet::new();
        let mut list = Self {
            phrases: Vec::new(),
            duplicates: 0,
        };
        let mut received = 0usize;
        for (name, phrase) in entries {
            received += 1;
            match phrase {
                Err(message) => {
                    invalid += 1;
                    if errors.len() < MAX_LISTED_ERRORS {
                        errors.push(FieldError::new(name, message));
                    }
                }
                Ok(phrase) if seen.contains(phrase.as_str()) => list.duplicates += 1,
                Ok(phrase) => {
                    seen.insert(phrase.as_str().to_string());
                    list.phrases.push(phrase);
                }
            }
        }
        if invalid > errors.len() {
            errors.push(FieldError::new(
                whole,
                format!(
                    "{} more invalid phrases are not listed",
                    invalid - errors.len()
                ),
            ));
        }
        if list.phrases.len() > MAX_IMPORTED_KEYWORDS {
            errors.push(FieldError::new(
                whole,
                format!(
                    "holds {} distinct phrases; at most {MAX_IMPORTED_KEYWORDS} are allowed",
                    list.phrases.len()
                ),
            ));
        } else if received == 0 {
            errors.push(FieldError::new(
                whole,
                "must hold at least one phrase (leave it out to research discovered keywords only)",
            ));
        }
        if errors.is_empty() {
            Ok(list)
        } else {
            Err(errors)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn phrases_are_cleaned_like_a_typed_search() {
        let phrase = KeywordPhrase::parse("  Cold\tBrew   COFFEE ").unwrap();
        assert_eq!(phrase.as_str(), "cold brew coffee");
        assert_eq!(
            KeywordPhrase::parse("c++ e-bike.").unwrap().as_str(),
            "c++ e-bike."
        );
        assert_eq!(
            KeywordPhrase::parse("Café crème").unwrap().as_str(),
            "café crème"
        );
    }

    #[test]
    fn what_the_provider_refuses_is_named() {
        assert_eq!(KeywordPhrase::parse("   "), Err("is empty".to_string()));
        assert_eq!(
            KeywordPhrase::parse("[] - +"),
            Err("has no letter or digit".to_string())
        );
        let symbols = KeywordPhrase::parse("best (cold) brew?").unwrap_err();
        assert!(
            symbols.contains("\"(\"") && symbols.contains("\"?\""),
            "{symbols}"
        );
        assert!(KeywordPhrase::parse("coffee 🚀").is_err());
        assert!(KeywordPhrase::parse("a\u{0}b")
            .unwrap_err()
            .contains("U+0000"));
        assert!(KeywordPhrase::parse(&"word ".repeat(11))
            .unwrap_err()
            .contains("11 words"));
        assert!(KeywordPhrase::parse(&"a".repeat(81))
            .unwrap_err()
            .contains("81 characters"));
        assert!(KeywordPhrase::parse(&"a".repeat(80)).is_ok());
    }

    #[test]
    fn duplicates_collapse_after_cleaning_and_every_bad_entry_is_reported() {
        let list = KeywordList::from_json(&json!(["Cold Brew", "cold  brew", "espresso"])).unwrap();
        let phrases: Vec<&str> = list.phrases().iter().map(KeywordPhrase::as_str).collect();
        assert_eq!(phrases, ["cold brew", "espresso"]);
        assert_eq!(list.duplicates(), 1);

        let errors = KeywordList::from_json(&json!(["ok", "", 3, "a|b"])).unwrap_err();
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["keywords[1]", "keywords[2]", "keywords[3]"]);
        assert!(KeywordList::from_json(&json!("cold brew")).is_err());
        assert!(KeywordList::from_json(&json!([])).is_err());
    }

    #[test]
    fn long_lists_are_capped_and_error_lists_stay_short() {
        let many: Vec<String> = (0..=MAX_IMPORTED_KEYWORDS)
            .map(|i| format!("k{i}"))
            .collect();
        let errors = KeywordList::from_json(&json!(many)).unwrap_err();
        assert!(errors[0].message.contains("10001 distinct"), "{errors:?}");
        let repeated: Vec<&str> = vec!["coffee"; MAX_IMPORTED_KEYWORDS * 2];
        assert_eq!(KeywordList::from_json(&json!(repeated)).unwrap().len(), 1);

        let bad: Vec<&str> = vec!["a!"; 250];
        let errors = KeywordList::from_json(&json!(bad)).unwrap_err();
        assert_eq!(errors.len(), MAX_LISTED_ERRORS + 1);
        assert!(errors.last().unwrap().message.starts_with("150 more"));
    }
}
