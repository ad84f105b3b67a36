//! The jobs and webhooks queues on SQS.

use std::time::Duration;

use async_trait::async_trait;
use aws_sdk_sqs::error::DisplayErrorContext;

use kr_core::store::{JobQueue, PipelineMessage, StoreError};

const MAX_DELAY_SECONDS: u64 = 900;

#[derive(Clone, Debug)]
pub struct SqsJobQueue {
    client: aws_sdk_sqs::Client,
    queue_url: String,
}

impl SqsJobQueue {
    pub fn new(client: aws_sdk_sqs::Client, queue_url: impl Into<String>) -> Self {
        Self {
            client,
            queue_url: queue_url.into(),
        }
    }
}

#[async_trait]
impl JobQueue for SqsJobQueue {
    async fn enqueue(&self, message: &PipelineMessage) -> Result<(), StoreError> {
        self.enqueue_after(message, Duration::ZERO).await
    }

    async fn enqueue_after(
        &self,
        message: &PipelineMessage,
        delay: Duration,
    ) -> Result<(), StoreError> {
        send(&self.client, &self.queue_url, message, delay).await
    }
}

/// One message, delayed by `delay` (SQS allows up to 15 minutes).
async fn send(
    client: &aws_sdk_sqs::Client,
    queue_url: &str,
    message: &impl serde::Serialize,
    delay: Duration,
) -> Result<(), StoreError> {
    let body = serde_json::to_string(message).map_err(StoreError::new)?;
    client
        .send_message()
        .queue_url(queue_url)
        .message_body(body)
        .delay_seconds(delay.as_secs().min(MAX_DELAY_SECONDS) as i32)
        .send()
        .await
        .map_err(|err| StoreError(DisplayErrorContext(err).to_string()))?;
    Ok(())
}

/// The webhooks queue on SQS.
#[derive(Clone, Debug)]
pub struct SqsWebhookQueue {
    client: aws_sdk_sqs::Client,
    queue_url: String,
}

impl SqsWebhookQueue {
    pub fn new(client: aws_sdk_sqs::Client, queue_url: impl Into<String>) -> Self {
        Self {
            client,
            queue_url: queue_url.into(),
        }
    }
}

#[async_trait]
impl kr_core::store::WebhookQueue for SqsWebhookQueue {
    async fn send(
        &self,
        message: &kr_core::store::WebhookMessage,
        delay_seconds: u32,
    ) -> Result<(), StoreError> {
        send(
            &self.client,
            &self.queue_url,
            message,
            Duration::from_secs(u64::from(delay_seconds)),
        )
        .await
    }
}
