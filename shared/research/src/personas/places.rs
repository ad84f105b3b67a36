//! Places a site says it works in: capitalised names after "in", "serving", "across" and
//! the like ("Roof repair in Newark, NJ", "Serving Montclair, Bloomfield and Orange"). A
//! name whose every word the site also writes in lowercase is a title-cased common word
//! ("How Much Caffeine Is in Decaf?"), not a place. US state names and codes after a town
//! are the region, not another place. A site names the places it serves in its titles and
//! headings ("Café in Portland, Oregon"); a name only in running text counts when it is listed
//! with one of those ("Serving Montclair, Bloomfield and Orange") or is named three times
//! (coffee origins, "grown in Colombia", are neither). The town of a postal address is a
//! place too ("West Jordan, UT 84088", "56727 Mayen": `postal`), and so is what JSON-LD says
//! (an address's `addressLocality`, `areaServed`), without its states and regions, and the
//! town of the address an embedded map shows ("Via Colfelice, Roma"), and so is each item of
//! a service-area page's list ("Bennington", "La Vista"), named alone. A German abstract noun
//! after "in" ("in Echtzeit") is none.

use std::collections::{HashMap, HashSet};

use crate::text::us_states::US_STATES;
use crate::text::Language;
use crate::PageContent;

/// Words after which a list of place names may follow, in every language (sites of other
/// languages write English too, and German and Dutch say "in" as English does).
const TRIGGERS: &[&str] = &[
    "in",
    "serving",
    "serve",
    "serves",
    "across",
    "throughout",
    "near",
    "around",
];
/// The words that open and join a list of places in the site's language.
struct ListWords {
    triggers: &'static [&'static str],
    conjunctions: &'static [&'static str],
    /// Endings of the infinitives the language's trigger also comes before, capitalised in a
    /// title-cased heading ("Vieni a Trovarci", "Impara a Prenderti Cura").
    infinitives: &'static [&'static str],
}

impl ListWords {
    /// English's, and the language's own prepositions before a place ("à Toulouse", "em
    /// Brasília", "a Roma") and words for "and". French "en" and "dans" are left out: they
    /// come before regions and common nouns ("en Provence", "en Bois"), not towns.
    fn of(language: &Language) -> Self {
        const ITALIAN_INFINITIVES: &[&str] = &[
            "are", "ere", "ire", "rci", "rti", "rsi", "rvi", "rmi", "rlo", "rla", "rli", "rle",
            "rne",
        ];
        let (triggers, conjunctions, infinitives): (&[&str], &[&str], &[&str]) =
            match language.code() {
                "fr" => (&["à", "sur"], &["et", "ou"], &[]),
                "es" => (&["en"], &["y", "o"], &[]),
                "pt" => (&["em"], &["e", "ou"], &[]),
                "it" => (&["a"], &["e", "o"], ITALIAN_INFINITIVES),
                "de" => (&[], &["und", "oder"], &[]),
                "nl" => (&["te"], &["en", "of"], &[]),
                _ => (&[], &[], &[]),
            };
        ListWords {
            triggers,
            conjunctions,
            infinitives,
        }
    }

    fn is_infinitive(&self, word: &str) -> bool {
        let word = word.to_lowercase();
        self.infinitives.iter().any(|ending| word.ends_with(ending))
    }

    fn opens(&self, word: &str) -> bool {
        let word = word.to_lowercase();
        TRIGGERS.contains(&word.as_str()) || self.triggers.contains(&word.as_str())
    }

    fn joins(&self, word: &str) -> bool {
        matches!(word, "and" | "or") || self.conjunctions.contains(&word)
    }
}

