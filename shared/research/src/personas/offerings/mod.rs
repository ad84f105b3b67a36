//! What a site offers, from the names it gives its own pages: title parts, first- and
//! second-level headings and structured-data names of pages that are not articles or legal
//! text. "Wholesale Coffee Roaster for Cafés & Restaurants | BrightBrew" gives "wholesale
//! coffee roaster". A phrase is kept when it is a short name (one to four words, no
//! question, no call to action, no "our"/"your", no brand or place); the ones on more and
//! more prominent places rank first.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use super::places::{is_region, joined_to_in};
use super::postal::is_road;
use crate::intent::places::PLACES;
use crate::text::us_states::US_STATE_CODES;
use crate::text::{
    english_parts, is_numeric_word, possessive_opening, CommonNouns, Language, Tokenizer,
};
use crate::PageContent;
use pairs::FixedPairs;
use words::{
    is_company_form, AUDIENCE, COLOURS, CUT_BEFORE, DESCRIBING, GENERIC, GENERIC_ELSEWHERE,
    NOT_ANYWHERE, NOT_ANYWHERE_ELSEWHERE, NOT_FIRST, NOT_OFFERING_PAGES, PROVIDERS,
    REGISTERED_FORMS, SELLING_NOUNS, SHOWCASE,
};

mod pairs;
mod words;

const MAX_WORDS: usize = 4;

/// Up to `limit` offerings, most prominent first, lowercase.
pub(crate) fn offerings(
    pages: &[&PageContent],
    site_name: Option<&str>,
    places: &[String],
    language: &Language,
    limit: usize,
) -> Vec<String> {
    scored_offerings(pages, site_name, places, language, limit)
        .into_iter()
        .map(|(name, _)| name)
        .collect()
}

