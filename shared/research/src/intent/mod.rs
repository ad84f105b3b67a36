//! Search intent of a keyword, by weighted cues in the keyword's language.
//!
//! Every intent gets a score from the cues the keyword carries, and the highest wins:
//!
//! | cue | intent | weight |
//! |---|---|---|
//! | none (the prior) | informational | 1.0 |
//! | starts as a question ("how", "what", "can", "is") | informational | +2.5 |
//! | learning words ("how to", "meaning", "examples", "recipe", "tips") | informational | +2.2 |
//! | one of the job's brands or domains, or any domain ("nykaa.com") or address typed ("www", "https") | navigational | +3.5 |
//! | a site cue ("login", "sign in", "official site", "customer service"), or a part of a site ("app", "account", "store") next to a brand in no question | navigational | +3.0 |
//! | a company's name: two or three words ending in "solutions", "inc", "group", "logo"… | navigational | +2.2 |
//! | a platform ("youtube", "reddit", "cnn"), or a well-known company or app ("paypal", "canva") with at most one other word; either in no question and without a weighing cue | navigational | +2.2 |
//! | an act ("buy", "price", "coupon", "for sale", "near me", "book", "download") | transactional | +2.5 |
//! | weighing options ("best", "vs", "review", "alternatives", "worth it") | commercial | +2.0 each, two at most |
//! | a provider ("company", "agency", "plumber", "roofing", "repair") | commercial | +2.0 |
//! | without a provider, a product ("perfume", "laptop", "insurance", "software"), or at its end one of the job's offerings or their head noun ("monthly coffee subscription"), alone or before a place ("concrete cleaning fairfield") | commercial | +1.3 |
//! | a place ("newark", "nj", "texas", or one of the job's places) next to a provider, in no question and without a learning word | commercial | +1.5 |
//!
//! So a question stays informational even when it names a price ("how much does a roof
//! cost"), a local service query ("roof repair newark nj", "newark roofing") is commercial
//! and one near the searcher ("plumber near me") transactional, a brand with a site cue is
//! navigational, and a brand with an act ("doordash promo code") transactional. A well-known
//! site among more words is a topic, not a destination ("chatgpt prompts for marketing",
//! "vanguard vs fidelity"). Words that name a brand are not read again as cues ("best buy
//! laptop" has no "best").
//!
//! [`IntentScores`] are the weights as shares of their sum. An intent whose share is at
//! least [`SECONDARY_SHARE`] of the winner's is a *secondary* intent ("best web hosting
//! price": transactional, then commercial).
//!
//! Cues match whole words in order, also with a plural "s"/"es"; German and Dutch compounds
//! also match when a word ends with a cue of five letters or more ("Preisvergleich").
//!
//! When the keyword's results page is known, [`IntentClassifier::scores_on`] adds its votes
//! (`intent/serp.rs`: the top results' page types, a named site's front page, shopping and local
//! packs) to the same weights.

mod cue_set;
mod lexicon;
pub(crate) mod places;
mod serp;
mod site_name;
mod sites;

use crate::text::{Language, Tokenizer};
use cue_set::CueSet;
use lexicon::lexicon;

pub use kr_core::dataset::Intent;
pub use serp::{NichePages, ResultsPage};

const PRIOR: f64 = 1.0;
const QUESTION: f64 = 2.5;
const LEARNING: f64 = 2.2;
const OWN_BRAND: f64 = 3.5;
const SITE_CUE: f64 = 3.0;
const KNOWN_SITE: f64 = 2.2;
const ACT: f64 = 2.5;
const WEIGHING: f64 = 2.0;
const MAX_WEIGHING_CUES: usize = 2;
const PROVIDER: f64 = 2.0;
const PLACE: f64 = 1.5;
const PRODUCT: f64 = 1.3;
/// Words beside a well-known brand's name for the query to still look for its site.
const MAX_WORDS_BESIDE_BRAND: usize = 1;
/// Longest query read as a company's name by its last word.
const MAX_COMPANY_NAME_WORDS: usize = 3;

