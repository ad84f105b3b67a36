//! What `POST /jobs/estimate` answers: the estimate `kr_core::service::estimate::estimate_job`
//! computes, as sent (`From`).

use kr_core::service::estimate as core;
use serde::Serialize;
use utoipa::ToSchema;

/// What a job would cost and whether the account can pay for it now.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobEstimate {
    /// Runs the job consumes: always 1.
    #[schema(example = 1)]
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
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
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

/// The most the data provider's calls can cost.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProviderEstimate {
    #[schema(example = "dataforseo")]
    pub provider: String,
    /// Upper bound in USD at list prices: every request the job can make, each returning as
    /// many items as allowed, no answer from the cross-job cache; never above `capUsd`.
    /// Jobs usually cost well under it (see `usage` of a finished job).
    #[schema(example = 0.68)]
    pub max_cost_usd: f64,
    /// The per-job spending cap, at which a job stops paid calls and finishes with what it has.
    #[schema(example = 5.0)]
    pub cap_usd: f64,
    /// The most keywords whose search results the job fetches (highest volume first) and
    /// clusters by shared results; the others are clustered by words. Fewer when the cap or
    /// the job's keyword count stops it first.
    #[schema(example = 1000)]
    pub serp_budget: usize,
    /// The questions put to AI answer engines (`KR_AI_ANSWERS`), their cost included in
    /// `maxCostUsd`; `null` when no engine is configured.
    pub ai_answers: Option<AnswersEstimate>,
}

/// A job's questions to AI answer engines, at most.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnswersEstimate {
    /// The engines asked, in the configured order.
    #[schema(value_type = Vec<crate::ai_answers::AiEngine>)]
    pub engines: Vec<kr_core::domain::AiEngine>,
    /// Questions put to each engine at most: one per cluster, most valuable first (fewer when
    /// the job has fewer clusters or its budget affords fewer).
    #[schema(example = 20)]
    pub prompts: usize,
    /// Their cost in USD at list prices, none answered from the cache.
    #[schema(example = 0.124)]
    pub max_cost_usd: f64,
}

impl From<&core::JobEstimate> for JobEstimate {
    fn from(estimate: &core::JobEstimate) -> Self {
        Self {
            runs: estimate.runs,
            runs_balance: estimate.runs_balance,
            new_domain: estimate.new_domain,
            domains_balance: estimate.domains_balance,
            refusal: estimate.refusal.clone(),
            keywords: KeywordPlan::from(&estimate.keywords),
            provider: estimate.provider.as_ref().map(ProviderEstimate::from),
        }
    }
}

impl From<&core::KeywordPlan> for KeywordPlan {
    fn from(plan: &core::KeywordPlan) -> Self {
        Self {
            imported: plan.imported,
            duplicates: plan.duplicates,
            discovered_at_most: plan.discovered_at_most,
            total_at_most: plan.total_at_most,
        }
    }
}

impl From<&core::ProviderEstimate> for ProviderEstimate {
    fn from(estimate: &core::ProviderEstimate) -> Self {
        Self {
            provider: estimate.provider.clone(),
            max_cost_usd: estimate.max_cost_usd,
            cap_usd: estimate.cap_usd,
            serp_budget: estimate.serp_budget,
            ai_answers: estimate.ai_answers.as_ref().map(|answers| AnswersEstimate {
                engines: answers.engines.clone(),
                prompts: answers.prompts,
                max_cost_usd: answers.max_cost_usd,
            }),
        }
    }
}
