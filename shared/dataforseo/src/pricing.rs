//! What a job can cost at most with the provider, before it runs: the cost preview of
//! `POST /jobs/estimate`. List prices are those the mock charges and `FACTS.md` cites
//! (tests/fixtures/dataforseo); responses report the real cost, which is what jobs record.

use crate::endpoint::Endpoint;

/// USD per request, and per returned item where the endpoint charges for items.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ListPrice {
    pub task: f64,
    pub item: f64,
}

/// The bound prices every SERP as a Live one, the dearest way to fetch it: a Standard task
/// not collected in time is fetched Live, so the bound holds whichever way the pipeline
/// fetches them.
pub fn list_price(endpoint: Endpoint) -> ListPrice {
    match endpoint {
        Endpoint::SerpTaskPost => ListPrice {
            task: 0.0006,
            item: 0.0,
        },
        Endpoint::SerpTasksReady | Endpoint::SerpTaskGet => ListPrice {
            task: 0.0,
            item: 0.0,
        },
        Endpoint::AdsSearchVolume => ListPrice {
            task: 0.075,
            item: 0.0,
        },
        Endpoint::SerpOrganic => ListPrice {
            task: 0.002,
            item: 0.0,
        },
        _ => ListPrice {
            task: 0.01,
            item: 0.0001,
        },
    }
}

/// The shape of a job as the provider sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JobPlan {
    /// The primary and its competitors: one rankings request each.
    pub domains: usize,
    /// Rankings and ideas fetched per request (the job's keyword limit, at most 1,000).
    pub fetch_limit: usize,
    /// Keyword ideas are fetched (the job discovers keywords).
    pub ideas: bool,
    /// Keywords the job keeps at most: its imported ones and up to its keyword limit of others.
    pub keywords: usize,
    /// Keywords whose SERP is fetched at most.
    pub serps: usize,
}

/// The most the plan can cost before the per-job cap; `cap_usd` then bounds it.
pub fn job_cost_bound(plan: &JobPlan, cap_usd: f64) -> f64 {
    let cost = |endpoint: Endpoint, items: usize| {
        let price = list_price(endpoint);
        let requests = items.div_ceil(endpoint.batch_size()).max(1) as f64;
        requests * price.task + items as f64 * price.item
    };
    let per_request = |endpoint: Endpoint, items: usize, requests: usize| {
        let price = list_price(endpoint);
        requests as f64 * (price.task + items as f64 * price.item)
    };
    let limit = plan.fetch_limit.clamp(1, 1000);
    let rankings = per_request(Endpoint::RankedKeywords, limit, plan.domains);
    let ideas = if plan.ideas {
        per_request(Endpoint::KeywordIdeas, limit, 1)
    } else {
        0.0
    };
    let n = plan.keywords;
    // Labs measures a market it covers; Google Ads one it does not. Either way, intents.
    let labs = cost(Endpoint::KeywordOverview, n) + cost(Endpoint::BulkKeywordDifficulty, n);
    let ads = cost(Endpoint::AdsSearchVolume, n);
    let measuring = if n == 0 {
        0.0
    } else {
        labs.max(ads) + cost(Endpoint::SearchIntent, n)
    };
    let serps = plan.serps.min(n) as f64 * list_price(Endpoint::SerpOrganic).task;
    let total = rankings + ideas + measuring + serps;
    // Up to the next 1/100 of a cent, ignoring float dust below it.
    ((total.min(cap_usd) * 10_000.0) - 1e-6).ceil() / 10_000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_adds_every_request_a_job_can_make_and_stops_at_the_cap() {
        let plan = JobPlan {
            domains: 4,
            fetch_limit: 500,
            ideas: true,
            keywords: 500,
            serps: 100,
        };
        // Rankings 4 × (0.01 + 500 × 0.0001) = 0.24; ideas 0.06; Labs overview and difficulty
        // (0.06 each) cost more than Google Ads (0.075); intents 0.06; SERPs 100 × 0.002.
        let bound = job_cost_bound(&plan, 5.0);
        assert!(
            (bound - (0.24 + 0.06 + 0.12 + 0.06 + 0.2)).abs() < 1e-9,
            "{bound}"
        );
        assert_eq!(job_cost_bound(&plan, 0.25), 0.25);
        let list_only = JobPlan {
            ideas: false,
            keywords: 10_000,
            ..plan
        };
        assert!(job_cost_bound(&list_only, 100.0) > bound);
    }
}
