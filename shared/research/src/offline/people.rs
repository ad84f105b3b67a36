//! People the primary site names (its owner, staff, artists, clients): a person's name is
//! never an offering ("buy <artist name>", "<trainer> trained"), so no keyword holds one.
//!
//! A person is two or three capitalised words in a row in the site's text, the last not a
//! word the site writes in lowercase nor an English word (a surname: "Ron Meyer"), when
//!
//! - the first is a given name (the `fake` crate's given-name lists of six locales: English,
//!   German, French, Italian, Brazilian and European Portuguese), or
//! - a title stands before it ("Dr.", "Mr", "Mrs", "Ms", "Prof."), or a credential after it
//!   ("DDS", "MD", "DVM", "LMT", "CPA", "PhD"), or a byline's "by" before it.
//!
//! The exception is the site's own name: a practitioner's site is often named after them
//! ("Leslie Carpenter DDS"), and there the name is the brand, a navigational query people do
//! type; the brand's words are never taken for a person here.

use std::collections::HashSet;
use std::sync::OnceLock;

use fake::locales::{Data, DE_DE, EN, FR_FR, IT_IT, PT_BR, PT_PT};

use crate::text::{english_parts, CommonNouns};
use crate::{PageContent, SiteRole};

const TITLES: [&str; 9] = [
    "dr", "dr.", "mr", "mr.", "mrs", "mrs.", "ms", "ms.", "prof.",
];
const CREDENTIALS: [&str; 12] = [
    "dds", "dmd", "md", "dc", "dvm", "lmt", "cpa", "phd", "esq", "rn", "np", "od",
];
const BYLINES: [&str; 1] = ["by"];

/// Given names (lowercase) of the `fake` crate's locales whose sites this service reads:
/// English, German, French, Italian and both Portuguese lists.
fn first_names() -> &'static HashSet<String> {
    static NAMES: OnceLock<HashSet<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        [
            EN::NAME_FIRST_NAME,
            DE_DE::NAME_FIRST_NAME,
            FR_FR::NAME_FIRST_NAME,
            IT_IT::NAME_FIRST_NAME,
            PT_BR::NAME_FIRST_NAME,
            PT_PT::NAME_FIRST_NAME,
        ]
        .into_iter()
        .flatten()
        .map(|name| name.to_lowercase())
        .collect()
    })
}

/// The people a site names, by their names' words (lowercase).
#[derive(Debug, Default)]
pub(super) struct People {
    /// Every word of every name found.
    words: HashSet<String>,
    /// Names of the site's owners: a word of theirs is in the site's domain ("Jason Berke" of
    /// berkelaw.com), so their whole name is a navigational query.
    owners: Vec<Vec<String>>,
    /// Words of the site's name and domain: never a reason to drop a keyword.
    own_words: HashSet<String>,
}

impl People {
    /// The people the primary site's pages name; `brand` words and the words of `places` (and
    /// US states) are never a person's ("Austin", "Denver").
    pub fn of_site(pages: &[PageContent], brand: &[String], places: &[String]) -> Self {
        let places: HashSet<String> = places
            .iter()
            .flat_map(|place| lowercase_words(place))
            .collect();
        let primary: Vec<&PageContent> = pages
            .iter()
            .filter(|p| p.site == Some(SiteRole::Primary))
            .collect();
        let usage = Usage::of(&primary);
        let mut people = People {
            own_words: own_words(&primary, brand),
            ..People::default()
        };
        for page in &primary {
            for text in texts(page) {
                people.read(text, &usage, brand, &places);
            }
        }
        people
    }

    fn read(&mut self, text: &str, usage: &Usage, brand: &[String], places: &HashSet<String>) {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let mut i = 0;
        while i < tokens.len() {
            if let Some(run) = remembered(&tokens, i) {
                let words: Vec<String> = tokens[i..i + run]
                    .iter()
                    .map(|t| trim(t).to_lowercase())
                    .collect();
                if !words.iter().any(|w| brand.contains(w)) {
                    self.words.extend(words);
                }
                i += run;
                continue;
            }
            // A given name and a surname, or with a middle initial between them ("Ron J.
            // Meyer"); a name ends at punctuation ("Meyer," ends it).
            let initial = tokens.get(i + 1).is_some_and(|t| is_initial(t));
            let run = if initial { 3 } else { 2 };
            let whole = tokens.len() >= i + run
                && is_capitalised(trim(tokens[i]))
                && !tokens[i].ends_with([',', '.', ':', ';', '!', '?', '|'])
                && is_capitalised(trim(tokens[i + run - 1]));
            if !whole {
                i += 1;
                continue;
            }
            let words: Vec<String> = tokens[i..i + run]
                .iter()
                .map(|t| trim(t).to_lowercase())
                .collect();
            let before = i
                .checked_sub(1)
                .map(|b| tokens[b].to_lowercase())
                .unwrap_or_default();
            let after = tokens
                .get(i + run)
                .map(|t| trim(t).to_lowercase())
                .unwrap_or_default();
            let (first, last) = (&words[0], &words[run - 1]);
            let surname = !usage.lowercase.contains(last.as_str())
                && !english_parts(last).is_known()
                && !usage.is_common_noun(last);
            // A given name that is also a word ("Cat", "Grace") is a name only where the site
            // never writes it in lowercase.
            let given = first_names().contains(first.as_str())
                && !usage.lowercase.contains(first)
                && !english_parts(first).can_be_adjective();
            let context = TITLES.contains(&before.as_str())
                || BYLINES.contains(&before.as_str())
                || CREDENTIALS.contains(&after.as_str());
            let branded = words
                .iter()
                .any(|w| brand.contains(w) || places.contains(w.as_str()));
            // "Jakob Sawazki" of "Sawazki Electronics": the owner's whole name is a query of
            // the brand's, his given name alone no offering ("jakob freudenstadt").
            let owner_of_brand = given
                && words[..run - 1].iter().all(|w| !brand.contains(w))
                && brand.contains(last);
            if owner_of_brand {
                if !self.owners.contains(&words) {
                    self.owners.push(words.clone());
                }
                self.words.insert(first.clone());
                i += run;
            } else if surname && (given || context) && !branded {
                if words.iter().any(|w| self.own_words.contains(w)) && !self.owners.contains(&words)
                {
                    self.owners.push(words.clone());
                }
                self.words.extend(words);
                i += run;
            } else {
                i += 1;
            }
        }
    }