/// Capitalised words that start sentences or headings, never places.
const NOT_NAMES: &[&str] = &[
    "the", "our", "your", "all", "any", "every", "this", "these", "that", "a", "an", "we", "you",
    "my", "stock", "store", "person", "time", "business", "house", "home", "touch", "ihr", "ihre",
    "ihrer", "ihrem", "ihren",
];
/// Endings of German abstract nouns, which the language capitalises and puts after "in" as a
/// town ("in Echtzeit", "in Bewegung", "Hannover und Umgebung"); no town ends so.
const GERMAN_NOUN_ENDINGS: [&str; 9] = [
    "ung", "heit", "keit", "schaft", "zeit", "tion", "tät", "nis", "ismus",
];
/// Words that make a state's name a town's ("Oklahoma City", "Kansas City", "Virginia Beach").
const TOWN_AFTER_STATE: [&str; 2] = ["City", "Beach"];
/// Abbreviations that open a place's name, written with a dot ("St. Helens").
const NAME_ABBREVIATIONS: [&str; 5] = ["St", "Ste", "Mt", "Ft", "Pt"];
/// Longest place name, in words.
const MAX_NAME_WORDS: usize = 3;

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Token<'a> {
    Word(&'a str),
    Comma,
    /// Any other punctuation: ends a list of places.
    Break,
}

/// Where a word of [`tokens`] starts in the `text` it was read from: what lies between two
/// tokens ("3460-549", "Walk-In") is read there.
pub(super) fn offset_in(text: &str, word: &str) -> usize {
    word.as_ptr() as usize - text.as_ptr() as usize
}

pub(super) fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let in_word = c.is_alphanumeric() || (start.is_some() && matches!(c, '\'' | '’'));
        if in_word {
            start.get_or_insert(i);
            continue;
        }
        // The word this character ends, if it ends one.
        let ended = start.take().map(|s| &text[s..i]);
        if let Some(word) = ended {
            out.push(Token::Word(word));
        }
        match c {
            ',' => out.push(Token::Comma),
            // "In-Home Care", "In-Ear Monitoring": "in" joined by a hyphen is no preposition.
            '-' if ended.is_some_and(|w| w.eq_ignore_ascii_case("in")) => out.push(Token::Break),
            c if c.is_whitespace() || c == '-' => {}
            // "St. Helens", "Mt. Vernon": the abbreviation's dot is inside the name.
            '.' if ended.is_some_and(|w| NAME_ABBREVIATIONS.contains(&w)) => {}
            _ => out.push(Token::Break),
        }
    }
    if let Some(s) = start {
        out.push(Token::Word(&text[s..]));
    }
    out
}

pub(super) fn is_name_word(word: &str) -> bool {
    let mut chars = word.chars();
    let capitalised = chars.next().is_some_and(char::is_uppercase);
    capitalised
        && !word.chars().any(|c| c.is_ascii_digit())
        && !NOT_NAMES.contains(&word.to_lowercase().as_str())
        && !is_state_code(word)
}

fn is_state_code(word: &str) -> bool {
    word.len() == 2 && word.chars().all(|c| c.is_ascii_uppercase())
}

pub(crate) fn is_region(name: &str) -> bool {
    US_STATES.contains(&name.to_lowercase().as_str())
}

/// "Portland, OR", "Manchester, New Jersey": a town and its state, written as a title's part
/// (where the business is, never its name).
pub(crate) fn is_town_and_state(text: &str) -> bool {
    let Some((town, state)) = text.split_once(',') else {
        return false;
    };
    let town: Vec<&str> = town.split_whitespace().collect();
    let state = state.trim();
    (1..=MAX_NAME_WORDS).contains(&town.len())
        && town.iter().all(|w| is_name_word(w))
        && (is_state_code(state) || is_region(state))
}

/// How many of `words` name a town before the state they end with ("Portland Oregon" → 1),
/// if they end with one; 0 where the words before it are compass words: "Southern New
/// Hampshire", "North Georgia" are a part of the state, a region too, never a place called
/// "Southern".
fn town_before_region(words: &[&str]) -> Option<usize> {
    let start = (0..words.len()).find(|&start| is_region(&words[start..].join(" ")))?;
    let part_of_region = words[..start].iter().all(|w| is_direction(w));
    Some(if part_of_region { 0 } else { start })
}

