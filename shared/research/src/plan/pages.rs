//! Which crawled page of the primary site a cluster's page would be, by its title, H1 and
//! address.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::clusters::intersection_size;
use crate::text::{Analyzer, Language};
use crate::{PageContent, SiteRole};

/// What page matching reads of a crawled page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageOutline {
    pub url: String,
    pub title: String,
    /// The first heading (the H1 on a well-formed page).
    pub h1: String,
}

impl PageOutline {
    /// The primary site's pages.
    pub fn primary_pages(pages: &[PageContent]) -> Vec<PageOutline> {
        pages
            .iter()
            .filter(|p| p.site == Some(SiteRole::Primary))
            .map(|p| PageOutline {
                url: p.url.clone(),
                title: p.title.clone(),
                h1: p.headings.first().cloned().unwrap_or_default(),
            })
            .collect()
    }
}

/// Weights of the title, the H1 and the address in a page's match score.
const TITLE_WEIGHT: f64 = 0.4;
const H1_WEIGHT: f64 = 0.4;
const URL_WEIGHT: f64 = 0.2;

/// A page whose score reaches this serves the cluster.
pub const SERVES: f64 = 0.5;
/// Two pages that both reach this, the second within [`EQUAL_RATIO`] of the first, compete
/// for the cluster.
pub const COMPETES: f64 = 0.85;
pub const EQUAL_RATIO: f64 = 0.85;

/// Separators between a title's or heading's parts ("Drain Cleaning | Acme Plumbing",
/// "Espresso Machine Maintenance: Daily Checklist", "Easy Cold Brew Recipe (Concentrate and
/// Ready-to-Drink)"): each part may name the page.
const TITLE_SEPARATORS: [&str; 7] = [" | ", " - ", " – ", " — ", " · ", ": ", " ("];

struct Fields {
    /// Sorted, deduplicated stem ids of each part (and the whole) of the title and the heading.
    title_parts: Vec<Vec<u32>>,
    h1_parts: Vec<Vec<u32>>,
    url: Vec<u32>,
    /// Stems of the title and heading parts that are the page's own (not the site's).
    own: Vec<u32>,
    /// The site's root page: its address has no words, so its title and heading carry the
    /// whole score; the site's parts are its own.
    home: bool,
}

/// A title or heading part on at least this many pages, and on half of them or more, is the
/// site's (its name, a tagline, "Dallas Dentist" on every page): it names no one page but the
/// home page, so another page serves a name only for the words it has besides the site's.
const SITE_WIDE_PAGES: usize = 3;

/// Stems as small integers, so a page is a few sorted lists and a match is a merge.
#[derive(Default)]
struct Stems(HashMap<String, u32>);

impl Stems {
    fn intern(&mut self, stems: HashSet<String>) -> Vec<u32> {
        let mut ids: Vec<u32> = stems
            .into_iter()
            .map(|stem| {
                let next = self.0.len() as u32;
                *self.0.entry(stem).or_insert(next)
            })
            .collect();
        ids.sort_unstable();
        ids
    }

    /// `None` when a stem was never seen: no page can hold it.
    fn known(&self, stems: HashSet<String>) -> Option<Vec<u32>> {
        let mut ids = stems
            .iter()
            .map(|stem| self.0.get(stem).copied())
            .collect::<Option<Vec<u32>>>()?;
        ids.sort_unstable();
        Some(ids)
    }

    /// Every stem's id, a stem never seen getting one of its own that no page holds.
    fn lookup(&self, stems: HashSet<String>) -> Vec<u32> {
        let mut ids: Vec<u32> = stems
            .iter()
            .enumerate()
            .map(|(unseen, stem)| {
                self.0
                    .get(stem)
                    .copied()
                    .unwrap_or(u32::MAX - unseen as u32)
            })
            .collect();
        ids.sort_unstable();
        ids
    }
}

/// The primary site's pages, ready to be matched against cluster names.
pub struct PageMatcher<'a> {
    analyzer: Analyzer,
    pages: &'a [PageOutline],
    fields: Vec<Fields>,
    stems: Stems,
    /// Stem ids of the places the site works in: a page naming its town serves a name
    /// without it as well as a page that does not ("Dental Implants Dallas").
    places: Vec<u32>,
    /// Stem ids of the site's title and heading parts ([`SITE_WIDE_PAGES`]).
    site_words: Vec<u32>,
    /// Stem id → pages whose title or heading holds it: a page serves a name only when one of
    /// them holds all its words, so the candidates are the pages of its rarest stem.
    holding: Vec<Vec<usize>>,
}

