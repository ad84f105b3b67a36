//! Request rate limits: a sliding window per subject (a user, an anonymous source address, a
//! sign-in e-mail and address), counted in the store every function instance shares, so the
//! limit holds however many instances serve the caller.

mod login;
mod window;

pub use login::{source_network, LoginAdmission, LoginAttempt, LoginThrottle};
pub use window::{count_request, give_back, Admitted, CountedRequest, SlidingWindow};

use std::time::Duration;

use crate::config::ConfigError;
use crate::domain::Plan;

/// The window of the per-user request limits.
pub const REQUEST_WINDOW_SECS: i64 = 60;
/// The window of the sign-in limits: long, since guessing passwords is slow work.
pub const LOGIN_WINDOW_SECS: i64 = 15 * 60;

/// The limits of one deployment, from `KR_RATE_LIMIT_*`, `KR_LOGIN_LIMIT_*` and
/// `KR_MAX_RUNNING_JOBS` (shared/http/README.md, "Limits").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RateLimits {
    /// Authenticated requests per user per minute, by plan.
    pub free_per_minute: u32,
    pub pro_per_minute: u32,
    pub agency_per_minute: u32,
    /// Unauthenticated reads (demo jobs, dashboard pages) per source address per minute.
    pub anonymous_per_minute: u32,
    /// Failed sign-ins per 15 minutes: for one e-mail from one source address (strict), from
    /// one source address for any e-mail, and from one network (IPv4 /24, IPv6 /64); past
    /// these an address is refused.
    pub login_per_email_and_address: u32,
    pub login_per_address: u32,
    pub login_per_network: u32,
    /// Failed sign-ins for one e-mail from anywhere that the delay grows over: never refused,
    /// since refusing would let anyone lock the owner out.
    pub login_per_email: u32,
    /// The longest delay before a sign-in on an e-mail under attack is checked.
    pub login_max_delay: Duration,
    /// Jobs of one account running at once; the rest wait in `queued`.
    pub running_jobs_per_account: u32,
}

impl Default for RateLimits {
    fn default() -> Self {
        Self {
            free_per_minute: 60,
            pro_per_minute: 300,
            agency_per_minute: 600,
            anonymous_per_minute: 120,
            login_per_email_and_address: 10,
            login_per_address: 50,
            login_per_network: 200,
            login_per_email: 100,
            login_max_delay: Duration::from_secs(4),
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
            anonymous_per_minute: positive(
                "KR_RATE_LIMIT_ANONYMOUS",
                defaults.anonymous_per_minute,
            )?,
            login_per_email_and_address: positive(
                "KR_LOGIN_LIMIT_PER_EMAIL_AND_ADDRESS",
                defaults.login_per_email_and_address,
            )?,
            login_per_email: positive("KR_LOGIN_LIMIT_PER_EMAIL", defaults.login_per_email)?,
            login_per_address: positive("KR_LOGIN_LIMIT_PER_ADDRESS", defaults.login_per_address)?,
            login_per_network: positive("KR_LOGIN_LIMIT_PER_NETWORK", defaults.login_per_network)?,
            login_max_delay: Duration::from_millis(u64::from(positive(
                "KR_LOGIN_MAX_DELAY_MS",
                defaults.login_max_delay.as_millis() as u32,
            )?)),
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

/// Where a subject stands in its window (the `RateLimit-*` headers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateStatus {
    pub limit: u32,
    pub remaining: u32,
    /// Seconds until more requests are admitted: for a refused request, until one fits
    /// (`Retry-After`); otherwise until the oldest counted request leaves the window.
    pub reset_secs: u32,
    /// This request went over the limit.
    pub exceeded: bool,
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
