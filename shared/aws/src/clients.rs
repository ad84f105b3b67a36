//! AWS SDK clients built once per cold start, with the endpoint override used locally.

use std::future::Future;

use aws_config::BehaviorVersion;
pub use aws_config::SdkConfig;
use aws_sdk_dynamodb::config::SharedInterceptor;
use aws_smithy_http_client::tls;

use crate::resources::Resources;

/// The clients the service uses; cheap to clone (building one makes no request).
#[derive(Clone, Debug)]
pub struct AwsClients {
    pub dynamodb: aws_sdk_dynamodb::Client,
    pub sqs: aws_sdk_sqs::Client,
    pub s3: aws_sdk_s3::Client,
    pub secrets: aws_sdk_secretsmanager::Client,
}

tokio::task_local! {
    static INTERCEPTOR: SharedInterceptor;
}

impl AwsClients {
    pub async fn from_resources(resources: &Resources) -> Self {
        let sdk = sdk_config(resources.aws_endpoint.as_deref()).await;
        let mut dynamodb = aws_sdk_dynamodb::config::Builder::from(&sdk);
        let mut sqs = aws_sdk_sqs::config::Builder::from(&sdk);
        let mut s3 = aws_sdk_s3::config::Builder::from(&sdk)
            // moto serves buckets by path, not by virtual host.
            .force_path_style(resources.aws_endpoint.is_some());
        let mut secrets = aws_sdk_secretsmanager::config::Builder::from(&sdk);
        if let Ok(interceptor) = INTERCEPTOR.try_with(SharedInterceptor::clone) {
            dynamodb.push_interceptor(interceptor.clone());
            sqs.push_interceptor(interceptor.clone());
            secrets.push_interceptor(interceptor.clone());
            s3.push_interceptor(interceptor);
        }
        Self {
            dynamodb: aws_sdk_dynamodb::Client::from_conf(dynamodb.build()),
            sqs: aws_sdk_sqs::Client::from_conf(sqs.build()),
            s3: aws_sdk_s3::Client::from_conf(s3.build()),
            secrets: aws_sdk_secretsmanager::Client::from_conf(secrets.build()),
        }
    }

    /// Runs `build` (a function's own cold-start wiring) so that every client
    /// [`from_resources`](Self::from_resources) makes inside it also calls `interceptor` on each
    /// request. The tests record with it every AWS request each function makes, to check them
    /// against the function's IAM policy in `template.yaml`; nothing sets it when deployed.
    pub async fn intercepted<T>(
        interceptor: SharedInterceptor,
        build: impl Future<Output = T>,
    ) -> T {
        INTERCEPTOR.scope(interceptor, build).await
    }
}

/// The interceptor of [`AwsClients::intercepted`], for clients built outside
/// [`AwsClients::from_resources`] (the Bedrock persona generator).
pub(crate) fn intercept() -> Option<SharedInterceptor> {
    INTERCEPTOR.try_with(SharedInterceptor::clone).ok()
}

/// The SDK configuration every client is built from; `endpoint` overrides every service's URL.
pub async fn sdk_config(endpoint: Option<&str>) -> SdkConfig {
    // rustls with ring: the same TLS stack as the rest of the workspace, and no C toolchain
    // needed when cross-compiling for arm64.
    let http_client = aws_smithy_http_client::Builder::new()
        .tls_provider(tls::Provider::Rustls(
            tls::rustls_provider::CryptoMode::Ring,
        ))
        .build_https();
    let mut loader = aws_config::defaults(BehaviorVersion::latest()).http_client(http_client);
    if let Some(endpoint) = endpoint {
        loader = loader.endpoint_url(endpoint);
    }
    loader.load().await
}
