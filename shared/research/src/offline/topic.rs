//! What the primary site is about, in words a query can name: its offerings, their head
//! terms, its brand, the places it serves and whether it sells a service or products.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use super::lexicon::Lexicon;
use crate::intent::IntentClassifier;
use crate::personas::{describes, is_direction, primary_pages, SiteProfile};
use crate::text::us_states::{US_STATES, US_STATE_CODES};
use crate::text::{is_numeric_word, Analyzer, Language};
use crate::PageContent;

/// An action in at least this share of the offerings (and [`TRADE_MIN`] of them) is the trade
/// itself: "cleaning" of a cleaning company's "house cleaning", "office cleaning", "carpet
/// cleaning"; not "repair" of a roofer's "roof repair" and "emergency roof repair".
const TRADE_SHARE: f64 = 0.5;
const TRADE_MIN: usize = 3;

/// The least score of an offering whose words are head terms ([`SiteProfile::more_offerings`]).
const NAMED_SCORE: f64 = 2.0;
/// The least score of a one-word offering that is a query of its own: named in a title or a
/// page address ("Skylights"), not two steps of a process list ("Scrub", "Protect").
const ALONE_SCORE: f64 = 3.0;

/// An offering as a query names it.
#[derive(Debug, Clone)]
pub(super) struct Offering {
    /// Lowercase, as the site writes them.
    pub words: Vec<String>,
    pub stems: Vec<String>,
    /// Which words are head terms.
    pub heads: Vec<bool>,
    /// It names a thing ("skylights"), not what is done ("roof repair") nor who does it
    /// ("plumber").
    pub thing: bool,
}