/// Share of the winner's score from which another intent is reported as secondary.
pub const SECONDARY_SHARE: f64 = 0.75;

/// Which kinds of cue a keyword carries; several can hold at once ("best price").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cues {
    /// One of the job's brands or domains, or any domain.
    pub brand: bool,
    /// A well-known site or app.
    pub known_site: bool,
    pub navigational: bool,
    pub transactional: bool,
    /// Modifiers of weighing ("best", "vs", "review").
    pub commercial: bool,
    /// A provider of a service or goods ("plumber", "manufacturer").
    pub provider: bool,
    /// A maker or seller of goods ("manufacturer", "supplier").
    pub supplier: bool,
    pub product: bool,
    pub place: bool,
    pub question: bool,
    pub informational: bool,
}

/// Each intent's summed cue weight, before they become shares.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct CueWeights {
    informational: f64,
    commercial: f64,
    transactional: f64,
    navigational: f64,
}

impl CueWeights {
    fn from_cues(cues: &Cues, weighing_cues: usize) -> Self {
        let informational = PRIOR
            + if cues.question { QUESTION } else { 0.0 }
            + if cues.informational { LEARNING } else { 0.0 };
        let navigational = if cues.brand { OWN_BRAND } else { 0.0 }
            + if cues.navigational { SITE_CUE } else { 0.0 }
            + if cues.known_site && weighing_cues == 0 {
                KNOWN_SITE
            } else {
                0.0
            };
        let transactional = if cues.transactional { ACT } else { 0.0 };
        let commercial = WEIGHING * weighing_cues.min(MAX_WEIGHING_CUES) as f64
            + Self::provider(cues)
            // A provider of a product is one thing being sought, not two cues.
            + if !cues.provider && cues.product {
                PRODUCT
            } else {
                0.0
            };
        CueWeights {
            informational,
            commercial,
            transactional,
            navigational,
        }
    }

    /// The weight of asking for a provider ("roofing", "plumber"), more for a local one
    /// ("newark roofing"): commercial by the words alone, while a results page can show the
    /// searcher means to hire (see `serp.rs`).
    fn provider(cues: &Cues) -> f64 {
        let local = cues.place && cues.provider && !cues.informational && !cues.question;
        let provider = if cues.provider { PROVIDER } else { 0.0 };
        provider + if local { PLACE } else { 0.0 }
    }

    fn add(&mut self, intent: Intent, weight: f64) {
        match intent {
            Intent::Informational => self.informational += weight,
            Intent::Commercial => self.commercial += weight,
            Intent::Transactional => self.transactional += weight,
            Intent::Navigational => self.navigational += weight,
        }
    }
}

/// Each intent's share of the cue weights (they sum to 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IntentScores {
    pub informational: f64,
    pub commercial: f64,
    pub transactional: f64,
    pub navigational: f64,
}

impl IntentScores {
    fn from_cues(cues: &Cues, weighing_cues: usize) -> Self {
        Self::from_weights(&CueWeights::from_cues(cues, weighing_cues))
    }

    fn from_weights(weights: &CueWeights) -> Self {
        let total = weights.informational
            + weights.commercial
            + weights.transactional
            + weights.navigational;
        IntentScores {
            informational: weights.informational / total,
            commercial: weights.commercial / total,
            transactional: weights.transactional / total,
            navigational: weights.navigational / total,
        }
    }

    pub fn get(&self, intent: Intent) -> f64 {
        match intent {
            Intent::Informational => self.informational,
            Intent::Commercial => self.commercial,
            Intent::Transactional => self.transactional,
            Intent::Navigational => self.navigational,
        }
    }

    /// The highest share; on a tie the more specific intent (navigational, transactional,
    /// commercial, informational), being the one a cue asked for.
    pub fn primary(&self) -> Intent {
        [
            Intent::Navigational,
            Intent::Transactional,
            Intent::Commercial,
            Intent::Informational,
        ]
        .into_iter()
        .fold(Intent::Navigational, |best, intent| {
            if self.get(intent) > self.get(best) {
                intent
            } else {
                best
            }
        })
    }

