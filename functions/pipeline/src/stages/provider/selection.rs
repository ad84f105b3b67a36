//! Which keywords a provider-backed job keeps. The crawl, the domains' rankings and the
//! keyword ideas are merged into one list (one entry per keyword, case-insensitively), each
//! keyword is given a relevance to the primary site, and the most relevant are kept:
//!
//! | evidence | relevance |
//! |---|---|
//! | the primary ranks organically at position p (1..100) | 0.95 − 0.35 × (p − 1) / 99 |
//! | only competitors rank (a content gap) | 0.7 |
//! | found in the crawl | 0.75 × its crawl relevance (log-scaled discovery score, 0..1) |
//! | a keyword idea from the site's own top phrases | 0.4 |
//! | in the user's own list (`keywords` of the job) | at least 0.6 |
//!
//! Measured evidence of demand outranks the crawl's: a keyword the primary ranks for, or one
//! its competitors win it over, matters more than a phrase that is merely on the pages, and a
//! content gap is what a competitor analysis is for. Crawl relevance is log-scaled and most
//! phrases sit high on it, hence the 0.75 factor, which keeps gaps above all but the site's
//! very best phrases.
//!
//! A keyword with several kinds of evidence takes the highest; ties go to the higher volume.
//! Relevance is stored back as a discovery score, so scoring treats every keyword alike.
//!
//! The user's own keywords are all kept, besides the `max_keywords` best of the others (none
//! of the others when the job researches only its list). The user chose them, which says
//! more than a keyword idea and less than a measured ranking or gap: 0.6 unless other
//! evidence gives more.

use std::collections::HashMap;

use kr_core::dataset::KeywordSource;
use kr_dataforseo::keywords::match_key;
use kr_dataforseo::model::{KeywordData, RankedItem};
use kr_research::discovery::{Candidate, Prominence};
use kr_research::research::{Ranking, RankingKind};
use kr_research::scores::relevance;

use super::KeywordFacts;
use crate::stages::Discovered;

const IDEA_RELEVANCE: f64 = 0.4;
const GAP_RELEVANCE: f64 = 0.7;
const CRAWL_WEIGHT: f64 = 0.75;
const IMPORTED_RELEVANCE: f64 = 0.6;

/// The provider's answers for one job's discovery.
#[derive(Debug, Default)]
pub struct Gathered {
    /// Per domain, primary first: the keywords it ranks for.
    pub ranked: Vec<(String, Vec<RankedItem>)>,
    pub ideas: Vec<KeywordData>,
}

/// The user's own keywords and whether the job adds others to them.
#[derive(Debug, Clone, Copy)]
pub struct Wanted<'a> {
    pub imported: &'a [String],
    pub discover: bool,
}

#[cfg(test)]
impl Wanted<'_> {
    pub const DISCOVERED_ONLY: Wanted<'static> = Wanted {
        imported: &[],
        discover: true,
    };
}

struct Entry {
    keyword: String,
    crawl: Option<Candidate>,
    facts: KeywordFacts,
    primary_position: Option<u32>,
    competitor_ranks: bool,
    idea: bool,
    imported: bool,
}

impl Entry {
    fn source(&self) -> KeywordSource {
        if self.imported {
            KeywordSource::Imported
        } else if self.primary_position.is_some() || self.competitor_ranks {
            KeywordSource::Ranked
        } else if self.crawl.is_some() {
            KeywordSource::Crawl
        } else {
            KeywordSource::Idea
        }
    }
}

