//! Requests to addresses users give us (webhook endpoints) through the crawler's SSRF guard:
//! the URL's form is checked first, every name is checked when it is resolved (so a DNS
//! answer cannot change between check and connection), redirects are never followed, the
//! whole exchange has a deadline and at most a few KiB of the answer are read.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use url::Url;

use crate::guard::{refusal_in, AddressPolicy, GuardedResolver};

/// Bytes of a receiver's answer read at most (it is not used; reading some lets the
/// connection close cleanly).
const MAX_RESPONSE_BYTES: usize = 4 * 1024;

/// How one POST went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PostOutcome {
    /// The receiver's status; `None` when no response came.
    pub status: Option<u16>,
    /// Why it did not succeed; `None` for a 2xx.
    pub error: Option<String>,
    pub duration: Duration,
}

pub struct GuardedClient {
    client: reqwest::Client,
    policy: Arc<AddressPolicy>,
}

impl GuardedClient {
    /// `overrides` name hosts that resolve to fixed addresses, past the guard: tests and the
    /// local stack only.
    pub fn new(
        overrides: &[(String, SocketAddr)],
        timeout: Duration,
        user_agent: &str,
    ) -> Result<Self, String> {
        let policy = Arc::new(AddressPolicy::new(overrides));
        let client = reqwest::Client::builder()
            .user_agent(user_agent)
            .redirect(reqwest::redirect::Policy::none())
            // As the crawler's: a proxy (HTTP_PROXY and the like) would connect on our
            // behalf, past the resolver's address checks.
            .no_proxy()
            .dns_resolver(Arc::new(GuardedResolver(Arc::clone(&policy))))
            .timeout(timeout)
            .connect_timeout(timeout)
            .build()
            .map_err(|err| err.to_string())?;
        Ok(Self { client, policy })
    }

    /// The form checks done before connecting: http(s), no credentials, ports 80 and 443,
    /// no literal private address. Where a name points is checked at connect time.
    pub fn check(&self, url: &str) -> Result<(), String> {
        let url = Url::parse(url).map_err(|_| "is not a valid URL".to_string())?;
        self.policy
            .check_url(&url)
            .map_err(|refusal| refusal.to_string())
    }

    pub async fn post(&self, url: &str, headers: &[(&str, String)], body: Vec<u8>) -> PostOutcome {
        let started = Instant::now();
        let done = |status: Option<u16>, error: Option<String>| PostOutcome {
            status,
            error,
            duration: started.elapsed(),
        };
        if let Err(refusal) = self.check(url) {
            return done(None, Some(format!("not sent: {refusal}")));
        }
        let mut request = self
            .client
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body);
        for (name, value) in headers {
            request = request.header(*name, value);
        }
        let response = match request.send().await {
            Ok(response) => response,
            Err(err) => {
                let reason = match refusal_in(&err) {
                    Some(refusal) => format!("not sent: {refusal}"),
                    None if err.is_timeout() => "timed out".into(),
                    None if err.is_connect() => "could not connect".into(),
                    None => "the request failed".into(),
                };
                return done(None, Some(reason));
            }
        };
        let status = response.status();
        let mut response = response;
        let mut read = 0;
        while let Ok(Some(chunk)) = response.chunk().await {
            read += chunk.len();
            if read >= MAX_RESPONSE_BYTES {
                break;
            }
        }
        let error = if status.is_success() {
            None
        } else if status.is_redirection() {
            Some(format!(
                "answered {} (redirects are not followed)",
                status.as_u16()
            ))
        } else {
            Some(format!("answered {}", status.as_u16()))
        };
        done(Some(status.as_u16()), error)
    }
}
