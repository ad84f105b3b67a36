//! Which pages a brief reads: the ones that rank for the cluster's primary keyword, in rank
//! order; then what ranks for its other keywords and the competitors' pages for it; offline,
//! the competitors' crawled pages whose title or H1 names the cluster, its topic or one of
//! its keywords, or shorter phrases of them (their head first: the last words in English).

use std::collections::HashSet;

use kr_core::dataset::{ClusterRecord, KeywordRecord, PageContent, PageType, SiteRole};
use kr_research::clusters::normalize_url;
use kr_research::plan::{PageMatcher, PageOutline};
use kr_research::serp_page::page_type;
use kr_research::text::Language;
use url::Url;

/// Pages a brief reads at most.
pub const MAX_SOURCES: usize = 5;

/// A page to read, with its position on the primary keyword's results page when it came
/// from there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Source {
    pub url: String,
    pub position: Option<u32>,
}

/// What the job left behind that a brief reads besides its dataset.
pub(crate) struct Material<'a> {
    /// Each keyword's top organic URLs, by its place in the dataset's keywords ("k-12" is
    /// the 12th); empty or `None` where no results page was fetched.
    pub serps: &'a [Option<Vec<String>>],
    /// The crawled pages of the primary site and the competitors.
    pub pages: &'a [PageContent],
    pub primary_domain: &'a str,
    pub language: &'a Language,
}

impl Material<'_> {
    /// The results page of a keyword record, if one was fetched.
    pub fn serp_of(&self, keyword: &KeywordRecord) -> Option<&[String]> {
        let index = keyword.id.strip_prefix("k-")?.parse::<usize>().ok()?;
        self.serps.get(index.checked_sub(1)?)?.as_deref()
    }

    /// The crawled page at `url`, scheme and "www." aside (results name https addresses of
    /// pages the crawl may have read over http).
    pub fn page(&self, url: &str) -> Option<&PageContent> {
        let wanted = normalize_url(url);
        self.pages
            .iter()
            .find(|page| normalize_url(&page.url) == wanted)
    }

    /// Crawled pages of the primary site (or of the competitors), as the page matcher
    /// reads them.
    pub fn outlines(&self, primary: bool) -> Vec<PageOutline> {
        self.pages
            .iter()
            .filter(|page| match page.site {
                Some(SiteRole::Primary) => primary,
                Some(SiteRole::Competitor(_)) => !primary,
                None => false,
            })
            .map(|page| PageOutline {
                url: page.url.clone(),
                title: page.title.clone(),
                h1: page.headings.first().cloned().unwrap_or_default(),
            })
            .collect()
    }
}

/// The pages to read for `cluster` (its `members`, the primary keyword among them), at most
/// [`MAX_SOURCES`], never the primary site's own, a forum thread or a social post.
pub(crate) fn pick_sources(
    material: &Material,
    cluster: &ClusterRecord,
    members: &[&KeywordRecord],
    topic: Option<&str>,
) -> Vec<Source> {
    let mut picked = Picked::new(material.primary_domain);
    if let Some(primary) = primary_keyword(cluster, members) {
        for (index, url) in material
            .serp_of(primary)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            picked.add(url, Some(index as u32 + 1));
        }
    }
    // What ranks for most of the other keywords, best-ranked first on a tie.
    let mut others: Vec<(usize, usize, &String)> = Vec::new();
    for member in members {
        for (rank, url) in material
            .serp_of(member)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            match others.iter_mut().find(|(_, _, u)| *u == url) {
                Some(entry) => {
                    entry.0 += 1;
                    entry.1 = entry.1.min(rank);
                }
                None => others.push((1, rank, url)),
            }
        }
    }
    others.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (_, _, url) in others {
        picked.add(url, None);
    }
    for site in &cluster.competitor_positions {
        picked.add(&site.url, None);
    }
    if picked.sources.is_empty() {
        // Pages named for the cluster first, then for its topic's head term, then for any of
        // its keywords.
        let competitors = material.outlines(false);
        let matcher = PageMatcher::new(&competitors, material.language, &[]);
        let names = [cluster.name.as_str(), cluster.primary_keyword.as_str()]
            .into_iter()
            .chain(topic)
            .chain(members.iter().map(|k| k.keyword.as_str()));
        for name in names {
            for phrase in head_phrases(name, material.language) {
                for (page, _) in matcher.matches(&phrase) {
                    picked.add(&page.url, None);
                }
            }
        }
    }
    picked.sources.truncate(MAX_SOURCES);
    picked.sources
}

/// `name`, then shorter and shorter phrases of it, two words at least: first the ones that
/// keep the language's head end ("best coffee for moka pot" → … → "moka pot" in English),
/// then the other end ("moka pots online" → "moka pots"). A page about the thing serves a
/// brief on a modifier of it; the matcher still wants every word of a phrase in a title or H1.
fn head_phrases(name: &str, language: &Language) -> Vec<String> {
    let words: Vec<&str> = name.split_whitespace().collect();
    if words.len() < 2 {
        return vec![name.to_string()];
    }
    let head_first = language.head_is_first();
    let mut phrases = vec![name.to_string()];
    for keep_head_end in [true, false] {
        for len in (2..words.len()).rev() {
            let from_start = head_first == keep_head_end;
            let kept = if from_start {
                &words[..len]
            } else {
                &words[words.len() - len..]
            };
            phrases.push(kept.join(" "));
        }
    }
    phrases
}

