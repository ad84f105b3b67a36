//! Whether a phrase reads as a noun phrase (what a query names: "deck staining", "family
//! dental care") or as a clause or a piece of running text ("drain operates", "students
//! preparing", "firm carefully reviews facts"), from the parts of speech English words can
//! take.
//!
//! The parts of speech are Wiktionary's (crate `wiktionary-part-of-speech-extract`: every
//! English headword with the parts of speech it has an entry for, in a 1.7 MB finite-state
//! map compiled into the binary; nothing is read or fetched at run time). It lists lemmas and
//! only some inflected forms, so a word it lacks is looked up by its lemma ("reviews" →
//! "review", "experiencing" → "experience"). Chosen over a Brill tagger (crate `pos-tagger`,
//! GPL, so it could not ship here anyway) by measurement on the tune sites' top 50: with the
//! same three rules, the Brill tagger's contextual tags rejected 206 keywords that name an
//! offering ("roof repair quote": quote/VB; "back glass": back/RB), the lexicon 21, of which
//! most are clauses the labels count as hits ("springs rated", "cables replaced"). The
//! README's offline section has the figures.
//!
//! Only English is read; in any other language every phrase passes.

use wiktionary_part_of_speech_extract::{Tag, TagSet, TagsLookup, ENGLISH_TAG_LOOKUP};

use super::Language;

/// The parts of speech a word can take, as a bit set of the few this module reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Parts(u8);

impl Parts {
    const NOUN: u8 = 1;
    const VERB: u8 = 2;
    const ADJECTIVE: u8 = 4;
    const ADVERB: u8 = 8;
    const OTHER: u8 = 16;

    fn of(tags: TagSet) -> Self {
        Parts(tags.tags().fold(0, |bits, tag| {
            bits | match tag {
                Tag::Noun | Tag::ProperNoun | Tag::Numeral => Self::NOUN,
                Tag::Verb => Self::VERB,
                Tag::Adjective => Self::ADJECTIVE,
                Tag::Adverb => Self::ADVERB,
                _ => Self::OTHER,
            }
        }))
    }

    pub fn is_known(self) -> bool {
        self.0 != 0
    }
    pub fn can_be_noun(self) -> bool {
        self.0 & Self::NOUN != 0
    }
    pub fn can_be_verb(self) -> bool {
        self.0 & Self::VERB != 0
    }
    pub fn can_be_adjective(self) -> bool {
        self.0 & Self::ADJECTIVE != 0
    }
    /// An adverb and nothing else ("carefully", "simply", "highly").
    pub fn only_adverb(self) -> bool {
        self.0 == Self::ADVERB
    }
    /// A verb and nothing else ("operate", "install").
    pub fn only_verb(self) -> bool {
        self.0 == Self::VERB
    }
}

/// Endings of inflected forms and what their lemma ends with instead, most specific first.
const INFLECTIONS: [(&str, &str); 8] = [
    ("ies", "y"),
    ("es", ""),
    ("s", ""),
    ("ing", "e"),
    ("ing", ""),
    ("ed", "e"),
    ("ed", ""),
    ("d", ""),
];

/// The parts of speech of an English word (lowercase), or of its lemma when Wiktionary has no
/// entry for the form itself; unknown words (names, brands, places) have none.
pub fn english_parts(word: &str) -> Parts {
    let lookup = lookup_table();
    if let Some(tags) = lookup.get(word) {
        return Parts::of(tags);
    }
    for (ending, lemma_ending) in INFLECTIONS {
        if let Some(stem) = word.strip_suffix(ending) {
            let lemma = format!("{stem}{lemma_ending}");
            if lemma.len() > 2 {
                if let Some(tags) = lookup.get(&lemma) {
                    return Parts::of(tags);
                }
            }
        }
    }
    Parts::default()
}

/// Wiktionary's table: opened once, on first use (a view of bytes compiled into the binary).
fn lookup_table() -> &'static TagsLookup<&'static [u8]> {
    &ENGLISH_TAG_LOOKUP
}

/// Words that open a question: a question is a query of its own kind, not a noun phrase.
const QUESTION_WORDS: [&str; 12] = [
    "how", "what", "why", "when", "where", "who", "which", "can", "is", "does", "do", "should",
];

