use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use kr_contract::account::ApiKeyView;
use kr_core::domain::ApiKeyId;
use kr_core::service::account::{
    issue_api_key, IssueKeyError, MAX_API_KEYS, MAX_API_KEY_NAME_CHARS,
};
use kr_http::extract::{CurrentUser, JsonBody, PathParams};
use kr_http::ApiError;
use serde::Serialize;
use utoipa::ToSchema;

use crate::AccountState;

// Documents the body and is what parsing it yields, so the two cannot drift.
/// The body of `POST /api-keys`.
#[derive(ToSchema)]
pub struct CreateApiKeyRequest {
    /// A label for the key, 1 to 100 characters once white space around it is trimmed (the
    /// pattern); defaults to "API key".
    #[schema(
        example = "Reporting script",
        pattern = "^[\\t\\n\\u000b\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*[^\\t\\n\\u000b\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000](?:[\\s\\S]{0,98}[^\\t\\n\\u000b\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000])?[\\t\\n\\u000b\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*$"
    )]
    name: Option<String>,
}

impl CreateApiKeyRequest {
    fn parse(body: &JsonBody) -> Result<Self, ApiError> {
        Ok(Self {
            name: body.optional_str("name")?.map(String::from),
        })
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedApiKey {
    api_key: ApiKeyView,
    /// The secret, shown this once. Only its hash is stored.
    #[schema(example = "kr_3q2N…")]
    key: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiKeyList {
    api_keys: Vec<ApiKeyView>,
}

/// Creates an API key (Agency plan). The secret is in the response and nowhere else.
#[utoipa::path(
    post,
    path = "/api/v1/api-keys",
    tag = "account",
    request_body = CreateApiKeyRequest,
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 201, description = "Created", body = CreatedApiKey),
        (status = 400, description = "Invalid name", body = kr_http::error::ErrorBody),
        (status = 401, description = "No valid session or API key", body = kr_http::error::ErrorBody),
        (status = 413, description = "Body over 64 KiB", body = kr_http::error::ErrorBody),
        (status = 403, description = "The plan does not include API keys, or the account holds 50 keys already", body = kr_http::error::ErrorBody),
    )
)]
pub async fn create(
    State(state): State<AccountState>,
    CurrentUser(principal): CurrentUser,
    body: JsonBody,
) -> Result<(StatusCode, Json<CreatedApiKey>), ApiError> {
    let request = CreateApiKeyRequest::parse(&body)?;
    match issue_api_key(
        state.users.as_ref(),
        state.api_keys.as_ref(),
        principal.user_id,
        request.name.as_deref(),
    )
    .await
    {
        Ok((record, secret)) => Ok((
            StatusCode::CREATED,
            Json(CreatedApiKey {
                api_key: ApiKeyView::from(&record),
                key: secret.expose().to_string(),
            }),
        )),
        Err(IssueKeyError::BadName) => Err(ApiError::field(
            "name",
            format!("must be 1 to {MAX_API_KEY_NAME_CHARS} characters"),
        )),
        Err(IssueKeyError::PlanWithoutApiKeys) => Err(ApiError::forbidden(
            "API keys need the Agency plan; see can_create_api_keys on /users/me.",
        )),
        Err(IssueKeyError::TooManyKeys) => Err(ApiError::forbidden(format!(
            "An account holds at most {MAX_API_KEYS} API keys; revoke one to create another."
        ))),
        Err(IssueKeyError::NoSuchUser) => Err(ApiError::unauthorized()),
        Err(IssueKeyError::Store(err)) => Err(err.into()),
    }
}

/// Lists the current user's API keys, newest first, without their secrets.
#[utoipa::path(
    get,
    path = "/api/v1/api-keys",
    tag = "account",
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The keys", body = ApiKeyList),
        (status = 401, description = "No valid session or API key", body = kr_http::error::ErrorBody),
    )
)]
pub async fn list(
    State(state): State<AccountState>,
    CurrentUser(principal): CurrentUser,
) -> Result<Json<ApiKeyList>, ApiError> {
    let keys = state.api_keys.list_api_keys(principal.user_id).await?;
    Ok(Json(ApiKeyList {
        api_keys: keys.iter().map(ApiKeyView::from).collect(),
    }))
}

/// Revokes a key; it stops working at once.
#[utoipa::path(
    delete,
    path = "/api/v1/api-keys/{keyId}",
    tag = "account",
    params(("keyId" = String, Path, description = "The key's id (not the secret)")),
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 204, description = "Revoked"),
        (status = 401, description = "No valid session or API key", body = kr_http::error::ErrorBody),
        (status = 404, description = "No such key for this user", body = kr_http::error::ErrorBody),
    )
)]
pub async fn revoke(
    State(state): State<AccountState>,
    CurrentUser(principal): CurrentUser,
    PathParams([key_id]): PathParams<1>,
) -> Result<StatusCode, ApiError> {
    let key_id: ApiKeyId = key_id.parse().map_err(|_| ApiError::not_found("API key"))?;
    if state
        .api_keys
        .revoke_api_key(principal.user_id, key_id)
        .await?
    {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found("API key"))
    }
}
