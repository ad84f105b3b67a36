//! Whether a query names a result's site, by the site's address alone (no list of sites):
//! people type a site's name as they remember it, so it is compared with each name in the
//! result's host (the registrable one, "amazon" of "www.amazon.co.uk", and a subdomain's of
//! [`MIN_SITE_NAME`] letters or more, "turbotax" of "turbotax.intuit.com", never a section's
//! "cpp" of "cpp.kanplas.com") in three ways:
//!
//! - **spelt out**: some of the query's words in a row, run together, each perhaps with an
//!   "s", and at most a short tail ("llc", "inc", a state's code): "murray asphalt" →
//!   murraysasphaltmi.com, "air canada" → aircanada.com, "slo county" → slocounty.ca.gov;
//! - **misspelt**: those words within one edit (a letter left out, added, changed or two
//!   swapped) of a name of five to eight letters, two of a longer one, and with its first
//!   letter: "amazn" → amazon.com, "craiglist" → craigslist.org, "paycvor" → paycor.com;
//! - **led by an article**: "black vault" → theblackvault.com.
//!
//! A name shorter than [`MIN_SITE_NAME`] letters is named only by a whole word ("ups", "cdc"),
//! never inside a longer one, nor misspelt: "ab testing" names no ab.com. The words are not
//! read in another order: "asphalt services in detroit" names no detroitasphaltllc.com.
//!
//! Developed on the tune half of ORCAS-I's hand-labelled queries with the page their users
//! clicked (`.ci/intent-sets`); figures in the README's intent section.

use crate::text::web_address::host_of;

/// Shortest site name matched by a run of words, a misspelling or a tail ("ab" would be in
/// too many).
const MIN_SITE_NAME: usize = 4;
/// Shortest name matched as a whole word of the query ("ups", "irs").
const MIN_WORD_NAME: usize = 3;
/// Letters a site's name may have beyond the query's words ("llc", "inc", "mi").
const MAX_NAME_TAIL: usize = 3;
/// Words of a query read as one site name ("columbus zoo and aquarium" → "columbuszoo").
const MAX_NAME_WORDS: usize = 4;
/// Names from this length may be misspelt by one edit, from [`LONG_NAME`] by two.
const TYPO_NAME: usize = 5;
const LONG_NAME: usize = 9;
/// Articles a site's name may start with that a query leaves out.
const ARTICLES: [&str; 1] = ["the"];

/// A query's words as site names are compared with them: compacted, a word with dots in its
/// parts ("turbotax.cp" → "turbotax", "cp"), and a word with an ampersand also as its site
/// would write it ("j&j" → "jj" and "jnj", "at&t" → "att" and "atnt").
#[derive(Debug, Default)]
pub(super) struct QueryNames {
    spellings: Vec<Vec<String>>,
}

impl QueryNames {
    /// `words`: the query's, lowercase, as the tokenizer gives them.
    pub fn new(words: &[String]) -> Self {
        let parts: Vec<&str> = words
            .iter()
            .flat_map(|word| word.split(['.', '_', '/']))
            .filter(|part| part.chars().any(char::is_alphanumeric))
            .collect();
        let mut spellings = vec![parts.iter().map(|part| compact(part)).collect::<Vec<_>>()];
        if parts.iter().any(|part| part.contains('&')) {
            spellings.push(
                parts
                    .iter()
                    .map(|part| compact(&part.replace('&', "n")))
                    .collect(),
            );
        }
        QueryNames { spellings }
    }

    /// How the query names the site of `url`, if it does.
    pub fn site(&self, url: &str) -> Option<Naming> {
        site_names(host_of(url))
            .iter()
            .filter_map(|name| self.name(name))
            .min()
    }

    /// How the query gives `name` (compacted), if it does.
    pub fn name(&self, name: &str) -> Option<Naming> {
        self.spellings
            .iter()
            .filter_map(|words| named_by(name, words))
            .min()
    }
}

