//! Search Console in the stages: a job with a `searchConsoleProperty` reads the property's
//! searches in its discovery stage (`service::search_console::import_search_console`), keeps
//! the figures of its keywords (`stages/search-console.json`, so a retried stage never reads
//! Google again), and adds the queries only Search Console knew. The metrics stage makes
//! impressions the popularity figure when no paid provider measured the keywords; the analysis
//! stage puts the figures on the records and the outcome on the job. Nothing Google says
//! fails a job: a skipped import is recorded with its reason.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use kr_aws::google::GoogleSource;
use kr_core::dataset::{
    compared_keyword, objects, KeywordSource, SearchConsoleMetrics, SEARCH_CONSOLE_SOURCE,
};
use kr_core::domain::{Job, PropertyUrl, SearchConsoleImport};
use kr_core::locales::search_console_country;
use kr_core::service::search_console::{import_search_console, ImportOutcome};
use kr_core::store::{get_json, put_job_json, SearchConsoleStore};
use kr_research::discovery::{Candidate, Prominence};
use kr_research::research::Measured;
use serde::{Deserialize, Serialize};

use super::{storage_failure, Discovered, ResearchRunner};
use crate::runner::{ProgressReporter, StageError};

const ARTIFACT: &str = "search-console";

/// Longest an import may take inside the discovery stage before the job goes on without it.
const IMPORT_BUDGET: Duration = Duration::from_secs(180);

/// What the pipeline reads Search Console with.
pub struct SearchConsoleParts {
    /// Where accounts' connections are.
    pub store: Arc<dyn SearchConsoleStore>,
    /// The sealing key and the Google client.
    pub google: Arc<GoogleSource>,
    /// Days of data imported (`KR_SEARCH_CONSOLE_DAYS`).
    pub days: u32,
}

/// A job's import as its later stages read it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SavedImport {
    pub record: SearchConsoleImport,
    /// By compared keyword (lowercase, single spaces).
    pub keywords: Vec<SavedKeyword>,
    /// Queries added to the job, most impressions first (compared form).
    pub added: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SavedKeyword {
    pub keyword: String,
    pub metrics: SearchConsoleMetrics,
}

impl SavedImport {
    fn by_keyword(&self) -> HashMap<&str, &SearchConsoleMetrics> {
        self.keywords
            .iter()
            .map(|saved| (saved.keyword.as_str(), &saved.metrics))
            .collect()
    }
}

impl ResearchRunner {
    /// The job's saved import; `None` without a property (or before discovery read it).
    pub(super) async fn saved_search_console(
        &self,
        job: &Job,
    ) -> Result<Option<SavedImport>, StageError> {
        if job.search_console_property.is_none() {
            return Ok(None);
        }
        get_json(self.objects.as_ref(), job.id, &objects::stage(ARTIFACT))
            .await
            .map_err(storage_failure)
    }

    async fn read_search_console(&self, job: &Job, property: &PropertyUrl) -> ImportOutcome {
        let Some(parts) = &self.search_console else {
            return ImportOutcome::Skipped(
                "This deployment has no Google client configured; the job went on without Search Console data.".into(),
            );
        };
        let (key, google) = match (parts.google.key().await, parts.google.google().await) {
            (Ok(key), Ok(Some(google))) => (key, google),
            (Ok(_), Ok(None)) => {
                return ImportOutcome::Skipped(
                    "This deployment has no Google client configured; the job went on without Search Console data.".into(),
                )
            }
            (Err(err), _) | (_, Err(err)) => {
                tracing::error!(%err, "the Google client or the credentials key");
                return ImportOutcome::Skipped(
                    "Search Console could not be reached from the pipeline; the job went on without its data.".into(),
                );
            }
        };
        let import = import_search_console(
            parts.store.as_ref(),
            google,
            google,
            key,
            job.owner,
            property,
            search_console_country(job.location_code),
            parts.days,
            Utc::now().date_naive(),
        );
        match tokio::time::timeout(IMPORT_BUDGET, import).await {
            Ok(Ok(outcome)) => outcome,
            Ok(Err(err)) => {
                tracing::error!(%err, "the Search Console connection");
                ImportOutcome::Skipped(
                    "The account's Search Console connection could not be read; the job went on without its data.".into(),
                )
            }
            Err(_) => ImportOutcome::Skipped(format!(
                "Reading Search Console took longer than {} seconds; the job went on without its data.",
                IMPORT_BUDGET.as_secs()
            )),
        }
    }

