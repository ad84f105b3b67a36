//! Finding keyword candidates in crawled pages, and keyphrases in single documents.
//!
//! [`discover`] reads every text field of every page and keeps the phrases people could
//! search for: 1 to 5 words inside punctuation-free segments, shaped like a query
//! (`collect::for_each_phrase`: no stop, weak or page-copy word first or last, at most one
//! linking word inside in English), not a fragment of a longer phrase, not mostly numbers,
//! and a single word only when it is specific to the site (`query_shape`). Variants that
//! share a stem sequence ("Running Shoes", "running shoe") are merged, and the phrases are
//! ranked by a field-weighted, boilerplate-penalised TF-IDF:
//!
//! ```text
//! page_tf(p, page)  = Σ_field weight(field) × (1 + ln count(p, field, page))   [count > 0]
//! site_tf(p, s)     = Σ_{pages of s} page_tf(p, page)
//! idf(d, P)         = ln(1 + (P − d + 0.5) / (d + 0.5))      (BM25's, never negative)
//! specificity(p, s) = 1 − (1 − idf(df_s, P_s) / idf(1, P_s)) × min(1, (P_s − 1) / 4)
//! score(p)          = length_factor(words)
//!                     × Σ_sites w(p, s) × ln(1 + site_tf(p, s)) × specificity(p, s)
//! ```
//!
//! `P_s` is the number of crawled pages of site `s` and `df_s` how many contain the phrase:
//! a phrase on nearly every page of a site (navigation, footer, slogans) has a specificity
//! near 0 there, one on a single page keeps 1. Sites with few pages cannot show what is
//! boilerplate, so the penalty fades in over the first five pages. Summing over sites rewards
//! phrases several sites use: that is what the market calls the topic. `w` is 1 for the
//! primary site and for a phrase the primary site uses; for another competitor phrase it
//! grows from 0.1 to 1 with the share of its words the primary site uses
//! (`query_shape::competitor_weight`): an off-topic competitor page must not lead the list.
//! `length_factor` is 0.8, 1.25, 1.3, 1.2, 1.1 for 1 to 5 words: multi-word phrases name a
//! need precisely, single words are vague. Field weights are in [`Field::weight`].
//! Well-known boilerplate (navigation, cookie banners, legal text: "privacy policy",
//! "impressum", ...) is dropped outright.

mod collect;
mod fields;
mod html;
mod keyphrases;
mod query_shape;
mod vocabulary;

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::text::{join_words, Analyzer, Language};
use crate::PageContent;
use collect::{collect, for_each_phrase, Collection, Ids, PhraseStats, MAX_PHRASE_WORDS};
pub use fields::{Field, Prominence};
pub use html::strip_html;
pub use keyphrases::extract_keyphrases;
use kr_core::dataset::KeywordSource;
use query_shape::{competitor_weight, is_fragment, is_quantity, SingleWords};

/// Keywords kept by default, and the most a job may keep (`KR_MAX_KEYWORDS`).
pub use kr_core::config::{max_keywords_from_vars, DEFAULT_MAX_KEYWORDS, MAX_KEYWORDS_LIMIT};

const LENGTH_FACTOR: [f64; MAX_PHRASE_WORDS] = [0.8, 1.25, 1.3, 1.2, 1.1];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscoveryConfig {
    pub language: Language,
    /// How many candidates to keep, best first; clamped to 1..=20,000.
    pub max_keywords: usize,
}

impl DiscoveryConfig {
    pub fn new(language: Language, max_keywords: usize) -> Self {
        DiscoveryConfig {
            language,
            max_keywords,
        }
    }

    /// `max_keywords` within its bounds.
    pub fn keyword_limit(&self) -> usize {
        self.max_keywords.clamp(1, MAX_KEYWORDS_LIMIT)
    }
}

impl Default for DiscoveryConfig {
    fn default() -> Self {
        DiscoveryConfig::new(Language::english(), DEFAULT_MAX_KEYWORDS)
    }
}

/// A keyword found in the crawl, with the evidence later stages need.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Candidate {
    /// Display form: the most frequent surface form of its variants, lowercase.
    pub keyword: String,
    /// Relevance to the job's sites (see the module docs); higher is better, not bounded.
    pub score: f64,
    pub word_count: usize,
    /// Occurrences on the primary site's pages, all fields.
    pub primary_occurrences: usize,
    /// Occurrences on competitor pages, all fields.
    pub competitor_occurrences: usize,
    /// Pages containing it, all sites.
    pub page_count: usize,
    /// Sites containing it (primary and competitors).
    pub site_count: usize,
    /// `site_count` divided by the number of sites with at least one crawled page.
    pub site_share: f64,
    pub in_primary: bool,
    /// Competitor sites containing it.
    pub competitor_sites: usize,
    /// Competitors cover it and the primary site does not.
    pub content_gap: bool,
    /// Occurrences per field, all pages.
    pub prominence: Prominence,
    /// Where it came from; the crawl unless a later step says otherwise.
    #[serde(default)]
    pub source: KeywordSource,
}

/// The best `config.max_keywords` candidates, best first (ties by keyword).
pub fn discover(pages: &[PageContent], config: &DiscoveryConfig) -> Vec<Candidate> {
    let mut candidates = discover_all(pages, &config.language);
    candidates.truncate(config.keyword_limit());
    candidates
}

