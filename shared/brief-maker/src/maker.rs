//! Making a brief once and reading it back after.

use std::time::Duration;

use futures_util::future::join_all;
use kr_core::dataset::{objects, BriefWriter, ClusterBrief, JobResults, PageContent};
use kr_core::domain::{Job, JobStatus, Stage};
use kr_core::store::{get_json, put_job_json, ArtifactStore, BriefLedger};
use kr_crawler::{CrawlError, Crawler};
use kr_research::research::Measured;
use kr_research::text::Language;

use crate::compose::{compose, Reading};
use crate::error::BriefError;
use crate::sources::{pick_sources, Material};

/// Time the pages of one brief get to be read, all at once; what is not read by then is
/// skipped and named.
const READ_DEADLINE: Duration = Duration::from_secs(10);

/// Bounds on briefs, from `KR_` variables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BriefSettings {
    /// Briefs one job may have made (`KR_MAX_BRIEFS_PER_JOB`, default 50, 1 to 1,000).
    pub max_per_job: u32,
}

impl Default for BriefSettings {
    fn default() -> Self {
        Self { max_per_job: 50 }
    }
}

impl BriefSettings {
    pub fn from_vars(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, String> {
        match lookup("KR_MAX_BRIEFS_PER_JOB") {
            None => Ok(Self::default()),
            Some(raw) => raw
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|max| (1..=1000).contains(max))
                .map(|max_per_job| Self { max_per_job })
                .ok_or_else(|| "KR_MAX_BRIEFS_PER_JOB must be 1 to 1000".to_string()),
        }
    }
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
    /// The brief of a completed job's cluster: the stored one, else a new one, counted and
    /// stored. `dataset` is the job's.
    pub async fn brief(
        &self,
        job: &Job,
        dataset: Option<&dyn JobResults>,
        cluster_id: &str,
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
        if !self
            .ledger
            .count_brief(job.id, self.settings.max_per_job)
            .await?
        {
            return Err(BriefError::LimitReached {
                max: self.settings.max_per_job,
            });
        }
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
        let readings: Vec<Reading> = join_all(sources.into_iter().map(|source| async move {
            let read = tokio::time::timeout(READ_DEADLINE, self.crawler.fetch_outline(&source.url))
                .await
                .map_err(|_| "it took too long to answer".to_string())
                .and_then(|read| read.map_err(|err| skip_reason(&err)));
            (source, read)
        }))
        .await;
        let mut brief = compose(
            &material,
            dataset,
            cluster,
            &members,
            &readings,
            chrono::Utc::now(),
        );
        if let Some(writer) = self.writer {
            match writer.word(&brief).await {
                Ok(wording) => brief.wording = Some(wording),
                Err(why) => {
                    tracing::warn!(job = %job.id, cluster = %cluster.id, %why, "brief without wording")
                }
            }
        }
        put_job_json(self.objects, job, &name, &brief).await?;
        Ok(brief)
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
