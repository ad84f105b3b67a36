//! What the lexical clustering sees of a keyword: its content stems, its *core* (the stems
//! that carry its meaning) and its spelling without spaces.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use crate::intent::places::{AMBIGUOUS_CODES, PLACES};
use crate::text::us_states::{US_STATES, US_STATE_CODES};
use crate::text::{Analyzer, Language};

/// Words that search engines answer the same with or without: a keyword that differs from
/// another only by these is a close variant of it ("best sump pump", "sump pump", "sump pump
/// ideas", "sump pump services"). Who makes or sells a product is one of these too: the
/// results for "cpp film manufacturer", "cpp film supplier" and "cpp film factory" are the
/// same makers' pages. Intent modifiers that change the page wanted ("buy",
/// "price", "how to", "near me", "review") are deliberately not here. English only; other
/// languages rely on their stop words. Chosen on the tune half of the dev sets.
const GENERIC_EN: [&str; 45] = [
    "best",
    "top",
    "good",
    "great",
    "amazing",
    "awesome",
    "cool",
    "useful",
    "popular",
    "list",
    "examples",
    "ideas",
    "free",
    "online",
    "services",
    "service",
    "company",
    "companies",
    "contractor",
    "contractors",
    "professional",
    "expert",
    "rated",
    "local",
    "fun",
    "crazy",
    "ultimate",
    "interesting",
    "effective",
    "latest",
    "newest",
    "most",
    "other",
    "beste",
    "greatest",
    "types",
    "kinds",
    "manufacturer",
    "manufacturers",
    "supplier",
    "suppliers",
    "producer",
    "producers",
    "factory",
    "exporters",
];

/// Stop words that still change the question: "how many payday loans" and "who does payday
/// loans" ask for other answers than "payday loans", so they stay in the core. Chosen on the
/// tune half of the dev sets.
const KEPT_EN: [&str; 4] = ["much", "many", "who", "where"];

/// Words that introduce a place ("roofing in newark", "pizza near montclair"): the words after
/// one, to the end of the keyword, name a place.
const PLACE_MARKERS_EN: [&str; 3] = ["in", "near", "at"];

/// The longest place phrase after a marker that is read as a town ("in salt lake city").
const MAX_TOWN_WORDS: usize = 3;

pub(super) struct Profiles {
    /// Sorted, deduplicated ids of each keyword's core stems.
    pub(super) cores: Vec<Vec<u32>>,
    /// Each keyword's core words joined without spaces or hyphens, less a final "s"
    /// ("sump-pumps" and "sump pump" both "sumppump"), empty when too short to trust.
    pub(super) spellings: Vec<String>,
    /// Content words per keyword, for centrality.
    pub(super) lengths: Vec<usize>,
}

impl Profiles {
    pub(super) fn build(keywords: &[&str], language: &Language) -> Profiles {
        let analyzer = Analyzer::new(language);
        let english = language.code() == "en";
        // Sets, not the lists: every word of every keyword is looked up.
        let generic: HashSet<&str> = if english {
            GENERIC_EN.into_iter().collect()
        } else {
            HashSet::new()
        };
        let words: Vec<Vec<String>> = keywords
            .iter()
            .map(|k| {
                let words = analyzer.tokenizer().words(k);
                if english {
                    agent_nouns(words)
                } else {
                    words
                }
            })
            .collect();
        let towns = if english {
            Towns::find(&words, |word| analyzer.is_stop_word(word))
        } else {
            Towns::default()
        };
        let mut stems = StemIds::default();
        let mut cores = Vec::with_capacity(keywords.len());
        let mut spellings = Vec::with_capacity(keywords.len());
        let mut lengths = Vec::with_capacity(keywords.len());
        for words in &words {
            let content: Vec<usize> = (0..words.len())
                .filter(|&i| {
                    !analyzer.is_stop_word(&words[i])
                        || (english && KEPT_EN.contains(&words[i].as_str()))
                })
                .collect();
            // A keyword of stop words only ("the who") still needs a profile.
            let content = if content.is_empty() {
                (0..words.len()).collect()
            } else {
                content
            };
            let meaningful: Vec<usize> = content
                .iter()
                .copied()
                .filter(|&i| {
                    !generic.contains(&words[i].as_str())
                        && !is_year(&words[i])
                        && !towns.state_after_town(words, i)
                })
                .collect();
            let kept = if meaningful.is_empty() {
                &content
            } else {
                &meaningful
            };
            let mut core: Vec<u32> = kept
                .iter()
                .map(|&i| stems.id(&words[i], &analyzer))
                .collect();
            core.sort_unstable();
            core.dedup();
            cores.push(core);
            // Raw words, not stems: "runningshoes" has no stem in common with "running".
            let mut joined: String = meaningful
                .iter()
                .flat_map(|&i| words[i].chars().filter(|c| c.is_alphanumeric()))
                .collect();
            if joined.ends_with('s') {
                joined.pop();
            }
            spellings.push(if joined.chars().count() >= 6 {
                joined
            } else {
                String::new()
            });
            lengths.push(content.len());
        }
        Profiles {
            cores,
            spellings,
            lengths,
        }
    }

    /// The profiles of `items`, in that order: built once over a whole list (its towns and stem
    /// ids), used for a part of it.
    pub(super) fn select(&self, items: &[usize]) -> Profiles {
        Profiles {
            cores: items.iter().map(|&i| self.cores[i].clone()).collect(),
            spellings: items.iter().map(|&i| self.spellings[i].clone()).collect(),
            lengths: items.iter().map(|&i| self.lengths[i]).collect(),
        }
    }
}