/// [`offerings`] with their scores: 3 for each page whose title names it, 2 for a JSON-LD
/// name or a heading its page's address spells ("/drain-repairs" for "Drain Repairs"), 1 for
/// another heading.
pub(crate) fn scored_offerings(
    pages: &[&PageContent],
    site_name: Option<&str>,
    places: &[String],
    language: &Language,
    limit: usize,
) -> Vec<(String, f64)> {
    let tokenizer = Tokenizer::new(language);
    let english = language.code() == "en";
    let common = CommonWords::of(pages, language);
    let pairs = FixedPairs::of(pages);
    let joined = joined_to_in(pages);
    // The brand alone ("BrightBrew" of "BrightBrew Coffee", "Hinderer" of "Metzgerei
    // Hinderer") is no offering either.
    let brand = site_name.and_then(|name| {
        let words = tokenizer.words(name);
        let proper = words.iter().position(|w| !common.holds(w)).unwrap_or(0);
        let brand = if english { 0 } else { proper };
        words.get(brand).cloned()
    });
    let place_words: Vec<Vec<String>> = places.iter().map(|p| tokenizer.words(p)).collect();
    let excluded: Vec<Vec<String>> = site_name
        .map(|name| tokenizer.words(name))
        .into_iter()
        .chain(brand.map(|word| vec![word]))
        .chain(place_words.iter().cloned())
        .collect();
    let mut scores: HashMap<String, (f64, usize)> = HashMap::new();
    // A site's structured data is often one block on every page (its services, its opening
    // hours): it names each thing once, however many pages carry it.
    let mut structured: HashSet<&str> = HashSet::new();
    for (order, page) in pages.iter().enumerate() {
        let url = page.url.to_lowercase();
        if NOT_OFFERING_PAGES.iter().any(|p| url.contains(p)) {
            continue;
        }
        let headings = page.headings.iter().take(6);
        let sources = std::iter::once((page.title.as_str(), 3.0))
            .chain(headings.map(|h| (h.as_str(), 1.0)))
            .chain(
                page.json_ld_names
                    .iter()
                    .filter(|name| structured.insert(name.as_str()))
                    .map(|n| (n.as_str(), 2.0)),
            );
        let mut seen: Vec<String> = Vec::new();
        for (text, weight) in sources {
            if text.contains('?') {
                continue;
            }
            let text = common.complete_suspended(text, language);
            for name in names(&text, &tokenizer, &excluded, &pairs, &joined, language) {
                if seen.contains(&name) {
                    continue;
                }
                seen.push(name.clone());
                let weight = if url.contains(&name.replace(' ', "-")) {
                    f64::max(weight, 2.0)
                } else {
                    weight
                };
                let entry = scores.entry(name).or_insert((0.0, order));
                entry.0 += weight;
            }
        }
    }
    let lowercase = &common.lowercase;
    let trade =
        site_name.and_then(|name| trade_of_name(name, &tokenizer, &place_words, &common, language));
    if let Some(trade) = &trade {
        scores.entry(trade.clone()).or_insert((0.0, 0)).0 += 3.0;
    }
    // The trade the name states is what every page is about: a longer name holding it
    // ("Schornsteinfeger Michael", the trade before its owner's name) does not stand for it.
    // English names its trade after the brand ("BrightBrew Coffee"), and there the longer
    // names say more ("wholesale coffee", "coffee subscriptions"): the trade alone is as wide
    // as a topic, and as a head term it admits every phrase about it.
    let is_trade = |name: &str| !english && trade.as_deref() == Some(name);
    let mut ranked: Vec<(String, f64, usize)> = scores
        .into_iter()
        .map(|(name, (score, first))| (name, score, first))
        .collect();
    ranked.sort_by(|a, b| {
        b.1.total_cmp(&a.1)
            .then(a.2.cmp(&b.2))
            .then_with(|| a.0.cmp(&b.0))
    });
    // "wholesale" says less than "wholesale coffee", also named on the site.
    let longer: Vec<Vec<String>> = ranked
        .iter()
        .filter(|(name, score, _)| *score >= 2.0 && name.contains(' '))
        .map(|(name, _, _)| name.split(' ').map(str::to_string).collect())
        .collect();
    ranked.retain(|(name, _, _)| {
        name.contains(' ') || is_trade(name) || !longer.iter().any(|l| l.contains(name))
    });
    // A one-word name the site never writes in lowercase is a proper name ("Anthony",
    // "Debbie" over a café's staff photos), not an offering. German capitalises every noun.
    if language.code() != "de" {
        ranked.retain(|(name, _, _)| name.contains(' ') || lowercase.contains(name.as_str()));
    }
    let mut kept: Vec<(String, f64)> = Vec::new();
    for (name, score, _) in ranked {
        // "coffee" adds nothing next to "coffee beans" already kept, nor "coffee
        // subscription" next to "coffee subscriptions".
        let words: Vec<&str> = name.split(' ').map(singular).collect();
        let covered = !is_trade(&name)
            && kept.iter().any(|(k, _)| {
                words
                    .iter()
                    .all(|w| k.split(' ').any(|kw| singular(kw) == *w))
            });
        if !covered {
            kept.push((name, score));
        }
        if kept.len() == limit {
            break;
        }
    }
    kept
}

/// What a site's name says it does beside the brand: "flower shop" of "Dragonflies Flower
/// Shop", "handyman services" of "AAA Handyman Services LLC", and in the languages that name
/// the trade first, "metzgerei" of "Metzgerei Hinderer", "cantiere nautico" of "Cantiere
/// Nautico Garavaglia"; "taxi" of "Taxi Brannenburg", whose other word is its town. The
/// name's titles are left out of the offerings as its brand, yet the trade is the offering its
/// every page is about. Only words the site uses as common words ([`CommonWords`]): "River
/// City Autohaus" names no trade ("autohaus" is a name there), nor does "The Groom Room" (a
/// name from its first word).
fn trade_of_name(
    name: &str,
    tokenizer: &Tokenizer,
    places: &[Vec<String>],
    common: &CommonWords,
    language: &Language,
) -> Option<String> {
    let english = language.code() == "en";
    // "Hundepension-Bergparadies": a trade and a brand joined by a hyphen; English joins a
    // brand's own words so ("Tri-City Turf").
    let mut words: Vec<String> = tokenizer
        .words(name)
        .iter()
        .flat_map(|word| {
            if english {
                vec![word.as_str()]
            } else {
                word.split('-').collect()
            }
        })
        .filter(|word| !word.is_empty())
        .map(str::to_string)
        .collect();
    if words
        .first()
        .is_some_and(|w| NOT_FIRST.contains(&w.as_str()))
    {
        return None;
    }
    while words.last().is_some_and(|w| is_company_form(w)) {
        words.pop();
    }
    let with_places = words.len();
    for place in places {
        remove_sequence(&mut words, place);
    }
    let proper = |w: &String| !common.holds(w);
    let trade = match (
        words.iter().position(proper),
        words.iter().rposition(proper),
    ) {
        // "Taxi Brannenburg", "Denver Roofing": a word and the town it works in.
        _ if words.len() == 1 && with_places > 1 => &words[..],
        // The common words after the brand that end the name.
        (Some(_), Some(last)) if last + 1 < words.len() => &words[last + 1..],
        (Some(first), _) if !english && first > 0 => &words[..first],
        (Some(_), _) => return None,
        // No proper word: English names its brand first anyway ("Columbus Garage Door").
        (None, _) if english => words.get(1..)?,
        (None, _) => &words[..],
    };
    if trade.is_empty() {
        return None;
    }
    clean(&trade.join(" "), tokenizer, &[], &HashSet::new(), language)
}

