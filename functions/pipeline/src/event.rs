//! The Lambda events the pipeline function receives: SQS batches from the jobs queue
//! (answered with partial batch failures) and the schedule that runs the sweeper, which also
//! starts the scheduled jobs that are due.

use aws_lambda_events::sqs::{BatchItemFailure, SqsBatchResponse, SqsEvent};
use chrono::{DateTime, Duration, Utc};
use kr_core::service::jobs::{redrive_stalled_jobs, requeue_stale_jobs};
use kr_core::store::PipelineMessage;
use serde_json::{json, Value};

use crate::engine::{Pipeline, STALLED_AFTER};

/// A job left in `queued` this long is assumed to have lost its message.
pub const STALE_QUEUED_AFTER: Duration = Duration::minutes(5);
/// Sends of a stalled stage before its job is failed.
pub const MAX_REDRIVES: u32 = 3;
/// A job still `queued` this long after it was created is failed and its run given back.
pub const MAX_QUEUED: Duration = Duration::hours(24);

/// An event still owed this long was not sent by the worker that recorded it (it sends
/// right after the write): the sweeper raises it again.
pub const OWED_EVENT_GRACE: Duration = Duration::minutes(2);

/// The function's timeout in template.yaml.
const FUNCTION_TIMEOUT: Duration = Duration::seconds(300);

/// When this invocation is stopped. Lambda sends the deadline in epoch milliseconds; `cargo
/// lambda watch` sends a constant 600000 (1970), so a deadline already past means none was
/// given, and the function's own timeout applies.
pub fn invocation_deadline(deadline_ms: u64) -> DateTime<Utc> {
    let now = Utc::now();
    DateTime::from_timestamp_millis(deadline_ms as i64)
        .filter(|deadline| *deadline > now)
        .unwrap_or(now + FUNCTION_TIMEOUT)
}

/// Where an invocation came from and how long it may run.
pub struct Source<'a> {
    pub deadline: DateTime<Utc>,
    /// Records from this queue are messages that exhausted their deliveries.
    pub dead_letter_queue_arn: Option<&'a str>,
}

impl Source<'static> {
    /// An invocation with the function's usual time and no dead-letter queue (tools, tests).
    pub fn local() -> Self {
        Self {
            deadline: Utc::now() + Duration::minutes(5),
            dead_letter_queue_arn: None,
        }
    }
}

pub async fn handle_event(
    pipeline: &Pipeline,
    event: Value,
) -> Result<Value, lambda_runtime::Error> {
    handle_event_from(pipeline, event, &Source::local()).await
}

pub async fn handle_event_from(
    pipeline: &Pipeline,
    event: Value,
    source: &Source<'_>,
) -> Result<Value, lambda_runtime::Error> {
    if event.get("Records").is_some() {
        let batch: SqsEvent = serde_json::from_value(event)?;
        return Ok(serde_json::to_value(
            handle_batch(pipeline, batch, source).await,
        )?);
    }
    if event.get("detail-type").and_then(Value::as_str) == Some("Scheduled Event") {
        let now = Utc::now();
        let requeued = requeue_stale_jobs(
            pipeline.jobs.as_ref(),
            pipeline.transitions.as_ref(),
            pipeline.queue.as_ref(),
            now - STALE_QUEUED_AFTER,
            now - MAX_QUEUED,
        )
        .await?;
        let redriven = redrive_stalled_jobs(
            pipeline.jobs.as_ref(),
            pipeline.transitions.as_ref(),
            pipeline.queue.as_ref(),
            now - STALLED_AFTER,
            MAX_REDRIVES,
        )
        .await?;
        let events_raised = pipeline
            .event_outbox
            .raise_overdue(now - OWED_EVENT_GRACE)
            .await?;
        let (schedules, _) = pipeline.start_due_schedules(now).await?;
        return Ok(json!({
            "requeued": requeued,
            "redriven": redriven,
            "eventsRaised": events_raised,
            "schedules": schedules,
        }));
    }
    Err("unrecognised event: expected an SQS batch or a scheduled event".into())
}

/// Handles every record concurrently and reports only the ones to deliver again, so one
/// failing message never fails (or repeats) the rest of the batch.
pub async fn handle_batch(
    pipeline: &Pipeline,
    batch: SqsEvent,
    source: &Source<'_>,
) -> SqsBatchResponse {
    let outcomes = batch.records.into_iter().map(|record| async move {
        let dead_letter = source.dead_letter_queue_arn.is_some()
            && record.event_source_arn.as_deref() == source.dead_letter_queue_arn;
        let id = record.message_id.clone().unwrap_or_default();
        let Some(message) = record.body.as_deref().and_then(|body| serde_json::from_str::<PipelineMessage>(body).ok()) else {
            // It can never be processed; retrying would only send it to the dead-letter queue later.
            tracing::error!(message_id = %id, "dropping a malformed pipeline message");
            return None;
        };
        let receive_count = record
            .attributes
            .get("ApproximateReceiveCount")
            .and_then(|count| count.parse::<u32>().ok())
            .unwrap_or(1);
        let handled = if dead_letter {
            pipeline.dead_letter(&message, Utc::now()).await
        } else {
            pipeline.handle_until(&message, receive_count, source.deadline).await
        };
        match handled {
            Ok(handled) => {
                tracing::info!(job = %message.job_id, stage = message.stage.as_str(), ?handled, "message handled");
                None
            }
            Err(retry) => {
                tracing::warn!(job = %message.job_id, stage = message.stage.as_str(), reason = %retry.0, "will retry");
                Some(id)
            }
        }
    });
    let failed = futures_util::future::join_all(outcomes).await;
    let mut response = SqsBatchResponse::default();
    response.batch_item_failures = failed
        .into_iter()
        .flatten()
        .map(|id| {
            let mut failure = BatchItemFailure::default();
            failure.item_identifier = id;
            failure
        })
        .collect();
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_real_deadline_is_kept_and_a_past_one_means_the_functions_timeout() {
        let in_a_minute = Utc::now() + Duration::minutes(1);
        let kept = invocation_deadline(in_a_minute.timestamp_millis() as u64);
        assert_eq!(kept.timestamp_millis(), in_a_minute.timestamp_millis());
        // What `cargo lambda watch` sends.
        let local = invocation_deadline(600_000);
        let expected = Utc::now() + FUNCTION_TIMEOUT;
        assert!((expected - local).num_seconds().abs() <= 1);
    }
}
