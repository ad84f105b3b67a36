//! Search-intent cue words per language. Multi-word cues match as a sequence; single words
//! also match with a plural "s"/"es".

mod de;
mod en;
mod es;
mod fr;
mod it;
mod nl;
mod pt;

use crate::text::Language;

pub(crate) struct Lexicon {
    /// First words of a question ("how", "what", "can"); they count only at the start.
    pub questions: &'static [&'static str],
    /// Looking to learn: "how to", "meaning", "examples", "recipe".
    pub informational: &'static [&'static str],
    /// Ready to act: buy, book, hire, find a price.
    pub transactional: &'static [&'static str],
    /// Weighing options before acting.
    pub commercial: &'static [&'static str],
    /// Things people buy ("perfume", "laptop", "insurance"): a query naming one and nothing
    /// else is shopping, mildly.
    pub products: &'static [&'static str],
    /// Who sells a service: "company", "agency", "plumber", "repair". With a place they make a
    /// local service query.
    pub providers: &'static [&'static str],
    /// Who makes or sells goods: "manufacturer", "supplier", "dealer". Providers too, but one
    /// asks for them to compare sources, while a service is often simply to be hired.
    pub suppliers: &'static [&'static str],
    /// Looking for a particular site or its service pages.
    pub navigational: &'static [&'static str],
    /// Parts of a site ("app", "account", "store"): navigational next to a brand only, since
    /// "mobile banking app" looks for any app.
    pub site_features: &'static [&'static str],
    /// Words that end a company's name ("mia solutions", "rdi corporation", "kroll logo"):
    /// navigational as the last of two or three words.
    pub company_suffixes: &'static [&'static str],
}

/// The lexicon of a language; English for languages without one (its cues, such as "vs",
/// "login" or "shop", are common in other languages' queries too).
pub(crate) fn lexicon(language: &Language) -> &'static Lexicon {
    match language.code() {
        "de" => &de::LEXICON,
        "fr" => &fr::LEXICON,
        "es" => &es::LEXICON,
        "it" => &it::LEXICON,
        "pt" => &pt::LEXICON,
        "nl" => &nl::LEXICON,
        _ => &en::LEXICON,
    }
}