    /// Other intents within [`SECONDARY_SHARE`] of the primary one, highest first.
    pub fn secondary(&self) -> Vec<Intent> {
        let primary = self.primary();
        let floor = self.get(primary) * SECONDARY_SHARE;
        let mut others: Vec<Intent> = Intent::ALL
            .into_iter()
            .filter(|intent| *intent != primary && self.get(*intent) >= floor)
            .collect();
        others.sort_by(|a, b| self.get(*b).total_cmp(&self.get(*a)));
        others
    }
}

/// Classifies many keywords of one job: the lexicon and brand terms are prepared once.
#[derive(Debug, Clone)]
pub struct IntentClassifier {
    tokenizer: Tokenizer,
    /// Tokenized cues, per kind.
    questions: Vec<Vec<String>>,
    informational: CueSet,
    transactional: CueSet,
    commercial: CueSet,
    providers: CueSet,
    suppliers: CueSet,
    products: CueSet,
    /// The job's own offerings and their head nouns; they count as products at a keyword's end.
    offerings: Vec<Vec<String>>,
    niche: NichePages,
    navigational: CueSet,
    site_features: CueSet,
    company_suffixes: Vec<String>,
    places: CueSet,
    platforms: Vec<Vec<String>>,
    known_brands: Vec<Vec<String>>,
    brands: Vec<Vec<String>>,
}

/// Shortest cue that may end a compound word.
const MIN_COMPOUND_CUE: usize = 5;

impl IntentClassifier {
    /// `brand_terms`: brand and domain names of the job's sites, e.g. "acme", "acme.com" or
    /// "Acme Tools". A domain also yields its name without "www." and the suffix.
    pub fn new(language: &Language, brand_terms: &[String]) -> Self {
        let tokenizer = Tokenizer::new(language);
        let lexicon = lexicon(language);
        let tokenize = |cues: &[&str]| -> Vec<Vec<String>> {
            cues.iter()
                .map(|cue| tokenizer.words(cue))
                .filter(|words| !words.is_empty())
                .collect()
        };
        let mut brands: Vec<Vec<String>> = Vec::new();
        for term in brand_terms {
            let words = tokenizer.words(term);
            if let [single] = words.as_slice() {
                if let Some(name) = domain_name(single) {
                    brands.push(vec![name]);
                }
            }
            // One-letter "brands" would match nearly everything.
            if words.concat().chars().count() > 1 {
                brands.push(words);
            }
        }
        brands.sort();
        brands.dedup();
        let compounds = matches!(language.code(), "de" | "nl");
        let cue_set = |cues: &[&str]| CueSet::new(tokenize(cues), compounds);
        IntentClassifier {
            questions: tokenize(lexicon.questions),
            informational: cue_set(lexicon.informational),
            transactional: cue_set(lexicon.transactional),
            commercial: cue_set(lexicon.commercial),
            providers: cue_set(lexicon.providers),
            suppliers: cue_set(lexicon.suppliers),
            products: cue_set(lexicon.products),
            offerings: Vec::new(),
            niche: NichePages::default(),
            navigational: cue_set(lexicon.navigational),
            site_features: cue_set(lexicon.site_features),
            company_suffixes: lexicon
                .company_suffixes
                .iter()
                .map(|s| s.to_string())
                .collect(),
            places: CueSet::new(
                places::all().map(|place| tokenizer.words(place)).collect(),
                false,
            ),
            platforms: tokenize(sites::PLATFORMS),
            known_brands: tokenize(sites::BRANDS),
            brands,
            tokenizer,
        }
    }

    /// Adds the places a job's site serves ("montclair", "essex county") to the ones that
    /// make a service query local.
    pub fn with_places(mut self, places: &[String]) -> Self {
        for place in places {
            self.places.insert(self.tokenizer.words(place), false);
        }
        self
    }