/// Stems as small integers. Keywords of one niche repeat a few hundred words, so each word is
/// stemmed once and then looked up.
#[derive(Default)]
struct StemIds {
    by_stem: HashMap<String, u32>,
    by_word: HashMap<String, u32>,
}

impl StemIds {
    fn id(&mut self, word: &str, analyzer: &Analyzer) -> u32 {
        if let Some(&id) = self.by_word.get(word) {
            return id;
        }
        let next = self.by_stem.len() as u32;
        let id = *self
            .by_stem
            .entry(analyzer.stem(word).into_owned())
            .or_insert(next);
        self.by_word.insert(word.to_string(), id);
        id
    }
}

/// Which words name a town, so that a state after one only says where the town is
/// ("asphalt lansing mi" is "lansing asphalt", "roofing in newark nj" is "roofing in newark"),
/// while a state after anything else is a place of its own ("roof repair nj" is not "roof
/// repair"). Without a gazetteer of towns, a word is one when the input itself shows it: it
/// comes before a state in some keyword ("ann arbor mi"), is no stop word ("moving to
/// michigan"), and is in a place phrase after "in", "near" or "at" ("in ann arbor") more
/// often than it ends a keyword with no such phrase, or is in neither ("rapids" of "asphalt
/// grand rapids mi"; but "pump" ends "sump pump" as often as it follows "water in", and "roof
/// repair" ending a keyword keeps the "nj" of "roof repair nj"; a keyword that names a state
/// counts against none of its words); or it ends the name of a large city.
#[derive(Default)]
struct Towns {
    words: HashSet<String>,
}

impl Towns {
    fn find(keywords: &[Vec<String>], is_stop_word: impl Fn(&str) -> bool) -> Towns {
        // Per word: keywords where it is in a place phrase, less keywords it ends unmarked.
        let mut place_score: HashMap<&str, i64> = HashMap::new();
        let mut before_state: HashSet<&str> = HashSet::new();
        for words in keywords {
            let marker = words
                .iter()
                .rposition(|w| PLACE_MARKERS_EN.contains(&w.as_str()));
            match marker {
                Some(marker) => {
                    let phrase = &words[marker + 1..];
                    if !phrase.is_empty() && phrase.len() <= MAX_TOWN_WORDS {
                        let mut seen: Vec<&str> = phrase.iter().map(String::as_str).collect();
                        seen.sort_unstable();
                        seen.dedup();
                        for word in seen {
                            *place_score.entry(word).or_default() += 1;
                        }
                    }
                }
                // A keyword that names a state is about places ("chelsea mi to lansing"):
                // its last word is no evidence against a town.
                None if !words.iter().any(|w| is_state(w)) => {
                    if let Some(last) = words.last() {
                        *place_score.entry(last.as_str()).or_default() -= 1;
                    }
                }
                None => {}
            }
            for pair in words.windows(2) {
                if is_state(&pair[1]) {
                    before_state.insert(pair[0].as_str());
                }
            }
        }
        let mut towns: HashSet<String> = before_state
            .into_iter()
            .filter(|w| {
                !is_state(w) && !is_stop_word(w) && place_score.get(w).is_none_or(|&s| s > 0)
            })
            .map(|w| w.to_string())
            .collect();
        towns.extend(PLACES.iter().filter_map(|city| {
            let last = city.rsplit(' ').next()?;
            // "salt lake city": "city" alone names no town.
            (!city.contains(' ') || last.len() > 4).then(|| last.to_string())
        }));
        Towns { words: towns }
    }

    /// Whether `words[i]` is a state right after a town.
    fn state_after_town(&self, words: &[String], i: usize) -> bool {
        i > 0 && is_state(&words[i]) && self.words.contains(&words[i - 1])
    }
}

/// A US state by name ("michigan") or by a postal code that is not also a word ("mi", "nj").
fn is_state(word: &str) -> bool {
    static STATES: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
        US_STATE_CODES
            .iter()
            .filter(|code| !AMBIGUOUS_CODES.contains(code))
            .chain(US_STATES.iter())
            .copied()
            .collect()
    });
    STATES.contains(word)
}

/// The word "machine": "twisting machine", "twister machine" and "twister" are one thing, and
/// so are "winding machine" and "winder".
const MACHINE_EN: [&str; 2] = ["machine", "machines"];

/// Letters before "-er" or "-ing" for a word to be read as what a machine does: "twist",
/// "wind", but not the "pap" of a "paper machine".
const MIN_AGENT_BASE: usize = 4;

/// Names a machine by its agent noun: "Xing machine" and "Xer machine" become "Xer".
fn agent_nouns(words: Vec<String>) -> Vec<String> {
    let mut named = Vec::with_capacity(words.len());
    let mut iter = words.into_iter().peekable();
    while let Some(word) = iter.next() {
        let before_machine = iter
            .peek()
            .is_some_and(|next| MACHINE_EN.contains(&next.as_str()));
        let agent = match word.strip_suffix("ing") {
            Some(base) if before_machine && base.len() >= MIN_AGENT_BASE => format!("{base}er"),
            _ => word,
        };
        let is_agent = agent
            .strip_suffix("er")
            .is_some_and(|base| base.len() >= MIN_AGENT_BASE);
        if before_machine && is_agent {
            iter.next();
        }
        named.push(agent);
    }
    named
}

/// A year ("ai tools 2024"): searchers add it for freshness, the pages wanted are the same.
fn is_year(word: &str) -> bool {
    word.len() == 4
        && word.chars().all(|c| c.is_ascii_digit())
        && (word.starts_with("19") || word.starts_with("20"))
}
