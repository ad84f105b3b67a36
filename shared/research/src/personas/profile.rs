//! Who a site serves, read from the primary site's crawled pages: the customers it addresses
//! (consumers, businesses or both), the places it serves, what it offers and its price level.
//! The cue words are English; other languages get places and offerings, and the neutral
//! audience and price level.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::offerings::{lowercase_words, offerings, scored_offerings};
use super::places::places;
use crate::text::{Analyzer, Language, Tokenizer};
use crate::{PageContent, SiteRole};

/// Places and offerings kept in a profile.
pub const MAX_PLACES: usize = 5;
pub const MAX_OFFERINGS: usize = 12;
pub const MAX_TOPICS: usize = 300;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Audience {
    Consumers,
    Businesses,
    /// Both, or no clear sign either way.
    #[default]
    Mixed,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PriceLevel {
    Budget,
    #[default]
    Standard,
    Premium,
}

/// Every field defaults, so profiles stored before a field existed still read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SiteProfile {
    /// The name the site gives itself in its titles ("BrightBrew Coffee"), if it repeats one.
    pub name: Option<String>,
    /// The name as a brand, lowercase: a search for it is a search for the site. Only a name of
    /// two words or more with one the site never writes in lowercase ("FlowMaster Plumbing");
    /// "Plumbing" or "Plumbing Services" at the end of every title is the trade, not a brand.
    #[serde(default)]
    pub brand: Option<String>,
    pub audience: Audience,
    /// The consumers are homeowners (a home service such as roofing), not shoppers.
    pub homeowners: bool,
    /// Towns and areas the site names as where it works, most mentioned first, as written.
    pub places: Vec<String>,
    /// What the site sells or does ("roof repair", "office coffee catering"), lowercase,
    /// most prominent first.
    pub offerings: Vec<String>,
    pub price_level: PriceLevel,
    /// The words of the site's titles and headings (no stop words), most used first: what
    /// its pages are about.
    pub topics: Vec<String>,
}

impl SiteProfile {
    /// The profile of the primary site's pages (all pages when none is marked primary).
    pub fn from_pages(pages: &[PageContent], language: &Language) -> Self {
        let pages = primary_pages(pages);
        if pages.is_empty() {
            return SiteProfile::default();
        }
        let lowercase = lowercase_words(&pages);
        let name = site_name(&pages, &lowercase);
        let brand = name.as_deref().and_then(|name| brand_of(name, &lowercase));
        let places = served_places(
            &pages,
            language,
            MAX_PLACES,
            name.as_deref(),
            brand.as_deref(),
        );
        let offerings = offerings(&pages, name.as_deref(), &places, language, MAX_OFFERINGS);
        let counts = cue_counts(&pages, language);
        let count = |cues: &[&str]| cues.iter().map(|c| counts.get(*c).unwrap_or(&0)).sum();
        let (consumer, business): (usize, usize) = (count(CONSUMER), count(BUSINESS));
        let audience = if business > 2 * consumer.max(1) {
            Audience::Businesses
        } else if consumer > 2 * business.max(1) {
            Audience::Consumers
        } else {
            Audience::Mixed
        };
        let (budget, premium): (usize, usize) = (count(BUDGET), count(PREMIUM));
        let price_level = if budget >= 2 && budget > 2 * premium {
            PriceLevel::Budget
        } else if premium >= 2 && premium > 2 * budget {
            PriceLevel::Premium
        } else {
            PriceLevel::Standard
        };
        SiteProfile {
            name,
            brand,
            audience,
            homeowners: count(HOMEOWNER) >= 1,
            places,
            offerings,
            price_level,
            topics: topics(&pages, language),
        }
    }

    /// Up to `limit` places of the primary site's `pages`, as [`SiteProfile::places`] names
    /// them: a profile keeps the few a persona names, keyword research reads more.
    pub fn more_places(
        &self,
        pages: &[PageContent],
        language: &Language,
        limit: usize,
    ) -> Vec<String> {
        served_places(
            &primary_pages(pages),
            language,
            limit,
            self.name.as_deref(),
            self.brand.as_deref(),
        )
    }

    /// Up to `limit` offerings of the primary site's `pages`, as [`SiteProfile::offerings`]
    /// names them, none holding one of `places`, each with how prominently the site names it
    /// (3 for each title, 2 for a structured-data name or a heading its page's address
    /// spells, 1 for another heading).
    pub fn more_offerings(
        &self,
        pages: &[PageContent],
        language: &Language,
        places: &[String],
        limit: usize,
    ) -> Vec<(String, f64)> {
        scored_offerings(
            &primary_pages(pages),
            self.name.as_deref(),
            places,
            language,
            limit,
        )
    }

