//! One request, the way the API wants it sent: one task per Live request, both status levels
//! checked, documented transient codes retried with growing pauses, account-wide limits
//! waited for, the cost added to the job, and successful answers cached across jobs.

use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use chrono::Utc;
use kr_core::store::{CachedResponse, ProviderCache, ProviderRateGate};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::endpoint::{Endpoint, Method, RateLimit};
use crate::envelope::{Envelope, Failure};
use crate::error::ProviderError;
use crate::gate;
use crate::jitter;
use crate::settings::ProviderSettings;
use crate::spend::{JobSpend, UsageSink};
use crate::status::{classify_http, StatusClass};

/// Live SERP and Labs requests usually answer within seconds; this bounds a stuck one.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(90);
const MAX_PAUSE: Duration = Duration::from_secs(30);

/// The provider, shared by every job a worker runs.
pub struct DataForSeo {
    http: reqwest::Client,
    settings: ProviderSettings,
    authorization: String,
    /// Names the account in the rate gate's pools without storing its login.
    account: String,
    cache: Arc<dyn ProviderCache>,
    gate: Arc<dyn ProviderRateGate>,
}

impl DataForSeo {
    pub fn new(
        settings: ProviderSettings,
        cache: Arc<dyn ProviderCache>,
        gate: Arc<dyn ProviderRateGate>,
    ) -> Result<Self, String> {
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .user_agent(concat!("keyword-research/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| format!("HTTP client: {e}"))?;
        let authorization = format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD
                .encode(format!("{}:{}", settings.login, settings.password))
        );
        let account =
            hex::encode(&Sha256::digest(format!("{}@{}", settings.login, settings.base_url))[..8]);
        Ok(Self {
            http,
            settings,
            authorization,
            account,
            cache,
            gate,
        })
    }

    pub fn settings(&self) -> &ProviderSettings {
        &self.settings
    }

    /// The rate gate's pool behind `limit` for this account (`None` for an unlimited endpoint).
    pub fn rate_pool(&self, limit: RateLimit) -> Option<String> {
        match limit {
            RateLimit::Concurrent { pool, .. } | RateLimit::PerMinute { pool, .. } => {
                Some(gate::account_pool(pool, &self.account))
            }
            RateLimit::None => None,
        }
    }

    /// Calls made for one job, charged to it. `previous` is what the job spent before.
    pub fn for_job<'a>(
        &'a self,
        previous: Option<kr_core::domain::ProviderUsage>,
        sink: &'a dyn UsageSink,
    ) -> JobSession<'a> {
        JobSession {
            provider: self,
            spend: JobSpend::new(previous, self.settings.max_cost_per_job, sink),
        }
    }
}

/// A request's answer that is not a failure: its body as received and as read.
pub(crate) struct Answer {
    pub bytes: Vec<u8>,
    pub envelope: Envelope,
}

/// A task's `result` array, with what it cost the job.
pub(crate) struct Priced {
    pub results: Vec<Value>,
    pub cost_usd: f64,
    /// Taken from the cross-job cache.
    pub cached: bool,
}

pub struct JobSession<'a> {
    pub(crate) provider: &'a DataForSeo,
    pub(crate) spend: JobSpend<'a>,
}

