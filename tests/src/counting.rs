//! Counts the AWS requests a piece of code makes, by operation, for the benchmarks.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::interceptors::context::BeforeTransmitInterceptorContextRef;
use aws_smithy_runtime_api::client::interceptors::Intercept;
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::config_bag::ConfigBag;
use kr_aws::AwsClients;

/// Every request that goes on the wire (retries included), keyed by `X-Amz-Target`
/// operation or, for S3, by method.
#[derive(Debug, Clone, Default)]
pub struct RequestCounter(Arc<Mutex<BTreeMap<String, u32>>>);

impl RequestCounter {
    pub fn take(&self) -> BTreeMap<String, u32> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }

    /// The same clients, every request counted here.
    pub fn instrument(&self, clients: &AwsClients) -> AwsClients {
        AwsClients {
            dynamodb: aws_sdk_dynamodb::Client::from_conf(
                clients
                    .dynamodb
                    .config()
                    .to_builder()
                    .interceptor(self.clone())
                    .build(),
            ),
            secrets: aws_sdk_secretsmanager::Client::from_conf(
                clients
                    .secrets
                    .config()
                    .to_builder()
                    .interceptor(self.clone())
                    .build(),
            ),
            sqs: aws_sdk_sqs::Client::from_conf(
                clients
                    .sqs
                    .config()
                    .to_builder()
                    .interceptor(self.clone())
                    .build(),
            ),
            s3: aws_sdk_s3::Client::from_conf(
                clients
                    .s3
                    .config()
                    .to_builder()
                    .interceptor(self.clone())
                    .build(),
            ),
        }
    }
}

impl Intercept for RequestCounter {
    fn name(&self) -> &'static str {
        "RequestCounter"
    }

    fn read_before_transmit(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _components: &RuntimeComponents,
        _config: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let request = context.request();
        let operation = request
            .headers()
            .get("x-amz-target")
            .map(|target| target.rsplit('.').next().unwrap_or(target).to_string())
            .unwrap_or_else(|| format!("S3 {}", request.method()));
        *self.0.lock().unwrap().entry(operation).or_default() += 1;
        Ok(())
    }
}
