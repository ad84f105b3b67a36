//! The Lambda events the pipeline function receives: SQS batches from the jobs queue
//! (answered with partial batch failures) and the schedule that runs the sweeper.

use aws_lambda_events::sqs::{BatchItemFailure, SqsBatchResponse, SqsEvent};
use chrono::{Duration, Utc};
use kr_core::service::jobs::requeue_stale_jobs;
use kr_core::store::PipelineMessage;
use serde_json::{json, Value};

use crate::engine::Pipeline;

/// A job left in `queued` this long is assumed to have lost its message.
pub const STALE_QUEUED_AFTER: Duration = Duration::minutes(5);

pub async fn handle_event(
    pipeline: &Pipeline,
    event: Value,
) -> Result<Value, lambda_runtime::Error> {
    if event.get("Records").is_some() {
        let batch: SqsEvent = serde_json::from_value(event)?;
        return Ok(serde_json::to_value(handle_batch(pipeline, batch).await)?);
    }
    if event.get("detail-type").and_then(Value::as_str) == Some("Scheduled Event") {
        let requeued = requeue_stale_jobs(
            pipeline.jobs.as_ref(),
            pipeline.queue.as_ref(),
            Utc::now() - STALE_QUEUED_AFTER,
        )
        .await?;
        return Ok(json!({ "requeued": requeued }));
    }
    Err("unrecognised event: expected an SQS batch or a scheduled event".into())
}

/// Handles every record concurrently and reports only the ones to deliver again, so one
/// failing message never fails (or repeats) the rest of the batch.
pub async fn handle_batch(pipeline: &Pipeline, batch: SqsEvent) -> SqsBatchResponse {
    let outcomes = batch.records.into_iter().map(|record| async move {
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
        match pipeline.handle(&message, receive_count).await {
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
