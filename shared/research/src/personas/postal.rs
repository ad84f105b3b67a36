//! Towns in postal addresses: where a business is, whatever words surround it. A US address
//! ends "West Jordan, UT 84088"; most of Europe writes a five-digit code before the town
//! ("56727 Mayen", "75001 Paris", "00172 Roma"), the Netherlands four digits and two letters
//! ("4461 AB Goes"), Portugal four and three digits ("3460-549 Tondela"), Austria,
//! Switzerland and Belgium four digits ("9185 Wachtebeke", after a house number's comma or a
//! country's letter). Australia and Britain write the town before the code ("Joondalup WA
//! 6027", "Gateshead NE8 1AB"). A site that lists its shops by address names no "serving" at
//! all.

use super::places::{is_name_word, offset_in, tokens, Token};
use crate::text::us_states::US_STATE_CODES;

/// Words a US address's town never holds, ending the name when read backwards.
const BEFORE_TOWN: [&str; 9] = [
    "llc", "inc", "ltd", "co", "corp", "serving", "serves", "located", "visit",
];
/// Australia's states and territories, written before the postcode ("Joondalup WA 6027").
const AUSTRALIAN_STATES: [&str; 8] = ["NSW", "VIC", "QLD", "WA", "SA", "TAS", "NT", "ACT"];
/// The letters a country's postcode may carry in front ("CH-6213", "A-9520", "B-9185").
const COUNTRY_LETTERS: [&str; 9] = ["A", "AT", "CH", "B", "BE", "DK", "L", "LU", "N"];
/// Small words inside a British town's name ("Newcastle upon Tyne", "Southend on Sea").
const INSIDE_TOWN: [&str; 3] = ["upon", "on", "under"];
/// Longest town name, in words.
const MAX_TOWN_WORDS: usize = 3;
/// The last word of a road's name ("Main Street", "Jericho Turnpike"): a street, never a
/// town nor an offering.
const ROADS: [&str; 13] = [
    "street",
    "st",
    "avenue",
    "ave",
    "road",
    "rd",
    "boulevard",
    "blvd",
    "highway",
    "hwy",
    "turnpike",
    "parkway",
    "pkwy",
];
/// Other words of a street or an address line, never of its town ("290 Rickenbacker Cir
/// Livermore, CA"); some also name things ("court", "place"), so only an address reads them.
const OTHER_STREET_WORDS: [&str; 22] = [
    "circle", "cir", "place", "pl", "terrace", "ter", "trail", "trl", "loop", "plaza", "square",
    "crescent", "drive", "dr", "lane", "ln", "way", "court", "ct", "suite", "ste", "unit",
];

/// A road's last word, by [`ROADS`].
pub(crate) fn is_road(word: &str) -> bool {
    ROADS.contains(&word)
}

/// A word of a street (lowercase): a road's or another of an address line.
fn is_street_word(word: &str) -> bool {
    is_road(word) || OTHER_STREET_WORDS.contains(&word)
}

