//! Waiting for the account-wide rate limits, through the shared [`ProviderRateGate`].

use std::time::Duration;

use chrono::{Timelike, Utc};
use kr_core::store::{ProviderRateGate, SlotLease};

use crate::endpoint::RateLimit;
use crate::error::ProviderError;
use crate::jitter;

/// A slot is held at most this long, so a worker that dies cannot block the pool for good.
const LEASE: Duration = Duration::from_secs(180);
/// Longest wait for a limit before the attempt counts as failed (the stage is retried later).
const MAX_WAIT: Duration = Duration::from_secs(150);

/// What was taken, to give back after the request.
pub struct Permit(Option<SlotLease>);

/// The gate's name for `pool` as one provider account sees it: DataForSEO counts its limits per
/// account, so two accounts (or the sandbox and the live host) never wait on each other.
pub fn account_pool(pool: &str, account: &str) -> String {
    format!("{pool}:{account}")
}

pub async fn acquire(
    gate: &dyn ProviderRateGate,
    limit: RateLimit,
    account: &str,
) -> Result<Permit, ProviderError> {
    let started = tokio::time::Instant::now();
    loop {
        let pause = match limit {
            RateLimit::None => return Ok(Permit(None)),
            RateLimit::Concurrent { pool, limit } => {
                match gate
                    .try_acquire_slot(&account_pool(pool, account), limit, LEASE, Utc::now())
                    .await
                {
                    Ok(Some(lease)) => return Ok(Permit(Some(lease))),
                    Ok(None) => {
                        Duration::from_millis(150) + jitter::up_to(Duration::from_millis(250))
                    }
                    Err(err) => {
                        return Err(ProviderError::unavailable(format!("rate gate: {err}")))
                    }
                }
            }
            RateLimit::PerMinute { pool, limit } => {
                let now = Utc::now();
                match gate
                    .try_take_minute_token(&account_pool(pool, account), limit, now)
                    .await
                {
                    Ok(true) => return Ok(Permit(None)),
                    Ok(false) => {
                        let into_minute = Duration::from_millis(
                            u64::from(now.second()) * 1000
                                + u64::from(now.timestamp_subsec_millis()),
                        );
                        Duration::from_secs(60).saturating_sub(into_minute)
                            + jitter::up_to(Duration::from_millis(500))
                    }
                    Err(err) => {
                        return Err(ProviderError::unavailable(format!("rate gate: {err}")))
                    }
                }
            }
        };
        if started.elapsed() + pause > MAX_WAIT {
            return Err(ProviderError::unavailable(
                "the provider's rate limit stayed exhausted",
            ));
        }
        tokio::time::sleep(pause).await;
    }
}

pub async fn release(gate: &dyn ProviderRateGate, permit: Permit) {
    if let Some(lease) = permit.0 {
        if let Err(err) = gate.release_slot(&lease).await {
            // The lease expires on its own; only the pool's capacity suffers meanwhile.
            tracing::warn!(%err, pool = %lease.pool, "could not release a provider slot");
        }
    }
}