    /// Adds what a job's site sells ("coffee subscriptions", "roof repair") to the products:
    /// a keyword naming one, or ending in the same head noun ("monthly coffee subscription"),
    /// is shopping for it.
    pub fn with_offerings(mut self, offerings: &[String]) -> Self {
        for offering in offerings {
            let words = self.tokenizer.words(offering);
            let head = words.last().cloned();
            for phrase in [Some(words), head.map(|h| vec![h])].into_iter().flatten() {
                if !phrase.is_empty() && !self.offerings.contains(&phrase) {
                    self.offerings.push(phrase);
                }
            }
        }
        self
    }

    /// How the job's results pages read (see [`NichePages`]), for pages of no telling address.
    pub fn with_niche(mut self, niche: NichePages) -> Self {
        self.niche = niche;
        self
    }

    pub fn cues(&self, keyword: &str) -> Cues {
        self.read(keyword).0
    }

    pub fn scores(&self, keyword: &str) -> IntentScores {
        let (cues, weighing_cues) = self.read(keyword);
        IntentScores::from_cues(&cues, weighing_cues)
    }

    pub fn classify(&self, keyword: &str) -> Intent {
        self.scores(keyword).primary()
    }

    /// The shares when the keyword's results page is known too: its cue weights plus the
    /// votes of the page (`intent/serp.rs`).
    pub fn scores_on(&self, keyword: &str, page: &ResultsPage) -> IntentScores {
        let (cues, weighing_cues) = self.read(keyword);
        let mut weights = CueWeights::from_cues(&cues, weighing_cues);
        serp::vote(
            &self.tokenizer.words(keyword),
            &cues,
            page,
            &self.niche,
            &mut weights,
        );
        IntentScores::from_weights(&weights)
    }

    /// The cues of a keyword and how many distinct weighing cues it has.
    fn read(&self, keyword: &str) -> (Cues, usize) {
        let mut words = self.tokenizer.words(keyword);
        let brand = self.brands.iter().any(|b| names_brand(&words, b))
            || words.iter().any(|word| is_address(word));
        // Brand words are names, not cues: "best buy" neither weighs nor buys.
        let platform = mask_sequences(&mut words, &self.platforms);
        let known_brand = mask_sequences(&mut words, &self.known_brands);
        mask_sequences(&mut words, &self.brands);
        let other_words = words.iter().filter(|w| !w.is_empty()).count();
        let company_name = (2..=MAX_COMPANY_NAME_WORDS).contains(&words.len())
            && words
                .last()
                .is_some_and(|last| self.company_suffixes.contains(last));
        let question = self
            .questions
            .iter()
            .any(|cue| words.len() > cue.len() && words.starts_with(cue));
        // A question about a site ("does elon musk have a tiktok account") wants an answer,
        // not the site.
        let known_site = !question
            && (company_name || platform || (known_brand && other_words <= MAX_WORDS_BESIDE_BRAND));
        let site_feature =
            !question && (brand || platform || known_brand) && self.site_features.matches(&words);
        let weighing_cues = self.commercial.count(&words);
        let supplier = self.suppliers.matches(&words);
        let cues = Cues {
            brand,
            known_site,
            navigational: site_feature || self.navigational.matches(&words),
            transactional: self.transactional.matches(&words),
            commercial: weighing_cues > 0,
            provider: supplier || self.providers.matches(&words),
            supplier,
            product: self.products.matches(&words)
                || self.ends_with_offering(&words)
                || self.offering_before_place(&words),
            place: self.places.matches(&words),
            question,
            informational: self.informational.matches(&words),
        };
        (cues, weighing_cues)
    }

    /// One of the job's offerings followed by a place ("concrete cleaning fairfield",
    /// "roof repair irvington nj"): a local buying query, no question.
    fn offering_before_place(&self, words: &[String]) -> bool {
        (1..words.len().min(5)).any(|place_words| {
            let (offering, place) = words.split_at(words.len() - place_words);
            self.places.matches(place) && self.ends_with_offering(offering)
        })
    }

