//! Calls to Google's JSON APIs with a bearer token: retried with backoff on 429 and 5xx (as
//! Google asks, honouring `Retry-After`), refused at once on anything else.

use std::time::Duration;

use kr_core::service::search_console::{AccessToken, GoogleError};
use reqwest::{Method, StatusCode};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// How often and how patiently a call is retried.
#[derive(Debug, Clone, Copy)]
pub struct RetryPolicy {
    pub attempts: u32,
    pub first_delay: Duration,
    pub longest_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            attempts: 6,
            first_delay: Duration::from_millis(500),
            longest_delay: Duration::from_secs(30),
        }
    }
}

impl RetryPolicy {
    fn delay(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        let backoff = self.first_delay.saturating_mul(1 << attempt.min(16));
        retry_after.unwrap_or(backoff).min(self.longest_delay)
    }
}

/// Google's error body `{"error": {"code", "message", "status"}}` (or OAuth's
/// `{"error": "…", "error_description"}`), read for the message only.
fn error_message(status: StatusCode, body: &str) -> String {
    let parsed: Option<Value> = serde_json::from_str(body).ok();
    let message = parsed.as_ref().and_then(|value| {
        value["error"]["message"]
            .as_str()
            .or_else(|| value["error_description"].as_str())
            .or_else(|| value["error"].as_str())
            .map(str::to_string)
    });
    let message = message.unwrap_or_else(|| "no error message".into());
    // Google's messages are short; anything longer is cut so a log line stays a line.
    let message: String = message.chars().take(300).collect();
    format!("HTTP {}: {message}", status.as_u16())
}

pub async fn call<T: DeserializeOwned>(
    http: &reqwest::Client,
    retry: RetryPolicy,
    method: Method,
    url: &str,
    token: &AccessToken,
    body: Option<&Value>,
) -> Result<T, GoogleError> {
    let mut attempt = 0;
    loop {
        let mut request = http.request(method.clone(), url).bearer_auth(&token.0);
        if let Some(body) = body {
            request = request.json(body);
        }
        let outcome = request.send().await;
        let retry_after = match outcome {
            Ok(response) if response.status().is_success() => {
                return response
                    .json::<T>()
                    .await
                    .map_err(|err| GoogleError::Unavailable(format!("unreadable answer: {err}")));
            }
            Ok(response) => {
                let status = response.status();
                let retry_after = response
                    .headers()
                    .get(reqwest::header::RETRY_AFTER)
                    .and_then(|value| value.to_str().ok())
                    .and_then(|value| value.trim().parse::<u64>().ok())
                    .map(Duration::from_secs);
                let body = response.text().await.unwrap_or_default();
                let message = error_message(status, &body);
                let retryable = status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error();
                if !retryable || attempt + 1 >= retry.attempts {
                    return Err(match status {
                        StatusCode::UNAUTHORIZED => GoogleError::GrantRefused(message),
                        StatusCode::FORBIDDEN => GoogleError::PropertyRefused(message),
                        _ => GoogleError::Unavailable(message),
                    });
                }
                tracing::info!(%status, attempt, "Google asked to slow down or failed; retrying");
                retry_after
            }
            Err(err) => {
                if attempt + 1 >= retry.attempts {
                    return Err(GoogleError::Unavailable(format!("no answer: {err}")));
                }
                None
            }
        };
        tokio::time::sleep(retry.delay(attempt, retry_after)).await;
        attempt += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_double_up_to_the_longest_and_follow_retry_after() {
        let policy = RetryPolicy::default();
        assert_eq!(policy.delay(0, None), Duration::from_millis(500));
        assert_eq!(policy.delay(2, None), Duration::from_secs(2));
        assert_eq!(policy.delay(10, None), Duration::from_secs(30));
        assert_eq!(
            policy.delay(0, Some(Duration::from_secs(7))),
            Duration::from_secs(7)
        );
    }

    #[test]
    fn error_messages_come_from_either_error_shape() {
        let google =
            r#"{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED"}}"#;
        assert_eq!(
            error_message(StatusCode::TOO_MANY_REQUESTS, google),
            "HTTP 429: Quota exceeded"
        );
        let oauth = r#"{"error":"invalid_grant","error_description":"Bad Request"}"#;
        assert_eq!(
            error_message(StatusCode::BAD_REQUEST, oauth),
            "HTTP 400: Bad Request"
        );
        assert_eq!(
            error_message(StatusCode::BAD_GATEWAY, "<html>"),
            "HTTP 502: no error message"
        );
    }
}