/// The record of the cluster's primary keyword, else its first member.
pub(crate) fn primary_keyword<'a>(
    cluster: &ClusterRecord,
    members: &[&'a KeywordRecord],
) -> Option<&'a KeywordRecord> {
    members
        .iter()
        .find(|k| k.keyword == cluster.primary_keyword)
        .or(members.first())
        .copied()
}

struct Picked<'a> {
    primary_domain: &'a str,
    seen: HashSet<String>,
    sources: Vec<Source>,
}

impl<'a> Picked<'a> {
    fn new(primary_domain: &'a str) -> Self {
        Self {
            primary_domain,
            seen: HashSet::new(),
            sources: Vec::new(),
        }
    }

    fn add(&mut self, raw: &str, position: Option<u32>) {
        let Ok(mut url) = Url::parse(raw) else {
            return;
        };
        url.set_fragment(None);
        let readable = matches!(url.scheme(), "http" | "https")
            && !url.path().to_ascii_lowercase().ends_with(".pdf")
            && !matches!(page_type(raw), PageType::Forum | PageType::Social);
        let host = url.host_str().unwrap_or_default();
        let own = site_of(host) == site_of(self.primary_domain);
        if readable && !own && self.seen.insert(url.to_string()) {
            self.sources.push(Source {
                url: url.to_string(),
                position,
            });
        }
    }
}

/// A host without "www.", lowercased: both spellings of one site.
fn site_of(host: &str) -> String {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    host.strip_prefix("www.")
        .map(str::to_string)
        .unwrap_or(host)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kr_core::dataset::SitePosition;

    fn keyword(id: usize, text: &str) -> KeywordRecord {
        KeywordRecord {
            id: format!("k-{id}"),
            keyword: text.to_string(),
            ..KeywordRecord::default()
        }
    }

    fn urls(list: &[&str]) -> Option<Vec<String>> {
        Some(list.iter().map(|u| u.to_string()).collect())
    }

    #[test]
    fn the_primary_keywords_results_first_then_the_others_and_the_competitors() {
        let cluster = ClusterRecord {
            name: "gutter cleaning".into(),
            primary_keyword: "gutter cleaning".into(),
            competitor_positions: vec![SitePosition {
                domain: "rival.example".into(),
                position: 7,
                url: "https://rival.example/gutters".into(),
            }],
            ..ClusterRecord::default()
        };
        let members = [
            keyword(1, "gutter cleaning cost"),
            keyword(2, "gutter cleaning"),
        ];
        let serps = [
            urls(&["https://c.example/cost", "https://b.example/guide"]),
            urls(&[
                "https://www.acme.example/gutters",
                "https://www.reddit.com/r/x/comments/1/y/",
                "https://a.example/guide#top",
                "https://files.example/brochure.PDF",
                "https://b.example/guide",
            ]),
        ];
        let material = Material {
            serps: &serps,
            pages: &[],
            primary_domain: "acme.example",
            language: &Language::english(),
        };
        let refs: Vec<&KeywordRecord> = members.iter().collect();
        let picked = pick_sources(&material, &cluster, &refs, None);
        let got: Vec<(&str, Option<u32>)> = picked
            .iter()
            .map(|s| (s.url.as_str(), s.position))
            .collect();
        assert_eq!(
            got,
            [
                ("https://a.example/guide", Some(3)),
                ("https://b.example/guide", Some(5)),
                ("https://c.example/cost", None),
                ("https://rival.example/gutters", None),
            ]
        );
    }

    #[test]
    fn shorter_phrases_keep_the_head_end_first() {
        let english = |name| head_phrases(name, &Language::english());
        assert_eq!(
            english("best coffee for moka pot")[..4],
            [
                "best coffee for moka pot",
                "coffee for moka pot",
                "for moka pot",
                "moka pot"
            ]
        );
        assert_eq!(
            english("moka pots online"),
            ["moka pots online", "pots online", "moka pots"]
        );
        assert_eq!(
            head_phrases("cafetière italienne pas chère", &Language::new("fr"))[..3],
            [
                "cafetière italienne pas chère",
                "cafetière italienne pas",
                "cafetière italienne"
            ]
        );
        assert_eq!(english("grinder"), ["grinder"]);
    }

    #[test]
    fn offline_the_competitors_pages_that_name_the_cluster() {
        let cluster = ClusterRecord {
            name: "gutter cleaning".into(),
            ..ClusterRecord::default()
        };
        let page = |url: &str, title: &str, role| PageContent {
            url: url.into(),
            title: title.into(),
            site: Some(role),
            ..PageContent::default()
        };
        let pages = [
            page(
                "https://rival.example/gutter-cleaning",
                "Gutter Cleaning | Rival",
                SiteRole::Competitor(0),
            ),
            page(
                "https://rival.example/about",
                "About us",
                SiteRole::Competitor(0),
            ),
            page(
                "https://acme.example/gutter-cleaning",
                "Gutter cleaning",
                SiteRole::Primary,
            ),
        ];
        let material = Material {
            serps: &[],
            pages: &pages,
            primary_domain: "acme.example",
            language: &Language::english(),
        };
        let picked = pick_sources(&material, &cluster, &[], None);
        assert_eq!(picked.len(), 1);
        assert_eq!(picked[0].url, "https://rival.example/gutter-cleaning");
    }
}