    /// Whether `words` (lowercase) hold a word of a person's name: never an offering.
    pub fn named_in(&self, words: &[String]) -> bool {
        words.iter().any(|w| self.words.contains(w))
    }

    /// Whether a keyword of `words` (lowercase) is about a person, not what the site offers:
    /// it holds a word of a person's name that is not the site's own name, and is not an
    /// owner's whole name alone ("jason berke" of a law firm stays, a navigational query).
    pub fn drops(&self, words: &[String]) -> bool {
        words
            .iter()
            .any(|w| self.words.contains(w) && !self.own_words.contains(w))
            && !self.owners.iter().any(|owner| owner == words)
    }

    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}

/// How the primary site writes its words: which it writes in lowercase, and which capitalised
/// ones are its nouns.
struct Usage {
    lowercase: HashSet<String>,
    /// A capitalised word the site writes after many different words is a noun it uses, not
    /// a surname: German capitalises its nouns ("Nelli Hubert Haushaltshilfe" holds no Hubert
    /// Haushaltshilfe; the site writes "professionelle", "freundliche", "ihrer
    /// Haushaltshilfe").
    nouns: CommonNouns,
}

impl Usage {
    fn of(primary: &[&PageContent]) -> Self {
        let lowercase = primary
            .iter()
            .flat_map(|page| texts(page))
            .flat_map(str::split_whitespace)
            .map(trim)
            .filter(|word| word.chars().next().is_some_and(char::is_lowercase))
            .map(str::to_string)
            .collect();
        Usage {
            lowercase,
            nouns: CommonNouns::of_texts(primary.iter().flat_map(|page| texts(page))),
        }
    }

    fn is_common_noun(&self, word: &str) -> bool {
        self.nouns.holds(word)
    }
}

/// The words of the site's name (`brand`) and the words of its domain's labels that the
/// site writes ("berke" of berkelaw.com): a person named by them is its owner.
pub(super) fn own_words(primary: &[&PageContent], brand: &[String]) -> HashSet<String> {
    let labels: HashSet<String> = primary
        .iter()
        .filter_map(|page| page.url.split_once("://"))
        .filter_map(|(_, rest)| rest.split(['/', ':', '?', '#']).next())
        .flat_map(|host| {
            let host = host.strip_prefix("www.").unwrap_or(host);
            let labels: Vec<&str> = host.split('.').collect();
            labels[..labels.len().saturating_sub(1)]
                .iter()
                .map(|l| l.to_lowercase())
                .collect::<Vec<_>>()
        })
        .collect();
    let mut words: HashSet<String> = brand.iter().cloned().collect();
    for page in primary {
        for text in texts(page) {
            for word in text.split_whitespace() {
                let word = trim(word).to_lowercase();
                if word.chars().count() >= 4 && labels.iter().any(|l| l.contains(&word)) {
                    words.insert(word);
                }
            }
        }
    }
    words
}

fn texts(page: &PageContent) -> impl Iterator<Item = &str> {
    [page.title.as_str(), page.body_text.as_str()]
        .into_iter()
        .chain(page.headings.iter().map(String::as_str))
        .chain(page.image_alts.iter().map(String::as_str))
        .chain(page.json_ld_names.iter().map(String::as_str))
}

fn trim(token: &str) -> &str {
    token.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
}

fn lowercase_words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_lowercase).collect()
}

/// Words after which a memorial names the person it remembers ("In Loving Memory of Carlene
/// Leone Smith", "Obituary: Carl Taylor"), whatever their names are: a funeral home's pages.
const MEMORIALS: [&[&str]; 6] = [
    &["memory", "of"],
    &["obituary"],
    &["obituary:"],
    &["memoriam"],
    &["nachruf"],
    &["ricordo", "di"],
];