/// The towns of the postal addresses in `text`, in order.
pub(crate) fn postal_towns(text: &str) -> Vec<String> {
    let tokens = tokens(text);
    let mut towns = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let Token::Word(word) = token else {
            continue;
        };
        let after_comma = matches!(
            i.checked_sub(1).and_then(|p| tokens.get(p)),
            Some(Token::Comma)
        );
        // The town before its region and code: "West Jordan, UT 84088", "Joondalup WA 6027",
        // "Joondalup, WA, 6027", "Gateshead, NE8 1AB".
        let town_first =
            (is_us_state_code(word) && after_comma && is_postcode_at(&tokens, i + 1, 5))
                || (is_australian_state(word)
                    && (is_postcode_at(&tokens, i + 1, 4)
                        || (tokens.get(i + 1) == Some(&Token::Comma)
                            && is_postcode_at(&tokens, i + 2, 4))))
                || (is_uk_outward_code(word)
                    && matches!(tokens.get(i + 1), Some(Token::Word(w)) if is_uk_inward_code(w)));
        if town_first {
            let end = if after_comma { i - 1 } else { i };
            if let Some(town) = name_ending(&tokens[..end]) {
                towns.push(town);
            }
        } else if after_number(&tokens, i) || after_us_state(&tokens, i) {
            // A phone number's groups ("070 93039 WhatsApp") are no postal code, and a US
            // ZIP code is followed by the country ("CA 94107 United States").
            continue;
        } else if is_digits(word, 5) {
            if let Some(town) = name_starting(&tokens[i + 1..]) {
                towns.push(town);
            }
        } else if is_digits(word, 4) && is_portuguese_code(text, &tokens, i) {
            if let Some(town) = name_starting(&tokens[i + 2..]) {
                towns.push(town);
            }
        } else if is_digits(word, 4) {
            let letters = matches!(tokens.get(i + 1), Some(Token::Word(w))
                if w.len() == 2 && w.chars().all(|c| c.is_ascii_uppercase()));
            if letters {
                if let Some(town) = name_starting(&tokens[i + 2..]) {
                    towns.push(town);
                }
            } else if !word.starts_with('0') && after_address_line(&tokens, i) {
                // Four digits before the town (Austria, Switzerland, Belgium, Denmark) only
                // where an address shows it: after a house number and its comma
                // ("Dorfstrasse 12, 6213 Fideris") or a country's letter ("CH-6213
                // Fideris"), as a year is written before a capitalised noun too.
                if let Some(town) = name_starting(&tokens[i + 1..]) {
                    towns.push(town);
                }
            }
        }
    }
    towns
}

/// Portugal's four digits, a hyphen and three digits before the town ("3460-549 Tondela").
fn is_portuguese_code(text: &str, tokens: &[Token], at: usize) -> bool {
    let (Some(Token::Word(first)), Some(Token::Word(second))) =
        (tokens.get(at), tokens.get(at + 1))
    else {
        return false;
    };
    let end = offset_in(text, first) + first.len();
    is_digits(second, 3) && &text[end..offset_in(text, second)] == "-"
}

/// The capitalised words that end `tokens` (at most [`MAX_TOWN_WORDS`]), back to a number,
/// a street word, a company's form or "serving" ("Pest Control LLC Manchester, NJ").
fn name_ending(tokens: &[Token]) -> Option<String> {
    let mut words: Vec<&str> = Vec::new();
    for token in tokens.iter().rev() {
        match token {
            Token::Word(w)
                if is_town_word(w)
                    && !BEFORE_TOWN.contains(&w.to_lowercase().as_str())
                    && words.len() < MAX_TOWN_WORDS =>
            {
                words.push(w)
            }
            Token::Word(w) if INSIDE_TOWN.contains(w) && !words.is_empty() => words.push(w),
            _ => break,
        }
    }
    // "upon Tyne" alone: the small word opens no name.
    while words.last().is_some_and(|w| INSIDE_TOWN.contains(w)) {
        words.pop();
    }
    words.reverse();
    (!words.is_empty()).then(|| words.join(" "))
}

/// The capitalised word `tokens` start with: one word, as German writes every noun with a
/// capital ("87746 Erkheim Öffnungszeiten" names Erkheim).
fn name_starting(tokens: &[Token]) -> Option<String> {
    // "1420 SE Division Street", "12345 Main Street": a house number before its street, whose
    // name a street word follows, not a postal code before a town.
    let street = matches!(tokens.get(1), Some(Token::Word(w))
        if is_street_word(&w.to_lowercase()));
    match tokens.first() {
        // "53604 Bad Honnef", "53757 Sankt Augustin": a spa's or a saint's town is two words.
        Some(Token::Word(w)) if TOWN_PREFIXES.contains(w) => match tokens.get(1) {
            Some(Token::Word(next)) if is_town_word(next) => Some(format!("{w} {next}")),
            _ => None,
        },
        Some(Token::Word(w)) if is_town_word(w) && !street => Some(w.to_string()),
        _ => None,
    }
}

/// Words that open a German town's name of two ("Bad Honnef", "Sankt Augustin").
const TOWN_PREFIXES: [&str; 2] = ["Bad", "Sankt"];