impl<'a> PageMatcher<'a> {
    /// `places`: the towns and areas the site works in ([`crate::personas::SiteProfile::places`]).
    pub fn new(pages: &'a [PageOutline], language: &Language, places: &[String]) -> Self {
        let analyzer = Analyzer::new(language);
        let mut stems = Stems::default();
        let mut parts_of = |text: &str| -> Vec<Vec<u32>> {
            parts(&analyzer, text)
                .into_iter()
                .map(|part| stems.intern(part))
                .filter(|part| !part.is_empty())
                .collect()
        };
        let titles: Vec<Vec<Vec<u32>>> = pages.iter().map(|p| parts_of(&p.title)).collect();
        let h1s: Vec<Vec<Vec<u32>>> = pages.iter().map(|p| parts_of(&p.h1)).collect();
        let site_wide = site_wide_parts(titles.iter().zip(&h1s), pages.len());
        let mut site_words: Vec<u32> = site_wide.iter().flatten().copied().collect();
        site_words.sort_unstable();
        site_words.dedup();
        let mut fields: Vec<Fields> = Vec::with_capacity(pages.len());
        for ((page, title), h1) in pages.iter().zip(titles).zip(h1s) {
            let home = is_home(&page.url);
            let mut own: Vec<u32> = title
                .iter()
                .chain(&h1)
                .filter(|part| home || !site_wide.contains(*part))
                .flatten()
                .copied()
                .collect();
            own.sort_unstable();
            own.dedup();
            fields.push(Fields {
                title_parts: with_whole(title),
                h1_parts: with_whole(h1),
                url: Vec::new(),
                own,
                home,
            });
        }
        for (field, page) in fields.iter_mut().zip(pages) {
            field.url = stems.intern(content_stems(&analyzer, &path_words(&page.url)));
        }
        let mut holding: Vec<Vec<usize>> = vec![Vec::new(); stems.0.len()];
        for (index, page) in fields.iter().enumerate() {
            let mut held: Vec<u32> = page
                .title_parts
                .iter()
                .chain(&page.h1_parts)
                .flatten()
                .copied()
                .collect();
            held.sort_unstable();
            held.dedup();
            for stem in held {
                holding[stem as usize].push(index);
            }
        }
        // A place no title, heading or address names cannot count against any page.
        let mut places: Vec<u32> = places
            .iter()
            .flat_map(|place| content_stems(&analyzer, place))
            .filter_map(|stem| stems.0.get(&stem).copied())
            .collect();
        places.sort_unstable();
        places.dedup();
        PageMatcher {
            analyzer,
            pages,
            fields,
            stems,
            places,
            site_words,
            holding,
        }
    }

    /// When `cluster` holds the words of `brand` in their order, its other words ("drain
    /// cleaning" of "acme plumbing drain cleaning"; empty for the brand alone).
    pub fn beside_brand(&self, cluster: &str, brand: &str) -> Option<String> {
        let tokenizer = self.analyzer.tokenizer();
        let (cluster, name) = (tokenizer.words(cluster), tokenizer.words(brand));
        if name.is_empty() {
            return None;
        }
        let at = cluster
            .windows(name.len())
            .position(|words| words == name)?;
        Some(
            cluster[..at]
                .iter()
                .chain(&cluster[at + name.len()..])
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join(" "),
        )
    }

    /// The page at the site's root ("/"), if it was crawled.
    pub fn home_page(&self) -> Option<&'a PageOutline> {
        self.pages.iter().find(|page| is_home(&page.url))
    }

    /// Pages that serve `name` (score ≥ [`SERVES`], title or H1 holding all its words), best
    /// first, ties by address.
    pub fn matches(&self, name: &str) -> Vec<(&'a PageOutline, f64)> {
        let Some(core) = self.stems.known(content_stems(&self.analyzer, name)) else {
            return Vec::new();
        };
        // An address spells "x-rays" as "x rays": its words are read that way from the name too.
        let address_core = name.contains('-').then(|| {
            self.stems
                .lookup(content_stems(&self.analyzer, &name.replace('-', " ")))
        });
        let name = Name {
            core: &core,
            address: address_core.as_deref().unwrap_or(&core),
            places: &self.places,
            beside_site: core
                .iter()
                .copied()
                .filter(|stem| self.site_words.binary_search(stem).is_err())
                .collect(),
        };
        let mut lists: Vec<&[usize]> = name
            .core
            .iter()
            .map(|&stem| self.holding[stem as usize].as_slice())
            .collect();
        lists.sort_by_key(|list| list.len());
        let Some((rarest, others)) = lists.split_first() else {
            return Vec::new();
        };
        // Only pages whose title and heading hold every word between them are scored.
        let mut scored: Vec<(&PageOutline, f64)> = rarest
            .iter()
            .filter(|page| others.iter().all(|list| list.binary_search(page).is_ok()))
            .map(|&i| (&self.pages[i], score(&self.fields[i], &name)))
            .filter(|(_, score)| *score >= SERVES)
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.url.cmp(&b.0.url)));
        scored
    }
}

/// A cluster name as pages are scored against it.
struct Name<'n> {
    /// Its content stems.
    core: &'n [u32],
    /// Its content stems as an address would spell them.
    address: &'n [u32],
    /// The site's place stems.
    places: &'n [u32],
    /// Its stems that are not in the site's own title parts ("rose city espresso blend" of
    /// "brightbrew rose city espresso blend"; none of the site's tagline).
    beside_site: Vec<u32>,
}

