//! Unicode-aware tokenization into words and punctuation-free segments.
//!
//! A *segment* is a run of words separated only by whitespace. Keyword phrases never cross
//! a segment boundary, because punctuation ("Shoes, boots | Acme") separates ideas.

use unicode_normalization::UnicodeNormalization;

use super::Language;

/// Lowercased NFKC text with typographic apostrophes folded to `'`, so "Café", "CAFÉ" and
/// "Ｃａｆé" compare equal and "don’t" matches the stop word "don't".
pub fn normalize(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    text.nfkc()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            '\u{2019}' | '\u{2018}' | '\u{02BC}' | '\u{2032}' => '\'',
            other => other,
        })
        .collect()
}

/// Chinese and Japanese are written without spaces; without a dictionary segmenter each
/// ideograph or kana is a word of its own, which still lets phrases (character n-grams) form.
pub fn is_unspaced_script(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF     // Hiragana, Katakana
        | 0x3400..=0x4DBF   // CJK Extension A
        | 0x4E00..=0x9FFF   // CJK Unified Ideographs
        | 0xF900..=0xFAFF   // CJK Compatibility Ideographs
        | 0x20000..=0x2FA1F // CJK Extensions B onwards
    )
}

/// Joins words for display: with spaces, except between two ideographs or kana.
pub fn join_words<S: AsRef<str>>(words: &[S]) -> String {
    let mut out = String::new();
    let mut previous_unspaced = false;
    for word in words {
        let word = word.as_ref();
        let unspaced = word.chars().all(is_unspaced_script);
        let glued = previous_unspaced && unspaced;
        if !out.is_empty() && !glued {
            out.push(' ');
        }
        out.push_str(word);
        previous_unspaced = unspaced;
    }
    out
}

/// A word made only of digits and number punctuation ("2024", "1,000", "3.5").
pub fn is_numeric_word(word: &str) -> bool {
    word.chars().any(|c| c.is_numeric())
        && word
            .chars()
            .all(|c| c.is_numeric() || matches!(c, '.' | ',' | '-' | '\''))
}

/// Elided articles and pronouns split off a French or Italian word ("l'hôtel" → "l'", "hôtel").
const ELISION_PREFIXES: [&str; 23] = [
    "l", "d", "j", "m", "n", "s", "t", "c", "qu", "jusqu", "lorsqu", "puisqu", "quoiqu", "dell",
    "all", "nell", "sull", "dall", "un", "quest", "quell", "dov", "tutt",
];

/// Splits text into words and segments for one language.
#[derive(Debug, Clone, Copy)]
pub struct Tokenizer {
    elisions: bool,
}

impl Tokenizer {
    pub fn new(language: &Language) -> Self {
        Tokenizer {
            elisions: language.has_elisions(),
        }
    }

    /// Calls `visit` once per non-empty segment with its normalised words.
    pub fn for_each_segment(&self, text: &str, mut visit: impl FnMut(&[&str])) {
        let normalized = normalize(text);
        let chars: Vec<(usize, char)> = normalized.char_indices().collect();
        let mut words: Vec<&str> = Vec::new();
        let mut start: Option<usize> = None;
        for (i, &(position, c)) in chars.iter().enumerate() {
            if is_unspaced_script(c) {
                if let Some(s) = start.take() {
                    self.push_word(&normalized[s..position], &mut words);
                }
                words.push(&normalized[position..position + c.len_utf8()]);
                continue;
            }
            if c.is_alphanumeric() {
                start.get_or_insert(position);
                continue;
            }
            let next = chars.get(i + 1).map(|&(_, n)| n);
            let previous = i.checked_sub(1).map(|p| chars[p].1);
            if start.is_some() && joins_word(c, previous, next) {
                continue;
            }
            if let Some(s) = start.take() {
                self.push_word(&normalized[s..position], &mut words);
            }
            if !c.is_whitespace() && !words.is_empty() {
                visit(&words);
                words.clear();
            }
        }
        if let Some(s) = start {
            self.push_word(&normalized[s..], &mut words);
        }
        if !words.is_empty() {
            visit(&words);
        }
    }

    /// The segments of `text`, each a list of words.
    pub fn segments(&self, text: &str) -> Vec<Vec<String>> {
        let mut out = Vec::new();
        self.for_each_segment(text, |words| {
            out.push(words.iter().map(|w| w.to_string()).collect())
        });
        out
    }