impl Offering {
    pub fn name(&self) -> String {
        self.words.join(" ")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Done for the customer, where the customer is: local trades, agencies, clinics.
    /// `for_homeowners`: a home service that works on things (its titles or headings name what
    /// it does to them: "Skylight Repair"), so a thing it names takes those deeds.
    Service { for_homeowners: bool },
    /// Sold and shipped.
    Product,
}

/// The primary site's topic (see the module docs of [`super`]).
pub struct Topic {
    analyzer: Analyzer,
    cues: IntentClassifier,
    /// Stems of the head terms.
    heads: HashSet<String>,
    /// Stems of the offerings' last words.
    endings: HashSet<String>,
    /// Head terms that name only beside the word they always follow, by stem: "switch" of
    /// "ignition switch repair" and "ignition switch replacement" → "ignition".
    bound: HashMap<String, String>,
    /// The language puts a phrase's noun last, so a query ends with one, not with a word that
    /// only qualifies one ("install architectural" of "architectural shingles").
    head_last: bool,
    english: bool,
    /// Stems of every other word a query about the topic may hold: the offerings' other
    /// words, the qualifiers, the places, the states, the site's name.
    vocabulary: HashSet<String>,
    /// Stems of the words of this site's own offerings and name (the competitors' left out).
    own: HashSet<String>,
    /// Stems of the words that qualify a noun or say where: the lexicon's, the places'.
    qualifying: HashSet<String>,
    /// Words the intent lexicons read as a cue ("cost", "how", "plumber"), by word.
    cue_words: RefCell<HashMap<String, bool>>,
    brand: Option<String>,
    /// The site's whole name, a query of its own even when its first word is no brand.
    name: Vec<String>,
    /// Stems of the one-word offerings, and the site's name when it is one word: the single
    /// words that are queries of their own.
    alone: HashSet<String>,
    pub(super) offerings: Vec<Offering>,
    /// Lowercase, most mentioned first.
    pub(super) places: Vec<String>,
    /// The US state code the site writes after its places ("nj"), if any.
    pub(super) state: Option<&'static str>,
    pub(super) kind: Kind,
    pub(super) lexicon: Option<&'static Lexicon>,
    /// The head terms come from headings named once ([`Topic::of_site`]): as often a selling
    /// point or a person ("Tradition", "Ron Meyer") as an offering, so no ideas are made of them.
    pub(super) from_headings: bool,
}

impl Topic {
    /// `offerings` as [`SiteProfile::more_offerings`] gives them, most prominent first;
    /// `places` as [`SiteProfile::more_places`] does, most mentioned first.
    /// `borrowed`: the competitors' offerings, whose words may qualify this site's head terms
    /// ("best coffee for moka pot" of a roaster whose competitor sells moka pots).
    fn new(
        offerings: &[(String, f64)],
        places: &[String],
        borrowed: &[String],
        profile: &SiteProfile,
        pages: &[PageContent],
        language: &Language,
    ) -> Self {
        let analyzer = Analyzer::new(language);
        let lexicon = Lexicon::for_language(language);
        let cues = IntentClassifier::new(language, &[]);
        // By stem too: "homes" qualifies as "home" does.
        let qualifier_stems: HashSet<String> = lexicon
            .into_iter()
            .flat_map(|l| l.actions.iter().chain(l.qualifiers))
            .map(|w| analyzer.stem(w).into_owned())
            .collect();
        let qualifies = |word: &str| {
            lexicon.is_some_and(|l| l.qualifies(word))
                || qualifier_stems.contains(analyzer.stem(word).as_ref())
                || {
                    let found = cues.cues(word);
                    found.transactional || found.commercial || found.navigational || found.provider
                }
        };
        // Head terms come from the offerings a site names in a title, its structured data, a
        // page address or on several pages; a heading once ("Heritage Properties", "Working
        // Safely") is as often a selling point. Its words may still stand in a query.
        let (named, mentioned): (Vec<_>, Vec<_>) = offerings
            .iter()
            .partition(|(_, score)| *score >= NAMED_SCORE);
        let split: Vec<Vec<String>> = named
            .iter()
            .map(|(name, _)| analyzer.tokenizer().words(name))
            .filter(|words| !words.is_empty())
            .collect();
        let mentioned_words: Vec<String> = mentioned
            .iter()
            .flat_map(|(name, _)| analyzer.tokenizer().words(name))
            .collect();
        let mut shared: HashMap<&str, usize> = HashMap::new();
        for words in &split {
            let distinct: HashSet<&str> = words.iter().map(String::as_str).collect();
            for word in distinct {
                *shared.entry(word).or_default() += 1;
            }
        }
        // Only an action is a trade ("cleaning"): "home" in most of a painter's offerings is
        // still where, not what.
        let trade = |word: &str| {
            let count = shared.get(word).copied().unwrap_or(0);
            count >= TRADE_MIN
                && count as f64 >= TRADE_SHARE * split.len() as f64
                && lexicon.is_some_and(|l| l.is_action(word) && !l.generic_actions.contains(&word))
        };
        let english = language.code() == "en";
        // A place or a state is where, never what ("nj roofers").
        let place_words: HashSet<String> = places
            .iter()
            .flat_map(|p| analyzer.tokenizer().words(p))
            .chain(
                english
                    .then(|| US_STATE_CODES.iter().chain(US_STATES))
                    .into_iter()
                    .flatten()
                    .flat_map(|s| s.split(' '))
                    .map(str::to_string),
            )
            .collect();
        // Says where or how, never what: no head term, and no word a head term is bound to.
        let says_no_what = |word: &str| {
            analyzer.is_stop_word(word)
                || is_numeric_word(word)
                || place_words.contains(word)
                || (english && (describes(word) || is_direction(word)))
        };
        // "FlowMaster Plumbing", "CCR Locksmith": a provider word after the brand is the
        // trade the name states, though "plumbing" only qualifies another site's offering
        // ("plumbing repair" of a handyman). Never an action every trade performs
        // ("Columbus Garage Door Service").
        let name_words = profile
            .name
            .as_deref()
            .map(|name| analyzer.tokenizer().words(name))
            .unwrap_or_default();
        let named_trade = |word: &str| {
            name_words.iter().skip(1).any(|w| w == word)
                && cues.cues(word).provider
                && !lexicon.is_some_and(|l| l.qualifies(word))
        };
        let is_head = |word: &str| {
            let never = word.chars().count() <= 1 || says_no_what(word);
            !never && (!qualifies(word) || trade(word) || named_trade(word))
        };
        let offerings: Vec<Offering> = split
            .iter()
            .map(|words| Offering {
                stems: words
                    .iter()
                    .map(|w| analyzer.stem(w).into_owned())
                    .collect(),
                heads: {
                    // Who it is for is no what: "carpetas para inmobiliarias" names folders,
                    // and a query naming estate agents alone is about them. A name whose
                    // what is all audience ("Unterricht für Kinder") keeps its heads.
                    let heads: Vec<bool> = words.iter().map(|w| is_head(w)).collect();
                    let audience = words
                        .iter()
                        .position(|w| language.audience_preposition() == Some(w.as_str()))
                        .filter(|&at| heads[..at].contains(&true))
                        .unwrap_or(words.len());
                    heads
                        .iter()
                        .enumerate()
                        .map(|(at, &head)| head && at < audience)
                        .collect()
                },
                thing: !words
                    .iter()
                    .any(|w| lexicon.is_some_and(|l| l.names_action(w)) || cues.cues(w).provider),
                words: words.clone(),
            })
            .filter(|o| o.heads.contains(&true) && names_something(o, language))
            .collect();
        // The words that end an offering (its head noun in English): a query may end there.
        let endings = offerings
            .iter()
            .filter_map(|o| o.stems.last().cloned())
            .collect();
        let bound = if language.head_is_first() {
            HashMap::new()
        } else {
            bound_heads(&offerings, |word| !says_no_what(word))
        };
        let heads = offerings
            .iter()
            .flat_map(|o| o.stems.iter().zip(&o.heads))
            .filter(|(_, &head)| head)
            .map(|(stem, _)| stem.clone())
            .collect();
        let name_is_one_word = name_words.len() == 1;
        // "Metzgerei Hinderer": a name that opens with the site's trade has its brand after.
        let trade_words = split
            .iter()
            .filter(|words| name_words.starts_with(words))
            .map(Vec::len)
            .max()
            .unwrap_or(0);
        // "Secure Florida Movers": a describing word names no brand ("secure quote"), nor
        // does a place ("Columbus Garage Door Service": "columbus ohio" is no brand query).
        let brand = name_words
            .get(trade_words)
            .filter(|word| {
                let never = word.chars().count() <= 2
                    || qualifies(word)
                    || (english && describes(word))
                    || place_words.contains(word.as_str());
                !never
            })
            .cloned();
        let places_lowercase: Vec<String> = places.iter().map(|p| p.to_lowercase()).collect();
        let lexicon_words = lexicon
            .into_iter()
            .flat_map(|l| l.actions.iter().chain(l.qualifiers))
            .map(|w| w.to_string());
        let stems = |words: &mut dyn Iterator<Item = String>| -> HashSet<String> {
            words.map(|w| analyzer.stem(&w).into_owned()).collect()
        };
        let own = stems(
            &mut offerings
                .iter()
                .flat_map(|o| o.words.iter().cloned())
                .chain(mentioned_words)
                .chain(name_words.iter().cloned()),
        );
        let qualifying = stems(&mut lexicon_words.chain(place_words));
        let borrowed_words =
            stems(&mut borrowed.iter().flat_map(|o| analyzer.tokenizer().words(o)));
        let vocabulary = own
            .iter()
            .chain(&qualifying)
            .chain(&borrowed_words)
            .cloned()
            .collect();
        let is_service = profile.is_local()
            || profile.homeowners
            || offerings.iter().filter(|o| !o.thing).count() * 2 >= offerings.len();
        let works_on_things = profile.homeowners
            && lexicon.is_some_and(|l| names_deeds_on_things(l, pages, &analyzer));
        let state = english.then(|| state_code(pages, places)).flatten();
        let titled: HashSet<&str> = named
            .iter()
            .filter(|(_, score)| *score >= ALONE_SCORE)
            .map(|(name, _)| name.as_str())
            .collect();
        let alone = offerings
            .iter()
            .filter(|o| o.words.len() == 1 && titled.contains(o.words[0].as_str()))
            .map(|o| o.stems[0].clone())
            .chain(brand.clone().filter(|_| name_is_one_word))
            .collect();
        Topic {
            analyzer,
            cues,
            heads,
            endings,
            bound,
            head_last: !language.head_is_first(),
            english,
            vocabulary,
            own,
            qualifying,
            cue_words: RefCell::new(HashMap::new()),
            brand,
            name: name_words,
            alone,
            offerings,
            places: places_lowercase,
            state,
            kind: if is_service {
                Kind::Service {
                    for_homeowners: works_on_things,
                }
            } else {
                Kind::Product
            },
            lexicon,
            from_headings: false,
        }
    }

