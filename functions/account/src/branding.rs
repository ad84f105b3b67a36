//! `/users/me/branding`: the name and logo an agency's shared pages show.

use axum::body::Body;
use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use chrono::{DateTime, Utc};
use kr_core::domain::{BrandName, Logo, MAX_LOGO_BYTES};
use kr_core::store::Branding;
use kr_http::error::ErrorBody;
use kr_http::extract::{read_body_capped, CurrentUser, JsonBody};
use kr_http::ApiError;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::AccountState;

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LogoView {
    #[schema(example = "image/png")]
    content_type: String,
    width: usize,
    height: usize,
    #[serde(with = "kr_core::time")]
    #[schema(value_type = String, format = DateTime)]
    updated_at: DateTime<Utc>,
}

/// What shared pages show: the name in place of ours, the logo beside it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BrandingView {
    /// `null` when not set (shared pages then show no agency name).
    #[schema(example = "Northwind SEO")]
    name: Option<String>,
    /// `null` when no logo was uploaded.
    logo: Option<LogoView>,
}

#[derive(Serialize, ToSchema)]
pub struct BrandingReply {
    branding: BrandingView,
}

impl From<Branding> for BrandingReply {
    fn from(branding: Branding) -> Self {
        Self {
            branding: BrandingView {
                name: branding.name,
                logo: branding.logo.map(|logo| LogoView {
                    content_type: logo.content_type,
                    width: logo.width,
                    height: logo.height,
                    updated_at: logo.updated_at,
                }),
            },
        }
    }
}

/// The body of `PATCH /users/me/branding`.
#[derive(ToSchema)]
// Only documents the body: the handler reads it, naming the field's errors.
#[allow(dead_code)]
pub struct RenameRequest {
    /// Required: at most 80 characters, not only spaces (leading and trailing ones are trimmed),
    /// no control characters and no invisible format characters (Unicode Cf, such as
    /// right-to-left overrides and zero-width spaces; the zero-width joiner and non-joiner are
    /// taken, as scripts need them); or `null` to remove it. The pattern lists the format
    /// characters of the Basic Multilingual Plane; those beyond it are refused too.
    #[schema(
        min_length = 1,
        max_length = 80,
        pattern = r"^[^\u0000-\u001F\u007F-\u009F\u00AD\u0600-\u0605\u061C\u06DD\u070F\u0890\u0891\u08E2\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]*[^\s\u0000-\u001F\u007F-\u009F\u00AD\u0600-\u0605\u061C\u06DD\u070F\u0890\u0891\u08E2\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB][^\u0000-\u001F\u007F-\u009F\u00AD\u0600-\u0605\u061C\u06DD\u070F\u0890\u0891\u08E2\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]*$",
        example = "Northwind SEO",
        required = true
    )]
    name: Option<String>,
}

async fn reply(
    state: &AccountState,
    principal: kr_http::auth::Principal,
) -> Result<Json<BrandingReply>, ApiError> {
    Ok(Json(
        state.branding.branding(principal.user_id).await?.into(),
    ))
}

/// The account's branding, as its shared pages show it.
#[utoipa::path(
    get,
    path = "/api/v1/users/me/branding",
    tag = "account",
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The branding", body = BrandingReply),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
    )
)]
pub async fn show(
    State(state): State<AccountState>,
    CurrentUser(principal): CurrentUser,
) -> Result<Json<BrandingReply>, ApiError> {
    reply(&state, principal).await
}

/// Sets or removes the name shared pages show.
#[utoipa::path(
    patch,
    path = "/api/v1/users/me/branding",
    tag = "account",
    request_body = RenameRequest,
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The branding", body = BrandingReply),
        (status = 400, description = "`name` missing, empty, too long or not a string", body = ErrorBody),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 403, description = "A cross-origin cookie request", body = ErrorBody),
        (status = 413, description = "Body over 64 KiB", body = ErrorBody),
    )
)]
pub async fn rename(
    State(state): State<AccountState>,
    CurrentUser(principal): CurrentUser,
    body: JsonBody,
) -> Result<Json<BrandingReply>, ApiError> {
    let name = match body.0.get("name") {
        None => return Err(ApiError::field("name", "is required (null removes it)")),
        Some(Value::Null) => None,
        Some(Value::String(raw)) => {
            Some(BrandName::parse(raw).map_err(|message| ApiError::field("name", message))?)
        }
        Some(_) => return Err(ApiError::field("name", "must be a string or null")),
    };
    state
        .branding
        .set_brand_name(principal.user_id, name.as_ref())
        .await?;
    reply(&state, principal).await
}

/// The bytes of an image, as the upload's body.
#[derive(ToSchema)]
#[schema(value_type = String, format = Binary)]
// Only documents the body: the handler reads the bytes themselves.
#[allow(dead_code)]
pub struct LogoBytes(Vec<u8>);

/// Uploads the logo: the image itself as the body, `Content-Type` `image/png`, `image/jpeg` or
/// `image/webp` (no SVG: it can carry script). At most 100 KiB and 2,000 pixels a side, whole
/// (nothing cut off, nothing after the image's end), and of the type declared; anything else
/// is refused with 400 naming `logo`, and over 100 KiB with 413. Replaces any earlier logo.
/// Shared pages serve it from this service's own origin.
#[utoipa::path(
    put,
    path = "/api/v1/users/me/branding/logo",
    tag = "account",
    request_body(
        description = "The image itself",
        content(
            (LogoBytes = "image/png"),
            (LogoBytes = "image/jpeg"),
            (LogoBytes = "image/webp"),
        )
    ),
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "Stored; the branding", body = BrandingReply),
        (status = 400, description = "Not a whole PNG, JPEG or WebP of the declared type, or too many pixels", body = ErrorBody),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 403, description = "A cross-origin cookie request", body = ErrorBody),
        (status = 413, description = "Larger than 100 KiB", body = ErrorBody),
    )
)]
pub async fn upload_logo(
    State(state): State<AccountState>,
    CurrentUser(principal): CurrentUser,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<BrandingReply>, ApiError> {
    let bytes = read_body_capped(&headers, body, MAX_LOGO_BYTES).await?;
    let declared = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok());
    let logo = Logo::parse(bytes.to_vec(), declared)
        .map_err(|message| ApiError::field("logo", message))?;
    state
        .branding
        .put_logo(principal.user_id, &logo, Utc::now())
        .await?;
    reply(&state, principal).await
}

/// Removes the logo.
#[utoipa::path(
    delete,
    path = "/api/v1/users/me/branding/logo",
    tag = "account",
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 204, description = "Removed"),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 403, description = "A cross-origin cookie request", body = ErrorBody),
        (status = 404, description = "No logo was uploaded", body = ErrorBody),
    )
)]
pub async fn delete_logo(
    State(state): State<AccountState>,
    CurrentUser(principal): CurrentUser,
) -> Result<StatusCode, ApiError> {
    if state.branding.delete_logo(principal.user_id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found("Logo"))
    }
}