/// How a query gives a site's name. The best is first: whole, then with the fewest words
/// beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Naming {
    /// The name has a tail the query leaves out ("llc" of "actionasphaltllc").
    pub tail: bool,
    /// The query's words besides those that give the name.
    pub beside: usize,
}

/// The names in a host a query may give: every label but "www", the public suffix and
/// second-level ones ("co" of "co.uk"), compacted; the registrable one first.
pub(super) fn site_names(host: &str) -> Vec<String> {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let mut labels: Vec<&str> = host.split('.').filter(|l| !l.is_empty()).collect();
    if labels.len() < 2 {
        return Vec::new();
    }
    labels.pop();
    while labels.len() > 1 && labels.last().is_some_and(|l| SECOND_LEVEL.contains(l)) {
        labels.pop();
    }
    labels
        .iter()
        .rev()
        .enumerate()
        // A short subdomain is a section's ("cpp.kanplas.com", "app.wi.gov"), not a name.
        .filter(|(at, label)| !is_www(label) && (*at == 0 || label.len() >= MIN_SITE_NAME))
        .map(|(_, label)| compact(label))
        .filter(|name| !name.is_empty())
        .collect()
}

/// Labels under a country's suffix that are no one's name ("co.uk", "com.au", "gov.uk").
const SECOND_LEVEL: [&str; 9] = ["co", "com", "org", "net", "gov", "ac", "edu", "ne", "or"];

/// "www", "www1", "www2".
fn is_www(label: &str) -> bool {
    label
        .strip_prefix("www")
        .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit()))
}

/// How `words` (one spelling of a query) give `name` (compacted), the best of every way they
/// do; `None` when they do not.
fn named_by(name: &str, words: &[String]) -> Option<Naming> {
    if name.len() < MIN_WORD_NAME {
        return None;
    }
    if words.iter().any(|word| word == name) {
        return Some(Naming {
            tail: false,
            beside: words.len() - 1,
        });
    }
    if name.len() < MIN_SITE_NAME {
        return None;
    }
    let unprefixed = ARTICLES
        .iter()
        .filter_map(|article| name.strip_prefix(article))
        .filter(|rest| rest.len() >= MIN_SITE_NAME);
    std::iter::once(name)
        .chain(unprefixed)
        .flat_map(|name| {
            (0..words.len()).filter_map(move |start| {
                let run = &words[start..words.len().min(start + MAX_NAME_WORDS)];
                spelt_from(name, run).map(|(taken, whole)| Naming {
                    tail: !whole,
                    beside: words.len() - taken,
                })
            })
        })
        .min()
}

/// How many of the first of `words` spell `name`: run together, each perhaps with an "s", with
/// a tail of at most [`MAX_NAME_TAIL`] letters, or misspelt (module docs), and whether they spell
/// it whole (no tail); `None` if they do not.
fn spelt_from(name: &str, words: &[String]) -> Option<(usize, bool)> {
    // What is left of the name after the words so far, each way of reading them.
    let mut left = vec![name];
    let mut run = String::new();
    for (taken, word) in words.iter().enumerate() {
        let taken = taken + 1;
        if word.is_empty() {
            return None;
        }
        run.push_str(word);
        if misspelt(&run, name) {
            return Some((taken, true));
        }
        left = left
            .into_iter()
            .filter_map(|rest| rest.strip_prefix(word.as_str()))
            .flat_map(|after| [Some(after), after.strip_prefix('s')])
            .flatten()
            .collect();
        let spelt = |after: &&str| {
            after.len() <= MAX_NAME_TAIL && name.len() - after.len() >= MIN_SITE_NAME
        };
        if let Some(after) = left
            .iter()
            .copied()
            .filter(spelt)
            .min_by_key(|after| after.len())
        {
            return Some((taken, after.is_empty()));
        }
        if left.is_empty() && run.len() > name.len() + 2 {
            return None;
        }
    }
    None
}

