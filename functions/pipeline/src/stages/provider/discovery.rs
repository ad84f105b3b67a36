//! Discovery with the provider: the keywords each domain ranks for and keyword ideas seeded
//! from the site's own top phrases, merged with the crawl (see `selection`).

use futures_util::future::join_all;
use kr_core::domain::Job;
use kr_dataforseo::JobSession;
use kr_research::discovery::Candidate;

use super::market;
use super::selection::{select, Gathered, Wanted};
use super::settle;
use crate::runner::{ProgressReporter, StageError};
use crate::stages::Discovered;

/// Crawl phrases that seed keyword ideas: the site's best, as the provider's starting points.
const IDEA_SEEDS: usize = 20;

pub async fn discover_with_provider(
    job: &Job,
    crawl: Vec<Candidate>,
    wanted: Wanted<'_>,
    session: &JobSession<'_>,
    max_keywords: usize,
    progress: &ProgressReporter,
) -> Result<Discovered, StageError> {
    let market = market(job);
    // Fetching more than a job keeps only costs more.
    let limit = max_keywords.clamp(1, 1000);
    progress.report(0.1, "Fetching the domains' rankings").await;
    let domains: Vec<String> = std::iter::once(&job.primary_domain)
        .chain(&job.competitor_domains)
        .map(ToString::to_string)
        .collect();
    let answers = join_all(
        domains
            .iter()
            .map(|domain| session.ranked_keywords(domain, &market, limit)),
    )
    .await;
    let mut gathered = Gathered::default();
    for (domain, answer) in domains.into_iter().zip(answers) {
        let items = settle(answer, "ranked keywords")?.unwrap_or_default();
        gathered.ranked.push((domain, items));
    }
    progress.report(0.6, "Fetching keyword ideas").await;
    let seeds: Vec<String> = crawl
        .iter()
        .take(IDEA_SEEDS)
        .map(|c| c.keyword.clone())
        .collect();
    // Ideas only add keywords; a job on its own list has no use for them.
    if !seeds.is_empty() && wanted.discover {
        gathered.ideas = settle(
            session.keyword_ideas(&seeds, &market, limit).await,
            "keyword ideas",
        )?
        .unwrap_or_default();
    }
    Ok(select(crawl, gathered, wanted, max_keywords))
}