    /// Imports the job's property (once: a retry reads the saved import) and adds the
    /// queries only Search Console knew to `discovered`, within `KR_MAX_KEYWORDS`.
    pub(super) async fn discover_search_console(
        &self,
        job: &Job,
        discovered: &mut Discovered,
        progress: &ProgressReporter,
    ) -> Result<(), StageError> {
        let Some(property) = &job.search_console_property else {
            return Ok(());
        };
        let max = self.settings.max_keywords;
        let saved = match self.saved_search_console(job).await? {
            Some(saved) => saved,
            None => {
                progress
                    .report(0.5, format!("Reading Search Console ({property})"))
                    .await;
                let outcome = self.read_search_console(job, property).await;
                let found = discovered
                    .candidates
                    .iter()
                    .filter(|c| c.source != KeywordSource::Imported)
                    .count();
                // Search Console's own queries take the room discovery left, and at least
                // half of the keywords a job keeps.
                let room = max.saturating_sub(found).max(max / 2);
                let joined = match &outcome {
                    ImportOutcome::Imported(data) => Some(data.for_job(
                        discovered.candidates.iter().map(|c| c.keyword.as_str()),
                        room,
                    )),
                    ImportOutcome::Skipped(_) => None,
                };
                let record = outcome.record(joined.as_ref());
                if let ImportOutcome::Skipped(reason) = &outcome {
                    tracing::info!(job = %job.id, reason, "Search Console import skipped");
                }
                let (keywords, added) = match joined {
                    None => (Vec::new(), Vec::new()),
                    Some(joined) => {
                        let added: Vec<String> = joined
                            .added
                            .iter()
                            .map(|q| compared_keyword(&q.query))
                            .collect();
                        let keywords = joined
                            .matched
                            .into_iter()
                            .map(|(keyword, metrics)| SavedKeyword { keyword, metrics })
                            .chain(joined.added.into_iter().map(|q| SavedKeyword {
                                keyword: compared_keyword(&q.query),
                                metrics: q.metrics,
                            }))
                            .collect();
                        (keywords, added)
                    }
                };
                let saved = SavedImport {
                    record,
                    keywords,
                    added,
                };
                put_job_json(
                    self.objects.as_ref(),
                    job,
                    &objects::stage(ARTIFACT),
                    &saved,
                )
                .await
                .map_err(storage_failure)?;
                saved
            }
        };
        add_queries(discovered, &saved, max);
        Ok(())
    }
}

/// The saved import's added queries as candidates (`source: search_console`); then, past
/// `max` keywords besides the imported ones, the last discovered keywords without Search
/// Console data give way.
fn add_queries(discovered: &mut Discovered, saved: &SavedImport, max: usize) {
    let aligned = discovered.facts.len() == discovered.candidates.len();
    let known: std::collections::HashSet<String> = discovered
        .candidates
        .iter()
        .map(|c| compared_keyword(&c.keyword))
        .collect();
    let score = discovered
        .candidates
        .iter()
        .map(|c| c.score)
        .fold(f64::INFINITY, f64::min);
    let score = if score.is_finite() { score } else { 1.0 };
    for query in saved.added.iter().filter(|q| !known.contains(*q)) {
        discovered.candidates.push(Candidate {
            keyword: query.clone(),
            score,
            word_count: query.split_whitespace().count(),
            primary_occurrences: 0,
            competitor_occurrences: 0,
            page_count: 0,
            site_count: 0,
            site_share: 0.0,
            in_primary: true,
            competitor_sites: 0,
            content_gap: false,
            prominence: Prominence::default(),
            source: KeywordSource::SearchConsole,
        });
        if aligned {
            discovered.facts.push(Default::default());
        }
    }
    let with_data = saved.by_keyword();
    let mut kept = discovered
        .candidates
        .iter()
        .filter(|c| c.source != KeywordSource::Imported)
        .count();
    let mut index = discovered.candidates.len();
    while kept > max && index > 0 {
        index -= 1;
        let candidate = &discovered.candidates[index];
        let removable = !matches!(
            candidate.source,
            KeywordSource::Imported | KeywordSource::SearchConsole
        ) && !with_data.contains_key(compared_keyword(&candidate.keyword).as_str());
        if removable {
            discovered.candidates.remove(index);
            if aligned {
                discovered.facts.remove(index);
            }
            kept -= 1;
        }
    }
}

/// Without a paid provider: a keyword's Search Console impressions over the last 28 days
/// replace its estimated volume, labelled `search_console`.
pub(super) fn impressions_as_volume(
    candidates: &[Candidate],
    measured: &mut [Measured],
    saved: &SavedImport,
) {
    let by_keyword = saved.by_keyword();
    for (candidate, known) in candidates.iter().zip(measured.iter_mut()) {
        let Some(metrics) = by_keyword.get(compared_keyword(&candidate.keyword).as_str()) else {
            continue;
        };
        if metrics.impressions > 0 {
            known.metrics.search_volume = Some(metrics.impressions as i64);
            known.source = SEARCH_CONSOLE_SOURCE.to_string();
        }
    }
}

/// The figures of the candidates that have them, for their records (`measured[i]` is
/// `candidates[i]`'s).
pub(super) fn attach(candidates: &[Candidate], measured: &mut [Measured], saved: &SavedImport) {
    let by_keyword = saved.by_keyword();
    for (candidate, known) in candidates.iter().zip(measured.iter_mut()) {
        if let Some(metrics) = by_keyword.get(compared_keyword(&candidate.keyword).as_str()) {
            known.search_console = Some((*metrics).clone());
        }
    }
}