/// Whether the four digits at `i` follow a house number and its comma, or a country's
/// letters ("CH-6213").
fn after_address_line(tokens: &[Token], i: usize) -> bool {
    let before = |back: usize| i.checked_sub(back).and_then(|p| tokens.get(p));
    match before(1) {
        Some(Token::Word(w)) => COUNTRY_LETTERS.contains(w),
        Some(Token::Comma) => matches!(before(2), Some(Token::Word(w))
            if w.starts_with(|c: char| c.is_ascii_digit()) && w.chars().count() <= 4),
        _ => false,
    }
}

fn is_postcode_at(tokens: &[Token], i: usize, digits: usize) -> bool {
    matches!(tokens.get(i), Some(Token::Word(w)) if is_digits(w, digits))
}

fn is_australian_state(word: &str) -> bool {
    AUSTRALIAN_STATES.contains(&word)
}

/// A British postcode's first half: one or two letters, a digit, and a digit or letter
/// ("NE8", "SW1A", "M1").
fn is_uk_outward_code(word: &str) -> bool {
    let letters = word.chars().take_while(char::is_ascii_uppercase).count();
    let rest = &word[letters..];
    (1..=2).contains(&letters)
        && rest.starts_with(|c: char| c.is_ascii_digit())
        && (1..=2).contains(&rest.len())
        && rest
            .chars()
            .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
}

/// A British postcode's second half: a digit and two letters ("1AB").
fn is_uk_inward_code(word: &str) -> bool {
    let chars: Vec<char> = word.chars().collect();
    chars.len() == 3 && chars[0].is_ascii_digit() && chars[1..].iter().all(char::is_ascii_uppercase)
}

fn after_us_state(tokens: &[Token], i: usize) -> bool {
    matches!(i.checked_sub(1).and_then(|p| tokens.get(p)), Some(Token::Word(w)) if is_us_state_code(w))
}

/// Whether the word at `i` follows a number (a phone number's next group).
fn after_number(tokens: &[Token], i: usize) -> bool {
    matches!(i.checked_sub(1).and_then(|p| tokens.get(p)),
        Some(Token::Word(w)) if w.chars().all(|c| c.is_ascii_digit()))
}

fn is_town_word(word: &str) -> bool {
    word.chars().count() >= 2 && is_name_word(word) && !is_street_word(&word.to_lowercase())
}

fn is_us_state_code(word: &str) -> bool {
    word.len() == 2
        && word.chars().all(|c| c.is_ascii_uppercase())
        && US_STATE_CODES.contains(&word.to_lowercase().as_str())
}

fn is_digits(word: &str, count: usize) -> bool {
    word.len() == count && word.chars().all(|c| c.is_ascii_digit())
}