    /// The topic of the site's offerings, as [`SiteProfile::more_offerings`] scores them, or,
    /// when no offering it names in a title, its structured data, a page address or on two
    /// pages gives a head term (a café's one home page of headings), of every offering it
    /// names: head terms from headings beat none, which would keep every phrase of the crawl.
    pub fn of_site(
        offerings: &[(String, f64)],
        places: &[String],
        borrowed: &[String],
        profile: &SiteProfile,
        pages: &[PageContent],
        language: &Language,
    ) -> Self {
        let topic = Topic::new(offerings, places, borrowed, profile, pages, language);
        if !topic.is_empty() {
            return topic;
        }
        let headed: Vec<(String, f64)> = offerings
            .iter()
            .map(|(name, score)| (name.clone(), score.max(NAMED_SCORE)))
            .collect();
        Topic {
            from_headings: true,
            ..Topic::new(&headed, places, borrowed, profile, pages, language)
        }
    }

    /// No offering names anything: nothing to judge phrases by.
    pub fn is_empty(&self) -> bool {
        self.heads.is_empty()
    }

    /// The keyword is a query about the site's topic: it names one of the site's head terms
    /// or its brand, and every other word is one a query about it holds (a word of an
    /// offering, a qualifier, a place, a cue, a stop word or a number), no page copy.
    pub fn names(&self, keyword: &str) -> bool {
        self.names_words(&self.analyzer.tokenizer().words(keyword))
    }

