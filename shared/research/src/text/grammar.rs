//! Whether a phrase reads as a noun phrase (what a query names: "deck staining", "family
//! dental care") or as a clause or a piece of running text ("drain operates", "students
//! preparing", "firm carefully reviews facts"), from the parts of speech English words can
//! take.
//!
//! The parts of speech are Wiktionary's (crate `wiktionary-part-of-speech-extract`: every
//! English headword with the parts of speech it has an entry for, but those that are only
//! nouns, in a 1.7 MB finite-state map compiled into the binary; nothing is read or fetched
//! at run time). It lists lemmas and
//! only some inflected forms, so a word it lacks is looked up by its lemma ("reviews" →
//! "review", "experiencing" → "experience"). Chosen over a Brill tagger (crate `pos-tagger`,
//! GPL, so it could not ship here anyway) by measurement on the tune sites' top 50: with the
//! same three rules, the Brill tagger's contextual tags rejected 206 keywords that name an
//! offering ("roof repair quote": quote/VB; "back glass": back/RB), the lexicon 21, of which
//! most are clauses the labels count as hits ("springs rated", "cables replaced"). The
//! README's offline section has the figures.
//!
//! In German, French, Spanish, Italian, Portuguese and Dutch no lexicon is read, only the
//! closed classes of words: a noun phrase holds between its nouns an article, a preposition or
//! "and" ("conditions d'utilisation", "tienda de irún"), never a verb of the language's
//! closed set, a pronoun or a conjunction ("website ist aktuell", "benessere che curiamo",
//! "données collectées sont utilisées"), and it does not open with a preposition ("seit
//! generationen"). German writes every noun with a capital, so a German phrase whose last
//! word the site writes only in lowercase ends with no noun ("geschichten erzählt"): see
//! [`LowercaseOnly`].

use wiktionary_part_of_speech_extract::{Tag, TagSet, TagsLookup, ENGLISH_TAG_LOOKUP};

use std::collections::HashSet;

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
/// entry for the form itself; unknown words have none. The crate's table leaves out every word
/// that is only a noun ("city", "charity", "community"), so an unknown word is such a noun, a
/// name (a brand, a place) or a word Wiktionary lacks.
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

/// English prepositions that follow a participle or come before a number in running text.
const ENGLISH_PREPOSITIONS: [&str; 14] = [
    "on", "in", "with", "by", "for", "from", "to", "at", "of", "near", "into", "over", "under",
    "since",
];

/// Words that open a question: a question is a query of its own kind, not a noun phrase.
const QUESTION_WORDS: [&str; 12] = [
    "how", "what", "why", "when", "where", "who", "which", "can", "is", "does", "do", "should",
];

