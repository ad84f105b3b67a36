// The SDK clients' nested futures in `main` are deeper than the default limit allows.
#![recursion_limit = "256"]

use std::sync::Arc;

use kr_aws::signing_key::SigningKeySource;
use kr_aws::sqs::SqsWebhookQueue;
use kr_aws::{Resources, Wiring};
use kr_core::config::Config;
use kr_core::service::webhooks::RetrySchedule;
use kr_notifier::{Notifier, StoredChangeDigests};
use lambda_runtime::{service_fn, LambdaEvent};
use serde_json::Value;

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    lambda_runtime::tracing::init_default_subscriber();
    let env = |name: &str| std::env::var(name).ok();
    let Wiring {
        resources,
        clients,
        store,
        objects,
        ..
    } = Wiring::from_config(Config::from_env()?, Resources::from_env()?).await;
    let notifier = Arc::new(Notifier {
        changes: Arc::new(StoredChangeDigests::new(store.clone(), objects)),
        jobs: store.clone(),
        fan_outs: store.clone(),
        webhooks: store,
        queue: Arc::new(SqsWebhookQueue::new(
            clients.sqs,
            resources.webhooks_queue_url.clone(),
        )),
        signing: Arc::new(SigningKeySource::new(
            clients.secrets,
            resources.webhook_signing_key_arn.clone(),
        )),
        client: Notifier::client_from_vars(env)?,
        retries: RetrySchedule::from_vars(env)?,
    });
    lambda_runtime::run(service_fn(move |event: LambdaEvent<Value>| {
        let notifier = notifier.clone();
        async move { notifier.handle_event(event.payload).await }
    }))
    .await
}