/// A compass word that names a part of a region ("Northern", "Central").
pub(crate) fn is_direction(word: &str) -> bool {
    const DIRECTIONS: [&str; 13] = [
        "north",
        "south",
        "east",
        "west",
        "northern",
        "southern",
        "eastern",
        "western",
        "central",
        "northeast",
        "northwest",
        "southeast",
        "southwest",
    ];
    DIRECTIONS.contains(&word.to_lowercase().as_str())
}

/// Mentions in running text that make a place without a title or heading.
const MENTIONS_ALONE: usize = 3;

/// Past the separator after a state in a list, if any.
fn continue_after_region(tokens: &[Token], i: &mut usize, words: &ListWords) {
    match tokens.get(*i) {
        Some(Token::Comma) => *i += 1,
        Some(Token::Word(w)) if words.joins(w) => *i += 1,
        _ => {}
    }
}

/// The lists of place names found after trigger words.
fn scan(text: &str, list_words: &ListWords, joined: &HashSet<String>) -> Vec<Vec<String>> {
    let mut lists = Vec::new();
    let tokens = tokens(text);
    let mut i = 0;
    while i < tokens.len() {
        let trigger = matches!(tokens[i], Token::Word(w) if list_words.opens(w))
            && !opens_a_noun(text, &tokens, i, joined);
        i += 1;
        if !trigger {
            continue;
        }
        // A list: Name (, Name)* ((and|&|or) Name)?
        let mut list = Vec::new();
        loop {
            let mut words = Vec::new();
            while let Some(Token::Word(w)) = tokens.get(i) {
                if words.len() == MAX_NAME_WORDS || !is_name_word(w) || list_words.is_infinitive(w)
                {
                    break;
                }
                words.push(*w);
                i += 1;
                // "Portland, Oregon BrightBrew Coffee": text joined across elements runs on
                // after a state, which ends the name.
                // "Oklahoma City", "Virginia Beach": a town named after its state.
                let town_of_state = matches!(
                    tokens.get(i),
                    Some(Token::Word(next)) if TOWN_AFTER_STATE.contains(next)
                );
                if town_of_state {
                    continue;
                }
                if let Some(town) = town_before_region(&words) {
                    words.truncate(town);
                    break;
                }
            }
            if words.is_empty() {
                // A state alone ("…, Oregon"): the list goes on after it.
                // Only past a separator: "Homedale, Idaho chiropractic" ends there, and
                // without the separator the loop would read "chiropractic" forever.
                if matches!(tokens.get(i.wrapping_sub(1)), Some(Token::Word(w)) if is_region(w)) {
                    let before = i;
                    continue_after_region(&tokens, &mut i, list_words);
                    if i > before && matches!(tokens.get(i), Some(Token::Word(_))) {
                        continue;
                    }
                }
                break;
            }
            let name = words.join(" ");
            if !is_region(&name) {
                list.push(name);
            }
            match (tokens.get(i), tokens.get(i + 1)) {
                (Some(Token::Comma), Some(Token::Word(w))) if is_state_code(w) => i += 2,
                (Some(Token::Comma), _) => i += 1,
                (Some(Token::Word(w)), _) if list_words.joins(w) => i += 1,
                _ => break,
            }
            if let Some(Token::Word(w)) = tokens.get(i) {
                if list_words.joins(w) {
                    i += 1;
                }
            }
        }
        if !list.is_empty() {
            lists.push(list);
        }
    }
    lists
}

/// The towns of one JSON-LD place ("Manassas, VA" → "Manassas"): its comma-separated parts
/// but a state, a part of one ("Northern Virginia") or a postal code.
fn structured_towns(place: &str) -> Vec<String> {
    place
        .split([',', ';'])
        .map(str::trim)
        .filter(|part| {
            let words: Vec<&str> = part.split_whitespace().collect();
            !words.is_empty()
                && town_before_region(&words) != Some(0)
                && !is_state_code(part)
                && !part.chars().any(|c| c.is_ascii_digit())
        })
        .map(str::to_string)
        .collect()
}