    fn ends_with_offering(&self, words: &[String]) -> bool {
        self.offerings.iter().any(|offering| {
            words.len() >= offering.len()
                && words[words.len() - offering.len()..]
                    .iter()
                    .zip(offering)
                    .all(|(word, cue)| word_matches(word, cue) || word_matches(cue, word))
        })
    }
}

/// Intent of one keyword. For many keywords build an [`IntentClassifier`] once instead.
pub fn classify(keyword: &str, language: &Language, brand_terms: &[String]) -> Intent {
    IntentClassifier::new(language, brand_terms).classify(keyword)
}

/// Blanks out every occurrence of the sequences in `words`; true if there was one.
fn mask_sequences(words: &mut [String], sequences: &[Vec<String>]) -> bool {
    let mut found = false;
    for sequence in sequences {
        let n = sequence.len();
        let mut start = 0;
        while n > 0 && start + n <= words.len() {
            if words[start..start + n] == sequence[..] {
                words[start..start + n].iter_mut().for_each(String::clear);
                found = true;
                start += n;
            } else {
                start += 1;
            }
        }
    }
    found
}

/// A word typed as a web address or its start: "nykaa.com", "www.bdo", "www", "https".
fn is_address(word: &str) -> bool {
    domain_name(word).is_some()
        || matches!(word, "www" | "http" | "https")
        || word
            .strip_prefix("www.")
            .is_some_and(|rest| !rest.is_empty())
}

/// "www.acme.co.uk" → "acme": the registrable name people type as a brand.
fn domain_name(word: &str) -> Option<String> {
    let labels: Vec<&str> = word.split('.').filter(|l| !l.is_empty()).collect();
    let labels = match labels.first() {
        Some(&"www") => &labels[1..],
        _ => &labels[..],
    };
    let suffix_is_known = labels.last().is_some_and(|s| TOP_LEVEL_DOMAINS.contains(s));
    (labels.len() >= 2 && labels[0].chars().count() > 1 && suffix_is_known)
        .then(|| labels[0].to_string())
}

/// Suffixes that make a word a domain ("nykaa.com"), not a typo ("how.many", "musk.kids").
const TOP_LEVEL_DOMAINS: &[&str] = &[
    "com", "net", "org", "io", "co", "ai", "app", "dev", "info", "biz", "shop", "store", "online",
    "site", "xyz", "me", "tv", "gov", "edu", "uk", "de", "fr", "es", "it", "nl", "pt", "br", "in",
    "us", "ca", "au", "ch", "at", "be", "eu", "mx", "ar", "pl", "se", "jp", "mil", "int",
];

fn word_matches(word: &str, cue: &str) -> bool {
    word == cue
        || word
            .strip_prefix(cue)
            .is_some_and(|rest| rest == "s" || rest == "es")
}

pub(crate) fn contains_sequence(words: &[String], cue: &[String]) -> bool {
    !cue.is_empty() && (0..words.len()).any(|start| starts_sequence_at(words, start, cue))
}

/// Whether `cue` occurs in `words` from `start` on, each word also with a plural "s"/"es".
fn starts_sequence_at(words: &[String], start: usize, cue: &[String]) -> bool {
    words.len() >= start + cue.len()
        && words[start..start + cue.len()]
            .iter()
            .zip(cue)
            .all(|(word, cue_word)| word_matches(word, cue_word))
}

/// A brand is named by its words in order ("acme tools"), its possessive ("acme's"), its
/// domain ("acme.com") or its words run together ("acmetools", "acme-tools").
fn names_brand(words: &[String], brand: &[String]) -> bool {
    if contains_sequence(words, brand) {
        return true;
    }
    let compact: String = brand.concat();
    words.iter().any(|word| {
        let bare = word.strip_suffix("'s").unwrap_or(word);
        let joined: String = bare.chars().filter(|c| !matches!(c, '-' | '_')).collect();
        joined == compact || domain_name(bare).is_some_and(|name| name == compact)
    })
}

#[cfg(test)]
mod tests;
