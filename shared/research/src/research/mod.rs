//! The whole research run, and the assembly of stage outputs into result records.
//!
//! [`research`] = [`offline_keywords_of`] → [`estimate_all_serving`] → [`assemble`].
//! The pipeline may run the stages separately and swap the estimate for provider data: it
//! then calls [`assemble`] with one [`Measured`] per candidate (metrics, their source,
//! rankings, intent, SERP).
//!
//! Inside [`assemble`]: intent per keyword (the provider's, else [`IntentClassifier`] with
//! the brand terms, reading the keyword's results page when one was fetched), scores ([`crate::scores`], relevance = [`relevance`] of the discovery
//! score against the job's best, the primary's position read from the rankings), clusters
//! ([`cluster_by_serp`]: SERP overlap with hubs by search volume, then the lexical clustering
//! for the rest with hubs ranked by that relevance), personas
//! ([`OfflinePersonaGenerator`] or any [`PersonaGenerator`], keywords ranked by organic
//! opportunity score), then cluster aggregates.

mod aggregate;
mod measured;

use serde::{Deserialize, Serialize};

use crate::clusters::{
    cluster_by_serp, ClusterConfig, SerpClusterConfig, SerpClusterInput, DEFAULT_SERP_OVERLAP,
};
use crate::discovery::{Candidate, DiscoveryConfig, DEFAULT_MAX_KEYWORDS};
use crate::intent::{IntentClassifier, NichePages, ResultsPage};
use crate::metrics::estimate_all_serving;
use crate::offline::offline_keywords_of;
use crate::personas::{
    OfflinePersonaGenerator, PersonaGenerator, PersonaInput, PersonaKeyword, PersonaSet,
    SiteProfile,
};
use crate::plan::{plan, PageOutline, PlanSites};
use crate::scores::{relevance, score, ScoreConfig, ScoreInput};
use crate::serp_page::weak_spots;
use crate::text::Language;
use crate::PageContent;
use kr_core::dataset::{best_organic_position, AiOverview};
pub use kr_core::dataset::{
    ClusterRecord, KeywordRecord, Persona, Ranking, RankingKind, TopicRecord,
};
pub use measured::{Measured, NO_DATA_SOURCE};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResearchOutput {
    /// Best first (discovery order).
    pub keywords: Vec<KeywordRecord>,
    /// SERP-overlap clusters in hub order (highest volume first), then the lexical ones in
    /// theirs (most relevant first).
    pub clusters: Vec<ClusterRecord>,
    pub personas: Vec<Persona>,
    /// The clusters grouped into topics, in pillar order (highest volume first).
    #[serde(default)]
    pub topics: Vec<TopicRecord>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResearchInput {
    pub language: Language,
    /// Brand and domain names of the job's sites ("acme", "acme.com"): navigational intent.
    pub brand_terms: Vec<String>,
    /// Clamped to 1..=20,000.
    pub max_keywords: usize,
    /// The primary domain, to find its position among a keyword's rankings.
    pub primary_domain: Option<String>,
    pub scores: ScoreConfig,
    /// Shared top-10 result URLs that put two keywords with SERPs in one cluster.
    pub serp_overlap: usize,
    /// Who the primary site serves, for personas ([`SiteProfile::from_pages`]); [`research`]
    /// reads it from the pages itself.
    #[serde(default)]
    pub site: SiteProfile,
    /// The competitors' domains, for their positions per cluster.
    #[serde(default)]
    pub competitor_domains: Vec<String>,
    /// The primary site's crawled pages ([`PageOutline::primary_pages`]), the candidates for
    /// each cluster's target page; [`research`] reads them from the pages itself.
    #[serde(default)]
    pub primary_pages: Vec<PageOutline>,
}

impl Default for ResearchInput {
    fn default() -> Self {
        ResearchInput {
            language: Language::english(),
            brand_terms: Vec::new(),
            max_keywords: DEFAULT_MAX_KEYWORDS,
            primary_domain: None,
            scores: ScoreConfig::default(),
            serp_overlap: DEFAULT_SERP_OVERLAP,
            site: SiteProfile::default(),
            competitor_domains: Vec::new(),
            primary_pages: Vec::new(),
        }
    }
}

/// Runs every stage offline, with estimated metrics.
pub fn research(pages: &[PageContent], input: &ResearchInput) -> ResearchOutput {
    let limit = DiscoveryConfig::new(input.language.clone(), input.max_keywords).keyword_limit();
    let site = SiteProfile::from_pages(pages, &input.language);
    let candidates = offline_keywords_of(pages, &site, &input.language, limit);
    research_candidates(pages, &candidates, site, input)
}

/// The offline stages after discovery, for `candidates` found in `pages` whose primary site
/// `site` profiles.
pub(crate) fn research_candidates(
    pages: &[PageContent],
    candidates: &[Candidate],
    site: SiteProfile,
    input: &ResearchInput,
) -> ResearchOutput {
    let measured: Vec<Measured> = estimate_all_serving(candidates, &input.language, &site.places)
        .into_iter()
        .map(Measured::estimated)
        .collect();
    let input = ResearchInput {
        site,
        primary_pages: PageOutline::primary_pages(pages),
        ..input.clone()
    };
    assemble(candidates, &measured, &input, &OfflinePersonaGenerator)
}

/// Turns discovered candidates and what is known about them into result records.
///
/// `measured[i]` belongs to `candidates[i]`. A missing entry means nothing is known: null
/// metrics with source [`NO_DATA_SOURCE`]. Empty rankings mean no rank data (the primary is
/// taken as not ranking).
pub fn assemble(
    candidates: &[Candidate],
    measured: &[Measured],
    input: &ResearchInput,
    personas: &dyn PersonaGenerator,
) -> ResearchOutput {
    // The site's own name is a brand too, when its domain does not spell it. The towns the
    // site serves make "montclair roofing" a local service query, and what it sells makes
    // "espresso beans" shopping.
    let brand_terms: Vec<String> = input
        .brand_terms
        .iter()
        .chain(&input.site.brand)
        .cloned()
        .collect();
    let classifier = IntentClassifier::new(&input.language, &brand_terms)
        .with_places(&input.site.places)
        .with_offerings(&input.site.offerings)
        .with_niche(NichePages::from_pages(
            measured
                .iter()
                .filter_map(|known| known.serp_urls.as_deref()),
        ));
    let best_score = candidates.iter().map(|c| c.score).fold(0.0, f64::max);
    let nothing = Measured {
        source: NO_DATA_SOURCE.to_string(),
        ..Measured::default()
    };
    let mut keywords: Vec<KeywordRecord> = Vec::with_capacity(candidates.len());
    let mut cluster_inputs = Vec::with_capacity(candidates.len());
    for (index, candidate) in candidates.iter().enumerate() {
        let known = measured.get(index).unwrap_or(&nothing);
        let (metrics, rankings) = (&known.metrics, known.rankings.clone());
        let relevance = relevance(candidate.score, best_score);
        let scores = score(
            &ScoreInput {
                search_volume: metrics.search_volume,
                cpc: metrics.cpc,
                competition: metrics.competition,
                difficulty: metrics.difficulty,
                relevance,
                content_gap: candidate.content_gap,
                primary_position: primary_position(&rankings, input.primary_domain.as_deref()),
            },
            &input.scores,
        );
        // SERP hubs by volume: the most searched query is the one its page should target.
        // Lexical hubs by relevance: the phrase that best represents the sites' content
        // names the cluster. By volume, single generic words ("bathroom") would swallow
        // every specific phrase ("bathroom installation") and name the clusters.
        cluster_inputs.push(SerpClusterInput {
            keyword: candidate.keyword.clone(),
            volume: metrics.search_volume.unwrap_or(0) as f64,
            lexical_value: relevance,
            serp_urls: known.serp_urls.clone(),
        });
        let page = ResultsPage {
            organic: known.serp_urls.as_deref().unwrap_or_default(),
            features: known.serp_features.as_deref().unwrap_or_default(),
        };
        let intent_scores = classifier.scores_on(&candidate.keyword, &page);
        let intent = known.intent.unwrap_or_else(|| intent_scores.primary());
        let mut secondary_intents = intent_scores.secondary();
        if intent != intent_scores.primary() {
            secondary_intents.insert(0, intent_scores.primary());
        }
        secondary_intents.retain(|other| *other != intent);
        keywords.push(KeywordRecord {
            id: format!("k-{}", index + 1),
            keyword: candidate.keyword.clone(),
            search_volume: metrics.search_volume,
            cpc: metrics.cpc,
            competition: metrics.competition,
            difficulty: metrics.difficulty,
            intent,
            secondary_intents,
            persona_avatar_name: None,
            cluster_id: String::new(),
            cluster_name: String::new(),
            organic_opportunity_score: scores.organic_opportunity_score,
            paid_opportunity_score: scores.paid_opportunity_score,
            opportunity_value: scores.opportunity_value,
            monthly_searches: metrics.monthly_searches.clone(),
            metrics_source: known.source.clone(),
            rankings,
            content_gap: candidate.content_gap,
            source: Some(candidate.source),
            topic_id: None,
            serp_features: known.serp_features.clone(),
            people_also_ask: known.people_also_ask.clone(),
            weak_spots: known.serp_urls.as_deref().map(weak_spots),
            search_console: known.search_console.clone(),
            ai_overview: ai_overview(known, input),
        });
    }

    let clusters = cluster_by_serp(
        &cluster_inputs,
        &SerpClusterConfig {
            overlap: input.serp_overlap,
            lexical: ClusterConfig {
                language: input.language.clone(),
            },
        },
    );
    for found in &clusters {
        for &member in &found.members {
            keywords[member].cluster_id = found.id.clone();
            keywords[member].cluster_name = found.name.clone();
        }
    }

    let persona_set = personas.generate(&persona_input(&keywords, input));
    assign_personas(&mut keywords, &persona_set);
    let mut cluster_records: Vec<ClusterRecord> = clusters
        .iter()
        .map(|c| summarize_cluster(c, &keywords))
        .collect();
    let serps: Vec<Option<Vec<String>>> = cluster_inputs.into_iter().map(|c| c.serp_urls).collect();
    let topics = plan(
        &clusters,
        &mut cluster_records,
        &mut keywords,
        &serps,
        &PlanSites {
            language: &input.language,
            primary_domain: input.primary_domain.as_deref(),
            competitor_domains: &input.competitor_domains,
            primary_pages: &input.primary_pages,
            brand: input.site.brand.as_deref(),
            places: &input.site.places,
        },
    );
    ResearchOutput {
        keywords,
        clusters: cluster_records,
        personas: persona_set.personas,
        topics,
    }
}

/// What a persona generator is given for `keywords` (in their order), valued by organic
/// opportunity score.
pub fn persona_input(keywords: &[KeywordRecord], input: &ResearchInput) -> PersonaInput {
    PersonaInput {
        language: input.language.clone(),
        keywords: keywords
            .iter()
            .map(|k| PersonaKeyword {
                keyword: k.keyword.clone(),
                intent: k.intent,
                value: k.organic_opportunity_score,
            })
            .collect(),
        site: input.site.clone(),
    }
}

/// Replaces the output's personas with `set`, made for [`persona_input`] of its keywords
/// (another generator's, such as a language model's).
pub fn replace_personas(output: &mut ResearchOutput, set: PersonaSet) {
    assign_personas(&mut output.keywords, &set);
    output.personas = set.personas;
}

fn assign_personas(keywords: &mut [KeywordRecord], set: &PersonaSet) {
    for (index, keyword) in keywords.iter_mut().enumerate() {
        let slot = set.assignments.get(index).copied().flatten();
        keyword.persona_avatar_name = slot
            .and_then(|p| set.personas.get(p))
            .map(|p| p.avatar_name.clone());
    }
}

/// The primary domain's best position among a keyword's rankings ("www." ignored).
/// The keyword's `aiOverview`: whom the overview on its SERP cites; `None` without a SERP.
fn ai_overview(known: &Measured, input: &ResearchInput) -> Option<AiOverview> {
    known.serp_features.as_ref()?;
    Some(AiOverview::from_serp(
        known.ai_overview.as_deref(),
        input.primary_domain.as_deref().unwrap_or_default(),
        &input.competitor_domains,
    ))
}

fn primary_position(rankings: &[Ranking], primary_domain: Option<&str>) -> Option<u32> {
    best_organic_position(rankings, primary_domain?)
}

/// A cluster's record from its member keywords, before the plan fills its plan fields.
pub fn summarize_cluster(
    cluster: &crate::clusters::Cluster,
    keywords: &[KeywordRecord],
) -> ClusterRecord {
    aggregate::summarize(cluster, keywords)
}

#[cfg(test)]
mod provider_tests;
#[cfg(test)]
mod tests;