fn ends_as_german_noun(name: &str) -> bool {
    let last = name.rsplit(' ').next().unwrap_or(name).to_lowercase();
    GERMAN_NOUN_ENDINGS
        .iter()
        .any(|ending| last.ends_with(ending))
}

/// What a page that lists the places a business serves is called, in its title or address,
/// in the languages the service reads.
const SERVICE_AREA_PAGES: [&str; 15] = [
    "service area",
    "areas we serve",
    "areas served",
    "where we work",
    "locations we serve",
    "einsatzgebiet",
    "liefergebiet",
    "zone d'intervention",
    "zones d'intervention",
    "zona di intervento",
    "zone di intervento",
    "zonas de servicio",
    "área de servicio",
    "werkgebied",
    "área de atendimento",
];

fn is_service_area_page(page: &PageContent) -> bool {
    let address = page.url.to_lowercase().replace(['-', '_'], " ");
    let title = page.title.to_lowercase();
    SERVICE_AREA_PAGES
        .iter()
        .any(|name| address.contains(name) || title.contains(name))
}

/// The lines of a service-area page that are a place's name alone: its list's items
/// ("Bennington", "La Vista"), named without "in" or "serving".
fn listed_alone(page: &PageContent) -> Vec<String> {
    page.body_text
        .lines()
        .filter_map(|line| {
            let tokens = tokens(line.trim());
            let words: Vec<&str> = tokens
                .iter()
                .map(|token| match token {
                    Token::Word(word) => Some(*word),
                    _ => None,
                })
                .collect::<Option<_>>()?;
            let name = (1..=MAX_NAME_WORDS).contains(&words.len())
                && words.iter().all(|w| is_name_word(w))
                && !is_region(&words.join(" "));
            name.then(|| words.join(" "))
        })
        .collect()
}

/// Words a site joins to "in" with a hyphen ("walk" of "Walk-In Tubs", "drive" of
/// "drive-in"), lowercase: there "in" is part of a noun and comes before no place, even where
/// a title drops the hyphen ("Walk In Tub Denver").
pub(crate) fn joined_to_in(pages: &[&PageContent]) -> HashSet<String> {
    let texts = pages.iter().flat_map(|page| {
        std::iter::once(page.title.as_str())
            .chain(page.headings.iter().map(String::as_str))
            .chain(std::iter::once(page.body_text.as_str()))
    });
    let mut joined = HashSet::new();
    for text in texts {
        let lowercase = text.to_lowercase();
        for (at, _) in lowercase.match_indices("-in") {
            let word_goes_on = lowercase[at + 3..]
                .chars()
                .next()
                .is_some_and(char::is_alphanumeric);
            let before = lowercase[..at]
                .rsplit(|c: char| !c.is_alphanumeric())
                .next()
                .unwrap_or("");
            if !word_goes_on && !before.is_empty() {
                joined.insert(before.to_string());
            }
        }
    }
    joined
}

/// The `at`th token of `text` is an "in" that belongs to the noun before it ("Walk-In Tub
/// Denver", or "Walk In Tub" where the site writes "walk-in" elsewhere).
fn opens_a_noun(text: &str, tokens: &[Token], at: usize, joined: &HashSet<String>) -> bool {
    let Token::Word(word) = tokens[at] else {
        return false;
    };
    if !word.eq_ignore_ascii_case("in") {
        return false;
    }
    let hyphenated = text[..offset_in(text, word)].ends_with('-');
    let previous = at.checked_sub(1).and_then(|p| match tokens[p] {
        Token::Word(previous) => Some(previous.to_lowercase()),
        _ => None,
    });
    hyphenated || previous.is_some_and(|previous| joined.contains(&previous))
}

