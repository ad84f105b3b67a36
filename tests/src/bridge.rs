//! Emulates Lambda's SQS event source mapping: receives batches from a queue, invokes the
//! function with an SQS event, deletes the messages it did not report as failed and leaves
//! the failed ones to reappear after the visibility timeout (the queue's redrive policy then
//! moves repeat failures to the dead-letter queue, as in AWS).

use anyhow::{anyhow, Result};
use async_trait::async_trait;
use aws_sdk_sqs::types::{
    DeleteMessageBatchRequestEntry, Message, MessageSystemAttributeName, QueueAttributeName,
};
use serde_json::{json, Value};

/// Delivers an event to the function and returns its response.
#[async_trait]
pub trait Invoker: Send + Sync {
    async fn invoke(&self, event: Value) -> Result<Value>;
}

/// Invokes a function through `cargo lambda watch`'s emulation of the Lambda Invoke API.
pub struct HttpInvoker {
    pub url: String,
    client: reqwest::Client,
}

impl HttpInvoker {
    /// Invocations of `function` end after `timeout` as Lambda ends them after the function's
    /// `Timeout`: a function process killed mid-invocation (`cargo lambda watch` restarts
    /// every function when a watched file changes) would otherwise hold the bridge, and with
    /// it every later message and sweep, forever.
    pub fn new(base: &str, function: &str, timeout: std::time::Duration) -> Result<Self> {
        Ok(Self {
            url: format!("{base}/2015-03-31/functions/{function}/invocations"),
            client: reqwest::Client::builder().timeout(timeout).build()?,
        })
    }
}

#[async_trait]
impl Invoker for HttpInvoker {
    async fn invoke(&self, event: Value) -> Result<Value> {
        let response = self.client.post(&self.url).json(&event).send().await?;
        let status = response.status();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        if !status.is_success() || body.get("errorType").is_some() {
            return Err(anyhow!("invocation failed ({status}): {body}"));
        }
        Ok(body)
    }
}

/// Invokes the pipeline in this process, as Lambda would with the same event.
pub struct InProcessPipeline(pub std::sync::Arc<kr_pipeline::Pipeline>);

#[async_trait]
impl Invoker for InProcessPipeline {
    async fn invoke(&self, event: Value) -> Result<Value> {
        kr_pipeline::event::handle_event(&self.0, event)
            .await
            .map_err(|e| anyhow!("{e}"))
    }
}

pub struct Bridge {
    pub sqs: aws_sdk_sqs::Client,
    pub queue_url: String,
    pub batch_size: i32,
}

fn record(message: &Message, queue_arn: &str) -> Value {
    let attributes: serde_json::Map<String, Value> = message
        .attributes()
        .map(|attributes| {
            attributes
                .iter()
                .map(|(k, v)| (k.as_str().to_string(), Value::String(v.clone())))
                .collect()
        })
        .unwrap_or_default();
    json!({
        "messageId": message.message_id(),
        "receiptHandle": message.receipt_handle(),
        "body": message.body(),
        "attributes": attributes,
        "messageAttributes": {},
        "md5OfBody": message.md5_of_body(),
        "eventSource": "aws:sqs",
        "eventSourceARN": queue_arn,
        "awsRegion": "us-east-1",
    })
}

impl Bridge {
    /// The same delivery from the queue's dead-letter queue (its redrive policy's target),
    /// as the pipeline function's second event source does in AWS.
    pub async fn dead_letters(&self) -> Result<Option<Bridge>> {
        let attributes = self
            .sqs
            .get_queue_attributes()
            .queue_url(&self.queue_url)
            .attribute_names(QueueAttributeName::RedrivePolicy)
            .send()
            .await?
            .attributes
            .unwrap_or_default();
        let Some(policy) = attributes.get(&QueueAttributeName::RedrivePolicy) else {
            return Ok(None);
        };
        let policy: Value = serde_json::from_str(policy)?;
        let Some(name) = policy["deadLetterTargetArn"]
            .as_str()
            .and_then(|arn| arn.rsplit(':').next())
        else {
            return Ok(None);
        };
        let url = self.sqs.get_queue_url().queue_name(name).send().await?;
        Ok(url.queue_url.map(|queue_url| Bridge {
            sqs: self.sqs.clone(),
            queue_url,
            batch_size: self.batch_size,
        }))
    }

    async fn queue_arn(&self) -> Result<String> {
        let attributes = self
            .sqs
            .get_queue_attributes()
            .queue_url(&self.queue_url)
            .attribute_names(QueueAttributeName::QueueArn)
            .send()
            .await?
            .attributes
            .unwrap_or_default();
        Ok(attributes
            .get(&QueueAttributeName::QueueArn)
            .cloned()
            .unwrap_or_default())
    }

    /// One poll: returns how many messages were delivered to the function.
    pub async fn poll_once(&self, invoker: &dyn Invoker, wait_seconds: i32) -> Result<usize> {
        let messages = self
            .sqs
            .receive_message()
            .queue_url(&self.queue_url)
            .max_number_of_messages(self.batch_size)
            .wait_time_seconds(wait_seconds)
            .message_system_attribute_names(MessageSystemAttributeName::All)
            .send()
            .await?
            .messages
            .unwrap_or_default();
        if messages.is_empty() {
            return Ok(0);
        }
        let arn = self.queue_arn().await?;
        let event =
            json!({ "Records": messages.iter().map(|m| record(m, &arn)).collect::<Vec<_>>() });
        let failed: Vec<String> = match invoker.invoke(event).await {
            Ok(response) => response["batchItemFailures"]
                .as_array()
                .map(|items| {
                    items
                        .iter()
                        .filter_map(|i| i["itemIdentifier"].as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default(),
            // A failed invocation fails the whole batch, as with Lambda.
            Err(err) => {
                eprintln!("bridge: {err}");
                messages
                    .iter()
                    .filter_map(|m| m.message_id().map(String::from))
                    .collect()
            }
        };
        let done: Vec<DeleteMessageBatchRequestEntry> = messages
            .iter()
            .filter(|m| {
                !m.message_id()
                    .is_some_and(|id| failed.iter().any(|f| f == id))
            })
            .enumerate()
            .filter_map(|(index, m)| {
                DeleteMessageBatchRequestEntry::builder()
                    .id(index.to_string())
                    .set_receipt_handle(m.receipt_handle().map(String::from))
                    .build()
                    .ok()
            })
            .collect();
        if !done.is_empty() {
            self.sqs
                .delete_message_batch()
                .queue_url(&self.queue_url)
                .set_entries(Some(done))
                .send()
                .await?;
        }
        Ok(messages.len())
    }
}
