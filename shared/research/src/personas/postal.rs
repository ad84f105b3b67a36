//! Towns in postal addresses: where a business is, whatever words surround it. A US address
//! ends "West Jordan, UT 84088"; most of Europe writes a five-digit code before the town
//! ("56727 Mayen", "75001 Paris", "00172 Roma"), the Netherlands four digits and two letters
//! ("4461 AB Goes"). A site that lists its shops by address names no "serving" at all.

use super::places::{is_name_word, tokens, Token};
use crate::text::us_states::US_STATE_CODES;

/// Words a US address's town never holds, ending the name when read backwards.
const BEFORE_TOWN: [&str; 9] = [
    "llc", "inc", "ltd", "co", "corp", "serving", "serves", "located", "visit",
];
/// Longest town name, in words.
const MAX_TOWN_WORDS: usize = 3;
/// Words of a street, never of its town ("123 Main Street Springfield, IL").
const STREET_WORDS: [&str; 22] = [
    "street",
    "st",
    "avenue",
    "ave",
    "road",
    "rd",
    "boulevard",
    "blvd",
    "drive",
    "dr",
    "lane",
    "ln",
    "way",
    "court",
    "ct",
    "suite",
    "ste",
    "highway",
    "hwy",
    "parkway",
    "pkwy",
    "unit",
];

/// The towns of the postal addresses in `text`, in order.
pub(crate) fn postal_towns(text: &str) -> Vec<String> {
    let tokens = tokens(text);
    let mut towns = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let Token::Word(word) = token else {
            continue;
        };
        if is_us_state_code(word)
            && matches!(tokens.get(i + 1), Some(Token::Word(zip)) if is_digits(zip, 5))
            && matches!(
                i.checked_sub(1).and_then(|p| tokens.get(p)),
                Some(Token::Comma)
            )
        {
            let before = &tokens[..i - 1];
            if let Some(town) = name_ending(before) {
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
        } else if is_digits(word, 4) {
            let letters = matches!(tokens.get(i + 1), Some(Token::Word(w))
                if w.len() == 2 && w.chars().all(|c| c.is_ascii_uppercase()));
            if letters {
                if let Some(town) = name_starting(&tokens[i + 2..]) {
                    towns.push(town);
                }
            }
        }
    }
    towns
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
            _ => break,
        }
    }
    words.reverse();
    (!words.is_empty()).then(|| words.join(" "))
}

/// The capitalised word `tokens` start with: one word, as German writes every noun with a
/// capital ("87746 Erkheim Öffnungszeiten" names Erkheim).
fn name_starting(tokens: &[Token]) -> Option<String> {
    match tokens.first() {
        Some(Token::Word(w)) if is_town_word(w) => Some(w.to_string()),
        _ => None,
    }
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
    word.chars().count() >= 2
        && is_name_word(word)
        && !STREET_WORDS.contains(&word.to_lowercase().as_str())
}

fn is_us_state_code(word: &str) -> bool {
    word.len() == 2
        && word.chars().all(|c| c.is_ascii_uppercase())
        && US_STATE_CODES.contains(&word.to_lowercase().as_str())
}

fn is_digits(word: &str, count: usize) -> bool {
    word.len() == count && word.chars().all(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::postal_towns;

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
        assert_eq!(postal_towns("Marktplatz 3, 56727 Mayen"), ["Mayen"]);
        assert_eq!(
            postal_towns("12 rue de la Paix, 75001 Paris, France"),
            ["Paris"]
        );
        assert_eq!(postal_towns("Lange Kerkstraat 10, 4461 AB Goes"), ["Goes"]);
        assert!(postal_towns("Since 2015 Awards, call 555 1234").is_empty());
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
            postal_towns("88 Colin P Kelly Jr St San Francisco CA 94107 United States"),
            Vec::<String>::new()
        );
    }
}