    /// Up to `limit` offerings the competitors' `pages` name (site-name words not removed: a
    /// competitor's brand is no word of a query about this site's topic anyway).
    pub fn competitor_offerings(
        pages: &[PageContent],
        language: &Language,
        limit: usize,
    ) -> Vec<String> {
        let competitors: Vec<&PageContent> = pages
            .iter()
            .filter(|p| matches!(p.site, Some(SiteRole::Competitor(_))))
            .collect();
        offerings(&competitors, None, &[], language, limit)
    }

    pub fn is_local(&self) -> bool {
        !self.places.is_empty()
    }

    pub fn serves_businesses(&self) -> bool {
        self.audience != Audience::Consumers
    }
}

// Whole words, counted over titles, headings, descriptions and text.
const CONSUMER: &[&str] = &[
    "home",
    "homes",
    "homeowner",
    "homeowners",
    "house",
    "family",
    "families",
    "residential",
    "personal",
    "gift",
    "gifts",
    "yourself",
];
const BUSINESS: &[&str] = &[
    "business",
    "businesses",
    "commercial",
    "office",
    "offices",
    "corporate",
    "wholesale",
    "b2b",
    "enterprise",
    "enterprises",
    "restaurants",
    "retailers",
    "clients",
    "industrial",
];
const HOMEOWNER: &[&str] = &["homeowner", "homeowners", "residential"];
const BUDGET: &[&str] = &[
    "affordable",
    "cheap",
    "cheapest",
    "discount",
    "discounts",
    "budget",
    "inexpensive",
    "lowest",
    "bargain",
];
const PREMIUM: &[&str] = &[
    "premium",
    "luxury",
    "specialty",
    "artisan",
    "bespoke",
    "handcrafted",
    "exclusive",
    "finest",
    "gourmet",
];

fn cue_counts(pages: &[&PageContent], language: &Language) -> HashMap<String, usize> {
    let tokenizer = Tokenizer::new(language);
    let mut counts = HashMap::new();
    for page in pages {
        let texts = [&page.title, &page.meta_description, &page.body_text]
            .into_iter()
            .chain(&page.headings);
        for text in texts {
            for word in tokenizer.words(text) {
                *counts.entry(word).or_insert(0) += 1;
            }
        }
    }
    counts
}

/// The primary site's pages (all pages when none is marked primary).
pub(crate) fn primary_pages(pages: &[PageContent]) -> Vec<&PageContent> {
    let primary: Vec<&PageContent> = pages
        .iter()
        .filter(|p| p.site == Some(SiteRole::Primary))
        .collect();
    if primary.is_empty() {
        pages.iter().collect()
    } else {
        primary
    }
}

/// Up to `limit` places of `pages` ([`places`]), but those that are the site's own `name` or
/// `brand` ([`names_site`]); those are dropped before the limit, so they take no place's room.
fn served_places(
    pages: &[&PageContent],
    language: &Language,
    limit: usize,
    name: Option<&str>,
    brand: Option<&str>,
) -> Vec<String> {
    places(pages, language, usize::MAX)
        .into_iter()
        .filter(|place| !names_site(place, name, brand))
        .take(limit)
        .collect()
}

/// "Arretxe Motos" after "en" in "Taller en Arretxe Motos" is the site, not a place it
/// serves: a place of two words or more that ends the site's name or brand. A town of one
/// word stays ("Oakville" of "Oakville Landscaping").
fn names_site(place: &str, name: Option<&str>, brand: Option<&str>) -> bool {
    let place = place.to_lowercase();
    place.contains(' ')
        && [name, brand].into_iter().flatten().any(|whole| {
            let whole = whole.to_lowercase();
            whole == place || whole.ends_with(&format!(" {place}"))
        })
}

/// The title part most pages repeat ("… | BrightBrew Coffee"), if at least a third do, or the
/// fuller name the pages write it in ([`fuller_name`]).
fn site_name(pages: &[&PageContent], lowercase: &HashSet<&str>) -> Option<String> {
    let name = repeated_title_part(pages)?;
    Some(fuller_name(pages, &name, lowercase).unwrap_or(name))
}