/// `words` (lowercase) read as a noun phrase with its modifiers, or as a question, in
/// `language`: no word is only an adverb ("carefully", "simply"), no plural noun is followed
/// by a participle ("students preparing", "cables replaced"), and the last word is not only
/// a verb ("drain operates", "sharpe's installs"); a gerund ("deck staining") is a noun here.
/// Words of two letters or fewer (state codes, "dr") are not read. Other languages are read
/// by their closed classes (module docs); a language without a list passes.
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
    if words.is_empty() {
        return true;
    }
    if language.code() != "en" {
        return joined_as_noun_phrase(words, language, &is_name);
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
    // A participle opening a phrase before a preposition is a clause cut from a sentence
    // ("tested on espresso machines", "based in denver"), and a number a preposition leaves
    // at the end is a cut too ("coffee subscription with 20" of "with 20% off").
    let opens_with_participle = words.len() > 1
        && !is_name(&words[0])
        && words[0].ends_with("ed")
        && parts[0].can_be_verb()
        && ENGLISH_PREPOSITIONS.contains(&words[1].as_str());
    let last = words.len() - 1;
    let number_cut = last > 1
        && super::is_numeric_word(&words[last])
        && ENGLISH_PREPOSITIONS.contains(&words[last - 1].as_str());
    if opens_with_participle || number_cut {
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
    !(last > 0 && !words[last].ends_with("ing") && parts[last].only_verb())
}

/// Whether an English name's last word is one Wiktionary knows and never as a noun
/// ("statewide", "direct", "yourself"): it describes what it names, or is no name. A gerund
/// ("staining") and a word Wiktionary lacks (a brand, a place) end a noun phrase.
pub fn ends_without_english_noun(words: &[String]) -> bool {
    words.last().is_some_and(|last| {
        last.chars().count() > 2 && !last.ends_with("ing") && {
            let parts = english_parts(last);
            parts.is_known() && !parts.can_be_noun()
        }
    })
}

/// Per language, the prepositions, and the articles and conjunctions a noun phrase may hold
/// between its nouns ("tienda de motos", "conditions d'utilisation", "Obst und Gemüse").
const CLOSED_CLASSES: [(&str, &[&str], &[&str]); 6] = [
    (
        "de",
        &[
            "für", "mit", "von", "vom", "zu", "zum", "zur", "im", "in", "am", "an", "auf", "aus",
            "bei", "beim", "nach", "ohne", "unter", "über", "um", "gegen", "seit", "durch", "ab",
            "bis", "vor",
        ],
        &[
            "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer",
            "eines", "und", "oder", "&",
        ],
    ),
    (
        "fr",
        &[
            "de", "d'", "du", "des", "au", "aux", "à", "en", "pour", "sur", "sans", "avec", "par",
            "chez", "sous", "dans", "depuis", "d",
        ],
        &["le", "la", "les", "l'", "l", "un", "une", "et", "ou", "&"],
    ),
    (
        "es",
        &[
            "de", "del", "al", "a", "en", "para", "con", "sin", "por", "sobre", "desde", "hasta",
            "entre",
        ],
        &[
            "el", "la", "los", "las", "un", "una", "unos", "unas", "y", "e", "o", "u", "&",
        ],
    ),
    (
        "it",
        &[
            "di", "del", "dello", "della", "dei", "degli", "delle", "dell'", "da", "dal", "dalla",
            "dai", "in", "nel", "nella", "nei", "a", "al", "alla", "ai", "all'", "per", "con",
            "su", "sul", "sulla", "senza", "tra", "fra", "d'", "d", "dell", "all",
        ],
        &[
            "il", "lo", "la", "i", "gli", "le", "l'", "l", "un", "uno", "una", "un'", "e", "ed",
            "o", "&",
        ],
    ),
    (
        "pt",
        &[
            "de", "do", "da", "dos", "das", "em", "no", "na", "nos", "nas", "para", "com", "sem",
            "por", "ao", "à", "sobre", "desde", "até", "entre",
        ],
        &["o", "a", "os", "as", "um", "uma", "e", "ou", "&"],
    ),
    (
        "nl",
        &[
            "van", "voor", "met", "in", "op", "bij", "zonder", "uit", "aan", "naar", "over", "tot",
            "sinds", "door",
        ],
        &["de", "het", "een", "en", "of", "&"],
    ),
];

/// How many of `words` open a page's name with the possessive "our", with the article Italian
/// and Portuguese put before it ("Nos Vins", "I Nostri Servizi", "Unsere Torten"): the name
/// is what follows. An article alone stays: "der Region", "il Territorio" are no page's name.
pub fn possessive_opening(words: &[String], language: &Language) -> usize {
    let (articles, possessives): (&[&str], &[&str]) = match language.code() {
        "fr" => (&[], &["nos", "notre"]),
        "it" => (
            &["i", "il", "la", "le"],
            &["nostri", "nostre", "nostro", "nostra"],
        ),
        "es" => (&[], &["nuestros", "nuestras", "nuestro", "nuestra"]),
        "pt" => (
            &["os", "as", "o", "a"],
            &["nossos", "nossas", "nosso", "nossa"],
        ),
        "de" => (&[], &["unsere", "unser", "unseren", "unserem"]),
        "nl" => (&[], &["onze", "ons"]),
        _ => (&[], &[]),
    };
    let article = words
        .first()
        .is_some_and(|w| articles.contains(&w.as_str())) as usize;
    match words.get(article) {
        Some(word) if possessives.contains(&word.as_str()) => article + 1,
        _ => 0,
    }
}

/// [`is_noun_phrase_naming`] in a language read by its closed classes only (module docs):
/// no opening preposition, and no stop word between the nouns but an article, a preposition
/// or a conjunction that joins nouns. A language without a list passes.
fn joined_as_noun_phrase(
    words: &[String],
    language: &Language,
    is_name: &impl Fn(&str) -> bool,
) -> bool {
    let Some((_, prepositions, joiners)) = CLOSED_CLASSES
        .iter()
        .find(|(code, _, _)| *code == language.code())
    else {
        return true;
    };
    let stop_words = super::stop_words(language);
    if words.len() > 1 && prepositions.contains(&words[0].as_str()) && !is_name(&words[0]) {
        return false;
    }
    // French asks its reader in the second person plural ("complétez le look", "découvrez
    // nos cafés"): a call to action, no thing.
    if language.code() == "fr" && is_french_imperative(&words[0]) && !is_name(&words[0]) {
        return false;
    }
    words.iter().all(|word| {
        !stop_words.contains(word.as_str())
            || prepositions.contains(&word.as_str())
            || joiners.contains(&word.as_str())
            || is_name(word)
    })
}

/// A French verb in the second person plural ("complétez", "contactez"); "nez" and "chez"
/// are too short to be one.
fn is_french_imperative(word: &str) -> bool {
    word.ends_with("ez") && word.chars().count() > 5
}

/// The words a text writes only in lowercase, never with a capital: in German no noun (every
/// German noun is capitalised), so a German noun phrase does not end with one.
#[derive(Debug, Default)]
pub struct LowercaseOnly(HashSet<String>);

impl LowercaseOnly {
    pub fn of_texts<'a>(texts: impl IntoIterator<Item = &'a str>) -> Self {
        let mut lowercase = HashSet::new();
        let mut capitalised = HashSet::new();
        for text in texts {
            // Any word is capitalised where a sentence starts: only other capitals count.
            let mut starts_sentence = true;
            for token in text.split_whitespace() {
                let word = token.trim_matches(|c: char| !c.is_alphanumeric());
                match word.chars().next() {
                    Some(c) if c.is_lowercase() => {
                        lowercase.insert(word.to_string());
                    }
                    Some(c) if c.is_uppercase() && !starts_sentence => {
                        capitalised.insert(word.to_lowercase());
                    }
                    _ => {}
                }
                starts_sentence = token.ends_with(['.', '!', '?', ':']);
            }
        }
        lowercase.retain(|word| !capitalised.contains(word));
        LowercaseOnly(lowercase)
    }

    /// Whether the text writes `word` (lowercase), and only in lowercase.
    pub fn holds(&self, word: &str) -> bool {
        self.0.contains(word)
    }
}

