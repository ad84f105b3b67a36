//! Function configuration, read once at start-up from `KR_`-prefixed environment variables.

use std::fmt::Display;
use std::ops::RangeInclusive;
use std::str::FromStr;
use std::time::Duration;

use uuid::Uuid;

use crate::service::rate_limits::RateLimits;

/// Keywords a job keeps besides the user's own, unless `KR_MAX_KEYWORDS` says otherwise.
pub const DEFAULT_MAX_KEYWORDS: usize = 500;
/// The most `KR_MAX_KEYWORDS` may ask for.
pub const MAX_KEYWORDS_LIMIT: usize = 20_000;

/// Keywords a job keeps besides the user's own (`KR_MAX_KEYWORDS`, default 500, 1 to
/// 20,000): read by the pipeline, and by the jobs function for its cost preview.
pub fn max_keywords_from_vars(lookup: impl Fn(&str) -> Option<String>) -> Result<usize, String> {
    bounded_var(
        lookup,
        "KR_MAX_KEYWORDS",
        1..=MAX_KEYWORDS_LIMIT,
        DEFAULT_MAX_KEYWORDS,
    )
}

/// `name`'s number, within `range`; `default` when unset. Anything else is refused with the
/// variable's name and range, so that a function stops at start rather than guess.
pub fn bounded_var<T>(
    lookup: impl Fn(&str) -> Option<String>,
    name: &str,
    range: RangeInclusive<T>,
    default: T,
) -> Result<T, String>
where
    T: FromStr + PartialOrd + Display,
{
    match lookup(name) {
        None => Ok(default),
        Some(raw) => raw
            .trim()
            .parse::<T>()
            .ok()
            .filter(|value| range.contains(value))
            .ok_or_else(|| {
                format!(
                    "{name} must be a number from {} to {}",
                    range.start(),
                    range.end()
                )
            }),
    }
}

/// What the use cases and the HTTP layer need to know about their environment. The AWS
/// resources a function uses (table, queues, bucket, endpoint, secrets) are not here but in
/// `kr_aws::Resources`.
#[derive(Debug, Clone)]
pub struct Config {
    /// Jobs owned by this user are readable by anyone.
    pub demo_user_id: Option<Uuid>,
    /// Origins allowed to send cookie-authenticated POST/DELETE requests.
    pub allowed_origins: Vec<String>,
    pub session_ttl: Duration,
    /// Request, sign-in and running-job limits.
    pub limits: RateLimits,
    /// Days a job and its results are kept (`KR_RESULTS_RETENTION_DAYS`, as the bucket's
    /// lifecycle rule); `None` keeps them for ever. The demo account's jobs are always kept.
    pub results_retention_days: Option<u32>,
}

/// A required variable is missing or malformed; functions refuse to start rather than guess.
#[derive(Debug, thiserror::Error)]
#[error("configuration: {0}")]
pub struct ConfigError(String);

impl ConfigError {
    pub fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }
}

impl Config {
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Reads configuration through `lookup`, so tests can configure without touching the
    /// process environment.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let get = |name: &str| lookup(name).filter(|value| !value.trim().is_empty());
        let demo_user_id = get("KR_DEMO_USER_ID")
            .map(|raw| {
                Uuid::parse_str(raw.trim())
                    .map_err(|_| ConfigError("KR_DEMO_USER_ID is not a UUID".into()))
            })
            .transpose()?;
        let session_ttl_secs = match get("KR_SESSION_TTL_SECONDS") {
            Some(raw) => raw
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|secs| *secs > 0)
                .ok_or_else(|| {
                    ConfigError("KR_SESSION_TTL_SECONDS must be a positive integer".into())
                })?,
            None => 7 * 24 * 3600,
        };
        Ok(Self {
            demo_user_id,
            allowed_origins: get("KR_ALLOWED_ORIGINS")
                .map(|raw| {
                    raw.split(',')
                        .map(|origin| origin.trim().trim_end_matches('/').to_ascii_lowercase())
                        .filter(|origin| !origin.is_empty())
                        .collect()
                })
                .unwrap_or_default(),
            session_ttl: Duration::from_secs(session_ttl_secs),
            limits: RateLimits::from_lookup(get)?,
            results_retention_days: get("KR_RESULTS_RETENTION_DAYS")
                .map(|raw| {
                    raw.trim()
                        .parse::<u32>()
                        .ok()
                        .filter(|days| *days > 0)
                        .ok_or_else(|| {
                            ConfigError(
                                "KR_RESULTS_RETENTION_DAYS must be a positive integer".into(),
                            )
                        })
                })
                .transpose()?,
        })
    }

    pub fn is_allowed_origin(&self, origin: &str) -> bool {
        let origin = origin.trim().trim_end_matches('/').to_ascii_lowercase();
        self.allowed_origins.contains(&origin)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn config(pairs: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::from_lookup(|name| map.get(name).cloned())
    }

    #[test]
    fn nothing_is_required() {
        assert!(config(&[]).is_ok());
    }

    #[test]
    fn origins_are_compared_without_case_or_trailing_slash() {
        let cfg = config(&[("KR_ALLOWED_ORIGINS", "https://App.example.com/, http://x")]).unwrap();
        assert!(cfg.is_allowed_origin("https://app.example.com"));
        assert!(cfg.is_allowed_origin("http://x/"));
        assert!(!cfg.is_allowed_origin("https://evil.example.com"));
    }

    #[test]
    fn malformed_demo_user_is_refused() {
        assert!(config(&[("KR_DEMO_USER_ID", "nope")]).is_err());
    }
}
