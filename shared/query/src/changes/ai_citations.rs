//! AI citations gained and lost between two runs: per keyword whose results page was read in
//! both runs, the sites its AI Overview cites now and did not before (and the reverse); per
//! question an answer engine was asked in both runs, the sites its answer cites now and did
//! not before. Only the job's own site and its competitors are followed, each by registrable
//! domain (subdomains included), so a competitor cited through `blog.rival.com` is `rival.com`.

use std::collections::{BTreeSet, HashMap};

use kr_core::dataset::{registrable_domain, AiReference};
use serde::Serialize;
use utoipa::ToSchema;

use super::compare::{Differences, RunView};

/// `source` of a citation on a keyword's AI Overview.
pub const AI_OVERVIEW_SOURCE: &str = "ai_overview";

/// A site cited, or no longer cited, on a keyword's AI Overview or in an engine's answer.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AiCitationChange {
    /// This run's cluster of the keyword (or of the question's keyword).
    pub cluster_id: String,
    pub cluster_name: String,
    /// The site, as the job lists it: its primary domain or one of its competitors.
    pub domain: String,
    /// Whether `domain` is the job's own site (else a competitor).
    pub site: bool,
    /// `ai_overview` for Google's AI Overview on `keyword`, else the answer engine asked
    /// `prompt` (`chat_gpt`, `perplexity`, `gemini`, `claude`, `google_ai_mode`).
    pub source: String,
    /// The keyword whose AI Overview cites the site; `null` for an engine's answer.
    pub keyword: Option<String>,
    /// The question the engine was asked; `null` for an AI Overview.
    pub prompt: Option<String>,
}

/// What one run's answer engines said to one question, as compared.
#[derive(Debug, Clone)]
pub(crate) struct AnswerSeen {
    pub engine: String,
    pub prompt: String,
    pub cluster_id: String,
    /// The registrable domains of the addresses the answer cites.
    pub cited: BTreeSet<String>,
}

impl AnswerSeen {
    pub fn new(engine: &str, prompt: &str, cluster_id: &str, cited_urls: &[String]) -> Self {
        Self {
            engine: engine.to_string(),
            prompt: prompt.to_string(),
            cluster_id: cluster_id.to_string(),
            cited: cited_urls
                .iter()
                .filter_map(|url| AiReference::new(url, None, None))
                .map(|page| page.site())
                .collect(),
        }
    }
}

/// The sites whose citations are followed: the job's own first, then its competitors in the
/// job's order; each as listed and by registrable domain.
#[derive(Debug, Clone, Default)]
pub(crate) struct Followed {
    sites: Vec<(String, String, bool)>,
}

impl Followed {
    pub fn new<S: AsRef<str>>(site: &str, competitors: &[S]) -> Self {
        let mut sites = vec![(site.to_string(), registrable_domain(site), true)];
        for competitor in competitors {
            let listed = competitor.as_ref();
            let domain = registrable_domain(listed);
            if !sites.iter().any(|(_, known, _)| *known == domain) {
                sites.push((listed.to_string(), domain, false));
            }
        }
        Self { sites }
    }
}

/// Each followed site cited in `now` and not `before` (gained), or the reverse (lost).
fn changes_of(
    followed: &Followed,
    now: &BTreeSet<String>,
    before: &BTreeSet<String>,
    mut entry: impl FnMut(&str, bool) -> AiCitationChange,
    out: &mut Differences,
) {
    for (listed, domain, site) in &followed.sites {
        match (now.contains(domain), before.contains(domain)) {
            (true, false) => out.ai_citations_gained.push(entry(listed, *site)),
            (false, true) => out.ai_citations_lost.push(entry(listed, *site)),
            _ => {}
        }
    }
}

/// Fills `out`'s AI citation lists: the site's first, then the most valuable clusters' (this
/// run's total volume), then AI Overviews before answers.
pub(crate) fn compare(
    current: &RunView,
    previous: &RunView,
    followed: &Followed,
    out: &mut Differences,
) {
    let clusters: HashMap<&str, (&str, i64)> = current
        .clusters
        .iter()
        .map(|c| (c.id.as_str(), (c.name.as_str(), c.total_search_volume)))
        .collect();
    let cluster_name = |id: &str| clusters.get(id).map_or(id, |(name, _)| *name).to_string();
    for (key, now) in &current.keywords {
        let Some(before) = previous.keywords.get(key) else {
            continue;
        };
        // Both results pages read: a keyword new to the job, or without a page in one run,
        // says nothing about what its overview gained.
        let (Some(cited_now), Some(cited_before)) = (&now.ai_cited, &before.ai_cited) else {
            continue;
        };
        out.ai_citations_compared = true;
        let entry = |domain: &str, site: bool| AiCitationChange {
            cluster_id: now.cluster_id.clone(),
            cluster_name: cluster_name(&now.cluster_id),
            domain: domain.to_string(),
            site,
            source: AI_OVERVIEW_SOURCE.to_string(),
            keyword: Some(now.keyword.clone()),
            prompt: None,
        };
        changes_of(followed, cited_now, cited_before, entry, out);
    }
    let asked_before: HashMap<(&str, &str), &AnswerSeen> = previous
        .answers
        .iter()
        .map(|a| ((a.engine.as_str(), a.prompt.as_str()), a))
        .collect();
    for now in &current.answers {
        let Some(before) = asked_before.get(&(now.engine.as_str(), now.prompt.as_str())) else {
            continue;
        };
        out.ai_citations_compared = true;
        let entry = |domain: &str, site: bool| AiCitationChange {
            cluster_id: now.cluster_id.clone(),
            cluster_name: cluster_name(&now.cluster_id),
            domain: domain.to_string(),
            site,
            source: now.engine.clone(),
            keyword: None,
            prompt: Some(now.prompt.clone()),
        };
        changes_of(followed, &now.cited, &before.cited, entry, out);
    }
    let volume = |id: &str| clusters.get(id).map_or(0, |(_, volume)| *volume);
    for list in [&mut out.ai_citations_gained, &mut out.ai_citations_lost] {
        list.sort_by(|a, b| {
            b.site
                .cmp(&a.site)
                .then_with(|| volume(&b.cluster_id).cmp(&volume(&a.cluster_id)))
                .then_with(|| a.cluster_name.cmp(&b.cluster_name))
                .then_with(|| {
                    (a.source != AI_OVERVIEW_SOURCE).cmp(&(b.source != AI_OVERVIEW_SOURCE))
                })
                .then_with(|| a.source.cmp(&b.source))
                .then_with(|| a.keyword.cmp(&b.keyword))
                .then_with(|| a.prompt.cmp(&b.prompt))
                .then_with(|| a.domain.cmp(&b.domain))
        });
    }
}