/// Up to `limit` places of `pages`, most mentioned first.
pub(crate) fn places(pages: &[&PageContent], language: &Language, limit: usize) -> Vec<String> {
    let list_words = ListWords::of(language);
    let joined = joined_to_in(pages);
    let mut counts: HashMap<String, usize> = HashMap::new();
    let mut named: HashSet<String> = HashSet::new();
    let mut lists: Vec<Vec<String>> = Vec::new();
    let mut lowercase: HashSet<String> = HashSet::new();
    let mut structured: Vec<String> = Vec::new();
    for page in pages {
        structured.extend(page.json_ld_places.iter().flat_map(|p| structured_towns(p)));
        structured.extend(
            page.map_addresses
                .iter()
                .flat_map(|a| super::postal::map_towns(a)),
        );
        if is_service_area_page(page) {
            let list = listed_alone(page);
            for name in &list {
                *counts.entry(name.clone()).or_insert(0) += 1;
                named.insert(name.clone());
            }
            lists.push(list);
        }
        let prominent = [&page.title, &page.meta_description]
            .into_iter()
            .chain(&page.headings)
            .map(|t| (t, true));
        for (text, is_prominent) in prominent.chain(std::iter::once((&page.body_text, false))) {
            // A town in an address is where the business is, named or not.
            for town in super::postal::postal_towns(text) {
                *counts.entry(town.clone()).or_insert(0) += 1;
                named.insert(town);
            }
            for list in scan(&text.replace('&', " and "), &list_words, &joined) {
                for name in &list {
                    *counts.entry(name.clone()).or_insert(0) += 1;
                    if is_prominent {
                        named.insert(name.clone());
                    }
                }
                lists.push(list);
            }
            for token in tokens(text) {
                if let Token::Word(w) = token {
                    if w.chars().next().is_some_and(char::is_lowercase) {
                        lowercase.insert(w.to_string());
                    }
                }
            }
        }
    }
    // What structured data says the business is in or serves is named, as a title is; but a
    // template's placeholder ("Solar City" on a solar installer's pages) is neither in the
    // site's text nor a proper name: one of its words the site writes in lowercase.
    for place in structured {
        let proper = !place
            .split_whitespace()
            .any(|w| lowercase.contains(&w.to_lowercase()));
        if proper || counts.contains_key(&place) {
            *counts.entry(place.clone()).or_insert(0) += 1;
            named.insert(place);
        }
    }
    let mut served: HashSet<&String> = counts
        .iter()
        .filter(|(name, count)| named.contains(*name) || **count >= MENTIONS_ALONE)
        .map(|(name, _)| name)
        .collect();
    for list in &lists {
        if list.iter().any(|name| served.contains(name)) {
            served.extend(list.iter());
        }
    }
    let german = language.code() == "de";
    let mut ranked: Vec<(&String, usize)> = served
        .into_iter()
        .filter(|name| {
            let common = name
                .split(' ')
                .all(|w| lowercase.contains(&w.to_lowercase()));
            let abstract_noun = german && ends_as_german_noun(name);
            !common && !abstract_noun
        })
        .map(|name| (name, counts[name]))
        .collect();
    // "Macomb Dealer" of "Locksmith in Macomb Dealer-Level Programming": a title-cased
    // heading runs on past the place, named more often alone, into words of the site's text.
    let alone: HashMap<&str, usize> = ranked.iter().map(|(n, c)| (n.as_str(), *c)).collect();
    ranked.retain(|(name, count)| {
        let words: Vec<&str> = name.split(' ').collect();
        !(1..words.len()).any(|cut| {
            alone
                .get(words[..cut].join(" ").as_str())
                .is_some_and(|shorter| shorter >= count)
                && words[cut..]
                    .iter()
                    .all(|w| lowercase.contains(&w.to_lowercase()))
        })
    });
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    ranked
        .into_iter()
        .take(limit)
        .map(|(name, _)| name.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn places_of(pages: &[PageContent], limit: usize) -> Vec<String> {
        let refs: Vec<&PageContent> = pages.iter().collect();
        places(&refs, &Language::english(), limit)
    }

    fn page(title: &str, body: &str) -> PageContent {
        PageContent {
            title: title.to_string(),
            body_text: body.to_string(),
            ..PageContent::default()
        }
    }

    #[test]
    fn an_in_joined_to_its_noun_opens_no_place() {
        let pages = [
            page(
                "Walk In Tub Denver | Free Quote",
                "Walk In Tub FAQs for Lakewood.",
            ),
            page(
                "Walk-In Tub Specialists in Aurora",
                "A walk-in tub for you.",
            ),
        ];
        let found = places_of(&pages, 10);
        assert!(found.contains(&"Aurora".to_string()), "{found:?}");
        for wrong in ["Tub Denver", "Tub FAQs", "Tub Specialists"] {
            assert!(!found.contains(&wrong.to_string()), "{found:?}");
        }
    }

    #[test]
    fn a_town_named_after_its_state_is_a_place() {
        let pages = [page(
            "Towing in Oklahoma City, OK",
            "Serving Oklahoma City and Edmond. Also in Virginia Beach.",
        )];
        let found = places_of(&pages, 10);
        assert!(found.contains(&"Oklahoma City".to_string()), "{found:?}");
        assert!(found.contains(&"Edmond".to_string()), "{found:?}");
    }

    #[test]
    fn an_abbreviated_saint_or_mount_stays_in_the_name() {
        let pages = [page(
            "Auto Repair in St. Helens, OR",
            "Serving St. Helens, Mt. Vernon and Rainier. Open Mon. to Fri.",
        )];
        let found = places_of(&pages, 10);
        assert!(found.contains(&"St Helens".to_string()), "{found:?}");
        assert!(found.contains(&"Mt Vernon".to_string()), "{found:?}");
        assert!(!found.iter().any(|p| p == "St"), "{found:?}");
    }

    #[test]
    fn a_list_of_places_reads_in_the_site_language() {
        let french = [
            page("Stores et toiles à Toulouse et Blagnac", "En Bois massif."),
            page("Pose de stores sur Colomiers", ""),
        ];
        let found = places(&french.iter().collect::<Vec<_>>(), &Language::new("fr"), 10);
        for town in ["Toulouse", "Blagnac", "Colomiers"] {
            assert!(found.contains(&town.to_string()), "{town}: {found:?}");
        }
        assert!(!found.iter().any(|p| p.starts_with("Bois")), "{found:?}");
        let spanish = [page("Taller de motos en Irún y Hondarribia", "")];
        let found = places(
            &spanish.iter().collect::<Vec<_>>(),
            &Language::new("es"),
            10,
        );
        assert_eq!(found.len(), 2, "{found:?}");
        let italian = [page(
            "Vieni a Trovarci a Roma",
            "Impara a Prenderti Cura di te.",
        )];
        let found = places(
            &italian.iter().collect::<Vec<_>>(),
            &Language::new("it"),
            10,
        );
        assert_eq!(found, ["Roma"]);
        // English reads no Spanish "en".
        assert!(places_of(&spanish, 10).is_empty());
    }

    #[test]
    fn a_german_abstract_noun_or_a_formal_your_is_no_place() {
        let german = [page(
            "Alltagshilfe in Hannover und Umgebung",
            "Hilfe in Ihrer Nähe. Fotos in Echtzeit. Immer in Bewegung. Büro in Laatzen.",
        )];
        let found = places(&german.iter().collect::<Vec<_>>(), &Language::new("de"), 10);
        assert_eq!(found, ["Hannover"]);
    }

    #[test]
    fn a_service_area_page_lists_its_places_alone() {
        let mut area = page(
            "Service Area | Duff Tree Service",
            "Where we work\nBennington\nLa Vista\nPapillion\nNebraska\nCall us today.",
        );
        area.url = "https://duff.test/service_area.html".into();
        let mut other = page("Tree Trimming", "Bennington\nPruning and cabling.");
        other.url = "https://duff.test/trimming.html".into();
        let found = places_of(&[area, other], 10);
        for town in ["Bennington", "La Vista", "Papillion"] {
            assert!(found.contains(&town.to_string()), "{town}: {found:?}");
        }
        assert!(!found.contains(&"Nebraska".to_string()), "{found:?}");
        assert_eq!(found.len(), 3, "{found:?}");
    }

    #[test]
    fn a_town_and_its_state_are_told_from_a_name() {
        assert!(is_town_and_state("Portland, OR"));
        assert!(is_town_and_state("Manchester, New Jersey"));
        assert!(!is_town_and_state("Duff Tree Service"));
        assert!(!is_town_and_state("Roofing, Gutters"));
    }

    #[test]
    fn in_joined_by_a_hyphen_opens_no_place() {
        let pages = [page(
            "In-Home Care and In-Ear Monitoring in Mayen",
            "In-store pickup in Mayen.",
        )];
        assert_eq!(places_of(&pages, 10), ["Mayen"]);
    }

    #[test]
    fn structured_data_names_towns_not_states() {
        let pages = [PageContent {
            title: "Roofing and Gutters".to_string(),
            body_text: "We fit solar panels on every roof.".to_string(),
            json_ld_places: vec![
                "Solar City".to_string(),
                "Manassas".to_string(),
                "Northern Virginia".to_string(),
                "Gainesville, VA 20155".to_string(),
                "Virginia".to_string(),
            ],
            ..PageContent::default()
        }];
        assert_eq!(places_of(&pages, 10), ["Gainesville", "Manassas"]);
    }

    #[test]
    fn a_part_of_a_state_is_a_region_not_a_place() {
        let pages = [page(
            "Electricians in Nashua and Southern New Hampshire",
            "Serving Nashua, Amherst and Derry. Paving in North Georgia and Nashua.",
        )];
        let found = places_of(&pages, 10);
        assert!(
            !found.iter().any(|p| p == "Southern" || p == "North"),
            "{found:?}"
        );
        assert!(found.contains(&"Nashua".to_string()), "{found:?}");
    }

    #[test]
    fn a_state_followed_by_a_lowercase_word_ends_the_list() {
        let pages = [page(
            "Chiropractor in Homedale, Idaho",
            "Serving Homedale, Idaho chiropractic care since 1990. Serving Homedale, Marsing, \
             Idaho and Parma, Idaho patients.",
        )];
        let found = places_of(&pages, 5);
        for town in ["Homedale", "Marsing", "Parma"] {
            assert!(found.contains(&town.to_string()), "{town}: {found:?}");
        }
    }

    #[test]
    fn a_place_runs_on_neither_into_title_case_words_nor_from_an_idiom() {
        let pages = [
            page(
                "Locksmith in Macomb Dealer Key Programming",
                "Serving Macomb, Warren and Troy. A dealer key costs more. Get in Touch.",
            ),
            page("Locksmith in Macomb", "Call us today."),
            page("Get in Touch", "We answer within the hour."),
        ];
        let found = places_of(&pages, 10);
        assert_eq!(found[0], "Macomb", "{found:?}");
        assert!(found.contains(&"Warren".to_string()), "{found:?}");
        assert!(!found.iter().any(|p| p.starts_with("Macomb ")), "{found:?}");
        assert!(!found.contains(&"Touch".to_string()), "{found:?}");
    }

    #[test]
    fn finds_towns_in_lists_and_drops_states_and_title_case_words() {
        let pages = [
            page(
                "Roof Repair in Newark, NJ | Summit Roofing",
                "Serving Newark, Montclair, Bloomfield and Orange. Roof repair in Newark since 1990.",
            ),
            page(
                "How Much Caffeine Is in Decaf?",
                "Decaf has less caffeine. We ship decaf across New Jersey. Beans grown in \
                 Colombia and Ethiopia. Café in Portland, Oregon BrightBrew Coffee",
            ),
        ];
        let found = places_of(&pages, 5);
        assert_eq!(found[0], "Newark");
        for town in ["Montclair", "Bloomfield", "Orange"] {
            assert!(found.contains(&town.to_string()), "{town}: {found:?}");
        }
        for not_served in [
            "Decaf",
            "New Jersey",
            "NJ",
            "Colombia",
            "Ethiopia",
            "Oregon BrightBrew Coffee",
        ] {
            assert!(
                !found.iter().any(|p| p == not_served),
                "{not_served}: {found:?}"
            );
        }
    }
}
