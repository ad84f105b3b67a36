//! Where the data provider's credentials come from: `KR_DATAFORSEO_LOGIN` and
//! `KR_DATAFORSEO_PASSWORD` (the local stack, tests), else the Secrets Manager secret named by
//! `KR_DATAFORSEO_SECRET_ARN` (AWS, so they never sit in plain parameters), else none and
//! jobs use the estimator.

use serde::Deserialize;

pub const LOGIN_VAR: &str = "KR_DATAFORSEO_LOGIN";
pub const PASSWORD_VAR: &str = "KR_DATAFORSEO_PASSWORD";
pub const SECRET_ARN_VAR: &str = "KR_DATAFORSEO_SECRET_ARN";

/// The secret's JSON: `{"login": "...", "password": "..."}`.
#[derive(Deserialize)]
struct SecretCredentials {
    login: String,
    password: String,
}

/// `(login, password)`, or `None` when no provider is configured. The secret is read with a
/// client built from `sdk`, so its endpoint override (the emulator locally) applies.
pub async fn resolve_credentials(
    lookup: impl Fn(&str) -> Option<String>,
    sdk: &aws_config::SdkConfig,
) -> Result<Option<(String, String)>, String> {
    let get = |name: &str| lookup(name).filter(|value| !value.trim().is_empty());
    match (get(LOGIN_VAR), get(PASSWORD_VAR)) {
        (Some(login), Some(password)) => return Ok(Some((login, password))),
        // Half a pair is a mistake; falling back to the secret would hide it.
        (Some(_), None) => return Err(format!("{LOGIN_VAR} is set but {PASSWORD_VAR} is not")),
        (None, Some(_)) => return Err(format!("{PASSWORD_VAR} is set but {LOGIN_VAR} is not")),
        (None, None) => {}
    }
    let Some(arn) = get(SECRET_ARN_VAR) else {
        return Ok(None);
    };
    let secret = aws_sdk_secretsmanager::Client::new(sdk)
        .get_secret_value()
        .secret_id(arn.trim())
        .send()
        .await
        .map_err(|err| {
            format!(
                "reading the DataForSEO secret {arn}: {}",
                aws_sdk_secretsmanager::error::DisplayErrorContext(err)
            )
        })?;
    let text = secret
        .secret_string()
        .ok_or_else(|| format!("the DataForSEO secret {arn} holds no text"))?;
    // The secret's text is never quoted in errors: it is the password.
    let parsed: SecretCredentials = serde_json::from_str(text).map_err(|_| {
        format!(r#"the DataForSEO secret {arn} is not {{"login": "...", "password": "..."}}"#)
    })?;
    if parsed.login.trim().is_empty() || parsed.password.is_empty() {
        return Err(format!(
            "the DataForSEO secret {arn} has an empty login or password"
        ));
    }
    Ok(Some((parsed.login, parsed.password)))
}