impl JobSession<'_> {
    pub fn usage(&self) -> kr_core::domain::ProviderUsage {
        self.spend.usage()
    }

    /// The `result` array of the endpoint's answer to `task`.
    pub async fn call(&self, endpoint: Endpoint, task: Value) -> Result<Vec<Value>, ProviderError> {
        Ok(self.call_priced(endpoint, task).await?.results)
    }

    /// [`Self::call`], saying what the answer cost this job: nothing when it came from the
    /// cache.
    pub(crate) async fn call_priced(
        &self,
        endpoint: Endpoint,
        task: Value,
    ) -> Result<Priced, ProviderError> {
        let body = Value::Array(vec![task]).to_string();
        let key = cache_key(&self.provider.settings.base_url, endpoint, &body);
        if let Some(results) = self.cached(&key).await {
            self.spend.cache_hit().await;
            return Ok(Priced {
                results,
                cost_usd: 0.0,
                cached: true,
            });
        }
        let answer = self.exchange(endpoint, "", Some(body), true).await?;
        let cost_usd = answer.envelope.charged();
        self.remember(&key, answer.bytes).await;
        Ok(Priced {
            results: answer.envelope.into_results(),
            cost_usd,
            cached: false,
        })
    }

    /// USD the job may still spend before its cap; `None` without a cap.
    pub fn budget_left(&self) -> Option<f64> {
        self.spend.left()
    }

    /// Sends one request, pausing and sending again while it fails in a way worth retrying.
    /// `suffix` follows the endpoint's path (a task id); `body` is posted, `None` for a GET.
    /// With `one_task`, the first task's status counts as the request's.
    pub(crate) async fn exchange(
        &self,
        endpoint: Endpoint,
        suffix: &str,
        body: Option<String>,
        one_task: bool,
    ) -> Result<Answer, ProviderError> {
        let provider = self.provider;
        let url = format!("{}{}{suffix}", provider.settings.base_url, endpoint.path());
        let attempts = provider.settings.retry.attempts.max(1);
        let mut last_failure = String::new();
        for attempt in 0..attempts {
            if attempt > 0 {
                tokio::time::sleep(self.pause(attempt)).await;
            }
            if endpoint.is_paid() && !self.spend.may_spend().await {
                return Err(ProviderError::CapReached);
            }
            let permit = gate::acquire(
                provider.gate.as_ref(),
                endpoint.rate_limit(),
                &provider.account,
            )
            .await?;
            let request = match (endpoint.method(), &body) {
                (Method::Post, body) => provider
                    .http
                    .post(&url)
                    .header(reqwest::header::CONTENT_TYPE, "application/json")
                    .body(body.clone().unwrap_or_default()),
                (Method::Get, _) => provider.http.get(&url),
            };
            let sent = request
                .header(reqwest::header::AUTHORIZATION, &provider.authorization)
                .send()
                .await;
            let answer = match sent {
                Ok(response) => {
                    let status = response.status().as_u16();
                    response.bytes().await.map(|bytes| (status, bytes))
                }
                Err(err) => Err(err),
            };
            gate::release(provider.gate.as_ref(), permit).await;
            let (status, bytes) = match answer {
                Ok(answer) => answer,
                Err(err) => {
                    // Nothing was charged that we can see; the request may not have arrived.
                    self.spend.charge(0.0).await;
                    last_failure = format!("transport: {}", without_url(&err));
                    if !endpoint.is_idempotent() {
                        return Err(ProviderError::Unanswered(last_failure));
                    }
                    continue;
                }
            };
            let envelope = Envelope::parse(&bytes);
            if envelope.is_none() && !endpoint.is_idempotent() {
                // No envelope says whether the tasks were created: as good as no answer.
                self.spend.charge(0.0).await;
                return Err(ProviderError::Unanswered(format!(
                    "HTTP {status} without a readable answer"
                )));
            }
            self.spend
                .charge(envelope.as_ref().map_or(0.0, Envelope::charged))
                .await;
            let http_class = classify_http(status);
            let checked = match envelope {
                Some(envelope) => match envelope.failure(one_task) {
                    Some(failure) => Err(failure),
                    None if http_class == StatusClass::Ok => Ok(envelope),
                    // An HTTP error whose envelope claims success: trust the HTTP status.
                    None => Err(http_failure(http_class, status)),
                },
                None if http_class == StatusClass::Ok => Err(Failure {
                    class: StatusClass::Retryable,
                    code: 50_000,
                    message: "unreadable response".into(),
                }),
                None => Err(http_failure(http_class, status)),
            };
            match checked {
                Ok(envelope) => {
                    return Ok(Answer {
                        bytes: bytes.to_vec(),
                        envelope,
                    })
                }
                Err(Failure {
                    class: StatusClass::Retryable,
                    code,
                    message,
                }) => {
                    tracing::warn!(endpoint = endpoint.path(), code, %message, attempt, "retrying");
                    last_failure = format!("{code} {message}");
                }
                Err(Failure {
                    class,
                    code,
                    message,
                }) => return Err(ProviderError::from_status(class, code, message)),
            }
        }
        Err(ProviderError::Unavailable(last_failure))
    }

    fn pause(&self, attempt: u32) -> Duration {
        let base = self.provider.settings.retry.base_delay;
        let pause = base
            .saturating_mul(1 << (attempt - 1).min(10))
            .min(MAX_PAUSE);
        pause + jitter::up_to(pause / 4)
    }

    pub(crate) async fn cached(&self, key: &str) -> Option<Vec<Value>> {
        let ttl = self.provider.settings.cache_ttl;
        if ttl.is_zero() {
            return None;
        }
        let stored = match self.provider.cache.cached_response(key).await {
            Ok(stored) => stored?,
            Err(err) => {
                tracing::warn!(%err, "provider cache read failed");
                return None;
            }
        };
        let age = Utc::now().signed_duration_since(stored.stored_at);
        if age.to_std().map_or(true, |age| age > ttl) {
            return None;
        }
        Envelope::parse(&stored.body)?.outcome().ok()
    }

    pub(crate) async fn remember(&self, key: &str, body: Vec<u8>) {
        if self.provider.settings.cache_ttl.is_zero() {
            return;
        }
        let response = CachedResponse {
            stored_at: Utc::now(),
            body,
        };
        if let Err(err) = self.provider.cache.store_response(key, &response).await {
            tracing::warn!(%err, "provider cache write failed");
        }
    }
}

fn http_failure(class: StatusClass, status: u16) -> Failure {
    Failure {
        class,
        code: i64::from(status),
        message: format!("HTTP {status}"),
    }
}

/// reqwest's messages name the URL; keep logs and job messages free of it.
fn without_url(err: &reqwest::Error) -> String {
    if err.is_timeout() {
        "timed out".into()
    } else if err.is_connect() {
        "could not connect".into()
    } else {
        "request failed".into()
    }
}

/// Same endpoint, same parameters, same answer: the digest names the cached response.
pub(crate) fn cache_key(base_url: &str, endpoint: Endpoint, body: &str) -> String {
    let mut digest = Sha256::new();
    digest.update(base_url.as_bytes());
    digest.update(b"\n");
    digest.update(endpoint.path().as_bytes());
    digest.update(b"\n");
    digest.update(body.as_bytes());
    hex::encode(digest.finalize())
}