/// How many capitalised words (two or three) at `i` follow a memorial's words.
fn remembered(tokens: &[&str], i: usize) -> Option<usize> {
    let after_memorial = MEMORIALS.iter().any(|memorial| {
        i >= memorial.len()
            && tokens[i - memorial.len()..i]
                .iter()
                .zip(memorial.iter())
                .all(|(token, word)| token.to_lowercase() == *word)
    });
    if !after_memorial {
        return None;
    }
    let mut run = 0;
    for token in tokens[i..].iter().take(3) {
        if !is_capitalised(trim(token)) {
            break;
        }
        run += 1;
        if token.ends_with([',', '.', ':', ';', '!', '?', '|']) {
            break;
        }
    }
    (run >= 2).then_some(run)
}

/// "J." of "Ron J. Meyer".
fn is_initial(token: &str) -> bool {
    let mut chars = token.chars();
    chars.next().is_some_and(char::is_uppercase) && chars.as_str() == "."
}

/// "Meyer", "O'Neil": an upper-case letter, then lower-case letters only.
fn is_capitalised(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(char::is_uppercase)
        && word.chars().count() > 1
        && chars.all(|c| c.is_lowercase() || c == '\'' || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(body: &str, headings: &[&str]) -> PageContent {
        PageContent {
            url: "https://studio.example/".into(),
            site: Some(SiteRole::Primary),
            title: "Canvas Prints | Studio".into(),
            headings: headings.iter().map(|h| h.to_string()).collect(),
            body_text: body.into(),
            ..PageContent::default()
        }
    }

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn a_given_name_with_a_surname_or_a_title_is_a_person() {
        let pages = [page(
            "Meet our founder Ron Meyer, who trained with Dr. Okafor Nwosu. Prints by Tamsin \
             Oyelaran are framed by hand. We print canvas and framed prints.",
            &["Framed Prints", "Canvas Prints"],
        )];
        let people = People::of_site(&pages, &[], &[]);
        assert!(people.named_in(&words("ron meyer prints")));
        assert!(people.named_in(&words("buy nwosu")));
        assert!(people.named_in(&words("tamsin oyelaran price")));
        assert!(!people.named_in(&words("framed prints")));
        assert!(!people.named_in(&words("canvas prints")));
    }

    #[test]
    fn an_owner_named_in_the_domain_is_a_navigational_query_alone() {
        let mut home = page("Jason Berke represents landlords in eviction cases.", &[]);
        home.url = "https://berkelaw.com/".into();
        let people = People::of_site(&[home], &[], &[]);
        assert!(!people.drops(&words("jason berke")));
        assert!(!people.drops(&words("berke eviction lawyer")));
        assert!(people.drops(&words("jason eviction lawyer")));
        assert!(people.named_in(&words("jason berke")));
    }

    #[test]
    fn capitalised_offerings_and_the_brand_are_no_people() {
        let pages = [page(
            "Grace Church hosts our Autumn Fox Garden Flag sale. Leslie Carpenter DDS treats \
             families. Cat Grooming Richmond for every cat. Windshields in Austin Travis. \
             Fresh Mozzarella Served With Shredded Lettuce.",
            &["Autumn Fox Garden Flag"],
        )];
        let people = People::of_site(&pages, &words("leslie carpenter"), &["Austin".to_string()]);
        assert!(people.is_empty(), "{people:?}");
    }

    #[test]
    fn a_noun_the_site_writes_after_many_words_is_no_surname() {
        let pages = [page(
            "Ihre Haushaltshilfe. Professionelle Haushaltshilfe in Hannover. Freundliche \
             Haushaltshilfe. Eine Haushaltshilfe kommt. Team: Nelli Hubert Haushaltshilfe, \
             Sven Wulf.",
            &["Haushaltshilfe"],
        )];
        let people = People::of_site(&pages, &[], &[]);
        assert!(!people.named_in(&words("haushaltshilfe")), "{people:?}");
        assert!(people.named_in(&words("sven wulf")));
    }

    #[test]
    fn the_given_name_of_an_owner_named_as_the_brand_is_no_offering() {
        let pages = [page(
            "Ihr IT-Service von Jakob Sawazki in Freudenstadt.",
            &[],
        )];
        let people = People::of_site(&pages, &words("sawazki electronics"), &[]);
        assert!(people.named_in(&words("jakob freudenstadt")));
        assert!(people.drops(&words("jakob freudenstadt")));
        assert!(!people.drops(&words("jakob sawazki")));
        assert!(!people.drops(&words("sawazki electronics")));
    }

    #[test]
    fn a_memorial_names_a_person_whatever_the_name() {
        let pages = [page(
            "In Loving Memory of Carlene Leone Smith | Funeral Services. Funeral packages.",
            &["In Loving Memory of Carl Winchester Taylor"],
        )];
        let people = People::of_site(&pages, &[], &[]);
        assert!(people.named_in(&words("carlene leone smith kingston")));
        assert!(people.named_in(&words("winchester taylor")));
        assert!(!people.named_in(&words("funeral packages")));
    }
}