/// Every candidate of the crawl, ranked as [`discover`] ranks them, without truncation.
pub fn discover_all(pages: &[PageContent], language: &Language) -> Vec<Candidate> {
    let analyzer = Analyzer::new(language);
    let mut collection = collect(pages, &analyzer);
    let boilerplate = boilerplate_keys(&mut collection);
    let crawled_sites = collection
        .pages_per_site
        .iter()
        .filter(|&&pages| pages > 0)
        .count();
    // A lone search modifier ("best", "vs", "buy", "price") says how people search, not what
    // for; it is only a keyword together with a topic.
    let modifiers = crate::intent::IntentClassifier::new(language, &[]);
    let is_bare_modifier = |candidate: &Candidate| {
        // Word count first: reading cues costs far more, and most candidates are phrases.
        candidate.word_count == 1 && {
            let cues = modifiers.cues(&candidate.keyword);
            cues.transactional || cues.commercial || cues.navigational
        }
    };
    let single_words = SingleWords::new(pages, &collection);
    let mut candidates: Vec<Candidate> = collection
        .phrases
        .iter()
        .filter(|phrase| !boilerplate.contains(&phrase.stems))
        .filter(|phrase| {
            !is_fragment(phrase, &collection)
                && !is_quantity(phrase, &collection)
                && single_words.keeps(phrase, &collection)
        })
        .map(|phrase| to_candidate(phrase, &collection, crawled_sites))
        .filter(|candidate| !is_bare_modifier(candidate))
        .collect();
    candidates.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.keyword.cmp(&b.keyword))
    });
    candidates
}

fn to_candidate(phrase: &PhraseStats, collection: &Collection, crawled_sites: usize) -> Candidate {
    let mut relevance = 0.0;
    let competitor_weight = competitor_weight(phrase, collection);
    let mut primary_occurrences = 0;
    let mut competitor_occurrences = 0;
    for site in &phrase.sites {
        let site_pages = collection.pages_per_site[site.site];
        let weight = if site.site == 0 {
            1.0
        } else {
            competitor_weight
        };
        relevance += weight * (1.0 + site.weighted_tf).ln() * specificity(site.pages, site_pages);
        if site.site == 0 {
            primary_occurrences += site.occurrences;
        } else {
            competitor_occurrences += site.occurrences;
        }
    }
    let in_primary = phrase.sites.iter().any(|s| s.site == 0);
    let competitor_sites = phrase.sites.iter().filter(|s| s.site != 0).count();
    Candidate {
        keyword: display_form(phrase, collection),
        score: relevance * LENGTH_FACTOR[phrase.len - 1],
        word_count: phrase.len,
        primary_occurrences,
        competitor_occurrences,
        page_count: phrase.pages,
        site_count: phrase.sites.len(),
        site_share: phrase.sites.len() as f64 / crawled_sites.max(1) as f64,
        in_primary,
        competitor_sites,
        content_gap: competitor_sites > 0 && !in_primary,
        prominence: Prominence::from_counts(&phrase.fields),
        source: KeywordSource::Crawl,
    }
}

/// How specific a phrase is to some pages of a site rather than all of them (module docs).
fn specificity(document_frequency: usize, site_pages: usize) -> f64 {
    let idf = |df: usize| {
        let (df, pages) = (df as f64, site_pages as f64);
        (1.0 + (pages - df + 0.5) / (df + 0.5)).ln()
    };
    let confidence = ((site_pages as f64 - 1.0) / 4.0).clamp(0.0, 1.0);
    1.0 - (1.0 - idf(document_frequency) / idf(1)) * confidence
}

/// The most frequent surface form; among equally frequent ones the alphabetically first.
fn display_form(phrase: &PhraseStats, collection: &Collection) -> String {
    let render = |surface: &Ids| {
        let words: Vec<&str> = surface[..phrase.len]
            .iter()
            .map(|&id| collection.vocabulary.words[id as usize].text.as_str())
            .collect();
        join_words(&words)
    };
    let mut best: Option<(usize, String)> = None;
    for (surface, count) in &phrase.surfaces {
        let text = render(surface);
        let better = match &best {
            None => true,
            Some((best_count, best_text)) => {
                *count > *best_count || (*count == *best_count && text < *best_text)
            }
        };
        if better {
            best = Some((*count, text));
        }
    }
    best.map(|(_, text)| text).unwrap_or_default()
}

/// Stem sequences of the boilerplate phrases, in this job's vocabulary.
fn boilerplate_keys(collection: &mut Collection) -> HashSet<Ids> {
    let tokenizer = *collection.vocabulary.analyzer().tokenizer();
    let mut keys = HashSet::new();
    let lines = include_str!("boilerplate.txt")
        .lines()
        .chain(crate::text::LEGAL_NOTICES.lines());
    for line in lines.map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words = tokenizer.words(line);
        if words.is_empty() || words.len() > MAX_PHRASE_WORDS {
            continue;
        }
        let ids: Vec<u32> = words
            .iter()
            .map(|word| collection.vocabulary.intern(word))
            .collect();
        // The whole line as one phrase (if it is one in this language: stop words may not
        // start or end it).
        for_each_phrase(&ids, &collection.vocabulary, |_, _, stems, len| {
            if len == ids.len() {
                keys.insert(stems);
            }
        });
    }
    keys
}

#[cfg(test)]
mod query_tests;
#[cfg(test)]
mod tests;
