//! Making a brief once and reading it back after.

use std::time::Duration;

use chrono::{DateTime, Utc};
use futures_util::future::join_all;
use kr_core::dataset::{
    objects, BriefWriter, ClusterBrief, ClusterRecord, JobResults, PageContent,
};
use kr_core::domain::{Job, JobStatus, Stage};
use kr_core::store::{
    get_json, put_job_json, ArtifactStore, BriefClaim, BriefLedger, ClaimOutcome,
};
use kr_crawler::{CrawlError, Crawler};
use kr_research::research::Measured;
use kr_research::text::Language;

use crate::cited::{cited_page, pick_cited};
use crate::compose::{compose, Reading};
use crate::error::BriefError;
use crate::sources::{pick_sources, Material};
use crate::wording::word;

/// Time the pages of one brief get to be read, all at once; what is not read by then is
/// skipped and named.
const READ_DEADLINE: Duration = Duration::from_secs(10);
/// Time the writer gets to word a brief. With the pages' reading, well inside the briefs
/// function's 29 s (`template.yaml`).
pub const WORDING_DEADLINE: Duration = Duration::from_secs(12);
/// How long a claim on making a brief holds: past the briefs' and MCP functions' timeouts, so
/// a maker still at work is never overtaken, and a maker that was stopped frees the brief.
const LEASE: Duration = Duration::from_secs(45);
/// Most a concurrent caller is told to wait: a brief usually takes a few seconds.
const MAX_RETRY_AFTER_SECS: u64 = 5;

/// Bounds on briefs, from `KR_` variables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BriefSettings {
    /// Briefs one job may have made (`KR_MAX_BRIEFS_PER_JOB`, default 50, 1 to 1,000).
    pub max_per_job: u32,
    /// Time the writer gets ([`WORDING_DEADLINE`]; tests shorten it).
    pub wording_deadline: Duration,
}

impl Default for BriefSettings {
    fn default() -> Self {
        Self {
            max_per_job: 50,
            wording_deadline: WORDING_DEADLINE,
        }
    }
}

impl BriefSettings {
    pub fn from_vars(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, String> {
        let defaults = Self::default();
        Ok(Self {
            max_per_job: kr_core::config::bounded_var(
                lookup,
                "KR_MAX_BRIEFS_PER_JOB",
                1..=1000,
                defaults.max_per_job,
            )?,
            ..defaults
        })
    }
}

/// What a request may do about a brief that is not made yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Read it once made: anyone who may see the job.
    Read,
    /// Have it made: the job's owner, by a request no other site can send on their behalf
    /// (it is counted against the job and may pay a model).
    Make,
}

pub struct BriefMaker<'a> {
    pub objects: &'a dyn ArtifactStore,
    pub ledger: &'a dyn BriefLedger,
    pub crawler: &'a Crawler,
    pub settings: &'a BriefSettings,
    /// Words the brief for the writer when a language model is configured.
    pub writer: Option<&'a dyn BriefWriter>,
}

