//! The single-table key layout. Every item's partition and sort key is built here, so the
//! layout can be read in one place (shared/aws/README.md, "DynamoDB layout").

use chrono::{DateTime, SecondsFormat, Utc};

use kr_core::domain::{
    ApiKeyId, DomainName, Email, JobId, JobStatus, ScheduleId, SecretHash, UserId, WebhookEvent,
    WebhookId,
};
use kr_core::store::IdempotencyScope;

pub const PK: &str = "PK";
pub const SK: &str = "SK";
/// A user's jobs, newest first.
pub const GSI1: &str = "GSI1";
/// A user's jobs of one status, newest first.
pub const GSI2: &str = "GSI2";
/// Jobs waiting in `queued`, oldest first, for the re-enqueue sweeper.
pub const GSI3: &str = "GSI3";
/// Epoch seconds after which DynamoDB may delete the item.
pub const TTL_ATTRIBUTE: &str = "ttl";

pub const PROFILE_SK: &str = "PROFILE";
/// Kept apart from the profile so a failed transaction tells "no runs" (profile condition)
/// from "no domain allowance" (this item's condition).
pub const DOMAIN_QUOTA_SK: &str = "QUOTA#DOMAINS";

pub fn user_pk(user: UserId) -> String {
    format!("USER#{user}")
}

pub fn email_pk(email: &Email) -> String {
    format!("EMAIL#{email}")
}

pub const EMAIL_SK: &str = "EMAIL";

/// The lookup item of an API key, by the hex SHA-256 of its secret.
pub fn api_key_pk(hash_hex: &str) -> String {
    format!("APIKEY#{hash_hex}")
}

pub const API_KEY_SK: &str = "APIKEY";

/// The user-scoped copy of an API key, for listing and revoking by id.
pub fn user_api_key_sk(key: ApiKeyId) -> String {
    format!("APIKEY#{key}")
}

pub const USER_API_KEY_PREFIX: &str = "APIKEY#";

pub fn session_pk(hash: &SecretHash) -> String {
    format!("SESSION#{}", hash.as_str())
}

pub const SESSION_SK: &str = "SESSION";

/// A webhook, under its owner.
pub fn user_webhook_sk(webhook: WebhookId) -> String {
    format!("WEBHOOK#{webhook}")
}

pub const USER_WEBHOOK_PREFIX: &str = "WEBHOOK#";

/// A webhook's delivery attempts.
pub fn webhook_pk(webhook: WebhookId) -> String {
    format!("WEBHOOK#{webhook}")
}

/// An attempt, in time order (millisecond timestamps sort as text).
pub fn delivery_sk(at: DateTime<Utc>, message_id: &str, attempt: u32) -> String {
    format!(
        "DELIVERY#{}#{message_id}#{attempt:03}",
        at.to_rfc3339_opts(SecondsFormat::Millis, true)
    )
}

pub const DELIVERY_PREFIX: &str = "DELIVERY#";

pub fn job_pk(job: JobId) -> String {
    format!("JOB#{job}")
}

pub const JOB_SK: &str = "JOB";

/// GSI1: all of a user's jobs.
pub fn user_jobs_pk(user: UserId) -> String {
    format!("USER#{user}#JOBS")
}

/// GSI2: a user's jobs of one status.
pub fn user_status_pk(user: UserId, status: JobStatus) -> String {
    format!("USER#{user}#STATUS#{status}")
}

/// Sorts by creation time (milliseconds, fixed width), the id breaking ties.
pub fn job_sort_key(created_at: DateTime<Utc>, job: JobId) -> String {
    format!(
        "{}#{job}",
        created_at.to_rfc3339_opts(SecondsFormat::Millis, true)
    )
}

/// GSI3: the one partition of jobs waiting in `queued`, for the re-enqueue sweeper.
pub const QUEUED_PK: &str = "QUEUED";
/// GSI3 partition of running jobs, sorted by their last heartbeat.
pub const RUNNING_PK: &str = "RUNNING";

/// GSI3 partition of finished jobs' events not yet sent (the outbox), by when they became
/// owed.
pub const OWED_EVENTS_PK: &str = "OWED_EVENTS";

/// A finished job's owed event: its own item (the job's item is not touched), one per event.
pub fn outbox_pk(job: JobId) -> String {
    format!("{OUTBOX_PREFIX}{job}")
}

pub const OUTBOX_PREFIX: &str = "OUTBOX#";

pub fn owed_event_sk(event: WebhookEvent) -> String {
    format!("EVENT#{}", event.as_str())
}

/// A skipped scheduled run's owed event: under its schedule, one per slot.
pub fn schedule_outbox_pk(schedule: ScheduleId) -> String {
    format!("{OUTBOX_PREFIX}{schedule}")
}

pub fn skipped_run_event_sk(slot: DateTime<Utc>) -> String {
    format!(
        "{}#{}",
        owed_event_sk(WebhookEvent::ScheduleRunSkipped),
        slot.to_rfc3339_opts(SecondsFormat::Millis, true)
    )
}