/// The words a site uses as common words, not names: those its running text writes in
/// lowercase, and in German, which capitalises every noun, those it writes after many
/// different words ("Ihre Metzgerei", "unsere Metzgerei", "der Metzgerei"), where a surname
/// follows its given name or a title ("Familie Hinderer").
pub(super) struct CommonWords<'a> {
    lowercase: HashSet<&'a str>,
    /// German's nouns by their many contexts ([`CommonNouns`]).
    nouns: CommonNouns,
    /// German's capitalised words (lowercase): a word that opens a longer one is the head of
    /// a compound ("Schornsteinfeger" of "Schornsteinfegerarbeiten"), a noun, no surname.
    capitalised: HashSet<String>,
}

/// The least a compound adds to the word it opens ("Schornsteinfeger|arbeiten").
const COMPOUND_TAIL: usize = 3;
/// The words between a hyphen-ended word and the compound that completes it.
const SUSPENDING: [&str; 7] = ["&", "und", "oder", "sowie", "en", "of", "and"];

impl<'a> CommonWords<'a> {
    pub(super) fn of(pages: &[&'a PageContent], language: &Language) -> Self {
        let german = language.code() == "de";
        let capitalised = pages
            .iter()
            .filter(|_| german)
            .flat_map(|page| {
                std::iter::once(&page.title)
                    .chain(&page.headings)
                    .chain(std::iter::once(&page.body_text))
            })
            .flat_map(|text| text.split(|c: char| !c.is_alphanumeric() && c != '-'))
            .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
            .map(str::to_lowercase)
            .collect();
        let nouns = if german {
            CommonNouns::of_texts(pages.iter().map(|page| page.body_text.as_str()))
        } else {
            CommonNouns::default()
        };
        CommonWords {
            lowercase: lowercase_words(pages),
            nouns,
            capitalised,
        }
    }

    /// `word` (lowercase) is a common word of the site.
    pub(super) fn holds(&self, word: &str) -> bool {
        self.lowercase.contains(word) || self.nouns.holds(word) || self.opens_compound(word)
    }

    /// German and Dutch leave a compound's shared head to its last conjunct ("Koch- &
    /// Backkurse", "groente- en fruitwinkel"): each hyphen-ended word takes the last one's
    /// head, its shortest ending the site also writes alone ("kurse"), or stays as written.
    pub(super) fn complete_suspended<'t>(
        &self,
        text: &'t str,
        language: &Language,
    ) -> Cow<'t, str> {
        if !matches!(language.code(), "de" | "nl") || !text.contains("- ") {
            return Cow::Borrowed(text);
        }
        let mut tokens: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        for at in 0..tokens.len() {
            let suspended = tokens[at].trim_end_matches(',');
            if suspended.chars().count() < 2 || !suspended.ends_with('-') {
                continue;
            }
            let last = tokens[at + 1..].iter().find(|t| {
                !t.trim_end_matches(',').ends_with('-') && !SUSPENDING.contains(&t.as_str())
            });
            let Some(head) = last.and_then(|last| self.head_of(last)) else {
                continue;
            };
            let comma = if tokens[at].ends_with(',') { "," } else { "" };
            tokens[at] = format!("{}{head}{comma}", suspended.trim_end_matches('-'));
        }
        Cow::Owned(tokens.join(" "))
    }

    /// The shortest ending of a compound that the site writes as a word of its own.
    fn head_of(&self, compound: &str) -> Option<String> {
        let word: Vec<char> = compound
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase()
            .chars()
            .collect();
        (COMPOUND_TAIL..word.len().saturating_sub(COMPOUND_TAIL))
            .rev()
            .map(|start| word[start..].iter().collect::<String>())
            .find(|tail| self.capitalised.contains(tail) || self.lowercase.contains(tail.as_str()))
    }

    fn opens_compound(&self, word: &str) -> bool {
        let length = word.chars().count();
        length >= 5
            && self.capitalised.iter().any(|longer| {
                longer.starts_with(word) && longer.chars().count() >= length + COMPOUND_TAIL
            })
    }
}

