//! The AWS resources a function uses, read once at start-up from `KR_`-prefixed environment
//! variables beside `kr_core`'s [`Config`](kr_core::config::Config).

use kr_core::config::ConfigError;

/// The table, queues, bucket, endpoint and secrets the AWS adapters are built on.
#[derive(Debug, Clone)]
pub struct Resources {
    /// DynamoDB table holding users, keys, sessions and jobs (single-table design).
    pub table_name: String,
    /// SQS queue the pipeline consumes.
    pub jobs_queue_url: String,
    /// SQS queue of webhook events and deliveries (`KR_WEBHOOKS_QUEUE_URL`).
    pub webhooks_queue_url: String,
    /// S3 bucket for job results and exports.
    pub results_bucket: String,
    /// Endpoint override for every AWS client (moto locally); `None` in AWS.
    pub aws_endpoint: Option<String>,
    /// The Secrets Manager secret every webhook signing secret derives from
    /// (`KR_WEBHOOK_SIGNING_KEY_ARN`); `None` where no function needs it.
    pub webhook_signing_key_arn: Option<String>,
    /// The secret credentials (Search Console grants) are sealed with
    /// (`KR_CREDENTIALS_KEY_ARN`); only the functions that use Google may read it.
    pub credentials_key_arn: Option<String>,
    /// The Google OAuth client's secret (`KR_GOOGLE_CLIENT_SECRET_ARN`); without it,
    /// `KR_GOOGLE_CLIENT_SECRET` (the local stack).
    pub google_client_secret_arn: Option<String>,
}

impl Resources {
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Reads the resources through `lookup`, so tests can configure without touching the
    /// process environment.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let get = |name: &str| lookup(name).filter(|value| !value.trim().is_empty());
        let required =
            |name: &str| get(name).ok_or_else(|| ConfigError::new(format!("{name} is not set")));
        Ok(Self {
            table_name: required("KR_TABLE_NAME")?,
            jobs_queue_url: get("KR_JOBS_QUEUE_URL").unwrap_or_default(),
            webhooks_queue_url: get("KR_WEBHOOKS_QUEUE_URL").unwrap_or_default(),
            results_bucket: get("KR_RESULTS_BUCKET").unwrap_or_default(),
            aws_endpoint: get("KR_AWS_ENDPOINT"),
            webhook_signing_key_arn: get("KR_WEBHOOK_SIGNING_KEY_ARN"),
            credentials_key_arn: get("KR_CREDENTIALS_KEY_ARN"),
            google_client_secret_arn: get("KR_GOOGLE_CLIENT_SECRET_ARN"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn resources(pairs: &[(&str, &str)]) -> Result<Resources, ConfigError> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Resources::from_lookup(|name| map.get(name).cloned())
    }

    #[test]
    fn table_name_is_required() {
        let err = resources(&[]).unwrap_err();
        assert_eq!(err.to_string(), "configuration: KR_TABLE_NAME is not set");
        assert!(resources(&[("KR_TABLE_NAME", "  ")]).is_err());
        let found = resources(&[("KR_TABLE_NAME", "t")]).unwrap();
        assert_eq!(found.table_name, "t");
        assert_eq!(found.jobs_queue_url, "");
        assert_eq!(found.aws_endpoint, None);
        assert_eq!(found.webhook_signing_key_arn, None);
    }

    #[test]
    fn every_resource_is_read_from_its_variable() {
        let found = resources(&[
            ("KR_TABLE_NAME", "table"),
            ("KR_JOBS_QUEUE_URL", "http://q/jobs"),
            ("KR_WEBHOOKS_QUEUE_URL", "http://q/hooks"),
            ("KR_RESULTS_BUCKET", "bucket"),
            ("KR_AWS_ENDPOINT", "http://localhost:5000"),
            ("KR_WEBHOOK_SIGNING_KEY_ARN", "arn:key"),
        ])
        .unwrap();
        assert_eq!(found.jobs_queue_url, "http://q/jobs");
        assert_eq!(found.webhooks_queue_url, "http://q/hooks");
        assert_eq!(found.results_bucket, "bucket");
        assert_eq!(found.aws_endpoint.as_deref(), Some("http://localhost:5000"));
        assert_eq!(found.webhook_signing_key_arn.as_deref(), Some("arn:key"));
    }
}
