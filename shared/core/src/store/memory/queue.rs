//! The pipeline's and the webhooks' queues, as lists of what was sent.

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use async_trait::async_trait;

use super::Faults;
use crate::store::{JobQueue, PipelineMessage, StoreError, WebhookMessage, WebhookQueue};

/// SQS's longest delay; longer ones are cut to it, as the adapter does.
const MAX_DELAY: Duration = Duration::from_secs(900);

/// A pipeline message as sent, with its delay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Enqueued {
    pub message: PipelineMessage,
    pub delay: Duration,
}

/// [`JobQueue`] and [`WebhookQueue`] in memory: every message sent is kept, in order; none is
/// ever received. Tell it to fail with [`MemoryQueue::fail`] (`"enqueue"`,
/// `"enqueue_after"`, `"send"`).
#[derive(Debug, Default)]
pub struct MemoryQueue {
    pipeline: Mutex<Vec<Enqueued>>,
    webhooks: Mutex<Vec<(WebhookMessage, u32)>>,
    faults: Faults,
}

impl MemoryQueue {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn fail(&self, operation: &'static str) {
        self.faults.fail(operation);
    }

    pub fn heal(&self, operation: &'static str) {
        self.faults.heal(operation);
    }

    /// Pipeline messages sent so far, with their delays.
    pub fn enqueued(&self) -> Vec<Enqueued> {
        self.pipeline
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Pipeline messages sent so far.
    pub fn messages(&self) -> Vec<PipelineMessage> {
        self.enqueued().into_iter().map(|e| e.message).collect()
    }

    /// Webhook messages sent so far, with their delays in seconds.
    pub fn webhook_messages(&self) -> Vec<(WebhookMessage, u32)> {
        self.webhooks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

#[async_trait]
impl JobQueue for MemoryQueue {
    async fn enqueue(&self, message: &PipelineMessage) -> Result<(), StoreError> {
        self.faults.check("enqueue")?;
        self.pipeline
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Enqueued {
                message: message.clone(),
                delay: Duration::ZERO,
            });
        Ok(())
    }

    async fn enqueue_after(
        &self,
        message: &PipelineMessage,
        delay: Duration,
    ) -> Result<(), StoreError> {
        self.faults.check("enqueue_after")?;
        self.pipeline
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Enqueued {
                message: message.clone(),
                delay: delay.min(MAX_DELAY),
            });
        Ok(())
    }
}

#[async_trait]
impl WebhookQueue for MemoryQueue {
    async fn send(&self, message: &WebhookMessage, delay_seconds: u32) -> Result<(), StoreError> {
        self.faults.check("send")?;
        let delay = delay_seconds.min(MAX_DELAY.as_secs() as u32);
        self.webhooks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((message.clone(), delay));
        Ok(())
    }
}
