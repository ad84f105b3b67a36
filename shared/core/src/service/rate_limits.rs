//! Request rate limits: a fixed window per subject (a user, a sign-in e-mail, a source
//! address), counted in the store every function instance shares, so the limit holds however
//! many instances serve the caller.

use chrono::{DateTime, Utc};

use crate::config::ConfigError;
use crate::domain::Plan;
use crate::store::{RequestCounters, StoreError};

/// The window of the per-user request limits.
pub const REQUEST_WINDOW_SECS: i64 = 60;
/// The window of the sign-in limits: long, since guessing passwords is slow work.
pub const LOGIN_WINDOW_SECS: i64 = 15 * 60;

/// The limits of one deployment, from `KR_RATE_LIMIT_*`, `KR_LOGIN_LIMIT_*` and
/// `KR_MAX_RUNNING_JOBS` (README, "Limits").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RateLimits {
    /// Authenticated requests per user per minute, by plan.
    pub free_per_minute: u32,
    pub pro_per_minute: u32,
    pub agency_per_minute: u32,
    /// Sign-in attempts per e-mail address, and per source address, per 15 minutes.
    pub login_per_email: u32,
    pub login_per_address: u32,
    /// Jobs of one account running at once; the rest wait in `queued`.
    pub running_jobs_per_account: u32,
}

impl Default for RateLimits {
    fn default() -> Self {
        Self {
            free_per_minute: 60,
            pro_per_minute: 300,
            agency_per_minute: 600,
            login_per_email: 10,
            login_per_address: 50,
            running_jobs_per_account: 3,
        }
    }
}

impl RateLimits {
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let defaults = Self::default();
        let positive = |name: &str, default: u32| match get(name) {
            None => Ok(default),
            Some(raw) => raw
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|value| *value > 0)
                .ok_or_else(|| ConfigError::new(format!("{name} must be a positive integer"))),
        };
        Ok(Self {
            free_per_minute: positive("KR_RATE_LIMIT_FREE", defaults.free_per_minute)?,
            pro_per_minute: positive("KR_RATE_LIMIT_PRO", defaults.pro_per_minute)?,
            agency_per_minute: positive("KR_RATE_LIMIT_AGENCY", defaults.agency_per_minute)?,
            login_per_email: positive("KR_LOGIN_LIMIT_PER_EMAIL", defaults.login_per_email)?,
            login_per_address: positive("KR_LOGIN_LIMIT_PER_ADDRESS", defaults.login_per_address)?,
            running_jobs_per_account: positive(
                "KR_MAX_RUNNING_JOBS",
                defaults.running_jobs_per_account,
            )?,
        })
    }

    pub fn per_minute(&self, plan: Plan) -> u32 {
        match plan {
            Plan::Free => self.free_per_minute,
            Plan::Pro => self.pro_per_minute,
            Plan::Agency => self.agency_per_minute,
        }
    }
}

/// Where a subject stands in its current window (the `RateLimit-*` headers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateStatus {
    pub limit: u32,
    pub remaining: u32,
    /// Seconds until the window ends and the count starts again.
    pub reset_secs: u32,
    /// This request went over the limit.
    pub exceeded: bool,
}

impl RateStatus {
    /// The status after `count` requests in the window starting at `window_start`.
    pub fn after(
        count: u64,
        limit: u32,
        window_start: i64,
        window_secs: i64,
        now: DateTime<Utc>,
    ) -> Self {
        Self {
            limit,
            remaining: (limit as u64).saturating_sub(count) as u32,
            reset_secs: (window_start + window_secs - now.timestamp()).max(1) as u32,
            exceeded: count > limit as u64,
        }
    }
}

/// The start of the window `now` falls in.
pub fn window_start(now: DateTime<Utc>, window_secs: i64) -> i64 {
    now.timestamp().div_euclid(window_secs) * window_secs
}

/// Counts one request of `subject` in its current window and says whether it is allowed.
/// Refused requests count too, so hammering does not shorten the wait.
pub async fn count_request(
    counters: &dyn RequestCounters,
    subject: &str,
    limit: u32,
    window_secs: i64,
    now: DateTime<Utc>,
) -> Result<RateStatus, StoreError> {
    let start = window_start(now, window_secs);
    let count = counters.count_request(subject, start, window_secs).await?;
    Ok(RateStatus::after(count, limit, start, window_secs, now))
}

/// Counts a sign-in attempt against its e-mail address and, when known, its source address;
/// returns the status that refuses it, if one does. Every attempt counts, right or wrong, so
/// the limit cannot be used to learn which attempts were right.
pub async fn count_login_attempt(
    counters: &dyn RequestCounters,
    limits: &RateLimits,
    email: &str,
    address: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Option<RateStatus>, StoreError> {
    use sha2::{Digest, Sha256};
    // Hashed, so the counters hold no e-mail addresses; lowercased, as sign-in matches them.
    let email_subject = format!(
        "LOGIN-EMAIL#{}",
        hex::encode(Sha256::digest(email.trim().to_lowercase().as_bytes()))
    );
    let by_email = count_request(
        counters,
        &email_subject,
        limits.login_per_email,
        LOGIN_WINDOW_SECS,
        now,
    );
    let by_address = async {
        match address {
            Some(address) => count_request(
                counters,
                &format!("LOGIN-ADDRESS#{address}"),
                limits.login_per_address,
                LOGIN_WINDOW_SECS,
                now,
            )
            .await
            .map(Some),
            None => Ok(None),
        }
    };
    let (by_email, by_address) = futures_util::future::join(by_email, by_address).await;
    Ok([Some(by_email?), by_address?]
        .into_iter()
        .flatten()
        .filter(|status| status.exceeded)
        .max_by_key(|status| status.reset_secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_read_from_the_environment_and_refuse_nonsense() {
        let limits = RateLimits::from_lookup(|name| {
            (name == "KR_RATE_LIMIT_PRO").then(|| "1000".to_string())
        })
        .unwrap();
        assert_eq!(limits.per_minute(Plan::Pro), 1000);
        assert_eq!(limits.per_minute(Plan::Free), 60);
        assert_eq!(limits.running_jobs_per_account, 3);
        for bad in ["0", "-1", "many"] {
            assert!(RateLimits::from_lookup(|name| {
                (name == "KR_MAX_RUNNING_JOBS").then(|| bad.to_string())
            })
            .is_err());
        }
    }
}
