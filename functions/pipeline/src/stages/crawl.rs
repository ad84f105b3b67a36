//! The crawl stage, in parts: each message crawls until shortly before its function's
//! deadline and saves where every site stands; the next message goes on from there. After
//! the job's crawl budget the job goes on with the pages it has.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use chrono::{DateTime, Utc};
use futures_util::future::join_all;
use kr_core::dataset::objects;
use kr_core::domain::Job;
use kr_core::domain::Stage;
use kr_core::store::{get_json, put_job_json};
use kr_crawler::{CrawlCheckpoint, CrawlConfig, CrawlProgress};
use kr_research::{PageContent, SiteRole};
use serde::{Deserialize, Serialize};

use super::{storage_failure, ResearchRunner};
use crate::runner::{ProgressReporter, StageError, StageOutcome};

/// How often crawl progress is written while pages come in.
const PROGRESS_EVERY: Duration = Duration::from_millis(500);
/// Where a crawl in parts stands between messages.
const CHECKPOINT: &str = "crawl-checkpoint";

/// Time a part of the crawl keeps back before its deadline: the pages in flight at the stop
/// are finished (each may wait out the site's crawl delay, then its request), and the
/// checkpoint is saved.
pub fn stop_margin(config: &CrawlConfig) -> chrono::Duration {
    let finishing = config.max_crawl_delay * config.per_host_concurrency as u32
        + config.request_timeout
        + Duration::from_secs(5);
    chrono::Duration::from_std(finishing).unwrap_or(chrono::Duration::minutes(1))
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CrawlState {
    started_at: DateTime<Utc>,
    /// One per site, primary first, then the competitors in the job's order.
    sites: Vec<SiteState>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "state")]
enum SiteState {
    /// Not crawled yet, or stopped part way (`checkpoint`).
    Crawling {
        checkpoint: Option<Box<CrawlCheckpoint>>,
    },
    Done {
        pages: Vec<PageContent>,
    },
    Failed {
        reason: String,
    },
}

impl ResearchRunner {
    /// Crawls every site at once (politeness is per host). The primary site must yield
    /// pages; a competitor that cannot be crawled is left out.
    pub(super) async fn crawl(
        &self,
        job: &Job,
        progress: &ProgressReporter,
    ) -> Result<StageOutcome, StageError> {
        let sites: Vec<(String, SiteRole)> =
            std::iter::once((job.primary_domain.to_string(), SiteRole::Primary))
                .chain(
                    job.competitor_domains
                        .iter()
                        .enumerate()
                        .map(|(i, d)| (d.to_string(), SiteRole::Competitor(i))),
                )
                .collect();
        let name = objects::stage(CHECKPOINT);
        let state: Option<CrawlState> = get_json(self.objects.as_ref(), job.id, &name)
            .await
            .map_err(storage_failure)?;
        let state = state.unwrap_or_else(|| CrawlState {
            started_at: Utc::now(),
            sites: sites
                .iter()
                .map(|_| SiteState::Crawling { checkpoint: None })
                .collect(),
        });
        let budget_end = state.started_at
            + chrono::Duration::from_std(self.settings.crawl_budget)
                .unwrap_or(chrono::Duration::minutes(10));
        let stop_at = (progress.deadline() - stop_margin(self.crawler.config())).min(budget_end);
        let stop_in = (stop_at - Utc::now()).to_std().unwrap_or_default();
        let stop_instant = tokio::time::Instant::now() + stop_in;

        let fetched = AtomicUsize::new(0);
        let on_page = |_: usize| {
            fetched.fetch_add(1, Ordering::Relaxed);
        };
        let budget: usize = sites
            .iter()
            .map(|(_, role)| self.crawler.config().max_pages_for(*role))
            .sum();
        let crawls = join_all(sites.iter().zip(state.sites).map(|((domain, role), site)| {
            let on_page = &on_page;
            async move {
                let SiteState::Crawling { checkpoint } = site else {
                    return site;
                };
                let max_pages = self.crawler.config().max_pages_for(*role);
                let crawled = self
                    .crawler
                    .crawl_site_until(
                        domain,
                        *role,
                        max_pages,
                        on_page,
                        checkpoint.map(|checkpoint| *checkpoint),
                        Some(stop_instant),
                    )
                    .await;
                match crawled {
                    Ok(CrawlProgress::Finished(crawl)) => SiteState::Done { pages: crawl.pages },
                    Ok(CrawlProgress::Stopped(checkpoint)) => SiteState::Crawling {
                        checkpoint: Some(Box::new(checkpoint)),
                    },
                    Err(err) => SiteState::Failed {
                        reason: err.to_string(),
                    },
                }
            }
        }));
        tokio::pin!(crawls);
        let mut sites_now = loop {
            tokio::select! {
                results = &mut crawls => break results,
                _ = tokio::time::sleep(PROGRESS_EVERY) => {
                    let done = fetched.load(Ordering::Relaxed);
                    let keep_going = progress.report(done as f64 / budget.max(1) as f64, format!("{done} pages crawled")).await;
                    if !keep_going {
                        return Ok(StageOutcome::Continue);
                    }
                }
            }
        };

        let unfinished = sites_now
            .iter()
            .any(|site| matches!(site, SiteState::Crawling { .. }));
        if unfinished && Utc::now() < budget_end {
            let state = CrawlState {
                started_at: state.started_at,
                sites: sites_now,
            };
            put_job_json(self.objects.as_ref(), job, &name, &state)
                .await
                .map_err(storage_failure)?;
            return Ok(StageOutcome::Unfinished {
                resume_after: Duration::ZERO,
            });
        }
        // Out of budget: every site goes on with what it has.
        for site in &mut sites_now {
            if let SiteState::Crawling { checkpoint } = site {
                let pages = checkpoint.take().map(|c| c.pages).unwrap_or_default();
                *site = SiteState::Done { pages };
            }
        }
        let mut pages = Vec::new();
        for ((domain, role), site) in sites.iter().zip(sites_now) {
            match (site, role) {
                (SiteState::Done { pages: crawled }, _) => pages.extend(crawled),
                (SiteState::Failed { reason }, SiteRole::Primary) => {
                    return Err(StageError::permanent(format!(
                        "The primary site could not be crawled: {reason}."
                    )));
                }
                (SiteState::Failed { reason }, SiteRole::Competitor(_)) => {
                    tracing::info!(job = %job.id, %domain, %reason, "competitor left out")
                }
                (SiteState::Crawling { .. }, _) => unreachable!("every site was settled above"),
            }
        }
        if !pages
            .iter()
            .any(|page| page.site == Some(SiteRole::Primary))
        {
            return Err(StageError::permanent(format!(
                "No HTML page of {} could be crawled.",
                job.primary_domain
            )));
        }
        self.save(job, Stage::Crawl, &pages).await?;
        Ok(StageOutcome::Continue)
    }
}