/// The words the pages' running text writes in lowercase.
pub(super) fn lowercase_words<'a>(pages: &[&'a PageContent]) -> HashSet<&'a str> {
    pages
        .iter()
        .flat_map(|page| {
            page.body_text
                .split(|c: char| !c.is_alphanumeric() && c != '-')
        })
        .filter(|word| word.chars().next().is_some_and(char::is_lowercase))
        .collect()
}

/// The offering names one title or heading holds (lists split on commas and "and").
fn names(
    text: &str,
    tokenizer: &Tokenizer,
    excluded: &[Vec<String>],
    pairs: &FixedPairs,
    joined: &HashSet<String>,
    language: &Language,
) -> Vec<String> {
    let english = language.code() == "en";
    let spaced = text.replace('&', " and ");
    let mut out = Vec::new();
    for part in spaced.split(['|', '–', '—', ':', '·', '(', ')', '/', ';', '!']) {
        let mut conjuncts: Vec<&str> = part
            .split(',')
            // "Vehicles & Systems We Handle": what the site works on, not what it sells.
            .filter(|item| !tokenizer.words(item).iter().any(|w| w == "we"))
            .flat_map(|item| {
                if english {
                    split_at_and(item, tokenizer, pairs)
                } else {
                    item.split(" and ").collect()
                }
            })
            .collect();
        // "Microgreens – Für Restaurants, Handel & Privat": a list opened by whom it is for
        // names audiences to its end.
        let audience = conjuncts.iter().position(|conjunct| {
            tokenizer.words(conjunct).first().map(String::as_str) == language.audience_preposition()
        });
        if let Some(audience) = audience {
            conjuncts.truncate(audience);
        }
        let distributed = if english {
            shared_tail(&conjuncts, tokenizer)
        } else if language.head_is_first() {
            shared_head(&conjuncts, tokenizer)
        } else {
            None
        };
        if let Some(distributed) = distributed {
            out.extend(
                distributed
                    .iter()
                    .filter_map(|name| clean(name, tokenizer, excluded, joined, language)),
            );
            continue;
        }
        for piece in conjuncts.iter().flat_map(|c| c.split(" - ")) {
            if let Some(name) = clean(piece, tokenizer, excluded, joined, language) {
                out.push(name);
            }
        }
    }
    out
}

/// A list item's conjuncts: "Roofing and Siding" two; "Health and Safety" one, where the
/// site never writes its words apart ([`FixedPairs`]). English only: German pairs its
/// services so ("Haushaltshilfe & Alltagshilfe", "Einkäufe & Besorgungen"), each an offering.
fn split_at_and<'a>(item: &'a str, tokenizer: &Tokenizer, pairs: &FixedPairs) -> Vec<&'a str> {
    let conjuncts: Vec<&str> = item.split(" and ").collect();
    let fixed = match conjuncts[..] {
        [first, second] => {
            let (first, second) = (tokenizer.words(first), tokenizer.words(second));
            matches!((&first[..], &second[..]), ([x], [y]) if pairs.holds(x, y))
        }
        _ => false,
    };
    if fixed {
        vec![item]
    } else {
        conjuncts
    }
}