impl BriefMaker<'_> {
    /// The brief of a completed job's cluster: the stored one, else, when `access` allows, a
    /// new one, counted and stored. One caller at a time makes a cluster's brief; the others
    /// are told to come back ([`BriefError::InProgress`]). `dataset` is the job's.
    pub async fn brief(
        &self,
        job: &Job,
        dataset: Option<&dyn JobResults>,
        cluster_id: &str,
        access: Access,
    ) -> Result<ClusterBrief, BriefError> {
        let dataset = match dataset {
            Some(dataset) if job.status == JobStatus::Completed => dataset,
            _ => return Err(BriefError::NotCompleted),
        };
        let cluster = dataset
            .clusters()
            .iter()
            .find(|c| c.id == cluster_id)
            .ok_or(BriefError::UnknownCluster)?;
        // The id is the dataset's own from here on, never the caller's text.
        let name = objects::brief(&cluster.id);
        if let Some(stored) = get_json(self.objects, job.id, &name).await? {
            return Ok(stored);
        }
        if access == Access::Read {
            return Err(BriefError::NotMade);
        }
        let token = uuid::Uuid::new_v4().to_string();
        let now = Utc::now();
        let claim = BriefClaim {
            job,
            cluster_id: &cluster.id,
            max: self.settings.max_per_job,
            token: &token,
            now,
            until: now + LEASE,
        };
        match self.ledger.claim_brief(&claim).await? {
            ClaimOutcome::LimitReached => {
                return Err(BriefError::LimitReached {
                    max: self.settings.max_per_job,
                })
            }
            // The maker may have stored it since it was looked for; a maker whose lease ran
            // out may have stored it before it stopped.
            ClaimOutcome::Held { until } => {
                return match get_json(self.objects, job.id, &name).await? {
                    Some(stored) => Ok(stored),
                    None => Err(BriefError::InProgress {
                        retry_after_secs: retry_after(until, now),
                    }),
                };
            }
            ClaimOutcome::Claimed { counted: false } => {
                if let Some(stored) = get_json(self.objects, job.id, &name).await? {
                    return Ok(stored);
                }
            }
            ClaimOutcome::Claimed { counted: true } => {}
        }
        let made = self.make(job, dataset, cluster, &name).await;
        if made.is_err() {
            if let Err(err) = self.ledger.release_brief(job.id, &cluster.id, &token).await {
                tracing::warn!(job = %job.id, cluster = %cluster.id, %err, "brief claim kept until its lease ends");
            }
        }
        made
    }

    /// Reads the pages that rank, composes and words the brief, stores it, then records what
    /// its wording cost (after storing: what was paid for is kept first).
    async fn make(
        &self,
        job: &Job,
        dataset: &dyn JobResults,
        cluster: &ClusterRecord,
        name: &str,
    ) -> Result<ClusterBrief, BriefError> {
        let measured: Vec<Measured> = self.stage(job, Stage::Metrics).await?;
        let serps: Vec<Option<Vec<String>>> = measured.into_iter().map(|m| m.serp_urls).collect();
        let pages: Vec<PageContent> = self.stage(job, Stage::Crawl).await?;
        let language = Language::new(&job.language_code);
        let primary_domain = job.primary_domain.to_string();
        let material = Material {
            serps: &serps,
            pages: &pages,
            primary_domain: &primary_domain,
            language: &language,
        };
        let member_records = dataset.cluster_keywords(&cluster.id);
        let members: Vec<_> = member_records.iter().collect();
        let topic = dataset
            .topics()
            .iter()
            .find(|t| Some(&t.id) == cluster.topic_id.as_ref())
            .map(|t| t.name.as_str());
        let sources = pick_sources(&material, cluster, &members, topic);
        let competitors: Vec<String> = job
            .competitor_domains
            .iter()
            .map(|domain| domain.to_string())
            .collect();
        let cited = pick_cited(&members, &competitors);
        // The ranking pages and the cited ones are read at the same time, within one deadline.
        let (readings, cited_pages) = tokio::join!(
            join_all(sources.into_iter().map(|source| async move {
                let read = self.read(&source.url).await;
                (source, read)
            })),
            join_all(cited.into_iter().map(|page| async move {
                let read = self.read(&page.url).await;
                cited_page(page, read)
            })),
        );
        let readings: Vec<Reading> = readings;
        let mut brief = compose(
            &material,
            dataset,
            cluster,
            &members,
            &readings,
            chrono::Utc::now(),
        );
        brief.cited_pages = cited_pages;
        let spend = match self.writer {
            Some(writer) => {
                let worded = word(writer, &brief, self.settings.wording_deadline).await;
                if let Some(why) = &worded.missing {
                    tracing::warn!(job = %job.id, cluster = %cluster.id, %why, "brief without wording");
                }
                brief.wording = worded.wording;
                worded.spend
            }
            None => None,
        };
        put_job_json(self.objects, job, name, &brief).await?;
        if let Some(spend) = spend {
            if let Err(err) = self.ledger.add_brief_usage(job, &spend).await {
                tracing::warn!(job = %job.id, cluster = %cluster.id, %err, "could not record the brief's model spend");
            }
        }
        Ok(brief)
    }

    /// A page's outline through the crawler, or why it was not read.
    async fn read(&self, url: &str) -> Result<kr_crawler::OutlinedPage, String> {
        tokio::time::timeout(READ_DEADLINE, self.crawler.fetch_outline(url))
            .await
            .map_err(|_| "it took too long to answer".to_string())
            .and_then(|read| read.map_err(|err| skip_reason(&err)))
    }

    /// A stage's output; empty when the job has none (a job from before the stage existed).
    async fn stage<T: serde::de::DeserializeOwned + Default>(
        &self,
        job: &Job,
        stage: Stage,
    ) -> Result<T, BriefError> {
        Ok(
            get_json(self.objects, job.id, &objects::stage(stage.as_str()))
                .await?
                .unwrap_or_default(),
        )
    }
}

/// Seconds until the holder's lease ends, at least one and at most what a brief usually takes.
fn retry_after(until: DateTime<Utc>, now: DateTime<Utc>) -> u64 {
    let millis = (until - now).num_milliseconds().max(0) as u64;
    millis.div_ceil(1000).clamp(1, MAX_RETRY_AFTER_SECS)
}

/// Why a page was skipped, about the page rather than its site.
fn skip_reason(err: &CrawlError) -> String {
    match err {
        CrawlError::RobotsDisallowed { .. } => "its robots.txt disallows reading it".into(),
        CrawlError::RobotsUnavailable { .. } => "its site's robots.txt could not be read".into(),
        CrawlError::AddressRefused { .. } => "its address is in a private network".into(),
        CrawlError::HttpStatus { status, .. } => format!("it answered with HTTP status {status}"),
        CrawlError::NotHtml { .. } => "it is not an HTML page".into(),
        CrawlError::TimedOut { .. } => "it took too long to answer".into(),
        CrawlError::TooManyRedirects { .. } => "it redirects too many times".into(),
        CrawlError::InvalidDomain { .. } => "its address cannot be read".into(),
        CrawlError::Unreachable { .. } | CrawlError::InvalidConfig(_) | CrawlError::Setup(_) => {
            "it could not be reached".into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callers_are_told_to_come_back_within_a_brief_time() {
        let now = Utc::now();
        let later = |millis| now + chrono::Duration::milliseconds(millis);
        assert_eq!(retry_after(later(45_000), now), 5);
        assert_eq!(retry_after(later(2_100), now), 3);
        assert_eq!(retry_after(later(-3_000), now), 1, "a lapsed lease");
    }
}
