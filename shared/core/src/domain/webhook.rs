//! Webhooks: where an account wants to be told about its jobs, and what it is told.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::JobStatus;

/// Longest webhook or callback URL accepted.
pub const MAX_URL_CHARS: usize = 2048;

/// An absolute `http` or `https` URL without credentials. Where it points (no private,
/// loopback or link-local address; ports 80 and 443) is checked by the delivering client at
/// connect time, and its form up front by the same guard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct WebhookUrl(String);

impl WebhookUrl {
    pub fn parse(raw: &str) -> Result<Self, String> {
        // The length as sent, as the document's maxLength counts it.
        if raw.chars().count() > MAX_URL_CHARS {
            return Err(format!("must be at most {MAX_URL_CHARS} characters"));
        }
        let raw = raw.trim();
        if raw.is_empty() {
            return Err("must not be empty".into());
        }
        let url =
            url::Url::parse(raw).map_err(|_| "must be an absolute http(s) URL".to_string())?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err("must be an http or https URL".into());
        }
        if url.host_str().is_none_or(str::is_empty) {
            return Err("must name a host".into());
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err("must not carry credentials".into());
        }
        if url.fragment().is_some() {
            return Err("must not have a #fragment".into());
        }
        Ok(Self(url.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for WebhookUrl {
    type Error = String;

    fn try_from(raw: String) -> Result<Self, Self::Error> {
        Self::parse(&raw)
    }
}

impl From<WebhookUrl> for String {
    fn from(url: WebhookUrl) -> Self {
        url.0
    }
}

impl fmt::Display for WebhookUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a webhook can be told.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum WebhookEvent {
    /// A job completed; its results can be read.
    #[serde(rename = "job.completed")]
    JobCompleted,
    /// A job failed (`errorMessage` says why; its run was given back).
    #[serde(rename = "job.failed")]
    JobFailed,
    /// A scheduled run completed: what changed since the run before (summary and counts).
    #[serde(rename = "job.changes")]
    JobChanges,
    /// A schedule's run was skipped (no runs left, domain allowance used up, ...).
    #[serde(rename = "schedule.run_skipped")]
    ScheduleRunSkipped,
}

impl WebhookEvent {
    /// What `events` must hold, for error messages.
    pub const NAMES: &'static str =
        "job.completed, job.failed, job.changes or schedule.run_skipped";

    /// The event a job's status means; `None` while it is unfinished.
    pub fn for_status(status: JobStatus) -> Option<Self> {
        match status {
            JobStatus::Completed => Some(Self::JobCompleted),
            JobStatus::Failed => Some(Self::JobFailed),
            JobStatus::Queued | JobStatus::Running => None,
        }
    }
}

string_enum! {
    WebhookEvent {
        JobCompleted => "job.completed",
        JobFailed => "job.failed",
        JobChanges => "job.changes",
        ScheduleRunSkipped => "schedule.run_skipped",
    }
    from_str(exact, |_| format!("must be {}", WebhookEvent::NAMES))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_absolute_http_without_credentials() {
        assert_eq!(
            WebhookUrl::parse(" https://hooks.example.com/kr?x=1 ")
                .unwrap()
                .as_str(),
            "https://hooks.example.com/kr?x=1"
        );
        for bad in [
            "",
            "hooks.example.com",
            "ftp://x.com/",
            "https://u:p@x.com/",
            "https://x.com/#a",
            "javascript:alert(1)",
        ] {
            assert!(WebhookUrl::parse(bad).is_err(), "{bad}");
        }
        assert!(WebhookUrl::parse(&format!("https://x.com/{}", "a".repeat(2048))).is_err());
    }

    #[test]
    fn events_name_finished_statuses() {
        assert_eq!("job.failed".parse(), Ok(WebhookEvent::JobFailed));
        assert!("job.started".parse::<WebhookEvent>().is_err());
        assert_eq!(WebhookEvent::for_status(JobStatus::Running), None);
        assert_eq!(
            WebhookEvent::for_status(JobStatus::Completed),
            Some(WebhookEvent::JobCompleted)
        );
    }
}
