//! Modifier words that reveal who is searching, per language (English for the rest).

mod de;
mod en;
mod es;
mod fr;
mod it;
mod nl;
mod pt;

use crate::text::Language;

pub(crate) struct PersonaCues {
    /// Searching for something close by.
    pub local: &'static [&'static str],
    /// Price-sensitive.
    pub budget: &'static [&'static str],
    /// Buying for an organisation.
    pub business: &'static [&'static str],
    /// New to the subject.
    pub beginner: &'static [&'static str],
    /// Weighing options against each other.
    pub compare: &'static [&'static str],
    /// Learning: questions, guides, explanations.
    pub learn: &'static [&'static str],
    /// Ready to buy, book or hire.
    pub buy: &'static [&'static str],
}

pub(crate) fn persona_cues(language: &Language) -> &'static PersonaCues {
    match language.code() {
        "de" => &de::GERMAN,
        "fr" => &fr::FRENCH,
        "es" => &es::SPANISH,
        "it" => &it::ITALIAN,
        "pt" => &pt::PORTUGUESE,
        "nl" => &nl::DUTCH,
        _ => &en::ENGLISH,
    }
}

/// A word of any cue ("best", "beginners", "near"): a searcher's modifier, never a topic.
pub(crate) fn is_cue_word(language: &Language, word: &str) -> bool {
    let cues = persona_cues(language);
    [
        cues.local,
        cues.budget,
        cues.business,
        cues.beginner,
        cues.compare,
        cues.learn,
        cues.buy,
    ]
    .iter()
    .flat_map(|list| list.iter())
    .any(|cue| cue.split(' ').any(|w| w == word))
}
