//! Keywords as the bulk endpoints accept them, and matching their answers back. Google Ads
//! rejects a whole request for one keyword that is too long, too wordy or holds a symbol it
//! does not allow, so every keyword is cleaned first and the unusable ones are never sent.
//! Answers name keywords in their own way: lower-cased, and Google Ads gives the figures of
//! the spelling it corrected a keyword to, naming that spelling in `spell`. Answers are
//! matched back case-insensitively by `keyword`, and by `spell` should an answer carry only
//! the corrected form.

use std::collections::HashMap;

/// Longest keyword Google Ads accepts, in characters.
pub const MAX_CHARS: usize = 80;
/// Most words Google Ads accepts in one keyword.
pub const MAX_WORDS: usize = 10;

/// Symbols Google Ads refuses in keywords (its docs' list); they carry no meaning for
/// search volume, so they become spaces. `.`, `-` and `+` are accepted ("c++", "e-bike").
const REJECTED_SYMBOLS: &[char] = &[
    ',', '!', '@', '%', '^', '(', ')', '=', '{', '}', ';', '~', '`', '<', '>', '?', '\\', '|',
    '\u{2015}',
];

/// Characters outside the Basic Multilingual Plane (emoji and the like) are refused too.
fn refused(c: char) -> bool {
    REJECTED_SYMBOLS.contains(&c) || c.is_control() || c.len_utf8() == 4
}

/// The keyword as it can be sent, or `None` when nothing usable is left or it is too long.
pub fn sanitize(keyword: &str) -> Option<String> {
    let cleaned: String = keyword
        .chars()
        .map(|c| if refused(c) { ' ' } else { c })
        .collect::<String>()
        .to_lowercase();
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    let joined = words.join(" ");
    (!words.is_empty() && words.len() <= MAX_WORDS && joined.chars().count() <= MAX_CHARS)
        .then_some(joined)
}

/// The form two names of one keyword share.
pub fn match_key(keyword: &str) -> String {
    keyword
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Requested keywords, to find which one an answer is about.
#[derive(Debug, Default)]
pub struct KeywordMatcher {
    index: HashMap<String, usize>,
}

impl KeywordMatcher {
    /// `requested[i]` is found back as `i`.
    pub fn new<S: AsRef<str>>(requested: &[S]) -> Self {
        let mut index = HashMap::with_capacity(requested.len());
        for (i, keyword) in requested.iter().enumerate() {
            index.entry(match_key(keyword.as_ref())).or_insert(i);
        }
        Self { index }
    }

    /// The requested keyword an answer belongs to, by its `keyword`, else by its `spell`.
    pub fn find(&self, keyword: Option<&str>, spell: Option<&str>) -> Option<usize> {
        [keyword, spell]
            .into_iter()
            .flatten()
            .find_map(|name| self.index.get(&match_key(name)).copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitizing_removes_rejected_symbols_and_refuses_what_is_too_long() {
        assert_eq!(
            sanitize("  Best (Cold) Brew, Coffee!! ").as_deref(),
            Some("best cold brew coffee")
        );
        assert_eq!(sanitize("café crème").as_deref(), Some("café crème"));
        assert_eq!(sanitize("c++ tutorial 🚀").as_deref(), Some("c++ tutorial"));
        assert_eq!(sanitize("e-bike.").as_deref(), Some("e-bike."));
        assert_eq!(sanitize("?!"), None);
        assert_eq!(sanitize(&"word ".repeat(11)), None);
        assert!(sanitize(&"word ".repeat(10)).is_some());
        assert_eq!(sanitize(&"a".repeat(81)), None);
        assert!(sanitize(&"a".repeat(80)).is_some());
    }

    #[test]
    fn answers_match_back_by_name_or_spelling_in_any_case() {
        let matcher = KeywordMatcher::new(&["cold brew cofee", "Espresso Beans"]);
        assert_eq!(matcher.find(Some("espresso beans"), None), Some(1));
        assert_eq!(
            matcher.find(Some("cold brew coffee"), Some("cold brew cofee")),
            Some(0)
        );
        assert_eq!(matcher.find(Some("COLD BREW COFEE"), None), Some(0));
        assert_eq!(matcher.find(Some("green tea"), Some("green teas")), None);
    }
}