fn repeated_title_part(pages: &[&PageContent]) -> Option<String> {
    let mut counts: HashMap<String, (usize, String)> = HashMap::new();
    for page in pages {
        let mut seen = Vec::new();
        // "Mani & Piedi - Estetica Colfelice": a spaced hyphen separates as a dash does; one
        // inside a word ("PR-Modellbau") does not.
        for part in page.title.replace(" - ", "|").split(['|', '–', '—', '·']) {
            let part = part.trim();
            let key = part.to_lowercase();
            // "… | Portland, OR" on every page says where the business is, not its name.
            let where_it_is = super::places::is_town_and_state(part);
            if part.is_empty() || part.chars().count() > 40 || seen.contains(&key) || where_it_is {
                continue;
            }
            seen.push(key.clone());
            counts.entry(key).or_insert((0, part.to_string())).0 += 1;
        }
    }
    let (count, name) = counts
        .into_values()
        .max_by(|a, b| a.0.cmp(&b.0).then_with(|| b.1.cmp(&a.1)))?;
    (count >= 2 && count * 3 >= pages.len()).then_some(name)
}

/// [`SiteProfile::brand`] of the site's `name`; `lowercase` as [`lowercase_words`] reads them.
fn brand_of(name: &str, lowercase: &HashSet<&str>) -> Option<String> {
    let words: Vec<&str> = words_of(name).collect();
    let proper = words.iter().any(|word| never_lowercase(word, lowercase));
    (words.len() >= 2 && proper).then(|| name.to_lowercase())
}

/// The alphanumeric runs of `text`: the words a name or a sentence is compared by here.
fn words_of(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
}

/// The site never writes `word` in lowercase: a proper name ("FlowMaster"), not "Emergency".
fn never_lowercase(word: &str, lowercase: &HashSet<&str>) -> bool {
    !lowercase.contains(word.to_lowercase().as_str())
}

/// "Services — Plumbing": a one-word title part is often the trade, and the name is the one
/// the pages write before it ("FlowMaster Plumbing", in the logo's text or the home link as
/// often as in running text), with a word never written in lowercase (a proper name, not
/// "Emergency Plumbing"), on at least a third of the pages and more of them than any other.
fn fuller_name(
    pages: &[&PageContent],
    title_part: &str,
    lowercase: &HashSet<&str>,
) -> Option<String> {
    if title_part.contains(char::is_whitespace) {
        return None;
    }
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for page in pages {
        let texts = std::iter::once(&page.body_text)
            .chain(&page.anchors)
            .chain(&page.image_alts);
        let mut seen = HashSet::new();
        for text in texts {
            let words: Vec<&str> = words_of(text).collect();
            for pair in words.windows(2) {
                let proper = pair[0].chars().next().is_some_and(char::is_uppercase)
                    && never_lowercase(pair[0], lowercase);
                if proper && pair[1] == title_part && seen.insert(pair[0]) {
                    *counts.entry(pair[0]).or_default() += 1;
                }
            }
        }
    }
    let mut ranked: Vec<(&str, usize)> = counts.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    let (first, count) = *ranked.first()?;
    let unique = ranked.get(1).is_none_or(|second| second.1 < count);
    (unique && count >= 2 && count * 3 >= pages.len()).then(|| format!("{first} {title_part}"))
}

fn topics(pages: &[&PageContent], language: &Language) -> Vec<String> {
    let analyzer = Analyzer::new(language);
    let mut counts: HashMap<String, usize> = HashMap::new();
    for page in pages {
        for text in std::iter::once(&page.title).chain(&page.headings) {
            for word in analyzer.tokenizer().words(text) {
                if word.chars().count() > 2 && !analyzer.is_stop_word(&word) {
                    *counts.entry(word).or_insert(0) += 1;
                }
            }
        }
    }
    let mut ranked: Vec<(String, usize)> = counts.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    ranked
        .into_iter()
        .take(MAX_TOPICS)
        .map(|(w, _)| w)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::names_site;

    #[test]
    fn a_place_that_ends_the_site_name_is_the_site() {
        assert!(names_site(
            "Arretxe Motos",
            Some("Taller Arretxe Motos"),
            None
        ));
        assert!(names_site("Arretxe Motos", None, Some("arretxe motos")));
        assert!(!names_site("Oakville", Some("Oakville Landscaping"), None));
        assert!(!names_site(
            "Virginia Beach",
            Some("Virginia Beach Plumbing"),
            None
        ));
    }
}