/// `words` (lowercase) read as a noun phrase with its modifiers, or as a question, in
/// `language`: no word is only an adverb ("carefully", "simply"), no plural noun is followed
/// by a participle ("students preparing", "cables replaced"), and the last word is not only
/// a verb ("drain operates", "sharpe's installs"); a gerund ("deck staining") is a noun here.
/// Words of two letters or fewer (state codes, "dr") are not read. Any other language: true.
pub fn is_noun_phrase(words: &[String], language: &Language) -> bool {
    is_noun_phrase_naming(words, language, |_| false)
}

/// [`is_noun_phrase`], with the words `is_name` says are names (a brand, a place) read as
/// names whatever else they spell: "hills" of "Hills Roofing Ltd" is no plural before a
/// participle.
pub fn is_noun_phrase_naming(
    words: &[String],
    language: &Language,
    is_name: impl Fn(&str) -> bool,
) -> bool {
    if language.code() != "en" || words.is_empty() {
        return true;
    }
    if QUESTION_WORDS.contains(&words[0].as_str()) {
        return true;
    }
    let parts: Vec<Parts> = words
        .iter()
        .map(|word| {
            if word.chars().count() <= 2 || is_name(word) {
                Parts::default()
            } else {
                english_parts(word)
            }
        })
        .collect();
    if parts.iter().any(|p| p.only_adverb()) {
        return false;
    }
    let clause = words.windows(2).zip(parts.windows(2)).any(|(pair, kinds)| {
        !is_name(&pair[0])
            && is_plural_noun(&pair[0], kinds[0])
            && (pair[1].ends_with("ing") || pair[1].ends_with("ed"))
            && kinds[1].can_be_verb()
    });
    if clause {
        return false;
    }
    let last = words.len() - 1;
    !(last > 0 && !words[last].ends_with("ing") && parts[last].only_verb())
}

/// A plural noun ("students", "springs"), not a word that ends in s of its own ("glass",
/// "access") nor one that describes ("various"). Wiktionary's table lacks many common nouns
/// ("student"), so a word it does not know counts as a noun (names are read as names before).
fn is_plural_noun(word: &str, parts: Parts) -> bool {
    word.ends_with('s')
        && !word.ends_with("ss")
        && !word.ends_with("us")
        && !word.ends_with("'s")
        && (parts.can_be_noun() || !parts.is_known())
        && !lookup_table()
            .get(word)
            .is_some_and(|tags| Parts::of(tags).can_be_adjective())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn np(phrase: &str) -> bool {
        let words: Vec<String> = phrase.split_whitespace().map(str::to_string).collect();
        is_noun_phrase(&words, &Language::english())
    }

    #[test]
    fn clauses_and_running_text_are_no_noun_phrases() {
        for clause in [
            "firm carefully reviews facts",
            "students preparing",
            "simply request a ride",
            "patients experiencing",
            "cables replaced",
            "drain operates",
            "appliances operate",
            "highly professional approach",
        ] {
            assert!(!np(clause), "{clause}");
        }
    }

    #[test]
    fn offerings_with_their_modifiers_are_noun_phrases() {
        for phrase in [
            "deck staining",
            "cabinet refacing",
            "expert refinishing",
            "roof repair quote",
            "back glass replacement",
            "family dental care",
            "teeth whitening services",
            "autumn fox garden flag",
            "wedding cakes staten island",
            "dental care dr ca",
            "glass repairs",
            "how to stain a deck",
        ] {
            assert!(np(phrase), "{phrase}");
        }
    }

    #[test]
    fn a_name_is_read_as_a_name() {
        let words: Vec<String> = ["owens", "painting"].map(String::from).to_vec();
        assert!(!is_noun_phrase(&words, &Language::english()));
        assert!(is_noun_phrase_naming(&words, &Language::english(), |w| w == "owens"));
    }

    #[test]
    fn another_language_is_not_read() {
        let words: Vec<String> = ["schnell", "reparieren"].map(String::from).to_vec();
        assert!(is_noun_phrase(&words, &Language::new("de")));
    }

    #[test]
    fn a_missing_inflection_is_read_by_its_lemma() {
        assert!(english_parts("experiencing").can_be_verb());
        assert!(english_parts("installs").only_verb());
        assert!(english_parts("carefully").only_adverb());
        assert!(!english_parts("zorawar").is_known());
    }
}