pub fn select(
    crawl: Vec<Candidate>,
    gathered: Gathered,
    wanted: Wanted<'_>,
    max_keywords: usize,
) -> Discovered {
    let best_score = crawl.iter().map(|c| c.score).fold(0.0, f64::max);
    let mut entries: Vec<Entry> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut entry = |keyword: &str, entries: &mut Vec<Entry>| -> usize {
        *index.entry(match_key(keyword)).or_insert_with(|| {
            entries.push(Entry {
                keyword: keyword.trim().to_lowercase(),
                crawl: None,
                facts: KeywordFacts::default(),
                primary_position: None,
                competitor_ranks: false,
                idea: false,
                imported: false,
            });
            entries.len() - 1
        })
    };
    for keyword in wanted.imported {
        let at = entry(keyword, &mut entries);
        entries[at].imported = true;
    }
    for candidate in crawl {
        let at = entry(&candidate.keyword, &mut entries);
        entries[at].crawl = Some(candidate);
    }
    for (rank, (domain, items)) in gathered.ranked.iter().enumerate() {
        for item in items {
            let Some(data) = &item.keyword_data else {
                continue;
            };
            let Some(keyword) = data.keyword.as_deref() else {
                continue;
            };
            let at = entry(keyword, &mut entries);
            let e = &mut entries[at];
            e.facts.absorb_labs(data);
            let Some(serp) = item
                .ranked_serp_element
                .as_ref()
                .and_then(|r| r.serp_item.as_ref())
            else {
                continue;
            };
            let Some(position) = serp.rank_group.or(serp.rank_absolute) else {
                continue;
            };
            let organic = serp.item_type.as_deref().is_none_or(|t| t == "organic");
            e.facts.rankings.push(Ranking {
                domain: domain.clone(),
                position,
                url: serp.url.clone().unwrap_or_default(),
                kind: if organic {
                    RankingKind::Organic
                } else {
                    RankingKind::Paid
                },
            });
            if organic && rank == 0 {
                e.primary_position = Some(e.primary_position.map_or(position, |p| p.min(position)));
            } else if organic {
                e.competitor_ranks = true;
            }
        }
    }
    for idea in &gathered.ideas {
        if let Some(keyword) = idea.keyword.as_deref() {
            let at = entry(keyword, &mut entries);
            entries[at].facts.absorb_labs(idea);
            entries[at].idea = true;
        }
    }

    let mut ranked: Vec<(f64, Entry)> = entries
        .into_iter()
        .map(|e| (entry_relevance(&e, best_score), e))
        .collect();
    ranked.sort_by(|(ra, a), (rb, b)| {
        rb.total_cmp(ra)
            .then_with(|| b.facts.volume().cmp(&a.facts.volume()))
            .then_with(|| a.keyword.cmp(&b.keyword))
    });
    let mut others = 0;
    let others_wanted = if wanted.discover {
        max_keywords.max(1)
    } else {
        0
    };
    ranked.retain(|(_, e)| {
        e.imported || {
            others += 1;
            others <= others_wanted
        }
    });

    // Scores on the crawl's scale, so `relevance()` gives back what was computed here.
    let scale = if best_score > 0.0 { best_score } else { 1.0 };
    let mut discovered = Discovered::default();
    for (relevance, e) in ranked {
        let ranked_at_all = e.primary_position.is_some() || e.competitor_ranks;
        let gap = if ranked_at_all {
            e.competitor_ranks && e.primary_position.is_none()
        } else {
            e.crawl.as_ref().is_some_and(|c| c.content_gap)
        };
        let source = e.source();
        let mut candidate = e.crawl.unwrap_or_else(|| Candidate {
            word_count: e.keyword.split_whitespace().count(),
            keyword: e.keyword.clone(),
            score: 0.0,
            primary_occurrences: 0,
            competitor_occurrences: 0,
            page_count: 0,
            site_count: 0,
            site_share: 0.0,
            in_primary: false,
            competitor_sites: 0,
            content_gap: false,
            prominence: Prominence::default(),
            source: KeywordSource::Crawl,
        });
        candidate.score = (1.0 + scale).powf(relevance) - 1.0;
        candidate.content_gap = gap;
        candidate.source = source;
        discovered.candidates.push(candidate);
        discovered.facts.push(e.facts);
    }
    discovered
}