    /// All words of `text`, ignoring segment boundaries.
    pub fn words(&self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        self.for_each_segment(text, |words| {
            out.extend(words.iter().map(|w| w.to_string()))
        });
        out
    }

    fn push_word<'a>(&self, word: &'a str, words: &mut Vec<&'a str>) {
        if self.elisions {
            if let Some(apostrophe) = word.find('\'') {
                if ELISION_PREFIXES.contains(&&word[..apostrophe]) && apostrophe + 1 < word.len() {
                    words.push(&word[..=apostrophe]);
                    words.push(&word[apostrophe + 1..]);
                    return;
                }
            }
        }
        words.push(word);
    }
}

/// Punctuation that belongs to a word when it sits between two of its characters:
/// "e-commerce", "don't", "acme.com", "3.5", "1,000", and the ampersand of a name written
/// with one ("A&B Roofing", "AT&T", "H&M"): split there, "Why homeowners choose A&B Roofing"
/// would give the phrase "homeowners choose a" and the brand "b roofing". An ampersand
/// between spaces ("Repair & Replacement") still separates.
fn joins_word(c: char, previous: Option<char>, next: Option<char>) -> bool {
    let (Some(previous), Some(next)) = (previous, next) else {
        return false;
    };
    let letters_around = previous.is_alphanumeric()
        && next.is_alphanumeric()
        && !is_unspaced_script(previous)
        && !is_unspaced_script(next);
    match c {
        '-' | '\'' | '.' | '_' | '&' => letters_around,
        ',' => previous.is_numeric() && next.is_numeric(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segments(code: &str, text: &str) -> Vec<Vec<String>> {
        Tokenizer::new(&Language::new(code)).segments(text)
    }

    #[test]
    fn splits_at_punctuation_not_at_spaces() {
        assert_eq!(
            segments("en", "Running Shoes, Trail boots | ACME Store."),
            vec![
                vec!["running", "shoes"],
                vec!["trail", "boots"],
                vec!["acme", "store"],
            ]
        );
    }

    #[test]
    fn keeps_hyphens_apostrophes_and_dots_inside_words() {
        assert_eq!(
            segments(
                "en",
                "Don’t miss e-commerce at acme.com - 3.5 stars, 1,000 reviews"
            ),
            vec![
                vec!["don't", "miss", "e-commerce", "at", "acme.com"],
                vec!["3.5", "stars"],
                vec!["1,000", "reviews"],
            ]
        );
    }

    #[test]
    fn keeps_a_name_written_with_an_ampersand_whole() {
        assert_eq!(
            segments("en", "Why homeowners choose A&B Roofing: AT&T, H&M"),
            vec![
                vec!["why", "homeowners", "choose", "a&b", "roofing"],
                vec!["at&t"],
                vec!["h&m"],
            ]
        );
        assert_eq!(
            segments("en", "Roof Repair & Replacement & more"),
            vec![vec!["roof", "repair"], vec!["replacement"], vec!["more"]]
        );
        // Only between two word characters: a trailing or leading one separates.
        assert_eq!(
            segments("en", "Tom& Jerry &Co"),
            vec![vec!["tom"], vec!["jerry"], vec!["co"]]
        );
    }

    #[test]
    fn applies_nfkc_and_unicode_lowercase() {
        assert_eq!(
            segments("de", "ＧＲÜNE Straße"),
            vec![vec!["grüne", "straße"]]
        );
        assert_eq!(segments("en", "ﬁnance"), vec![vec!["finance"]]);
    }

    #[test]
    fn splits_french_elisions() {
        assert_eq!(
            segments("fr", "L’hôtel d'Antibes"),
            vec![vec!["l'", "hôtel", "d'", "antibes"]]
        );
        assert_eq!(segments("en", "l'hôtel"), vec![vec!["l'hôtel"]]);
    }

    #[test]
    fn ideographs_are_single_words_joined_without_spaces() {
        let words = &segments("zh-TW", "關鍵字研究 工具")[0];
        assert_eq!(words.len(), 7);
        assert_eq!(join_words(&words[..5]), "關鍵字研究");
        assert_eq!(join_words(&["seo", "工", "具"]), "seo 工具");
    }

    #[test]
    fn recognises_numbers() {
        assert!(is_numeric_word("2024"));
        assert!(is_numeric_word("1,000"));
        assert!(!is_numeric_word("mp3"));
        assert!(!is_numeric_word("-"));
    }
}