impl Name<'_> {
    /// Dice's coefficient of a page field and the name, the site's places the field names
    /// and the name does not left out: the town in "Dental Implants Dallas" is where the
    /// dentist works, not what the page is about.
    fn dice(&self, field: &[u32], name: &[u32]) -> f64 {
        let places = field
            .iter()
            .filter(|s| self.places.binary_search(s).is_ok() && name.binary_search(s).is_err())
            .count();
        dice(field, name, field.len() - places)
    }
}

/// 0 unless the title (one of its parts) or the H1 holds every content word of the name:
/// "Sump Pumps" does not serve "sump pump alarm", which wants a page of its own; and, but on
/// the home page, the page's own parts hold every word the site's parts do not.
fn score(page: &Fields, name: &Name) -> f64 {
    let core = name.core;
    let covers = |field: &Vec<u32>| intersection_size(field, core) == core.len();
    if !page.title_parts.iter().chain(&page.h1_parts).any(covers) {
        return 0.0;
    }
    let own = &name.beside_site;
    if !page.home && (own.is_empty() || intersection_size(&page.own, own) < own.len()) {
        return 0.0;
    }
    let best = |parts: &[Vec<u32>]| {
        parts
            .iter()
            .map(|part| name.dice(part, core))
            .fold(0.0, f64::max)
    };
    let (title, h1) = (best(&page.title_parts), best(&page.h1_parts));
    let score = if page.home {
        (TITLE_WEIGHT * title + H1_WEIGHT * h1) / (TITLE_WEIGHT + H1_WEIGHT)
    } else {
        TITLE_WEIGHT * title + H1_WEIGHT * h1 + URL_WEIGHT * name.dice(&page.url, name.address)
    };
    (score * 1000.0).round() / 1000.0
}

/// The parts on [`SITE_WIDE_PAGES`] pages or more and on half of them or more, by the
/// pages' (title parts, heading parts).
fn site_wide_parts<'p>(
    pages: impl Iterator<Item = (&'p Vec<Vec<u32>>, &'p Vec<Vec<u32>>)>,
    page_count: usize,
) -> HashSet<Vec<u32>> {
    let mut pages_with: HashMap<&[u32], usize> = HashMap::new();
    for (title, h1) in pages {
        let on_page: HashSet<&[u32]> = title.iter().chain(h1).map(Vec::as_slice).collect();
        for part in on_page {
            *pages_with.entry(part).or_default() += 1;
        }
    }
    pages_with
        .into_iter()
        .filter(|&(_, count)| count >= SITE_WIDE_PAGES && 2 * count >= page_count)
        .map(|(part, _)| part.to_vec())
        .collect()
}

/// `parts` and, when there are two or more, all of them together (a name may span them).
fn with_whole(mut parts: Vec<Vec<u32>>) -> Vec<Vec<u32>> {
    if parts.len() > 1 {
        let mut whole: Vec<u32> = parts.iter().flatten().copied().collect();
        whole.sort_unstable();
        whole.dedup();
        parts.push(whole);
    }
    parts
}

/// The content stems of each part of a title or heading.
fn parts(analyzer: &Analyzer, text: &str) -> Vec<HashSet<String>> {
    let mut parts = vec![text];
    for separator in TITLE_SEPARATORS {
        parts = parts.iter().flat_map(|p| p.split(separator)).collect();
    }
    parts.iter().map(|p| content_stems(analyzer, p)).collect()
}

/// Stems of the words of `text` that are not stop words.
fn content_stems(analyzer: &Analyzer, text: &str) -> HashSet<String> {
    analyzer
        .tokenizer()
        .words(text)
        .iter()
        .filter(|w| !analyzer.is_stop_word(w))
        .map(|w| analyzer.stem(w).into_owned())
        .collect()
}

/// The site's root page ("/", "/index.html").
fn is_home(url: &str) -> bool {
    matches!(
        url_path(url),
        "" | "/" | "/index.html" | "/index.htm" | "/index.php"
    )
}

/// The path of an address, without its query and fragment.
fn url_path(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = rest.find('/').map_or("", |i| &rest[i..]);
    path.split(['?', '#']).next().unwrap_or_default()
}

/// The words of an address's path ("https://a.com/sump-pump/install.html" → "sump pump
/// install"), without file extensions.
fn path_words(url: &str) -> String {
    url_path(url)
        .split('/')
        .map(|segment| {
            segment
                .rsplit_once('.')
                .filter(|(_, ext)| matches!(*ext, "html" | "htm" | "php" | "asp" | "aspx"))
                .map_or(segment, |(stem, _)| stem)
        })
        .flat_map(|segment| segment.split(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty() && !w.chars().all(|c| c.is_ascii_digit()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Dice's coefficient of two sorted sets, `a` counted as `a_len` stems: 1 when equal, 0 when
/// disjoint.
fn dice(a: &[u32], b: &[u32], a_len: usize) -> f64 {
    if a_len == 0 || b.is_empty() {
        return 0.0;
    }
    (2.0 * intersection_size(a, b) as f64 / (a_len + b.len()) as f64).min(1.0)
}

#[cfg(test)]
mod tests;