    /// [`Topic::names`], and more than one word or a word that is a query of its own (a whole
    /// offering, the site's one-word name): what a crawl phrase must be to be kept as it is.
    pub fn keeps(&self, keyword: &str) -> bool {
        let words = self.analyzer.tokenizer().words(keyword);
        self.names_words(&words) && self.stands_alone(&words)
    }

    fn names_words(&self, words: &[String]) -> bool {
        if !self.name.is_empty() && words == self.name.as_slice() {
            return true;
        }
        // "restaurants restaurants": two elements' text run together.
        if words.windows(2).any(|pair| pair[0] == pair[1]) {
            return false;
        }
        if self.head_last {
            let last = words.last().map(|w| self.analyzer.stem(w).into_owned());
            if let Some(last) = last {
                // "mobile trusted": an English query does not end describing, unless with
                // the end of an offering ("deep clean" of a cleaning company's "cleaning").
                let dangling = ["vs", "versus", "or"].contains(&last.as_str())
                    || (self.heads.contains(&last) && !self.endings.contains(&last))
                    || (self.english
                        && words.len() > 1
                        && !self.endings.contains(&last)
                        && words.last().is_some_and(|w| describes(w)));
                if dangling {
                    return false;
                }
            }
        }
        let stems: Vec<String> = words
            .iter()
            .map(|w| self.analyzer.stem(w).into_owned())
            .collect();
        let mut named = false;
        for (word, stem) in words.iter().zip(&stems) {
            let head = self.heads.contains(stem);
            let partnered = self
                .bound
                .get(stem)
                .is_none_or(|partner| stems.contains(partner));
            // "detailed" shares its stem with "details", but describes, never names.
            if (head && partnered && !(self.english && describes(word)))
                || self.brand.as_deref() == Some(word.as_str())
            {
                named = true;
            } else if !(head
                || self.vocabulary.contains(stem)
                || self.analyzer.is_stop_word(word)
                || is_numeric_word(word)
                || self.is_cue(word))
            {
                return false;
            }
        }
        named
    }

