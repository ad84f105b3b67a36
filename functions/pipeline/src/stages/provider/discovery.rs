//! Discovery with the provider: the keywords each domain ranks for and keyword ideas seeded
//! from the site's own top phrases, merged with the crawl (see `selection`).

use futures_util::future::join_all;
use kr_core::domain::Job;
use kr_dataforseo::JobSession;
use kr_research::discovery::{Candidate, DiscoveryConfig};
use kr_research::offline::relevant_crawl_of;
use kr_research::personas::SiteProfile;
use kr_research::PageContent;

use super::market;
use super::selection::{select, Gathered, Wanted};
use super::settle;
use crate::runner::{ProgressReporter, StageError};
use crate::stages::Discovered;

/// Crawl phrases that seed keyword ideas: the site's best, as the provider's starting points.
const IDEA_SEEDS: usize = 20;

/// The crawl's candidates the provider is offered: those the offline selection keeps (they
/// name what the site offers), not every phrase shaped like a query. The provider's volume
/// says a phrase is searched, not that it is about the site: "legal basis" and "customer
/// reviews" have one.
pub fn offered_crawl(
    pages: &[PageContent],
    site: &SiteProfile,
    config: &DiscoveryConfig,
) -> Vec<Candidate> {
    relevant_crawl_of(pages, site, &config.language, config.keyword_limit())
}

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

#[cfg(test)]
mod tests {
    use kr_research::discovery::discover_all;
    use kr_research::text::Language;
    use kr_research::SiteRole;

    use super::super::selection::{select, Gathered, Wanted};
    use super::*;

    fn page(url: &str, title: &str, headings: &[&str], body: &str) -> PageContent {
        PageContent {
            url: format!("https://abroofing.test{url}"),
            site: Some(SiteRole::Primary),
            title: title.into(),
            headings: headings.iter().map(|h| h.to_string()).collect(),
            body_text: body.into(),
            ..PageContent::default()
        }
    }

    #[test]
    fn the_provider_is_offered_no_legal_or_footer_phrase() {
        let pages = vec![
            page(
                "/",
                "A&B Roofing | Roof Repair in Dayton",
                &["Why homeowners choose A&B Roofing", "Customer Reviews"],
                "Roof repair and roof replacement in Dayton. Read customer reviews. \
                 Customer reviews from homeowners.",
            ),
            page(
                "/roof-repair",
                "Roof Repair | A&B Roofing",
                &["Roof Repair", "Customer Reviews"],
                "Roof repair after storm damage. Roof repair the same day.",
            ),
            page(
                "/roof-replacement",
                "Roof Replacement | A&B Roofing",
                &["Roof Replacement"],
                "Roof replacement with asphalt shingles.",
            ),
            page(
                "/terms",
                "Terms | A&B Roofing",
                &["Acceptance of Terms", "Legal Basis"],
                "Acceptance of terms. Legal basis of processing. The legal basis is consent.",
            ),
        ];
        let furniture = ["legal basis", "acceptance of terms", "customer reviews"];
        let raw: Vec<String> = discover_all(&pages, &Language::english())
            .into_iter()
            .map(|c| c.keyword)
            .collect();
        assert!(
            furniture.iter().all(|f| raw.iter().any(|k| k == f)),
            "{raw:?}"
        );

        let config = DiscoveryConfig::new(Language::english(), 100);
        let found = select(
            offered_crawl(
                &pages,
                &SiteProfile::from_pages(&pages, &config.language),
                &config,
            ),
            Gathered::default(),
            Wanted::DISCOVERED_ONLY,
            100,
        );
        let kept: Vec<&str> = found
            .candidates
            .iter()
            .map(|c| c.keyword.as_str())
            .collect();
        for phrase in furniture {
            assert!(
                !kept.iter().any(|k| k.contains(phrase)),
                "{phrase}: {kept:?}"
            );
        }
        for query in ["roof repair", "roof replacement", "a&b roofing"] {
            assert!(kept.contains(&query), "{query}: {kept:?}");
        }
        assert!(!kept.iter().any(|k| k.ends_with(" a")), "{kept:?}");
    }
}
