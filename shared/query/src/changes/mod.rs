//! What changed between two completed runs of one primary domain and market
//! (`GET /jobs/{jobId}/changes`): keywords new and lost, volume moves, the primary site's
//! position moves per keyword and per cluster, clusters and topics new and gone, per cluster
//! Search Console figures before and after and the keywords entering or leaving striking
//! distance, a summary, and the site's visibility per run for the history chart.

mod ai_citations;
#[cfg(test)]
mod ai_tests;
mod compare;
mod summary;
#[cfg(test)]
mod tests;

use chrono::{DateTime, Utc};
use kr_core::dataset::{objects, AiAnswersDocument, RunSummary};
use kr_core::domain::{Job, JobId, JobStatus, UserId};
use kr_core::query_params::QueryParams;
use kr_core::store::{get_json, JobStore};
use kr_core::validation::FieldError;
use serde::Serialize;
use utoipa::ToSchema;

use crate::{IndexedDataset, QueryError, Results};
pub use ai_citations::{AiCitationChange, AI_OVERVIEW_SOURCE};
use compare::{compare, RunView};

pub const DEFAULT_CHANGE_LIMIT: u32 = 20;
pub const MAX_CHANGE_LIMIT: u32 = 200;
/// The clusters with the largest click changes the `job.changes` digest lists, and the AI
/// citations gained and lost it lists (the first of each list).
pub const DIGEST_TOP_MOVERS: u32 = 5;
/// Runs in the history chart, this one included.
pub const HISTORY_RUNS: usize = 12;
/// The owner's completed jobs read to find the earlier runs, newest first.
const JOBS_SCANNED: u32 = 500;
/// Datasets one view may decode for history points of runs without a stored summary (runs
/// that completed before summaries were kept), besides the two runs it compares.
const LEGACY_DECODES_PER_VIEW: usize = 1;

/// `since` (a job id) and `limit` (items per list).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeQuery {
    /// The earlier run asked for: the caller resolves it to a job the asker may read and
    /// passes that to [`job_changes`].
    pub since: Option<JobId>,
    pub limit: u32,
    /// Whether the history (each earlier run decoded) is wanted.
    pub history: bool,
    /// `searchConsoleMoves`, `aiCitationsGained` and `aiCitationsLost` hold at least this
    /// many (the digest's top entries), whatever `limit` says.
    pub top_movers: u32,
}

impl ChangeQuery {
    pub fn parse(query: &QueryParams) -> Result<Self, FieldError> {
        let (limit, _) = query.paging(MAX_CHANGE_LIMIT, DEFAULT_CHANGE_LIMIT)?;
        let since = match query.value("since") {
            None => None,
            Some(raw) => Some(
                raw.parse()
                    .map_err(|_| FieldError::new("since", "must be a job id (a UUID)"))?,
            ),
        };
        Ok(Self {
            since,
            limit,
            history: true,
            top_movers: 0,
        })
    }

