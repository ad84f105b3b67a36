//! The webhook signing key, read from Secrets Manager the first time a function needs it
//! (creating a webhook, a job with a `callbackUrl`, a delivery) and kept for the life of the
//! execution environment; functions that never sign never read it.

use aws_sdk_secretsmanager::error::DisplayErrorContext;
use kr_core::service::webhook_signing::SigningKey;
use kr_core::store::StoreError;
use tokio::sync::OnceCell;

pub struct SigningKeySource {
    client: aws_sdk_secretsmanager::Client,
    arn: Option<String>,
    key: OnceCell<SigningKey>,
}

impl SigningKeySource {
    pub fn new(client: aws_sdk_secretsmanager::Client, arn: Option<String>) -> Self {
        Self {
            client,
            arn,
            key: OnceCell::new(),
        }
    }

    pub async fn key(&self) -> Result<&SigningKey, StoreError> {
        self.key
            .get_or_try_init(|| async {
                let arn = self
                    .arn
                    .as_deref()
                    .ok_or_else(|| StoreError::new("KR_WEBHOOK_SIGNING_KEY_ARN is not set"))?;
                let secret = self
                    .client
                    .get_secret_value()
                    .secret_id(arn)
                    .send()
                    .await
                    .map_err(|err| StoreError(DisplayErrorContext(err).to_string()))?;
                // The key's text is never quoted in errors.
                let text = secret
                    .secret_string()
                    .ok_or_else(|| StoreError::new("the webhook signing key holds no text"))?;
                SigningKey::new(text.as_bytes().to_vec()).map_err(StoreError::new)
            })
            .await
    }
}
