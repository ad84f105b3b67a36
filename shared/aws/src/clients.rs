//! AWS SDK clients built once per cold start, with the endpoint override used locally.

use aws_config::{BehaviorVersion, SdkConfig};
use aws_smithy_http_client::tls;

use kr_core::config::Config;

/// The three clients the service uses; cheap to clone.
#[derive(Clone, Debug)]
pub struct AwsClients {
    pub dynamodb: aws_sdk_dynamodb::Client,
    pub sqs: aws_sdk_sqs::Client,
    pub s3: aws_sdk_s3::Client,
}

impl AwsClients {
    pub async fn from_config(config: &Config) -> Self {
        let sdk = sdk_config(config.aws_endpoint.as_deref()).await;
        let s3_config = aws_sdk_s3::config::Builder::from(&sdk)
            // moto serves buckets by path, not by virtual host.
            .force_path_style(config.aws_endpoint.is_some())
            .build();
        Self {
            dynamodb: aws_sdk_dynamodb::Client::new(&sdk),
            sqs: aws_sdk_sqs::Client::new(&sdk),
            s3: aws_sdk_s3::Client::from_conf(s3_config),
        }
    }
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