    /// The counts and summary since the previous run, no lists but the top Search Console
    /// movers and AI citations gained and lost, and no history: what the `job.changes` webhook event carries.
    pub fn digest() -> Self {
        Self {
            since: None,
            limit: 0,
            history: false,
            top_movers: DIGEST_TOP_MOVERS,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobChanges {
    #[schema(value_type = kr_contract::domain::JobId)]
    pub job_id: JobId,
    /// The earlier run compared with; `null` when there is none (then every list is empty).
    pub since: Option<RunPoint>,
    /// One paragraph saying what moved.
    pub summary: String,
    /// Whole counts; each list below holds at most `limit` items.
    pub counts: ChangeCounts,
    /// By volume, highest first.
    pub new_keywords: Vec<KeywordChange>,
    pub lost_keywords: Vec<KeywordChange>,
    /// False when either run's volumes are estimates: estimates are not compared.
    pub volumes_compared: bool,
    /// Volume moves of at least 20 % and 10 searches a month, largest first.
    pub volume_moves: Vec<VolumeMove>,
    /// The primary site's organic position per keyword kept, largest gain first.
    pub position_gains: Vec<PositionMove>,
    /// Largest loss first.
    pub position_losses: Vec<PositionMove>,
    /// The site's best position among a cluster's keywords, for clusters of both runs.
    pub cluster_moves: Vec<ClusterMove>,
    pub new_clusters: Vec<ClusterChange>,
    /// Clusters of the earlier run (their ids are that job's) that no cluster continues.
    pub gone_clusters: Vec<ClusterChange>,
    pub new_topics: Vec<TopicChange>,
    pub gone_topics: Vec<TopicChange>,
    /// True when either run has Search Console figures (the job's `searchConsoleProperty`);
    /// the three lists below are empty otherwise.
    pub search_console_compared: bool,
    /// Per cluster of both runs with Search Console figures in either: its clicks,
    /// impressions and position before (the earlier run's plan baseline) and after, largest
    /// click change first (the top movers).
    pub search_console_moves: Vec<SearchConsoleMove>,
    /// Keywords in striking distance now (Search Console average position 4 to 20 with at
    /// least 10 impressions over the last 28 days of data) and not in the earlier run (a
    /// keyword new to the job counts), most impressions first.
    pub striking_distance_entered: Vec<StrikingDistanceChange>,
    /// Keywords in striking distance in the earlier run and not now (gone up, down, or out of
    /// the job), most impressions then first.
    pub striking_distance_left: Vec<StrikingDistanceChange>,
    /// True when both runs read the AI Overview of some keyword they share (their results
    /// pages fetched), or an answer engine answered the same question in both; the two lists
    /// below are empty otherwise.
    pub ai_citations_compared: bool,
    /// Citations of the job's site or a competitor it did not have in the earlier run: on a
    /// keyword's AI Overview (`source: ai_overview`; keywords whose results page was read in
    /// both runs only, so a keyword new to the job gains nothing) or in an engine's answer to
    /// the same question (`source`: the engine; cited addresses only, a name in the text is
    /// no citation). Each names this run's cluster. The site's first, then the clusters with
    /// the most volume, AI Overviews before answers.
    pub ai_citations_gained: Vec<AiCitationChange>,
    /// Citations the earlier run had and this one has not, in the same order.
    pub ai_citations_lost: Vec<AiCitationChange>,
    /// Completed runs of the same domain and market up to this one, oldest first (at most 12).
    pub history: Vec<RunPoint>,
}

#[derive(Debug, Default, Serialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ChangeCounts {
    pub new_keywords: usize,
    pub lost_keywords: usize,
    pub kept_keywords: usize,
    pub volume_moves: usize,
    pub position_gains: usize,
    pub position_losses: usize,
    pub cluster_moves: usize,
    pub new_clusters: usize,
    pub gone_clusters: usize,
    pub new_topics: usize,
    pub gone_topics: usize,
    /// Clusters of both runs with Search Console figures in either.
    pub search_console_moves: usize,
    pub striking_distance_entered: usize,
    pub striking_distance_left: usize,
    pub ai_citations_gained: usize,
    pub ai_citations_lost: usize,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct KeywordChange {
    pub keyword: String,
    pub search_volume: Option<i64>,
    /// The primary site's organic position in the run the keyword is in.
    pub position: Option<u32>,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct VolumeMove {
    pub keyword: String,
    pub from: i64,
    pub to: i64,
    pub change: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PositionMove {
    pub keyword: String,
    /// `null`: not in the top 100.
    pub from: Option<u32>,
    pub to: Option<u32>,
    /// Positions gained (negative: lost), an unranked side counted as 101.
    pub change: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ClusterMove {
    pub cluster_id: String,
    pub previous_cluster_id: String,
    pub name: String,
    pub from: Option<u32>,
    pub to: Option<u32>,
    pub change: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ClusterChange {
    pub id: String,
    pub name: String,
    pub keyword_count: usize,
    pub total_search_volume: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TopicChange {
    pub id: String,
    pub name: String,
    pub cluster_count: usize,
    pub total_search_volume: i64,
}

/// A cluster's Search Console figures over the last 28 days of data of one run.
#[derive(Debug, Clone, Copy, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SearchConsoleFigures {
    pub clicks: u64,
    pub impressions: u64,
    /// Average position weighted by impressions, 2 decimals; 0 without impressions.
    pub position: f64,
}

/// A cluster of both runs and its Search Console figures in each.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SearchConsoleMove {
    pub cluster_id: String,
    pub previous_cluster_id: String,
    pub name: String,
    /// What the earlier run's plan said to do for it (`create`, `improve`, `consolidate`).
    #[schema(value_type = Option<kr_contract::plan::ClusterAction>)]
    pub previous_action: Option<kr_core::dataset::ClusterAction>,
    /// The earlier plan's target page.
    pub previous_target_url: Option<String>,
    /// The earlier run's figures (its plan's baseline); `null` when none of its keywords had
    /// data.
    pub before: Option<SearchConsoleFigures>,
    /// This run's; `null` when none of its keywords has data.
    pub after: Option<SearchConsoleFigures>,
    /// Clicks after minus before (a side without figures counts as 0).
    pub clicks_change: i64,
    pub impressions_change: i64,
    /// Positions gained (positive: up the page, a smaller number), 2 decimals; `null` unless
    /// both sides have impressions.
    pub position_change: Option<f64>,
}

/// A keyword that entered or left striking distance.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct StrikingDistanceChange {
    pub keyword: String,
    /// Its Search Console average position in the earlier run; `null` without impressions
    /// there (or not in that run).
    pub from: Option<f64>,
    /// In this run; `null` as for `from`.
    pub to: Option<f64>,
    /// Its impressions over the last 28 days of data: this run's for an entry, the earlier
    /// run's for an exit.
    pub impressions: u64,
}

/// One run as the history chart plots it.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RunPoint {
    #[schema(value_type = kr_contract::domain::JobId)]
    pub job_id: JobId,
    #[serde(serialize_with = "kr_core::time::option::serialize")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub completed_at: Option<DateTime<Utc>>,
    pub keyword_count: usize,
    /// Keywords the primary site ranks for (organic, top 100).
    pub ranked_keywords: usize,
    /// Its mean position over those; `null` when it ranks for none.
    pub average_position: Option<f64>,
    /// The monthly volume of the keywords it ranks for in the top 10.
    pub visible_volume: i64,
}

impl RunPoint {
    fn of(job: &Job, view: &RunView) -> Self {
        Self::from_summary(job, view.summary())
    }

    fn from_summary(job: &Job, summary: RunSummary) -> Self {
        Self {
            job_id: job.id,
            completed_at: job.completed_at,
            keyword_count: summary.keyword_count,
            ranked_keywords: summary.ranked_keywords,
            average_position: summary.average_position,
            visible_volume: summary.visible_volume,
        }
    }
}

fn same_market(a: &Job, b: &Job) -> bool {
    a.primary_domain == b.primary_domain
        && a.language_code == b.language_code
        && a.location_code == b.location_code
}

/// The owner's completed runs of `job`'s domain and market that completed before it, newest
/// first, from the newest `JOBS_SCANNED` completed jobs (one read of the status index).
async fn earlier_runs(
    jobs: &dyn JobStore,
    owner: UserId,
    job: &Job,
) -> Result<Vec<Job>, QueryError> {
    let page = jobs
        .list_jobs(owner, Some(JobStatus::Completed), JOBS_SCANNED, 0)
        .await?;
    let mut earlier: Vec<Job> = page
        .jobs
        .into_iter()
        .filter(|other| other.id != job.id && same_market(other, job))
        .filter(|other| other.completed_at <= job.completed_at)
        .collect();
    earlier.sort_by_key(|run| std::cmp::Reverse(run.completed_at));
    Ok(earlier)
}

/// An earlier run's point: from its stored summary, else (a run that completed before
/// summaries were kept) from its dataset while `decodes_left` allows, so one view of the chart
/// never decodes more than the two runs it compares and these; `None` past that.
async fn earlier_point(
    results: &Results<'_>,
    run: &Job,
    decodes_left: &mut usize,
    view: &impl Fn(&IndexedDataset) -> RunView,
) -> Result<Option<RunPoint>, QueryError> {
    if let Some(summary) = get_json(results.objects, run.id, &objects::run_summary()).await? {
        return Ok(Some(RunPoint::from_summary(run, summary)));
    }
    if *decodes_left == 0 {
        return Ok(None);
    }
    *decodes_left -= 1;
    Ok(results
        .dataset(run)
        .await?
        .map(|dataset| RunPoint::of(run, &view(&dataset))))
}

/// What the run's answer engines said, as compared; none when it asked none (its answers
/// document is read only for a job that recorded asking).
async fn answers_of(
    results: &Results<'_>,
    run: &Job,
) -> Result<Vec<ai_citations::AnswerSeen>, QueryError> {
    if run.ai_answers.is_none() {
        return Ok(Vec::new());
    }
    let document: Option<AiAnswersDocument> =
        get_json(results.objects, run.id, &objects::ai_answers()).await?;
    Ok(document
        .map(|document| document.answers)
        .unwrap_or_default()
        .iter()
        .map(|answer| {
            ai_citations::AnswerSeen::new(
                answer.engine.as_str(),
                &answer.prompt,
                &answer.cluster_id,
                &answer.cited_urls,
            )
        })
        .collect())
}

/// Where the changes of a job are read from.
pub struct ChangeSources<'a> {
    pub results: &'a Results<'a>,
    pub jobs: &'a dyn JobStore,
}

/// The changes of `job` since `since`, else since the owner's previous completed run of its
/// domain and market. Both jobs are ones the asker may read: the caller has authorised them
/// (`since` is the job `query.since` names, `None` when it names none); `since` must also be
/// of `job`'s owner, domain and market, and be another run.
pub async fn job_changes(
    sources: &ChangeSources<'_>,
    job: &Job,
    since: Option<Job>,
    query: &ChangeQuery,
) -> Result<JobChanges, QueryError> {
    let (results, jobs, limit) = (sources.results, sources.jobs, query.limit);
    // Like the job's other results: empty until it completes.
    let Some(current) = results.dataset(job).await? else {
        return Ok(JobChanges::empty(job, summary::not_completed(), Vec::new()));
    };
    let domain = job.primary_domain.as_str();
    if let Some(other) = &since {
        // Another account's job (a demo job is readable by all) is not this one's history.
        if other.owner != job.owner {
            return Err(QueryError::SinceNotFound);
        }
        if other.id == job.id {
            return Err(FieldError::new("since", "is this job; name an earlier run").into());
        }
        if !same_market(other, job) {
            return Err(FieldError::new(
                "since",
                format!(
                    "is a job of another domain or market; this job is {domain}, language {}, location {}",
                    job.language_code, job.location_code
                ),
            )
            .into());
        }
    }
    let earlier = earlier_runs(jobs, job.owner, job).await?;
    let baseline = match since {
        Some(other) => Some(other),
        None => earlier.first().cloned(),
    };
    let view = |dataset: &IndexedDataset| {
        RunView::new(
            dataset.keywords(),
            &dataset.clusters,
            &dataset.topics,
            domain,
        )
    };
    let mut now = view(&current);
    now.answers = answers_of(results, job).await?;
    // The baseline is usually the latest earlier run: its view serves both the comparison and
    // its point in the history.
    let before = match &baseline {
        Some(run) => {
            let dataset = results
                .dataset(run)
                .await?
                .ok_or(QueryError::SinceNotCompleted)?;
            let mut before = view(&dataset);
            before.answers = answers_of(results, run).await?;
            Some(before)
        }
        None => None,
    };
    let mut history = vec![RunPoint::of(job, &now)];
    let history_runs = if query.history { HISTORY_RUNS - 1 } else { 0 };
    let baseline_point = baseline
        .as_ref()
        .zip(before.as_ref())
        .map(|(run, before)| RunPoint::of(run, before));
    let mut decodes_left = LEGACY_DECODES_PER_VIEW;
    for run in earlier.iter().take(history_runs) {
        let point = match &baseline_point {
            Some(point) if point.job_id == run.id => Some(point.clone()),
            _ => earlier_point(results, run, &mut decodes_left, &view).await?,
        };
        history.extend(point);
    }
    history.reverse();
    let (Some(baseline), Some(before)) = (baseline, before) else {
        return Ok(JobChanges::empty(job, summary::no_baseline(job), history));
    };
    let mut differences = compare(&now, &before);
    let competitors: Vec<&str> = job.competitor_domains.iter().map(|d| d.as_str()).collect();
    let followed = ai_citations::Followed::new(domain, &competitors);
    ai_citations::compare(&now, &before, &followed, &mut differences);
    let since = RunPoint::of(&baseline, &before);
    let summary = summary::paragraph(&differences, &since, &history[history.len() - 1]);
    let counts = differences.counts();
    let limit = limit as usize;
    let movers = limit.max(query.top_movers as usize);
    Ok(JobChanges {
        job_id: job.id,
        summary,
        counts,
        volumes_compared: differences.volumes_compared,
        new_keywords: first(differences.new_keywords, limit),
        lost_keywords: first(differences.lost_keywords, limit),
        volume_moves: first(differences.volume_moves, limit),
        position_gains: first(differences.position_gains, limit),
        position_losses: first(differences.position_losses, limit),
        cluster_moves: first(differences.cluster_moves, limit),
        new_clusters: first(differences.new_clusters, limit),
        gone_clusters: first(differences.gone_clusters, limit),
        new_topics: first(differences.new_topics, limit),
        gone_topics: first(differences.gone_topics, limit),
        search_console_compared: differences.search_console_compared,
        search_console_moves: first(differences.search_console_moves, movers),
        striking_distance_entered: first(differences.striking_distance_entered, limit),
        striking_distance_left: first(differences.striking_distance_left, limit),
        ai_citations_compared: differences.ai_citations_compared,
        ai_citations_gained: first(differences.ai_citations_gained, movers),
        ai_citations_lost: first(differences.ai_citations_lost, movers),
        since: Some(since),
        history,
    })
}

fn first<T>(mut list: Vec<T>, limit: usize) -> Vec<T> {
    list.truncate(limit);
    list
}

impl JobChanges {
    /// Nothing compared: the job has not completed, or has no earlier run.
    fn empty(job: &Job, summary: String, history: Vec<RunPoint>) -> Self {
        Self {
            job_id: job.id,
            since: None,
            summary,
            counts: ChangeCounts::default(),
            new_keywords: Vec::new(),
            lost_keywords: Vec::new(),
            volumes_compared: false,
            volume_moves: Vec::new(),
            position_gains: Vec::new(),
            position_losses: Vec::new(),
            cluster_moves: Vec::new(),
            new_clusters: Vec::new(),
            gone_clusters: Vec::new(),
            new_topics: Vec::new(),
            gone_topics: Vec::new(),
            search_console_compared: false,
            search_console_moves: Vec::new(),
            striking_distance_entered: Vec::new(),
            striking_distance_left: Vec::new(),
            ai_citations_compared: false,
            ai_citations_gained: Vec::new(),
            ai_citations_lost: Vec::new(),
            history,
        }
    }
}
