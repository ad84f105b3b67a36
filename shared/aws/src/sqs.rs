//! The jobs queue on SQS.

use async_trait::async_trait;
use aws_sdk_sqs::error::DisplayErrorContext;

use kr_core::store::{JobQueue, PipelineMessage, StoreError};

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
        let body = serde_json::to_string(message).map_err(StoreError::new)?;
        self.client
            .send_message()
            .queue_url(&self.queue_url)
            .message_body(body)
            .send()
            .await
            .map_err(|err| StoreError(DisplayErrorContext(err).to_string()))?;
        Ok(())
    }
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
        let body = serde_json::to_string(message).map_err(StoreError::new)?;
        self.client
            .send_message()
            .queue_url(&self.queue_url)
            .message_body(body)
            .delay_seconds(delay_seconds.min(900) as i32)
            .send()
            .await
            .map_err(|err| StoreError(DisplayErrorContext(err).to_string()))?;
        Ok(())
    }
}
