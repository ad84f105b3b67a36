//! Google for the functions that use it: the credentials key and the OAuth client's secret,
//! each read from Secrets Manager the first time it is needed and kept for the life of the
//! execution environment.

use aws_sdk_secretsmanager::error::DisplayErrorContext;
use kr_core::service::search_console::CredentialKey;
use kr_core::store::StoreError;
use kr_google::{Google, GoogleSettings};
use tokio::sync::OnceCell;

pub struct GoogleSource {
    client: aws_sdk_secretsmanager::Client,
    key_arn: Option<String>,
    client_secret_arn: Option<String>,
    key: OnceCell<CredentialKey>,
    google: OnceCell<Option<Google>>,
    /// Settings given in code instead of the environment (tests pointing at a mock).
    settings: Option<GoogleSettings>,
}

impl GoogleSource {
    pub fn new(
        client: aws_sdk_secretsmanager::Client,
        key_arn: Option<String>,
        client_secret_arn: Option<String>,
    ) -> Self {
        Self {
            client,
            key_arn,
            client_secret_arn,
            key: OnceCell::new(),
            google: OnceCell::new(),
            settings: None,
        }
    }

    /// Google at `settings` rather than as the environment says.
    pub fn with_settings(mut self, settings: GoogleSettings) -> Self {
        self.settings = Some(settings);
        self
    }

    async fn secret_text(&self, arn: &str, what: &str) -> Result<String, StoreError> {
        let secret = self
            .client
            .get_secret_value()
            .secret_id(arn)
            .send()
            .await
            .map_err(|err| StoreError(DisplayErrorContext(err).to_string()))?;
        // A secret's text is never quoted in errors.
        secret
            .secret_string()
            .map(str::to_string)
            .ok_or_else(|| StoreError::new(format!("the {what} secret holds no text")))
    }

    pub async fn key(&self) -> Result<&CredentialKey, StoreError> {
        self.key
            .get_or_try_init(|| async {
                let arn = self
                    .key_arn
                    .as_deref()
                    .ok_or_else(|| StoreError::new("KR_CREDENTIALS_KEY_ARN is not set"))?;
                let text = self.secret_text(arn, "credentials key").await?;
                CredentialKey::from_secret(text.as_bytes()).map_err(StoreError::new)
            })
            .await
    }

    /// The configured Google client; `None` when the deployment has no OAuth client
    /// (`KR_GOOGLE_CLIENT_ID` unset).
    pub async fn google(&self) -> Result<Option<&Google>, StoreError> {
        let google = self
            .google
            .get_or_try_init(|| async {
                if let Some(settings) = &self.settings {
                    return Google::new(settings.clone())
                        .map(Some)
                        .map_err(StoreError::new);
                }
                let secret = match &self.client_secret_arn {
                    Some(arn) => Some(client_secret(
                        &self.secret_text(arn, "Google client").await?,
                    )),
                    None => None,
                };
                GoogleSettings::from_env(secret)
                    .map(|settings| Google::new(settings).map_err(StoreError::new))
                    .transpose()
            })
            .await?;
        Ok(google.as_ref())
    }
}

/// The secret as stored: `{"clientSecret": "…"}` (as the README asks), or the bare text.
fn client_secret(text: &str) -> String {
    serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|value| value["clientSecret"].as_str().map(str::to_string))
        .unwrap_or_else(|| text.trim().to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_client_secret_is_read_from_json_or_bare_text() {
        assert_eq!(super::client_secret(r#"{"clientSecret":"s3"}"#), "s3");
        assert_eq!(super::client_secret(" s3 \n"), "s3");
    }
}
