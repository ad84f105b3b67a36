//! Per-site politeness: at most `concurrency` requests in flight to one site, and request
//! starts spaced at least `delay` apart. `www.<domain>` and `<domain>` share one gate because
//! they are almost always served by the same machines.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use crate::site::site_key;

pub(crate) struct HostGates {
    concurrency: usize,
    base_delay: Duration,
    max_delay: Duration,
    gates: Mutex<HashMap<String, Arc<Gate>>>,
}

struct Gate {
    permits: Arc<Semaphore>,
    state: Mutex<GateState>,
}

struct GateState {
    delay: Duration,
    last_start: Option<Instant>,
}

/// Held for the whole request; dropping it frees the concurrency slot.
pub(crate) struct GatePass {
    _permit: OwnedSemaphorePermit,
}

impl HostGates {
    pub(crate) fn new(concurrency: usize, base_delay: Duration, max_delay: Duration) -> Self {
        Self {
            concurrency: concurrency.max(1),
            base_delay,
            max_delay: max_delay.max(base_delay),
            gates: Mutex::new(HashMap::new()),
        }
    }

    fn gate(&self, host: &str) -> Arc<Gate> {
        let mut gates = self.gates.lock().unwrap_or_else(PoisonError::into_inner);
        let gate = gates.entry(site_key(host).to_owned()).or_insert_with(|| {
            Arc::new(Gate {
                permits: Arc::new(Semaphore::new(self.concurrency)),
                state: Mutex::new(GateState {
                    delay: self.base_delay,
                    last_start: None,
                }),
            })
        });
        Arc::clone(gate)
    }

    /// Waits for a free slot and for this request's turn, then lets it start.
    pub(crate) async fn enter(&self, host: &str) -> GatePass {
        let gate = self.gate(host);
        let permit = Arc::clone(&gate.permits)
            .acquire_owned()
            .await
            .expect("gate semaphores are never closed");
        // Reserve a start time under the lock, then sleep outside it, so waiting requests
        // queue up at `delay` intervals instead of all waking at once.
        let start = {
            let mut state = gate.state.lock().unwrap_or_else(PoisonError::into_inner);
            let now = Instant::now();
            let start = state
                .last_start
                .map_or(now, |last| (last + state.delay).max(now));
            state.last_start = Some(start);
            start
        };
        tokio::time::sleep_until(start).await;
        GatePass { _permit: permit }
    }

    /// Applies a robots.txt `Crawl-delay`: it can slow a site down up to the configured
    /// maximum, never speed it up below the configured minimum.
    pub(crate) fn apply_crawl_delay(&self, host: &str, requested: Duration) {
        let gate = self.gate(host);
        let mut state = gate.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.delay = requested.min(self.max_delay).max(state.delay);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn spaces_request_starts_and_shares_www_with_the_apex() {
        let gates = HostGates::new(4, Duration::from_millis(100), Duration::from_secs(1));
        let begin = Instant::now();
        let _a = gates.enter("shop.test").await;
        let _b = gates.enter("www.shop.test").await;
        let _c = gates.enter("shop.test").await;
        assert_eq!(begin.elapsed(), Duration::from_millis(200));
        // Another site is not held up by this one.
        let other = Instant::now();
        let _d = gates.enter("other.test").await;
        assert_eq!(other.elapsed(), Duration::ZERO);
    }

    #[tokio::test(start_paused = true)]
    async fn limits_concurrency_per_site() {
        let gates = Arc::new(HostGates::new(1, Duration::ZERO, Duration::ZERO));
        let first = gates.enter("shop.test").await;
        let waiting = {
            let gates = Arc::clone(&gates);
            tokio::spawn(async move { gates.enter("shop.test").await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(
            !waiting.is_finished(),
            "the second request must wait for the first"
        );
        drop(first);
        tokio::time::timeout(Duration::from_millis(10), waiting)
            .await
            .unwrap()
            .unwrap();
    }

    #[tokio::test(start_paused = true)]
    async fn crawl_delay_is_capped_and_never_lowers_the_minimum() {
        let gates = HostGates::new(2, Duration::from_millis(100), Duration::from_millis(500));
        gates.apply_crawl_delay("shop.test", Duration::from_secs(60));
        gates.apply_crawl_delay("shop.test", Duration::from_millis(10));
        let begin = Instant::now();
        let _a = gates.enter("shop.test").await;
        let _b = gates.enter("shop.test").await;
        assert_eq!(begin.elapsed(), Duration::from_millis(500));
    }
}
