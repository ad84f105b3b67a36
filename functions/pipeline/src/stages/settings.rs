use kr_core::config::bounded_var;

/// Research settings, from `KR_` variables.
#[derive(Debug, Clone, PartialEq)]
pub struct ResearchSettings {
    /// Keywords kept per job (`KR_MAX_KEYWORDS`, default 500, 1 to 20,000).
    pub max_keywords: usize,
    /// Shared top-10 URLs that put two keywords in one SERP cluster
    /// (`KR_DATAFORSEO_SERP_OVERLAP`, 1 to 10; used when SERPs were fetched).
    pub serp_overlap: usize,
    /// Time one job's crawl may take over all its parts, after which the job goes on with
    /// the pages it has (`KR_CRAWL_BUDGET_SECONDS`, default 600, 10 to 3,600).
    pub crawl_budget: std::time::Duration,
}

impl Default for ResearchSettings {
    fn default() -> Self {
        Self {
            max_keywords: kr_research::discovery::DEFAULT_MAX_KEYWORDS,
            serp_overlap: kr_research::clusters::DEFAULT_SERP_OVERLAP,
            crawl_budget: std::time::Duration::from_secs(600),
        }
    }
}

impl ResearchSettings {
    pub fn from_vars(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, String> {
        let defaults = Self::default();
        Ok(Self {
            max_keywords: kr_research::discovery::max_keywords_from_vars(&lookup)?,
            serp_overlap: bounded_var(
                &lookup,
                "KR_DATAFORSEO_SERP_OVERLAP",
                1..=10,
                defaults.serp_overlap,
            )?,
            crawl_budget: std::time::Duration::from_secs(bounded_var(
                &lookup,
                "KR_CRAWL_BUDGET_SECONDS",
                10..=3600,
                defaults.crawl_budget.as_secs(),
            )?),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_enforced() {
        let with = |name: &'static str, value: &'static str| {
            ResearchSettings::from_vars(move |n| (n == name).then(|| value.to_string()))
        };
        assert_eq!(with("KR_MAX_KEYWORDS", "2000").unwrap().max_keywords, 2000);
        assert!(with("KR_MAX_KEYWORDS", "0").is_err());
        assert!(with("KR_MAX_KEYWORDS", "20001").is_err());
        assert_eq!(
            ResearchSettings::from_vars(|_| None).unwrap(),
            ResearchSettings::default()
        );
    }
}
