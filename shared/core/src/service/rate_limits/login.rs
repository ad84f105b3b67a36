//! Failed sign-ins, limited so that guessing is slow and nobody else can lock an account
//! (OWASP Authentication Cheat Sheet, "Login Throttling" and "Account Lockout"; README,
//! "Limits"):
//!
//! - per e-mail and source address, strictly (10 per 15 minutes): one attacker's guesses;
//! - per e-mail from anywhere, with a much higher ceiling (100) and a delay that doubles with
//!   every failure past the strict limit: guesses spread over many addresses;
//! - per source address for any e-mail (50): one address trying many accounts.
//!
//! A correct password never counts, so the owner signing in from an address that has not
//! failed gets in while someone else fails from theirs. Each attempt is held in every window
//! before the password is checked and given back when it was right, so concurrent guesses
//! cannot slip past a limit between the check and the count.

use std::time::Duration;

use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

use super::window::{give_back, Admitted, SlidingWindow};
use super::{RateLimits, LOGIN_WINDOW_SECS};
use crate::store::{RequestCounters, StoreError};

/// The first delay once an e-mail has failed more than the strict limit; doubles per failure.
const FIRST_DELAY: Duration = Duration::from_millis(250);
/// The longest delay before an attempt is checked.
const MAX_DELAY: Duration = Duration::from_secs(4);

pub struct LoginThrottle<'a> {
    counters: &'a dyn RequestCounters,
    limits: &'a RateLimits,
}

/// Whether a sign-in attempt may be checked.
#[derive(Debug)]
pub enum LoginAdmission {
    /// Too many failures: no password is checked for `retry_after_secs`.
    Refused { retry_after_secs: u32 },
    /// Wait `delay`, check the password, then say how it went.
    Admitted(LoginAttempt),
}

/// An attempt counted as a failure until it proves right.
#[derive(Debug)]
#[must_use = "say whether the password was right"]
pub struct LoginAttempt {
    held: Vec<Admitted>,
    /// How long to wait before checking the password.
    pub delay: Duration,
}

impl LoginAttempt {
    /// The password was right: the attempt is taken out of every window.
    pub async fn succeeded(self, counters: &dyn RequestCounters) -> Result<(), StoreError> {
        give_back(counters, &self.held).await
    }

    /// The password was wrong: the attempt stays counted.
    pub fn failed(self) {}
}

/// The delay before checking an attempt on an e-mail that failed `failures` times already.
pub fn delay_after(failures: u64, strict_limit: u32) -> Duration {
    let Some(past) = failures.checked_sub(u64::from(strict_limit)) else {
        return Duration::ZERO;
    };
    let doublings = past.min(16) as u32;
    FIRST_DELAY.saturating_mul(1 << doublings).min(MAX_DELAY)
}

fn hashed(email: &str) -> String {
    // Hashed, so the counters hold no e-mail addresses; lowercased, as sign-in matches them.
    hex::encode(Sha256::digest(email.trim().to_lowercase().as_bytes()))
}

impl<'a> LoginThrottle<'a> {
    pub fn new(counters: &'a dyn RequestCounters, limits: &'a RateLimits) -> Self {
        Self { counters, limits }
    }

    /// Holds the attempt in every window it belongs to, or refuses it when one is full.
    /// `address` is the source address as the gateway saw it (`None` outside one: the
    /// e-mail's strict limit then applies from anywhere).
    pub async fn begin(
        &self,
        email: &str,
        address: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<LoginAdmission, StoreError> {
        let email = hashed(email);
        let window = |limit| SlidingWindow::new(limit, LOGIN_WINDOW_SECS);
        let pair = format!(
            "LOGIN-PAIR#{email}#{}",
            address.unwrap_or("unknown-address")
        );
        let by_email = format!("LOGIN-EMAIL#{email}");
        // In this order: the e-mail's window (`BY_EMAIL`) also sets the delay.
        const BY_EMAIL: usize = 1;
        let mut windows = vec![
            (window(self.limits.login_per_email_and_address), pair),
            (window(self.limits.login_per_email), by_email),
        ];
        if let Some(address) = address {
            windows.push((
                window(self.limits.login_per_address),
                format!("LOGIN-ADDRESS#{address}"),
            ));
        }
        let outcomes = futures_util::future::join_all(
            windows
                .iter()
                .map(|(window, subject)| window.admit(self.counters, subject, now)),
        )
        .await;
        let mut held = Vec::new();
        let mut retry_after = None::<u32>;
        let mut email_failures = 0;
        for (index, outcome) in outcomes.into_iter().enumerate() {
            let (status, admitted) = outcome?;
            if index == BY_EMAIL {
                // Those held before this attempt, which the status counts with it.
                email_failures = u64::from(status.limit - status.remaining).saturating_sub(1);
            }
            match admitted {
                Some(admitted) => held.push(admitted),
                None => retry_after = retry_after.max(Some(status.reset_secs)),
            }
        }
        if let Some(retry_after_secs) = retry_after {
            give_back(self.counters, &held).await?;
            return Ok(LoginAdmission::Refused { retry_after_secs });
        }
        Ok(LoginAdmission::Admitted(LoginAttempt {
            held,
            delay: delay_after(email_failures, self.limits.login_per_email_and_address),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_delay_starts_past_the_strict_limit_and_doubles_to_a_ceiling() {
        assert_eq!(delay_after(0, 10), Duration::ZERO);
        assert_eq!(delay_after(9, 10), Duration::ZERO);
        assert_eq!(delay_after(10, 10), Duration::from_millis(250));
        assert_eq!(delay_after(11, 10), Duration::from_millis(500));
        assert_eq!(delay_after(13, 10), Duration::from_secs(2));
        assert_eq!(delay_after(14, 10), MAX_DELAY);
        assert_eq!(delay_after(99, 10), MAX_DELAY);
    }
}
