//! The cost preview of a job (`POST /jobs/estimate`): what creating it now would charge and
//! answer, and how many keywords it can keep, without charging or storing anything.

use super::jobs::CreateJobRequest;
use crate::domain::{AiEngine, UserId};
use crate::store::{RegisteredDomains, StoreError, UserStore};

/// What a job would cost and whether the account can pay for it now.
#[derive(Debug, Clone)]
pub struct JobEstimate {
    /// Runs the job consumes: always 1.
    pub runs: u32,
    /// The account's runs now.
    pub runs_balance: i64,
    /// The primary domain is new to the account, so the job also takes one from
    /// `domainsBalance`.
    pub new_domain: bool,
    /// The account's domain allowance now.
    pub domains_balance: i64,
    /// What `POST /jobs` with this body would be refused with now (`insufficient_credits`,
    /// `domain_limit_reached`); `null` when it would be accepted.
    pub refusal: Option<String>,
    pub keywords: KeywordPlan,
    /// The data provider's part; `null` when none is configured (metrics are then estimated
    /// from the crawl, at no cost).
    pub provider: Option<ProviderEstimate>,
}

/// How many keywords the job can keep.
#[derive(Debug, Clone, Copy)]
pub struct KeywordPlan {
    /// Distinct imported phrases, after cleaning.
    pub imported: usize,
    /// Imported entries that collapsed into an earlier one.
    pub duplicates: usize,
    /// Discovered keywords kept at most (the service's keyword limit; 0 with
    /// `discoverKeywords: false`).
    pub discovered_at_most: usize,
    /// `imported + discoveredAtMost`: the most the results can hold.
    pub total_at_most: usize,
}

impl KeywordPlan {
    pub fn of(request: &CreateJobRequest, max_keywords: usize) -> Self {
        let (imported, duplicates) = request
            .keywords
            .as_ref()
            .map_or((0, 0), |list| (list.len(), list.duplicates()));
        let discovered_at_most = if request.discover_keywords {
            max_keywords
        } else {
            0
        };
        Self {
            imported,
            duplicates,
            discovered_at_most,
            total_at_most: imported + discovered_at_most,
        }
    }
}

/// The most the data provider's calls can cost.
#[derive(Debug, Clone)]
pub struct ProviderEstimate {
    pub provider: String,
    /// Upper bound in USD at list prices: every request the job can make, each returning as
    /// many items as allowed, no answer from the cross-job cache; never above `capUsd`.
    /// Jobs usually cost well under it (see `usage` of a finished job).
    pub max_cost_usd: f64,
    /// The per-job spending cap, at which a job stops paid calls and finishes with what it has.
    pub cap_usd: f64,
    /// The most keywords whose search results the job fetches (highest volume first) and
    /// clusters by shared results; the others are clustered by words. Fewer when the cap or
    /// the job's keyword count stops it first.
    pub serp_budget: usize,
    /// The questions to answer engines, included in `max_cost_usd`; `None` when no engine
    /// is configured.
    pub ai_answers: Option<AnswersEstimate>,
}

/// The job's questions to answer engines (`KR_AI_ANSWERS`), at most.
#[derive(Debug, Clone)]
pub struct AnswersEstimate {
    pub engines: Vec<AiEngine>,
    /// Questions put to each engine at most (fewer when the job has fewer clusters, or the
    /// budget left after the rest of the job affords fewer).
    pub prompts: usize,
    /// Their cost at list prices, no answer from the cache.
    pub max_cost_usd: f64,
}

/// The estimate for `owner`, read from the account's balances and registered domains.
pub async fn estimate_job(
    users: &dyn UserStore,
    domains: &dyn RegisteredDomains,
    owner: UserId,
    request: &CreateJobRequest,
    keywords: KeywordPlan,
    provider: Option<ProviderEstimate>,
) -> Result<JobEstimate, StoreError> {
    let user = users
        .user(owner)
        .await?
        .ok_or_else(|| StoreError::new("the caller's account is gone"))?;
    let new_domain = !domains
        .registered_domains(owner)
        .await?
        .contains(&request.primary_domain);
    // The order `POST /jobs` checks them in: runs (402), then the allowance (403).
    let refusal = if user.credits_balance < 1 {
        Some("insufficient_credits")
    } else if new_domain && user.domains_balance < 1 {
        Some("domain_limit_reached")
    } else {
        None
    };
    Ok(JobEstimate {
        runs: 1,
        runs_balance: user.credits_balance,
        new_domain,
        domains_balance: user.domains_balance,
        refusal: refusal.map(str::to_string),
        keywords,
        provider,
    })
}