/// The towns of the address an embedded map shows. A postal address gives its town
/// ([`postal_towns`]); a short one is read by its commas: the town is the part before a
/// state or province ("Waterford Township, MI", "Les Éboulements, QC G0A 2M0", "Austin,Texas")
/// or, after a street or a business, the last part ("Via Colfelice, Roma"). One part alone
/// is as often the business's name ("Junk Chief") as a town, and names none.
pub(crate) fn map_towns(address: &str) -> Vec<String> {
    let towns = postal_towns(address);
    if !towns.is_empty() {
        return towns;
    }
    let parts: Vec<&str> = address
        .split(',')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .collect();
    let Some((last, before)) = parts.split_last() else {
        return Vec::new();
    };
    let is_state = |part: &str| {
        let code = part.split_whitespace().next().unwrap_or_default();
        super::places::is_region(part)
            || (code.len() <= 3 && code.chars().all(|c| c.is_ascii_uppercase()))
    };
    let town = match before.last() {
        Some(town) if is_state(last) => *town,
        Some(_) => *last,
        None => return Vec::new(),
    };
    let words: Vec<&str> = town.split_whitespace().collect();
    let company = BEFORE_TOWN.contains(&last.to_lowercase().trim_end_matches('.'));
    let named = !company
        && (1..=MAX_TOWN_WORDS + 1).contains(&words.len())
        && is_name_word(words[0])
        && words.iter().all(|w| !w.chars().any(|c| c.is_ascii_digit()));
    if named {
        vec![town.to_string()]
    } else {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::{map_towns, postal_towns};

    #[test]
    fn towns_are_read_from_addresses() {
        assert_eq!(
            postal_towns("8939 S 2700 W West Jordan, UT 84088"),
            ["West Jordan"]
        );
        assert_eq!(
            postal_towns("123 Main Street Springfield, IL 62701"),
            ["Springfield"]
        );
        assert_eq!(
            postal_towns("290 Rickenbacker Cir Livermore, CA 94551"),
            ["Livermore"]
        );
        assert_eq!(postal_towns("Marktplatz 3, 56727 Mayen"), ["Mayen"]);
        assert_eq!(
            postal_towns("Frankenweg 109, 53604 Bad Honnef, Deutschland"),
            ["Bad Honnef"]
        );
        assert_eq!(
            postal_towns("12 rue de la Paix, 75001 Paris, France"),
            ["Paris"]
        );
        assert_eq!(postal_towns("Lange Kerkstraat 10, 4461 AB Goes"), ["Goes"]);
        assert!(postal_towns("Since 2015 Awards, call 555 1234").is_empty());
        assert_eq!(
            postal_towns("Rua Dr. Ricardo Mota, 3460-549 Tondela (junto às piscinas)"),
            ["Tondela"]
        );
        assert!(postal_towns("Desde 2015 300 Clientes").is_empty());
        assert_eq!(
            postal_towns("Pest Control LLC Manchester, NJ 08759"),
            ["Manchester"]
        );
        assert_eq!(
            postal_towns("Hauptstraße 5, 87746 Erkheim Öffnungszeiten"),
            ["Erkheim"]
        );
        assert!(postal_towns("Tel. 070 93039 WhatsApp").is_empty());
        assert_eq!(
            postal_towns("Roastery 1420 SE Division Street, Portland, OR 97202"),
            ["Portland"]
        );
        assert!(postal_towns("Visit 12345 Main Street").is_empty());
        assert_eq!(
            postal_towns("Stationsstraat 12, 9185 Wachtebeke"),
            ["Wachtebeke"]
        );
        assert_eq!(postal_towns("CH-6213 Fideris"), ["Fideris"]);
        assert!(postal_towns("Seit 1998 Familienbetrieb, 2000 Kunden").is_empty());
        assert_eq!(
            postal_towns("Unit 4, 12 Lakeside Drive, Joondalup WA 6027"),
            ["Joondalup"]
        );
        assert_eq!(
            postal_towns("14 High Street, Newcastle upon Tyne NE6 1AB"),
            ["Newcastle upon Tyne"]
        );
        assert_eq!(postal_towns("Unit 3, Gateshead, NE8 1AB"), ["Gateshead"]);
        assert_eq!(
            postal_towns("2/24 Mercer Ln, Joondalup, WA, 6027"),
            ["Joondalup"]
        );
        assert_eq!(
            postal_towns("88 Colin P Kelly Jr St San Francisco CA 94107 United States"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_maps_address_names_its_town() {
        for (address, town) in [
            ("Waterford Township, MI", "Waterford Township"),
            ("Austin,Texas", "Austin"),
            ("Les Éboulements, QC G0A 2M0", "Les Éboulements"),
            ("Via Colfelice, Roma", "Roma"),
            (
                "Gianni Vetrugno Infissi, Via Sara Librando 14, Carmiano",
                "Carmiano",
            ),
            (
                "Homedale Chiropractic Center, S Main, Homedale, ID",
                "Homedale",
            ),
            ("Kalve 62, 9185 Wachtebeke", "Wachtebeke"),
        ] {
            assert_eq!(map_towns(address), [town], "{address}");
        }
        for no_town in [
            "Junk Chief",
            "Gator Enterprise, LLC",
            "us",
            "Niederaula",
            "40.31,-3.85",
        ] {
            assert!(map_towns(no_town).is_empty(), "{no_town}");
        }
    }
}
