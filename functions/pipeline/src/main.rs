use std::sync::Arc;

use kr_aws::bedrock::{BedrockPersonas, BedrockSettings};
use kr_aws::google::GoogleSource;
use kr_aws::sqs::{SqsJobQueue, SqsWebhookQueue};
use kr_aws::{Resources, Wiring};
use kr_core::config::Config;
use kr_crawler::{CrawlConfig, Crawler};
use kr_dataforseo::{DataForSeo, ProviderSettings};
use kr_pipeline::provider_credentials::resolve_credentials;
use kr_pipeline::stages::search_console::SearchConsoleParts;
use kr_pipeline::stages::ResearchSettings;
use kr_pipeline::wiring::{self, Parts};
use kr_research::personas::model::PersonaModel;
use lambda_runtime::{service_fn, LambdaEvent};
use serde_json::Value;

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    lambda_runtime::tracing::init_default_subscriber();
    let config = Config::from_env()?;
    let Wiring {
        config,
        resources,
        clients,
        store,
        objects,
        ..
    } = Wiring::from_config(config, Resources::from_env()?).await;
    let env = |name: &str| std::env::var(name).ok();
    let credentials = resolve_credentials(
        env,
        &kr_aws::sdk_config(resources.aws_endpoint.as_deref()).await,
    )
    .await?;
    let provider = match ProviderSettings::from_vars(env, credentials)? {
        Some(settings) => Some(Arc::new(DataForSeo::new(
            settings,
            objects.clone(),
            store.clone(),
        )?)),
        None => None,
    };
    tracing::info!(provider = provider.is_some(), "keyword data provider");
    let personas_model: Option<Arc<dyn PersonaModel>> = match BedrockSettings::from_vars(env)? {
        Some(settings) => Some(Arc::new(BedrockPersonas::new(
            &kr_aws::sdk_config(None).await,
            settings,
        ))),
        None => None,
    };
    tracing::info!(model = personas_model.is_some(), "persona language model");
    // Read on the first job that names a property: the sealing key and the Google client.
    let search_console = SearchConsoleParts {
        store: store.clone(),
        google: Arc::new(GoogleSource::new(
            clients.secrets.clone(),
            resources.credentials_key_arn.clone(),
            resources.google_client_secret_arn.clone(),
        )),
        days: kr_core::service::search_console::days_from_vars(env)?,
    };
    let pipeline = Arc::new(wiring::pipeline(Parts {
        store,
        objects,
        jobs_queue: Arc::new(SqsJobQueue::new(
            clients.sqs.clone(),
            resources.jobs_queue_url.clone(),
        )),
        webhooks_queue: Arc::new(SqsWebhookQueue::new(
            clients.sqs,
            resources.webhooks_queue_url.clone(),
        )),
        crawler: Crawler::new(CrawlConfig::from_env()?)?,
        settings: ResearchSettings::from_vars(env)?,
        provider,
        personas_model,
        running_cap: config.limits.running_jobs_per_account,
        search_console: Some(search_console),
    }));
    let dead_letters = std::env::var("KR_DEAD_LETTER_QUEUE_ARN").ok();
    lambda_runtime::run(service_fn(move |event: LambdaEvent<Value>| {
        let pipeline = pipeline.clone();
        let dead_letters = dead_letters.clone();
        async move {
            let deadline = kr_pipeline::event::invocation_deadline(event.context.deadline);
            let source = kr_pipeline::event::Source {
                deadline,
                dead_letter_queue_arn: dead_letters.as_deref(),
            };
            kr_pipeline::event::handle_event_from(&pipeline, event.payload, &source).await
        }
    }))
    .await
}
