//! Metrics with the provider. Keywords discovery left without figures are measured with
//! Labs' keyword overview, or with Google Ads where Labs does not cover the market; missing
//! difficulties and intents come from their bulk endpoints; the highest-volume keywords get
//! their organic SERP, for SERP-overlap clustering. A keyword the provider was asked about
//! and had nothing for keeps null figures (no data); one it was never asked about, because
//! the spending cap stopped the calls, gets the offline estimate and says so in its source.

use futures_util::stream::{self, StreamExt};
use kr_core::domain::Job;
use kr_dataforseo::{Bulk, JobSession, Market, ProviderError};
use kr_research::discovery::Candidate;
use kr_research::metrics::{estimate_all, KeywordMetrics, ESTIMATE_SOURCE};
use kr_research::research::Measured;
use kr_research::text::Language;

use super::facts::parse_intent;
use super::market;
use super::{settle, settle_error, KeywordFacts, GOOGLE_ADS_SOURCE, LABS_SOURCE};
use crate::runner::{ProgressReporter, StageError};

/// SERP requests of one job in flight at once.
const SERP_CONCURRENCY: usize = 8;
/// Organic results compared for clustering.
const SERP_DEPTH: usize = 10;

pub async fn measure_with_provider(
    job: &Job,
    candidates: &[Candidate],
    mut facts: Vec<KeywordFacts>,
    session: &JobSession<'_>,
    serp_budget: usize,
    progress: &ProgressReporter,
) -> Result<Vec<Measured>, StageError> {
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

    fetch_serps(
        candidates,
        &mut facts,
        session,
        &market,
        serp_budget,
        progress,
    )
    .await?;
    Ok(measured(
        candidates,
        facts,
        &Language::new(&job.language_code),
    ))
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

async fn fetch_serps(
    candidates: &[Candidate],
    facts: &mut [KeywordFacts],
    session: &JobSession<'_>,
    market: &Market<'_>,
    budget: usize,
    progress: &ProgressReporter,
) -> Result<(), StageError> {
    let mut by_volume: Vec<usize> = (0..facts.len())
        .filter(|&i| facts[i].volume().is_some_and(|v| v > 0))
        .collect();
    by_volume.sort_by(|&a, &b| facts[b].volume().cmp(&facts[a].volume()).then(a.cmp(&b)));
    by_volume.truncate(budget);
    if by_volume.is_empty() {
        return Ok(());
    }
    let total = by_volume.len();
    let mut answers = stream::iter(by_volume)
        .map(|i| async move {
            (
                i,
                session.serp_organic(&candidates[i].keyword, market).await,
            )
        })
        .buffer_unordered(SERP_CONCURRENCY);
    let mut done = 0;
    while let Some((i, answer)) = answers.next().await {
        done += 1;
        progress
            .report(
                0.5 + 0.5 * done as f64 / total as f64,
                format!("Fetched {done} of {total} search results pages"),
            )
            .await;
        if let Some(Some(serp)) = settle(answer, "SERP")? {
            let mut organic: Vec<_> = serp
                .items
                .into_iter()
                .filter(|item| item.item_type.as_deref().is_none_or(|t| t == "organic"))
                .filter_map(|item| Some((item.rank_group.or(item.rank_absolute)?, item.url?)))
                .collect();
            organic.sort_by_key(|(position, _)| *position);
            facts[i].serp_urls = Some(
                organic
                    .into_iter()
                    .take(SERP_DEPTH)
                    .map(|(_, url)| url)
                    .collect(),
            );
        }
    }
    Ok(())
}

fn measured(
    candidates: &[Candidate],
    facts: Vec<KeywordFacts>,
    language: &Language,
) -> Vec<Measured> {
    let needs_estimate = facts.iter().any(|f| f.metrics.is_none() && !f.asked);
    let estimates = if needs_estimate {
        estimate_all(candidates, language)
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
            }
        })
        .collect()
}
