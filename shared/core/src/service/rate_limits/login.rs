//! Failed sign-ins, limited so that guessing is slow and nobody else can lock an account
//! (OWASP Authentication Cheat Sheet, "Login Throttling" and "Account Lockout";
//! shared/http/README.md, "Limits"):
//!
//! - per e-mail and source address, strictly (10 per 15 minutes): one attacker's guesses;
//! - per source address for any e-mail (50), and per source network (an IPv4 /24 or an IPv6
//!   /64, 200), so one host with many addresses counts as one: one attacker trying many
//!   accounts;
//! - per e-mail from anywhere, never refused: past the strict limit every attempt on the
//!   e-mail waits a delay that doubles with each failure, up to a ceiling. Guesses spread over
//!   many networks are slowed, and nobody can lock the owner out by failing from elsewhere.
//!
//! A correct password never counts, so the owner signing in from an address that has not
//! failed always gets in, however many others fail. Each attempt is held in every window
//! before the password is checked and given back when it was right, so concurrent guesses
//! cannot slip past a limit between the check and the count. The delay comes before the check,
//! not after a failure: a delay only on failures would tell a guesser who stops waiting early
//! that the guess was wrong.

use std::net::{IpAddr, Ipv6Addr};
use std::time::Duration;

use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

use super::window::{give_back, Admitted, SlidingWindow};
use super::{RateLimits, LOGIN_WINDOW_SECS};
use crate::store::{RequestCounters, StoreError};

/// The first delay once an e-mail has failed more than the strict limit; doubles per failure
/// up to `RateLimits::login_max_delay`.
const FIRST_DELAY: Duration = Duration::from_millis(250);

pub struct LoginThrottle<'a> {
    counters: &'a dyn RequestCounters,
    limits: &'a RateLimits,
}

/// Whether a sign-in attempt may be checked.
#[derive(Debug)]
pub enum LoginAdmission {
    /// Too many failures from this address or its network: no password is checked for
    /// `retry_after_secs`.
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
pub fn delay_after(failures: u64, strict_limit: u32, max: Duration) -> Duration {
    let Some(past) = failures.checked_sub(u64::from(strict_limit)) else {
        return Duration::ZERO;
    };
    let doublings = past.min(16) as u32;
    FIRST_DELAY.saturating_mul(1 << doublings).min(max)
}

/// The network a source address belongs to, for the per-network window: its IPv4 /24 or its
/// IPv6 /64 (what one host is usually given). Text that is no address is its own network.
pub fn source_network(address: &str) -> String {
    match address.parse::<IpAddr>() {
        Ok(IpAddr::V4(v4)) => {
            let [a, b, c, _] = v4.octets();
            format!("{a}.{b}.{c}.0/24")
        }
        Ok(IpAddr::V6(v6)) => {
            // An IPv4 address in IPv6 clothing is the IPv4 host it names.
            if let Some(v4) = v6.to_ipv4_mapped() {
                return source_network(&v4.to_string());
            }
            let prefix = u128::from(v6) & !((1u128 << 64) - 1);
            format!("{}/64", Ipv6Addr::from(prefix))
        }
        Err(_) => address.to_string(),
    }
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
        let mut refusing = vec![(
            window(self.limits.login_per_email_and_address),
            format!(
                "LOGIN-PAIR#{email}#{}",
                address.unwrap_or("unknown-address")
            ),
        )];
        if let Some(address) = address {
            refusing.push((
                window(self.limits.login_per_address),
                format!("LOGIN-ADDRESS#{address}"),
            ));
            refusing.push((
                window(self.limits.login_per_network),
                format!("LOGIN-NETWORK#{}", source_network(address)),
            ));
        }
        let by_email = window(self.limits.login_per_email);
        let by_email_subject = format!("LOGIN-EMAIL#{email}");
        let (outcomes, email_outcome) = futures_util::future::join(
            futures_util::future::join_all(
                refusing
                    .iter()
                    .map(|(window, subject)| window.admit(self.counters, subject, now)),
            ),
            by_email.admit(self.counters, &by_email_subject, now),
        )
        .await;
        let mut held = Vec::new();
        let mut retry_after = None::<u32>;
        for outcome in outcomes {
            let (status, admitted) = outcome?;
            match admitted {
                Some(admitted) => held.push(admitted),
                None => retry_after = retry_after.max(Some(status.reset_secs)),
            }
        }
        // The e-mail's window only measures: a full one means the longest delay, never a
        // refusal, so failures elsewhere cannot lock the owner out.
        let (email_status, email_admitted) = email_outcome?;
        let email_failures = match email_admitted {
            Some(admitted) => {
                held.push(admitted);
                // Those held before this attempt, which the status counts with it.
                u64::from(email_status.limit - email_status.remaining).saturating_sub(1)
            }
            None => u64::MAX,
        };
        if let Some(retry_after_secs) = retry_after {
            give_back(self.counters, &held).await?;
            return Ok(LoginAdmission::Refused { retry_after_secs });
        }
        Ok(LoginAdmission::Admitted(LoginAttempt {
            held,
            delay: delay_after(
                email_failures,
                self.limits.login_per_email_and_address,
                self.limits.login_max_delay,
            ),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_delay_starts_past_the_strict_limit_and_doubles_to_a_ceiling() {
        let max = Duration::from_secs(4);
        assert_eq!(delay_after(0, 10, max), Duration::ZERO);
        assert_eq!(delay_after(9, 10, max), Duration::ZERO);
        assert_eq!(delay_after(10, 10, max), Duration::from_millis(250));
        assert_eq!(delay_after(11, 10, max), Duration::from_millis(500));
        assert_eq!(delay_after(13, 10, max), Duration::from_secs(2));
        assert_eq!(delay_after(14, 10, max), max);
        assert_eq!(delay_after(u64::MAX, 10, max), max);
    }

    #[test]
    fn addresses_of_one_network_count_as_one() {
        assert_eq!(source_network("203.0.113.7"), "203.0.113.0/24");
        assert_eq!(source_network("203.0.113.250"), "203.0.113.0/24");
        assert_eq!(source_network("::ffff:203.0.113.9"), "203.0.113.0/24");
        assert_eq!(
            source_network("2001:db8:1:2:aaaa:bbbb:cccc:dddd"),
            "2001:db8:1:2::/64"
        );
        assert_eq!(source_network("2001:db8:1:2::1"), "2001:db8:1:2::/64");
        assert_ne!(source_network("2001:db8:1:3::1"), "2001:db8:1:2::/64");
        assert_eq!(source_network("unknown"), "unknown");
    }
}
