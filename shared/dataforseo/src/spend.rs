//! One job's spending with the provider: every response's cost is added and reported at
//! once, and the cap is checked before each paid call. Concurrent calls of one job may each
//! pass the check, so the cap can be exceeded by the calls already in flight, never more.

use async_trait::async_trait;
use kr_core::domain::ProviderUsage;
use std::sync::Mutex;

pub const PROVIDER: &str = "dataforseo";

/// Where a job's running totals go (the job record, in the pipeline).
#[async_trait]
pub trait UsageSink: Send + Sync {
    async fn usage_changed(&self, usage: &ProviderUsage);
}

pub struct JobSpend<'a> {
    usage: Mutex<ProviderUsage>,
    sink: &'a dyn UsageSink,
}

impl<'a> JobSpend<'a> {
    /// Continues from what the job already spent (an earlier stage or attempt).
    pub fn new(previous: Option<ProviderUsage>, cap_usd: f64, sink: &'a dyn UsageSink) -> Self {
        let mut usage = previous.unwrap_or_default();
        usage.provider = PROVIDER.to_string();
        usage.cap_usd = Some(cap_usd);
        Self {
            usage: Mutex::new(usage),
            sink,
        }
    }

    pub fn usage(&self) -> ProviderUsage {
        self.usage.lock().expect("usage lock").clone()
    }

    /// False once the cap is reached; records that it was.
    pub async fn may_spend(&self) -> bool {
        let snapshot = {
            let mut usage = self.usage.lock().expect("usage lock");
            let reached = usage.cap_usd.is_some_and(|cap| usage.cost_usd >= cap);
            if !reached || usage.cap_reached {
                return !reached;
            }
            usage.cap_reached = true;
            usage.clone()
        };
        self.sink.usage_changed(&snapshot).await;
        false
    }

    /// USD left before the cap; `None` without one.
    pub fn left(&self) -> Option<f64> {
        let usage = self.usage.lock().expect("usage lock");
        usage.cap_usd.map(|cap| (cap - usage.cost_usd).max(0.0))
    }

    pub async fn charge(&self, cost_usd: f64) {
        let snapshot = {
            let mut usage = self.usage.lock().expect("usage lock");
            usage.requests += 1;
            // Costs are quoted to 1/10,000 of a cent; rounding keeps sums free of float dust.
            usage.cost_usd = ((usage.cost_usd + cost_usd) * 1e6).round() / 1e6;
            usage.clone()
        };
        self.sink.usage_changed(&snapshot).await;
    }

    /// Adds the price of something paid by a request already counted (tasks whose post
    /// answer was lost, found again later).
    pub async fn add_cost(&self, cost_usd: f64) {
        let snapshot = {
            let mut usage = self.usage.lock().expect("usage lock");
            usage.cost_usd = ((usage.cost_usd + cost_usd) * 1e6).round() / 1e6;
            usage.clone()
        };
        self.sink.usage_changed(&snapshot).await;
    }

    pub async fn cache_hit(&self) {
        let snapshot = {
            let mut usage = self.usage.lock().expect("usage lock");
            usage.cache_hits += 1;
            usage.clone()
        };
        self.sink.usage_changed(&snapshot).await;
    }
}
