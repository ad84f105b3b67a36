//! What a DataForSEO status code means for the caller. The API answers HTTP 200 for almost
//! everything and reports the outcome in `status_code` twice: once for the request (the
//! envelope) and once per task, and a task can fail inside an envelope that says 20000.

/// The request or task succeeded.
pub const OK: i64 = 20_000;
/// The task ran and found nothing: an empty answer, not a failure.
pub const NO_RESULTS: i64 = 40_102;

/// Codes worth another attempt after a pause (rate limit per minute, timeouts, internal
/// errors, service unavailable). Everything else fails at once: retrying a bad credential,
/// an empty balance or an invalid field only spends money and time.
const RETRYABLE: [i64; 5] = [40_202, 40_103, 50_000, 50_301, 50_401];

/// Codes that need the account owner's attention.
const CREDENTIALS: [i64; 1] = [40_100];
const BALANCE: [i64; 1] = [40_200];
/// The daily spending limit the account owner set in DataForSEO's dashboard.
const DAILY_LIMIT: [i64; 1] = [40_203];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusClass {
    Ok,
    NoResults,
    Retryable,
    BadCredentials,
    NoBalance,
    DailyLimit,
    /// The request cannot succeed as sent (invalid field, unsupported location, ...).
    Rejected,
}

pub fn classify(code: i64) -> StatusClass {
    match code {
        OK => StatusClass::Ok,
        NO_RESULTS => StatusClass::NoResults,
        c if RETRYABLE.contains(&c) => StatusClass::Retryable,
        c if CREDENTIALS.contains(&c) => StatusClass::BadCredentials,
        c if BALANCE.contains(&c) => StatusClass::NoBalance,
        c if DAILY_LIMIT.contains(&c) => StatusClass::DailyLimit,
        _ => StatusClass::Rejected,
    }
}

/// HTTP statuses the API uses besides 200 (docs: appendix/errors).
pub fn classify_http(status: u16) -> StatusClass {
    match status {
        200..=299 => StatusClass::Ok,
        401 => StatusClass::BadCredentials,
        402 => StatusClass::NoBalance,
        408 | 429 | 500..=599 => StatusClass::Retryable,
        _ => StatusClass::Rejected,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_documented_transient_codes_are_retried() {
        for code in [40_202, 40_103, 50_000, 50_301, 50_401] {
            assert_eq!(classify(code), StatusClass::Retryable, "{code}");
        }
        for code in [40_100, 40_200, 40_203, 40_501, 40_000, 40_101] {
            assert_ne!(classify(code), StatusClass::Retryable, "{code}");
        }
        assert_eq!(classify(40_100), StatusClass::BadCredentials);
        assert_eq!(classify(40_200), StatusClass::NoBalance);
        assert_eq!(classify(40_203), StatusClass::DailyLimit);
        assert_eq!(classify(40_102), StatusClass::NoResults);
        assert_eq!(classify_http(401), StatusClass::BadCredentials);
        assert_eq!(classify_http(402), StatusClass::NoBalance);
        assert_eq!(classify_http(503), StatusClass::Retryable);
        assert_eq!(classify_http(404), StatusClass::Rejected);
    }
}