/// A delivery (its `webhook-id`) whose first attempt a fan-out has queued.
pub fn fanned_out_pk(message_id: &str) -> String {
    format!("FANOUT#{message_id}")
}

pub const FANNED_OUT_SK: &str = "FIRST_ATTEMPT";

/// A primary domain the user has started jobs on; it never counts against the allowance again.
pub fn domain_sk(domain: &DomainName) -> String {
    format!("{DOMAIN_PREFIX}{domain}")
}

pub const DOMAIN_PREFIX: &str = "DOMAIN#";

/// The profile attribute counting a user's API keys, for the per-account cap.
pub const API_KEY_COUNTER: &str = "apiKeyCount";

/// Keys chosen by clients are hashed so their length and characters never matter, and so
/// they are always hex: a scheduled run's key (`SCHEDULE#…`) is one no client can send.
pub fn idempotency_pk(user: UserId, scope: &IdempotencyScope) -> String {
    use sha2::{Digest, Sha256};
    match scope {
        IdempotencyScope::Client(key) => format!(
            "IDEMP#{user}#{}",
            hex::encode(Sha256::digest(key.as_bytes()))
        ),
        IdempotencyScope::ScheduledRun { schedule, slot } => {
            format!("IDEMP#{user}#SCHEDULE#{schedule}#{}", slot.timestamp())
        }
    }
}

pub const IDEMPOTENCY_SK: &str = "IDEMP";

/// The profile attribute counting a user's jobs of one status, for list totals.
pub fn status_counter(status: JobStatus) -> &'static str {
    match status {
        JobStatus::Queued => "jobsQueued",
        JobStatus::Running => "jobsRunning",
        JobStatus::Completed => "jobsCompleted",
        JobStatus::Failed => "jobsFailed",
    }
}

pub const ALL_JOBS_COUNTER: &str = "jobsTotal";

/// A provider rate limit shared by every worker of the deployment: its slot and minute items.
pub fn rate_pk(pool: &str) -> String {
    format!("RATE#{pool}")
}

/// A share link, looked up by the hash of its token (hex) when its URL is opened.
pub fn share_pk(token_hash_hex: &str) -> String {
    format!("SHARE#{token_hash_hex}")
}

pub const SHARE_SK: &str = "SHARE";

/// One of a job's share link slots (in the job's partition).
pub fn share_slot_sk(slot: u32) -> String {
    format!("{SHARE_SLOT_PREFIX}{slot:02}")
}

pub const SHARE_SLOT_PREFIX: &str = "SHARE#";

/// The claim on making one cluster's brief (in the job's partition): who makes it, until when.
pub fn brief_claim_sk(cluster_id: &str) -> String {
    format!("BRIEF#{cluster_id}")
}

/// One of a pool's concurrent slots; the item exists while (or since) someone held it.
pub fn slot_sk(slot: u32) -> String {
    format!("SLOT#{slot:02}")
}

/// A subject's request window: a count per time bucket (`b<bucket start>`).
pub fn window_sk() -> String {
    "WINDOW".to_string()
}

/// Requests counted in one calendar minute (minutes since the Unix epoch).
pub fn minute_sk(epoch_minute: i64) -> String {
    format!("MINUTE#{epoch_minute}")
}

/// A schedule, under its owner.
pub fn user_schedule_sk(schedule: ScheduleId) -> String {
    format!("{USER_SCHEDULE_PREFIX}{schedule}")
}

pub const USER_SCHEDULE_PREFIX: &str = "SCHEDULE#";

/// GSI3 partition of schedules not paused, by their next run: the tick's work list.
pub const SCHEDULES_PK: &str = "SCHEDULES";

/// A schedule's place in [`SCHEDULES_PK`]: its next run, then its id.
pub fn schedule_due_key(next_run_at: DateTime<Utc>, schedule: ScheduleId) -> String {
    format!(
        "{}#{schedule}",
        next_run_at.to_rfc3339_opts(SecondsFormat::Millis, true)
    )
}

/// A Search Console consent flow, by its state's hash, until its callback or its TTL.
pub fn search_console_flow_pk(state: &SecretHash) -> String {
    format!("SCFLOW#{}", state.as_str())
}

pub const SEARCH_CONSOLE_FLOW_SK: &str = "SCFLOW";

/// An account's Search Console connection, under its user.
pub const SEARCH_CONSOLE_SK: &str = "SEARCHCONSOLE";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_client_key_reaches_a_scheduled_runs_place() {
        let user = UserId::new();
        let schedule = ScheduleId::new();
        let slot = "2026-06-01T06:00:00Z".parse().unwrap();
        let run = idempotency_pk(user, &IdempotencyScope::ScheduledRun { schedule, slot });
        for sent in [
            format!("schedule:{schedule}:{}", slot.timestamp()),
            run.clone(),
            run.trim_start_matches(&format!("IDEMP#{user}#"))
                .to_string(),
        ] {
            assert_ne!(idempotency_pk(user, &IdempotencyScope::Client(sent)), run);
        }
    }
}