/// "Carrelage intérieur & extérieur" names carrelage extérieur, and "Parquet stratifié,
/// contrecollé & massif" parquet massif, not "extérieur" and "massif" alone: in a language
/// that puts its noun first, one-word conjuncts after a longer first one share its head.
fn shared_head(conjuncts: &[&str], tokenizer: &Tokenizer) -> Option<Vec<String>> {
    let (first, rest) = conjuncts.split_first()?;
    let first = tokenizer.words(first);
    let rest: Vec<Vec<String>> = rest.iter().map(|c| tokenizer.words(c)).collect();
    let shared = first.len() >= 2 && !rest.is_empty() && rest.iter().all(|c| c.len() == 1);
    if !shared {
        return None;
    }
    let head = first[..first.len() - 1].join(" ");
    let mut names = vec![first.join(" ")];
    names.extend(rest.iter().map(|c| format!("{head} {}", c[0])));
    Some(names)
}

/// "Light, Medium & Heavy Duty Towing" names light, medium and heavy duty towing, not
/// "light" alone; "Residential and Commercial Roofing" names residential roofing. Read so when
/// every conjunct but the last is one word, and each of them and the last's first word can be
/// an adjective or a singular noun (Wiktionary): "Roofing and Gutter Repair" names roofing
/// and gutter repair.
fn shared_tail(conjuncts: &[&str], tokenizer: &Tokenizer) -> Option<Vec<String>> {
    let (last, modifiers) = conjuncts.split_last()?;
    let last = tokenizer.words(last);
    let modifiers: Vec<Vec<String>> = modifiers.iter().map(|c| tokenizer.words(c)).collect();
    // A singular noun modifies as an adjective does ("Charity & Community PAT Testing",
    // "Kitchen and Bath Remodeling"); a plural or a gerund is a name of its own ("Gutters and
    // Downspout Cleaning", "Roofing and Gutter Repair"). The table leaves out the words that are
    // only nouns ("charity"): an unknown word is read as one.
    let modifies = |word: &String| {
        let parts = english_parts(word);
        parts.can_be_adjective()
            || ((parts.can_be_noun() || !parts.is_known())
                && !word.ends_with('s')
                && !word.ends_with("ing"))
    };
    let shared = !modifiers.is_empty()
        && last.len() >= 2
        && modifies(&last[0])
        && modifiers.iter().all(|m| m.len() == 1 && modifies(&m[0]));
    if !shared {
        return None;
    }
    let tail = last[1..].join(" ");
    let mut names: Vec<String> = modifiers
        .iter()
        .map(|m| format!("{} {tail}", m[0]))
        .collect();
    names.push(last.join(" "));
    Some(names)
}