/// Within the edits a name of its length allows, with the same first letter.
fn misspelt(run: &str, name: &str) -> bool {
    let allowed = if name.len() >= LONG_NAME {
        2
    } else if name.len() >= TYPO_NAME {
        1
    } else {
        return false;
    };
    run.len().abs_diff(name.len()) <= allowed
        && run.as_bytes().first() == name.as_bytes().first()
        && edits(run.as_bytes(), name.as_bytes()) <= allowed
}

/// Letters left out, added or changed, and neighbours swapped, to make `b` of `a` (the optimal
/// string alignment distance). Names are short: three rows of a small table.
fn edits(a: &[u8], b: &[u8]) -> usize {
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(before[j - 2] + 1);
            }
            current[j] = best;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// Letters and digits only, lowercase: "barts-asphalt" → "bartsasphalt", "at&t" → "att".
pub(super) fn compact(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(query: &str, url: &str) -> bool {
        let words: Vec<String> = query
            .split([' ', ','])
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect();
        QueryNames::new(&words).site(url).is_some()
    }

    #[test]
    fn a_site_is_named_spelt_out_run_together_or_misspelt() {
        for (query, url) in [
            ("amazn", "https://www.amazon.com/"),
            ("www craiglist", "https://bellingham.craigslist.org/"),
            (
                "gooogle login",
                "https://myaccount.google.com/intro/security",
            ),
            ("paycvor", "https://www.paycor.com/"),
            (
                "air canada plane",
                "https://www.aircanada.com/ca/en/aco/home.html",
            ),
            ("slo county jail", "http://www.slocounty.ca.gov/"),
            ("one drive singin", "https://onedrive.live.com/about/en-gb/"),
            ("turbotax.cp", "https://turbotax.intuit.com/"),
            (
                "carteret county public library",
                "http://carteret.cpclib.org/cart/index.htm",
            ),
            ("black vault website", "http://www.theblackvault.com/"),
            ("murray asphalt", "https://murraysasphaltmi.com/"),
            ("at&t star codes", "https://www.att.com/esupport/"),
            ("j&j benefits login", "https://www.jnj.com/employees"),
            ("direct debits", "http://www.directdebit.co.uk/"),
        ] {
            assert!(names(query, url), "{query} → {url}");
        }
    }

    #[test]
    fn short_partial_or_other_names_are_not_named() {
        for (query, url) in [
            ("ab testing", "https://ab.com/"),
            ("barts", "https://bartsasphalt.com/"),
            ("abc", "https://abcllc.com/"),
            ("asphalt", "https://asphaltpaving.com/"),
            ("tamarind", "https://en.wikipedia.org/wiki/Tamarind"),
            ("amazing", "https://www.amazon.com/"),
            ("best reads", "http://thegreatestbooks.org/"),
            ("co uk", "https://www.bbc.co.uk/"),
            // The words in another order are a service and a place, not a name.
            (
                "asphalt services in detroit",
                "https://www.detroitasphaltllc.com/",
            ),
        ] {
            assert!(!names(query, url), "{query} → {url}");
        }
    }

    #[test]
    fn host_names_leave_out_www_and_suffixes() {
        assert_eq!(site_names("www.barts-asphalt.co.uk"), ["bartsasphalt"]);
        assert_eq!(site_names("turbotax.intuit.com"), ["intuit", "turbotax"]);
        assert_eq!(site_names("cpp.kanplas.com"), ["kanplas"]);
        assert_eq!(site_names("www.ups.com"), ["ups"]);
        assert_eq!(site_names("www1.albertsons.com"), ["albertsons"]);
        assert!(site_names("localhost").is_empty());
        assert_eq!(edits(b"soptfy", b"spotify"), 2);
        assert_eq!(edits(b"amazn", b"amazon"), 1);
        assert_eq!(edits(b"", b"abc"), 3);
    }
}