    /// A phrase found only on a competitor's pages fits this site when the word it is about
    /// (its last before a preposition, past qualifiers, places, cues, stop words and numbers,
    /// in a language that puts the noun last) is a word of this site's own offerings or name:
    /// "door glass" of an auto-glass competitor does not fit a remodeler that installs doors;
    /// "best coffee for moka pot" fits a roaster whose competitor sells moka pots.
    pub fn fits_competitor_phrase(&self, keyword: &str) -> bool {
        if !self.head_last {
            return true;
        }
        let mut words = self.analyzer.tokenizer().words(keyword);
        // The noun a query is about comes before what qualifies it: "best coffee for moka
        // pot" of a roaster is about coffee.
        if let Some(at) = words
            .iter()
            .position(|w| QUALIFYING_PREPOSITIONS.contains(&w.as_str()))
        {
            words.truncate(at);
        }
        let noun = words.iter().rev().find_map(|word| {
            let stem = self.analyzer.stem(word).into_owned();
            let qualifies = self.analyzer.is_stop_word(word)
                || is_numeric_word(word)
                || self.qualifying.contains(&stem)
                || self.is_cue(word);
            (!qualifies).then_some(stem)
        });
        noun.is_none_or(|stem| self.own.contains(&stem))
    }

    /// The keyword reads as a noun phrase or a question in the site's language
    /// ([`crate::text::is_noun_phrase`]).
    pub fn is_noun_phrase(&self, keyword: &str) -> bool {
        let words = self.analyzer.tokenizer().words(keyword);
        crate::text::is_noun_phrase_naming(&words, self.analyzer.language(), |word| {
            self.brand.as_deref() == Some(word)
                || self.name.iter().any(|w| w == word)
                || self
                    .places
                    .iter()
                    .any(|place| place.split_whitespace().any(|w| w == word))
        })
    }

    /// More than one word, or a word that is a query of its own (a whole offering, the site's
    /// one-word name).
    fn stands_alone(&self, words: &[String]) -> bool {
        match words {
            [word] => self.alone.contains(self.analyzer.stem(word).as_ref()),
            _ => true,
        }
    }

    fn is_cue(&self, word: &str) -> bool {
        if let Some(&known) = self.cue_words.borrow().get(word) {
            return known;
        }
        let cues = self.cues.cues(word);
        let cue = cues.transactional
            || cues.commercial
            || cues.navigational
            || cues.informational
            || cues.provider;
        self.cue_words.borrow_mut().insert(word.to_string(), cue);
        cue
    }

