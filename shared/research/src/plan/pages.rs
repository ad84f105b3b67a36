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
}

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
}

/// The primary site's pages, ready to be matched against cluster names.
pub struct PageMatcher<'a> {
    analyzer: Analyzer,
    pages: &'a [PageOutline],
    fields: Vec<Fields>,
    stems: Stems,
    /// Stem id → pages whose title or heading holds it: a page serves a name only when one of
    /// them holds all its words, so the candidates are the pages of its rarest stem.
    holding: Vec<Vec<usize>>,
}

impl<'a> PageMatcher<'a> {
    pub fn new(pages: &'a [PageOutline], language: &Language) -> Self {
        let analyzer = Analyzer::new(language);
        let mut stems = Stems::default();
        let mut parts_of = |text: &str| -> Vec<Vec<u32>> {
            parts(&analyzer, text)
                .into_iter()
                .map(|part| stems.intern(part))
                .collect()
        };
        let mut fields: Vec<Fields> = Vec::with_capacity(pages.len());
        for page in pages {
            let title_parts = parts_of(&page.title);
            let h1_parts = parts_of(&page.h1);
            fields.push(Fields {
                title_parts,
                h1_parts,
                url: Vec::new(),
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
        PageMatcher {
            analyzer,
            pages,
            fields,
            stems,
            holding,
        }
    }

    /// `cluster` holds the words of `brand` in their order.
    pub fn names(&self, cluster: &str, brand: &str) -> bool {
        let tokenizer = self.analyzer.tokenizer();
        let (cluster, name) = (tokenizer.words(cluster), tokenizer.words(brand));
        !name.is_empty() && cluster.windows(name.len()).any(|words| words == name)
    }

    /// The page at the site's root ("/"), if it was crawled.
    pub fn home_page(&self) -> Option<&'a PageOutline> {
        self.pages
            .iter()
            .find(|page| matches!(url_path(&page.url), "" | "/"))
    }

    /// Pages that serve `name` (score ≥ [`SERVES`], title or H1 holding all its words), best
    /// first, ties by address.
    pub fn matches(&self, name: &str) -> Vec<(&'a PageOutline, f64)> {
        let Some(core) = self.stems.known(content_stems(&self.analyzer, name)) else {
            return Vec::new();
        };
        let mut lists: Vec<&[usize]> = core
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
            .map(|&i| (&self.pages[i], score(&self.fields[i], &core)))
            .filter(|(_, score)| *score >= SERVES)
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.url.cmp(&b.0.url)));
        scored
    }
}

/// 0 unless the title (one of its parts) or the H1 holds every content word of the name:
/// "Sump Pumps" does not serve "sump pump alarm", which wants a page of its own.
fn score(page: &Fields, core: &[u32]) -> f64 {
    let covers = |field: &Vec<u32>| intersection_size(field, core) == core.len();
    if !page.title_parts.iter().chain(&page.h1_parts).any(covers) {
        return 0.0;
    }
    let best = |parts: &[Vec<u32>]| {
        parts
            .iter()
            .map(|part| dice(part, core))
            .fold(0.0, f64::max)
    };
    let score = TITLE_WEIGHT * best(&page.title_parts)
        + H1_WEIGHT * best(&page.h1_parts)
        + URL_WEIGHT * dice(&page.url, core);
    (score * 1000.0).round() / 1000.0
}

/// The content stems of a title or heading, whole and of each of its parts.
fn parts(analyzer: &Analyzer, text: &str) -> Vec<HashSet<String>> {
    let mut parts = vec![text];
    for separator in TITLE_SEPARATORS {
        parts = parts.iter().flat_map(|p| p.split(separator)).collect();
    }
    if parts.len() > 1 {
        parts.push(text);
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

/// The words of an address's path ("https://a.com/sump-pump/install.html" → "sump pump
/// install"), without file extensions.
/// The path of an address, without its query and fragment.
fn url_path(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = rest.find('/').map_or("", |i| &rest[i..]);
    path.split(['?', '#']).next().unwrap_or_default()
}

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

/// Dice's coefficient of two sorted sets: 1 when equal, 0 when disjoint.
fn dice(a: &[u32], b: &[u32]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    2.0 * intersection_size(a, b) as f64 / (a.len() + b.len()) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(url: &str, title: &str, h1: &str) -> PageOutline {
        PageOutline {
            url: url.to_string(),
            title: title.to_string(),
            h1: h1.to_string(),
        }
    }

    #[test]
    fn a_page_titled_for_the_cluster_matches_it_and_the_site_name_in_the_title_does_not_count() {
        let pages = [
            page(
                "https://acme.test/drain-cleaning",
                "Drain Cleaning | Acme Plumbing",
                "Drain cleaning",
            ),
            page(
                "https://acme.test/",
                "Acme Plumbing",
                "Plumbers you can trust",
            ),
            page(
                "https://acme.test/water-heaters",
                "Water Heater Repair | Acme Plumbing",
                "Water heaters",
            ),
        ];
        let matcher = PageMatcher::new(&pages, &Language::english());
        let found = matcher.matches("drain cleaning");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0.url, "https://acme.test/drain-cleaning");
        assert_eq!(found[0].1, 1.0);
        assert!(matcher.matches("sump pump installation").is_empty());
    }

    #[test]
    fn a_broader_page_serves_a_longer_name_less_well_than_its_own_page() {
        let pages = [
            page(
                "https://acme.test/heaters",
                "Water Heaters",
                "Water heaters",
            ),
            page(
                "https://acme.test/heaters/tankless",
                "Tankless Water Heater Installation",
                "Tankless water heater installation",
            ),
        ];
        let matcher = PageMatcher::new(&pages, &Language::english());
        let found = matcher.matches("tankless water heater installation");
        assert_eq!(found[0].0.url, "https://acme.test/heaters/tankless");
        assert!(found.iter().skip(1).all(|(_, score)| *score < COMPETES));
    }

    #[test]
    fn path_words_drop_extensions_and_numbers() {
        assert_eq!(
            path_words("https://a.test/blog/2024/sump-pump_install.html?x=1"),
            "blog sump pump install"
        );
        assert_eq!(path_words("https://a.test"), "");
    }
}
