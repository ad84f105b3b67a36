//! What a job can cost at most with the provider, before it runs: the cost preview of
//! `POST /jobs/estimate`. List prices are those the mock charges and `FACTS.md` cites
//! (tests/fixtures/dataforseo); responses report the real cost, which is what jobs record.

use kr_core::domain::AiEngine;

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
        // Google AI Mode, Standard queue at normal priority (dataforseo.com/pricing).
        Endpoint::AiModeTaskPost => ListPrice {
            task: AI_MODE_QUEUED,
            item: 0.0,
        },
        Endpoint::SerpTasksReady
        | Endpoint::SerpTaskGet
        | Endpoint::AiModeTasksReady
        | Endpoint::AiModeTaskGet => ListPrice {
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
        Endpoint::LlmResponses(engine) => ListPrice {
            task: llm_answer_price(engine),
            item: 0.0,
        },
        _ => ListPrice {
            task: 0.01,
            item: 0.0001,
        },
    }
}

/// The most one answer is expected to cost: DataForSEO's task price (USD 0.0006) plus what
/// the engine's own API charges for the model this client asks (`crate::llm`) with web search
/// on and its output cut at 600 tokens. DataForSEO passes the engine's charge through
/// (`money_spent`), so these are estimates from the engines' list prices (see
/// tests/fixtures/dataforseo/FACTS.md, LLM Responses); each answer records what it did cost.
pub fn llm_answer_price(engine: AiEngine) -> f64 {
    match engine {
        // gpt-4.1-mini: the web search tool (USD 25 per 1,000 calls) and its tokens.
        AiEngine::ChatGpt => 0.03,
        // sonar: USD 5 per 1,000 requests (low search context) and USD 1 per 1M tokens.
        AiEngine::Perplexity => 0.0062,
        // gemini-2.5-flash: grounding with Google Search (USD 35 per 1,000 prompts).
        AiEngine::Gemini => 0.0362,
        // claude-haiku-4-5: web search (USD 10 per 1,000 searches) and its tokens.
        AiEngine::Claude => 0.0156,
        // A SERP API price, no engine charge: Live.
        AiEngine::GoogleAiMode => 0.004,
    }
}

/// One Google AI Mode answer through the Standard queue (normal priority).
pub const AI_MODE_QUEUED: f64 = 0.0012;

/// The questions a job puts to answer engines: `prompts` to each of `engines`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AnswerPlan {
    pub engines: Vec<AiEngine>,
    pub prompts: usize,
    /// Google AI Mode is asked through the Standard queue (as SERPs are, by default) rather
    /// than Live.
    pub ai_mode_queued: bool,
}

impl AnswerPlan {
    /// What one answer of `engine` costs at most under this plan.
    pub fn price(&self, engine: AiEngine) -> f64 {
        match engine {
            AiEngine::GoogleAiMode if self.ai_mode_queued => AI_MODE_QUEUED,
            engine => llm_answer_price(engine),
        }
    }

    /// The most they can cost, at [`Self::price`] each, no answer from the cache.
    pub fn cost_bound(&self) -> f64 {
        self.engines
            .iter()
            .map(|engine| self.price(*engine) * self.prompts as f64)
            .sum()
    }

    /// What one question to every engine costs at list prices.
    pub fn per_question(&self) -> f64 {
        self.engines.iter().map(|e| self.price(*e)).sum()
    }

    /// Questions to each engine that `left` USD of the job's budget pays for at list prices,
    /// at most `prompts` (`None`: no cap); 0 when it pays for none.
    pub fn affordable(&self, left: Option<f64>) -> usize {
        match left {
            None => self.prompts,
            Some(left) if left <= 0.0 || self.engines.is_empty() => 0,
            // A hair over the quotient, so float dust never costs a question.
            Some(left) => {
                (((left / self.per_question()) + 1e-9).floor() as usize).min(self.prompts)
            }
        }
    }
}

/// The shape of a job as the provider sees it.
#[derive(Debug, Clone, PartialEq)]
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
    /// Questions to answer engines (`KR_AI_ANSWERS`); none by default.
    pub answers: AnswerPlan,
}

/// Up to the next 1/100 of a cent, ignoring float dust below it.
pub fn round_up_usd(usd: f64) -> f64 {
    ((usd * 10_000.0) - 1e-6).ceil() / 10_000.0
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
    let total = rankings + ideas + measuring + serps + plan.answers.cost_bound();
    round_up_usd(total.min(cap_usd))
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
            answers: AnswerPlan::default(),
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
            ..plan.clone()
        };
        assert!(job_cost_bound(&list_only, 100.0) > bound);
        let answered = JobPlan {
            answers: AnswerPlan {
                engines: vec![AiEngine::ChatGpt, AiEngine::Perplexity],
                prompts: 20,
                ai_mode_queued: true,
            },
            ..plan.clone()
        };
        // 20 questions to each engine at 0.03 and 0.0062.
        let answers = job_cost_bound(&answered, 5.0) - bound;
        assert!((answers - 20.0 * (0.03 + 0.0062)).abs() < 1e-3, "{answers}");
    }

    #[test]
    fn the_budget_left_caps_the_questions_to_every_engine() {
        let plan = AnswerPlan {
            engines: vec![AiEngine::ChatGpt, AiEngine::Perplexity],
            prompts: 20,
            ai_mode_queued: true,
        };
        assert_eq!(plan.affordable(None), 20);
        assert_eq!(plan.affordable(Some(5.0)), 20);
        // 0.0362 a question to both: 0.362 pays for exactly 10.
        assert_eq!(plan.affordable(Some(0.362)), 10);
        assert_eq!(plan.affordable(Some(0.0361)), 0);
        assert_eq!(plan.affordable(Some(0.0)), 0);
        assert_eq!(plan.affordable(Some(-0.01)), 0);
        let none = AnswerPlan {
            engines: vec![],
            prompts: 20,
            ai_mode_queued: true,
        };
        assert_eq!(none.affordable(Some(1.0)), 0);
    }

    #[test]
    fn google_ai_mode_costs_what_its_serp_method_does() {
        let mut plan = AnswerPlan {
            engines: vec![AiEngine::GoogleAiMode],
            prompts: 20,
            ai_mode_queued: true,
        };
        assert!((plan.cost_bound() - 0.024).abs() < 1e-9);
        plan.ai_mode_queued = false;
        assert!((plan.cost_bound() - 0.08).abs() < 1e-9);
    }
}