fn entry_relevance(e: &Entry, best_score: f64) -> f64 {
    let crawl = e
        .crawl
        .as_ref()
        .map_or(0.0, |c| CRAWL_WEIGHT * relevance(c.score, best_score));
    let ranked = e
        .primary_position
        .map_or(0.0, |p| 0.95 - 0.35 * f64::from(p.clamp(1, 100) - 1) / 99.0);
    let gap = if e.competitor_ranks && e.primary_position.is_none() {
        GAP_RELEVANCE
    } else {
        0.0
    };
    let idea = if e.idea { IDEA_RELEVANCE } else { 0.0 };
    let imported = if e.imported { IMPORTED_RELEVANCE } else { 0.0 };
    crawl.max(ranked).max(gap).max(idea).max(imported)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crawl(keyword: &str, score: f64, content_gap: bool) -> Candidate {
        Candidate {
            keyword: keyword.into(),
            score,
            word_count: keyword.split_whitespace().count(),
            primary_occurrences: 1,
            competitor_occurrences: 0,
            page_count: 1,
            site_count: 1,
            site_share: 1.0,
            in_primary: !content_gap,
            competitor_sites: 0,
            content_gap,
            prominence: Prominence::default(),
            source: KeywordSource::Crawl,
        }
    }

    fn ranked(keyword: &str, kind: &str, position: u32, volume: i64) -> RankedItem {
        serde_json::from_value(serde_json::json!({
            "keyword_data": {"keyword": keyword, "keyword_info": {"search_volume": volume}},
            "ranked_serp_element": {"serp_item": {"type": kind, "rank_group": position,
                "url": format!("https://site/{}", keyword.replace(' ', "-"))}}
        }))
        .unwrap()
    }

    #[test]
    fn rankings_ideas_and_crawl_merge_into_one_ranked_list() {
        let gathered = Gathered {
            ranked: vec![
                (
                    "primary.com".into(),
                    vec![
                        ranked("Cold Brew", "organic", 4, 1900),
                        ranked("espresso beans", "paid", 1, 880),
                    ],
                ),
                (
                    "rival.com".into(),
                    vec![
                        ranked("cold brew", "organic", 1, 1900),
                        ranked("espresso beans", "organic", 2, 880),
                        ranked("pour over kettle", "organic", 7, 320),
                    ],
                ),
            ],
            ideas: vec![serde_json::from_value(
                serde_json::json!({"keyword": "iced latte recipe", "keyword_info": {"search_volume": 90}}),
            )
            .unwrap()],
        };
        let crawled = vec![
            crawl("cold brew", 10.0, false),
            crawl("house blend", 4.0, false),
            crawl("pour over kettle", 2.0, true),
        ];
        let found = select(crawled, gathered, Wanted::DISCOVERED_ONLY, 10);
        let keywords: Vec<&str> = found
            .candidates
            .iter()
            .map(|c| c.keyword.as_str())
            .collect();
        assert_eq!(
            keywords,
            [
                "cold brew",
                "espresso beans",
                "pour over kettle",
                "house blend",
                "iced latte recipe"
            ]
        );
        let at = |k: &str| keywords.iter().position(|x| *x == k).unwrap();
        // Ranked by both: one entry, both rankings, figures from the provider.
        let cold = &found.facts[at("cold brew")];
        assert_eq!(cold.rankings.len(), 2);
        assert_eq!(cold.volume(), Some(1900));
        assert!(!found.candidates[at("cold brew")].content_gap);
        // The primary's paid ad is not an organic ranking: still a gap.
        assert!(found.candidates[at("espresso beans")].content_gap);
        assert!(found.candidates[at("pour over kettle")].content_gap);
        assert!(!found.candidates[at("iced latte recipe")].content_gap);
        // Relevance survives the round trip through the discovery score (on the crawl's
        // scale: its best score was 10).
        let gap = relevance(found.candidates[at("espresso beans")].score, 10.0);
        assert!((gap - GAP_RELEVANCE).abs() < 1e-9, "{gap}");

        let kept = select(
            vec![crawl("cold brew", 10.0, false)],
            Gathered::default(),
            Wanted::DISCOVERED_ONLY,
            1,
        );
        assert_eq!(kept.candidates.len(), 1);
        assert_eq!(kept.facts.len(), 1);
    }
}