    pub(super) fn analyzer(&self) -> &Analyzer {
        &self.analyzer
    }
}

/// The head terms that follow one and the same word in every offering they are in
/// ([`Topic::bound`]); one that starts an offering, follows a describing word ("emergency roof
/// repair") or follows two ("funeral flowers", "wedding flowers") is free.
fn bound_heads(offerings: &[Offering], modifies: impl Fn(&str) -> bool) -> HashMap<String, String> {
    let mut before: HashMap<&str, HashSet<Option<&str>>> = HashMap::new();
    for offering in offerings {
        for (at, stem) in offering.stems.iter().enumerate() {
            if !offering.heads[at] {
                continue;
            }
            let previous = at
                .checked_sub(1)
                .filter(|&p| modifies(&offering.words[p]))
                .map(|p| offering.stems[p].as_str());
            before.entry(stem.as_str()).or_default().insert(previous);
        }
    }
    before
        .into_iter()
        .filter(|(_, previous)| previous.len() == 1)
        .filter_map(|(stem, previous)| {
            let partner = previous.into_iter().next().flatten()?;
            Some((stem.to_string(), partner.to_string()))
        })
        .collect()
}

/// English words after which a query qualifies its noun ("coffee for moka pot").
const QUALIFYING_PREPOSITIONS: &[&str] = &[
    "for", "with", "without", "in", "near", "at", "to", "from", "by", "of", "vs", "versus",
];

/// Where a trade is done, after what it sells: "flower shop", "hair salon".
const PLACES_OF_BUSINESS: &[&str] = &[
    "shop", "shops", "store", "stores", "boutique", "studio", "salon", "clinic", "centre", "center",
];

/// The longest block of a page's text read as a name ("AC Repairs" in a list of services).
const NAME_BLOCK_WORDS: usize = 5;

/// A name on the primary site (a title, heading or link text, or a block of text as short as
/// a name: a list's "AC Repairs") holds a deed of the lexicon's ideas for things ("Gutter
/// Repairs", "Water Heater Installation"). "Residential" once in a vet's or an accountant's
/// text makes no home service whose "dogs" or "tax adviser" take "repair".
fn names_deeds_on_things(lexicon: &Lexicon, pages: &[PageContent], analyzer: &Analyzer) -> bool {
    let tokenizer = analyzer.tokenizer();
    // By the word's start, not its stem: "repairs" is a deed, an accountant's "instalments"
    // (stem "instal", as "installation") is not.
    let deeds: Vec<String> = lexicon
        .home_service_object
        .iter()
        .flat_map(|pattern| tokenizer.words(&pattern.replace("{}", " ")))
        .collect();
    let names_deed = |words: Vec<String>| {
        words
            .iter()
            .any(|word| deeds.iter().any(|deed| word.starts_with(deed.as_str())))
    };
    primary_pages(pages).iter().any(|page| {
        let names = std::iter::once(&page.title)
            .chain(&page.headings)
            .chain(&page.anchors)
            .map(|text| tokenizer.words(text));
        let short_blocks = page
            .body_text
            .lines()
            .map(|block| tokenizer.words(block))
            .filter(|words| words.len() <= NAME_BLOCK_WORDS);
        names.chain(short_blocks).any(names_deed)
    })
}

/// The offering's head noun (its last word before whom it is for, or its first in languages
/// that put it first) is a head term, a service or a provider, or the place of business of a
/// head term ("flower shop"): "transparent pricing" and "court-ordered sale" describe how the
/// site works, they are not what it offers.
fn names_something(offering: &Offering, language: &Language) -> bool {
    let audience = offering
        .words
        .iter()
        .skip(1)
        .position(|w| language.audience_preposition() == Some(w.as_str()));
    let noun = match audience {
        _ if language.head_is_first() => 0,
        Some(before) => before,
        None => offering.words.len() - 1,
    };
    let business = offering.words.len() > 1
        && PLACES_OF_BUSINESS.contains(&offering.words[noun].as_str())
        && offering.heads.contains(&true);
    offering.heads[noun] || !offering.thing || business
}

/// The state most often written right after one of the site's places ("Irvington, NJ",
/// "Montclair New Jersey"), as its postal code. Codes count in capitals only: "Newark in
/// spring" is no Indiana.
fn state_code(pages: &[PageContent], places: &[String]) -> Option<&'static str> {
    let mut counts = [0usize; US_STATE_CODES.len()];
    for page in primary_pages(pages) {
        for text in [&page.title, &page.meta_description, &page.body_text]
            .into_iter()
            .chain(&page.headings)
        {
            for place in places {
                for (at, _) in text.match_indices(place.as_str()) {
                    let after = text[at + place.len()..].trim_start_matches([',', ' ']);
                    if let Some(state) = state_at(after) {
                        counts[state] += 1;
                    }
                }
            }
        }
    }
    let (best, count) = counts
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)))?;
    (*count > 0).then_some(US_STATE_CODES[best])
}

/// The index of the state `text` starts with, by capitalised code or by name, as a word.
fn state_at(text: &str) -> Option<usize> {
    let ends_word = |len: usize| {
        !text
            .get(len..)
            .and_then(|rest| rest.chars().next())
            .is_some_and(char::is_alphanumeric)
    };
    let code = text
        .get(..2)
        .filter(|c| c.chars().all(|c| c.is_ascii_uppercase()) && ends_word(2));
    if let Some(code) = code {
        let code = code.to_ascii_lowercase();
        return US_STATE_CODES.iter().position(|c| *c == code);
    }
    US_STATES.iter().position(|name| {
        text.get(..name.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(name) && ends_word(name.len()))
    })
}