/// Capitalised words a text writes after many different words: common nouns, where a name
/// follows the same one or two (a surname its given name or a title: "Sven Wulf", "Herr
/// Wulf"). German capitalises every noun ("Ihre Metzgerei", "unsere Metzgerei", "der
/// Metzgerei"), so there capitals alone tell a noun from a name no more than in a title.
#[derive(Debug, Default)]
pub struct CommonNouns(HashSet<String>);

/// A capitalised word after this many different words is a common noun.
const COMMON_NOUN_CONTEXTS: usize = 4;

impl CommonNouns {
    pub fn of_texts<'a>(texts: impl IntoIterator<Item = &'a str>) -> Self {
        let mut before: std::collections::HashMap<String, HashSet<String>> =
            std::collections::HashMap::new();
        for text in texts {
            let mut previous: Option<String> = None;
            for token in text.split_whitespace() {
                let word = token.trim_matches(|c: char| !c.is_alphanumeric());
                if word.chars().next().is_some_and(char::is_uppercase) {
                    if let Some(previous) = &previous {
                        before
                            .entry(word.to_lowercase())
                            .or_default()
                            .insert(previous.clone());
                    }
                }
                previous = Some(word.to_lowercase());
            }
        }
        CommonNouns(
            before
                .into_iter()
                .filter(|(_, before)| before.len() >= COMMON_NOUN_CONTEXTS)
                .map(|(word, _)| word)
                .collect(),
        )
    }

    /// Whether `word` (lowercase) is one of them.
    pub fn holds(&self, word: &str) -> bool {
        self.0.contains(word)
    }
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
    fn an_english_name_ends_with_a_noun() {
        let ends_without_noun = |phrase: &str| {
            let words: Vec<String> = phrase.split_whitespace().map(str::to_string).collect();
            ends_without_english_noun(&words)
        };
        for no_name in ["managing it yourself", "refinish", "sanded and sealed"] {
            assert!(ends_without_noun(no_name), "{no_name}");
        }
        for name in [
            "frame repair",
            "deck staining",
            "hillside",
            "tv",
            "walkerswood",
        ] {
            assert!(!ends_without_noun(name), "{name}");
        }
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
            "tested on espresso machines",
            "based in denver",
            "coffee subscription with 20",
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
            "roasted coffee beans",
            "licensed plumber",
            "iphone 15 repair",
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

    fn np_in(code: &str, phrase: &str) -> bool {
        let words: Vec<String> = phrase.split_whitespace().map(str::to_string).collect();
        is_noun_phrase(&words, &Language::new(code))
    }

    #[test]
    fn other_languages_are_read_by_their_closed_classes() {
        for (code, clause) in [
            ("de", "website ist aktuell"),
            ("de", "seit generationen"),
            ("it", "benessere che curiamo"),
            ("fr", "données collectées sont utilisées"),
            ("es", "desde 1966"),
            ("fr", "complétez le look"),
        ] {
            assert!(!np_in(code, clause), "{clause}");
        }
        for (code, phrase) in [
            ("de", "obst und gemüse"),
            ("de", "frisches fleisch vom metzger"),
            ("fr", "conditions d' utilisation"),
            ("fr", "machines d occasion"),
            ("es", "tienda de motos"),
            ("it", "trattamenti per il viso"),
            ("nl", "fietsen van het merk"),
            ("de", "schnell reparieren"),
            ("sv", "som är"),
        ] {
            assert!(np_in(code, phrase), "{phrase}");
        }
    }

    #[test]
    fn german_words_written_only_in_lowercase_are_no_nouns() {
        let site = LowercaseOnly::of_texts([
            "Wir haben Geschichten erzählt. Töpferei mit Geschichten.",
            "Erzählt wird gern",
            "Die Website ist aktuell",
        ]);
        assert!(site.holds("ist"));
        assert!(site.holds("aktuell"));
        assert!(
            site.holds("erzählt"),
            "capitalised only where a sentence starts"
        );
        assert!(!site.holds("geschichten"));
        assert!(!site.holds("töpferei"));
    }

    #[test]
    fn a_missing_inflection_is_read_by_its_lemma() {
        assert!(english_parts("experiencing").can_be_verb());
        assert!(english_parts("installs").only_verb());
        assert!(english_parts("carefully").only_adverb());
        assert!(!english_parts("zorawar").is_known());
    }
}
