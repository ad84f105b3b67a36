//! Metrics with the provider. Keywords discovery left without figures are measured with
//! Labs' keyword overview, or with Google Ads where Labs does not cover the market; missing
//! difficulties and intents come from their bulk endpoints (the SERPs follow, in `serps`).
//! A keyword the provider was asked about and had nothing for keeps null figures (no data);
//! one it was never asked about, because the spending cap stopped the calls, gets the
//! offline estimate and says so in its source.

use kr_core::domain::Job;
use kr_dataforseo::{Bulk, JobSession, ProviderError};
use kr_research::discovery::Candidate;
use kr_research::metrics::{estimate_all_serving, KeywordMetrics, ESTIMATE_SOURCE};
use kr_research::research::Measured;
use kr_research::text::Language;

use super::facts::parse_intent;
use super::market;
use super::{settle_error, KeywordFacts, GOOGLE_ADS_SOURCE, LABS_SOURCE};
use crate::runner::{ProgressReporter, StageError};

/// The facts of every candidate, measured where discovery left them without figures.
pub async fn measure_with_provider(
    job: &Job,
    candidates: &[Candidate],
    mut facts: Vec<KeywordFacts>,
    session: &JobSession<'_>,
    progress: &ProgressReporter,
) -> Result<Vec<KeywordFacts>, StageError> {
    let market = market(job);
    facts.resize_with(candidates.len(), KeywordFacts::default);
    let keyword = |i: usize| candidates[i].keyword.clone();

    let missing: Vec<usize> = (0..facts.len())
        .filter(|&i| facts[i].metrics.is_none())
        .collect();
    let mut labs_covers_market = true;
    if !missing.is_empty() {
        progress.report(0.05, "Measuring keywords").await;
        let asked: Vec<String> = missing.iter().map(|&i| keyword(i)).collect();
        let overview = session.keyword_overview(&asked, &market).await;
        labs_covers_market = !matches!(overview.stopped, Some(ProviderError::Rejected { .. }))
            || !overview.found.is_empty();
        if labs_covers_market {
            apply(&overview, &missing, &mut facts, true, |f, data| {
                f.absorb_labs(data)
            })?;
        } else {
            let ads = session.ads_search_volume(&asked, &market).await;
            apply(&ads, &missing, &mut facts, true, |f, volume| {
                f.absorb_ads(volume)
            })?;
            for &i in &missing {
                if facts[i].asked && facts[i].source.is_none() {
                    facts[i].source = Some(GOOGLE_ADS_SOURCE.to_string());
                }
            }
        }
    }

    if labs_covers_market {
        let lacking: Vec<usize> = (0..facts.len())
            .filter(|&i| facts[i].metrics.is_some() && facts[i].difficulty.is_none())
            .collect();
        if !lacking.is_empty() {
            progress.report(0.3, "Measuring keyword difficulty").await;
            let asked: Vec<String> = lacking.iter().map(|&i| keyword(i)).collect();
            let difficulty = session.keyword_difficulty(&asked, &market).await;
            apply(&difficulty, &lacking, &mut facts, false, |f, d| {
                f.difficulty = Some((*d).clamp(0, 100))
            })?;
        }
    }
    let without_intent: Vec<usize> = (0..facts.len())
        .filter(|&i| facts[i].intent.is_none())
        .collect();
    if !without_intent.is_empty() {
        progress.report(0.4, "Classifying search intent").await;
        let asked: Vec<String> = without_intent.iter().map(|&i| keyword(i)).collect();
        let intents = session.search_intent(&asked, &market).await;
        apply(&intents, &without_intent, &mut facts, false, |f, label| {
            f.intent = parse_intent(label)
        })?;
    }
    Ok(facts)
}

/// Copies a bulk answer into the facts of the keywords it was asked for; `positions[i]` is
/// the candidate the bulk call's `i`th keyword belongs to. `measures` marks a metrics call,
/// after which a keyword without an answer is known to have no data.
fn apply<T>(
    bulk: &Bulk<T>,
    positions: &[usize],
    facts: &mut [KeywordFacts],
    measures: bool,
    mut absorb: impl FnMut(&mut KeywordFacts, &T),
) -> Result<(), StageError> {
    for (i, value) in &bulk.found {
        absorb(&mut facts[positions[*i]], value);
    }
    for (i, asked) in bulk.asked.iter().enumerate() {
        if *asked && measures {
            facts[positions[i]].asked = true;
        }
    }
    match &bulk.stopped {
        Some(err) => settle_error(err.clone(), "bulk metrics"),
        None => Ok(()),
    }
}

/// What the analysis stage reads: the facts, with the offline estimate where the provider was
/// never asked (an offering with one of the site's served `places` read as a local query).
pub fn measured(
    candidates: &[Candidate],
    facts: Vec<KeywordFacts>,
    language: &Language,
    places: &[String],
) -> Vec<Measured> {
    let needs_estimate = facts.iter().any(|f| f.metrics.is_none() && !f.asked);
    let estimates = if needs_estimate {
        estimate_all_serving(candidates, language, places)
    } else {
        Vec::new()
    };
    facts
        .into_iter()
        .enumerate()
        .map(|(i, f)| {
            let (mut metrics, source) = match (f.metrics, f.source) {
                (Some(metrics), Some(source)) => (metrics, source),
                (_, source) if f.asked => (
                    KeywordMetrics::default(),
                    source.unwrap_or_else(|| LABS_SOURCE.to_string()),
                ),
                _ => (
                    estimates.get(i).cloned().unwrap_or_default(),
                    ESTIMATE_SOURCE.to_string(),
                ),
            };
            if f.difficulty.is_some() {
                metrics.difficulty = f.difficulty;
            }
            Measured {
                metrics,
                source,
                rankings: f.rankings,
                intent: f.intent,
                serp_urls: f.serp_urls,
                serp_features: f.serp_features,
                people_also_ask: f.people_also_ask,
                search_console: None,
                ai_overview: f.ai_overview,
            }
        })
        .collect()
}