/// `joined`: the words the site joins to "in" with a hyphen ([`joined_to_in`]): "Walk In
/// Tubs" is not cut there.
fn clean(
    piece: &str,
    tokenizer: &Tokenizer,
    excluded: &[Vec<String>],
    joined: &HashSet<String>,
    language: &Language,
) -> Option<String> {
    let english = language.code() == "en";
    let mut words = tokenizer.words(piece);
    words.drain(..possessive_opening(&words, language));
    // "Roof Repair in Newark", "Haushaltshilfe in Hannover": English, German and Dutch name
    // a place after these words. A language that puts its noun first names a material or a
    // kind after its "in" ("Infissi in Alluminio", "Porte in Legno"): there only a place is
    // cut, and the word left before it.
    let noun_first = language.head_is_first();
    if !noun_first {
        let cuts = |(at, word): &(usize, &String)| {
            CUT_BEFORE.contains(&word.as_str())
                && !(word.as_str() == "in" && *at > 0 && joined.contains(&words[at - 1]))
        };
        if let Some((cut, _)) = words.iter().enumerate().find(cuts) {
            words.truncate(cut);
        }
    }
    for name in excluded {
        remove_sequence(&mut words, name);
    }
    while noun_first
        && words
            .last()
            .is_some_and(|w| CUT_BEFORE.contains(&w.as_str()) || w.chars().count() <= 2)
    {
        words.pop();
    }
    if words.len() > 1 && words.last().is_some_and(|w| SHOWCASE.contains(&w.as_str())) {
        words.pop();
    }
    // "Musikschule Unterallgäu e.V.": what the registered name says, without its legal form.
    while words.len() > 1
        && words
            .last()
            .is_some_and(|w| REGISTERED_FORMS.contains(&w.as_str()))
    {
        words.pop();
    }
    // "Emergency Roof Repair NJ": the state the site works in, after what it does.
    if english && words.len() > 1 {
        if let Some(code) = state_code_at_end(piece) {
            if words.last().is_some_and(|last| *last == code) {
                words.pop();
            }
        }
    }
    let first = words.first()?;
    let name = words.join(" ");
    let rejected = words.len() > MAX_WORDS
        || NOT_FIRST.contains(&first.as_str())
        || words.iter().any(|w| {
            NOT_ANYWHERE.contains(&w.as_str())
                || NOT_ANYWHERE_ELSEWHERE.contains(&w.as_str())
                || w.chars().any(|c| c.is_ascii_digit())
                || w.chars().count() < 2
        })
        || (words.len() == 1 && first.chars().count() < 4)
        || (english
            && words.last().is_some_and(|last| {
                describes(last)
                    || AUDIENCE.contains(&last.as_str())
                    || PROVIDERS.contains(&last.as_str())
            }))
        || (english && words.iter().all(|w| sells_with(w)))
        || words.iter().all(|w| COLOURS.contains(&w.as_str()))
        || is_region(&name)
        || (english && words.len() > 1 && words.last().is_some_and(|w| is_road(w)))
        // "Effie Home Page": the site's front page by its name.
        || name.ends_with("home page")
        || name.ends_with("homepage")
        || PLACES.contains(&name.as_str())
        || GENERIC.contains(&name.as_str())
        || GENERIC_ELSEWHERE.contains(&name.as_str());
    (!rejected).then_some(name)
}

/// The US state code a name ends with, written as one ("Emergency Roof Repair NJ"), in
/// lowercase; not the codes that are English words in capitals ("Photo ID", "Walk IN").
fn state_code_at_end(piece: &str) -> Option<String> {
    const WORDS: [&str; 6] = ["ID", "IN", "OR", "ME", "HI", "OK"];
    let last = piece.split_whitespace().last()?;
    let code = last.to_ascii_lowercase();
    let is_code = last.len() == 2
        && last.chars().all(|c| c.is_ascii_uppercase())
        && !WORDS.contains(&last)
        && US_STATE_CODES.contains(&code.as_str());
    is_code.then_some(code)
}

/// An English word that describes rather than names: a listed one, a past participle
/// ("licensed", "insured"; not "shed", "seed" or "flowerbed") or an adjective by its ending
/// ("comfortable", "painless", "gorgeous").
pub(crate) fn describes(word: &str) -> bool {
    let long = word.chars().count() > 5;
    DESCRIBING.contains(&word)
        || (long && word.ends_with("ed") && !word.ends_with("eed") && !word.ends_with("bed"))
        || (long
            && ["able", "ible", "ful", "ous", "less"]
                .iter()
                .any(|end| word.ends_with(end)))
}

/// A word that names no offering of its own: a describing word, a number or a noun any
/// business sells with ("One Local Team", "Expert Care").
fn sells_with(word: &str) -> bool {
    describes(word) || SELLING_NOUNS.contains(&word) || is_numeric_word(word)
}

/// An English plural's singular, near enough to compare names ("subscriptions").
fn singular(word: &str) -> &str {
    match word.strip_suffix('s') {
        Some(stem) if stem.chars().count() > 2 && !stem.ends_with('s') => stem,
        _ => word,
    }
}

fn remove_sequence(words: &mut Vec<String>, name: &[String]) {
    if name.is_empty() || name.len() > words.len() {
        return;
    }
    if let Some(at) = words.windows(name.len()).position(|w| w == name) {
        words.drain(at..at + name.len());
    }
}

#[cfg(test)]
mod tests;
