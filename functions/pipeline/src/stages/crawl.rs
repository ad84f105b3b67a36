use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::future::join_all;
use kr_core::domain::Job;
use kr_core::domain::Stage;
use kr_research::SiteRole;

use super::ResearchRunner;
use crate::runner::{ProgressReporter, StageError, StageOutcome};

/// How often crawl progress is written while pages come in.
const PROGRESS_EVERY: Duration = Duration::from_millis(500);

impl ResearchRunner {
    /// Crawls every site at once (politeness is per host). The primary site must yield
    /// pages; a competitor that cannot be crawled is left out.
    pub(super) async fn crawl(
        &self,
        job: &Job,
        progress: &ProgressReporter,
    ) -> Result<StageOutcome, StageError> {
        let fetched = AtomicUsize::new(0);
        let on_page = |_: usize| {
            fetched.fetch_add(1, Ordering::Relaxed);
        };
        let sites: Vec<(String, SiteRole)> =
            std::iter::once((job.primary_domain.to_string(), SiteRole::Primary))
                .chain(
                    job.competitor_domains
                        .iter()
                        .enumerate()
                        .map(|(i, d)| (d.to_string(), SiteRole::Competitor(i))),
                )
                .collect();
        let budget: usize = sites
            .iter()
            .map(|(_, role)| self.crawler.config().max_pages_for(*role))
            .sum();
        let crawls = join_all(sites.iter().map(|(domain, role)| {
            self.crawler.crawl_site(
                domain,
                *role,
                self.crawler.config().max_pages_for(*role),
                &on_page,
            )
        }));
        tokio::pin!(crawls);
        let results = loop {
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
        let mut pages = Vec::new();
        for ((domain, role), result) in sites.iter().zip(results) {
            match (result, role) {
                (Ok(crawl), _) => pages.extend(crawl.pages),
                (Err(err), SiteRole::Primary) => {
                    return Err(StageError::permanent(format!(
                        "The primary site could not be crawled: {err}."
                    )));
                }
                (Err(err), SiteRole::Competitor(_)) => {
                    tracing::info!(job = %job.id, %domain, %err, "competitor left out")
                }
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
