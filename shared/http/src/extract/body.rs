use axum::body::Body;
use axum::extract::{FromRequest, Request};
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use axum::http::HeaderMap;
use serde_json::Value;

use crate::error::ErrorCode;
use crate::ApiError;

/// Request bodies larger than this are refused with 413.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// A job request that brings its own keywords (`keywords`, or an uploaded file) may be this
/// large: 10,000 phrases of up to 80 characters.
pub const MAX_KEYWORDS_BODY_BYTES: usize = 1024 * 1024;

/// A JSON object body, size-capped. Handlers parse its fields themselves so every
/// validation error can name the field it is about.
#[derive(Debug)]
pub struct JsonBody(pub serde_json::Map<String, Value>);

fn too_large() -> ApiError {
    too_large_for(MAX_BODY_BYTES)
}

fn too_large_for(limit: usize) -> ApiError {
    ApiError::new(
        ErrorCode::PayloadTooLarge,
        format!("The request body must be at most {} KiB.", limit / 1024),
    )
}

/// The body's bytes, refused with 413 past `limit` (declared or read).
async fn read_capped(request: Request<Body>, limit: usize) -> Result<axum::body::Bytes, ApiError> {
    let (parts, body) = request.into_parts();
    read_body_capped(&parts.headers, body, limit).await
}

/// A body's bytes, refused with 413 past `limit`, declared in `headers` or read.
pub async fn read_body_capped(
    headers: &HeaderMap,
    body: Body,
    limit: usize,
) -> Result<axum::body::Bytes, ApiError> {
    let declared = headers
        .get(CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<usize>().ok());
    if declared.is_some_and(|length| length > limit) {
        return Err(too_large_for(limit));
    }
    axum::body::to_bytes(body, limit)
        .await
        .map_err(|_| too_large_for(limit))
}

fn json_object(bytes: &[u8]) -> Result<serde_json::Map<String, Value>, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::field("body", "a JSON object is required"));
    }
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ApiError::field("body", "must be a JSON object")),
        Err(err) => Err(ApiError::field(
            "body",
            format!("is not valid JSON ({err})"),
        )),
    }
}

/// The JSON body of a job request: 64 KiB like every other, or up to 1 MiB when it carries a
/// `keywords` array, so that requests without one are answered exactly as before.
#[derive(Debug)]
pub struct JobRequestBody(pub JsonBody);

impl<S: Send + Sync> FromRequest<S> for JobRequestBody {
    type Rejection = ApiError;

    async fn from_request(request: Request<Body>, _state: &S) -> Result<Self, Self::Rejection> {
        let bytes = read_capped(request, MAX_KEYWORDS_BODY_BYTES).await?;
        let map = json_object(&bytes);
        let has_keywords = map
            .as_ref()
            .is_ok_and(|map| map.get("keywords").is_some_and(Value::is_array));
        if bytes.len() > MAX_BODY_BYTES && !has_keywords {
            return Err(too_large());
        }
        Ok(Self(JsonBody(map?)))
    }
}

/// An uploaded keyword file: UTF-8 text of up to 1 MiB, sent as `text/plain` (one phrase a
/// line) or `text/csv`.
#[derive(Debug)]
pub struct KeywordFileBody {
    pub text: String,
    pub format: kr_core::domain::KeywordFileFormat,
}

impl<S: Send + Sync> FromRequest<S> for KeywordFileBody {
    type Rejection = ApiError;

    async fn from_request(request: Request<Body>, _state: &S) -> Result<Self, Self::Rejection> {
        let essence = request
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split(';').next())
            .map(|essence| essence.trim().to_ascii_lowercase())
            .unwrap_or_default();
        let format =
            kr_core::domain::KeywordFileFormat::from_media_type(&essence).ok_or_else(|| {
                ApiError::new(
                    ErrorCode::UnsupportedMediaType,
                    "Send the keyword file as text/plain (one phrase a line) or text/csv.",
                )
            })?;
        let bytes = read_capped(request, MAX_KEYWORDS_BODY_BYTES).await?;
        let text = String::from_utf8(bytes.to_vec())
            .map_err(|_| ApiError::field("body", "must be UTF-8 text"))?;
        Ok(Self { text, format })
    }
}

impl<S: Send + Sync> FromRequest<S> for JsonBody {
    type Rejection = ApiError;

    async fn from_request(request: Request<Body>, _state: &S) -> Result<Self, Self::Rejection> {
        let bytes = read_capped(request, MAX_BODY_BYTES).await?;
        json_object(&bytes).map(Self)
    }
}

/// Refuses a body not declared as JSON (`application/json` or `application/*+json`, any
/// parameters). An HTML form cannot send such a type across sites without a CORS preflight,
/// so this is what keeps another site from posting to an endpoint that needs no cookie.
fn require_json_content_type(headers: &HeaderMap) -> Result<(), ApiError> {
    let essence = headers
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .map(|essence| essence.trim().to_ascii_lowercase());
    let json = essence.as_deref().is_some_and(|essence| {
        essence == "application/json"
            || (essence.starts_with("application/") && essence.ends_with("+json"))
    });
    if json {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorCode::UnsupportedMediaType,
            "The request body must be JSON, sent with Content-Type: application/json.",
        ))
    }
}

/// A [`JsonBody`] that must also be declared as JSON: the type is checked before the body
/// is read, so a cross-site form post is refused as such (415), whatever it contains.
#[derive(Debug)]
pub struct DeclaredJsonBody(pub JsonBody);

impl<S: Send + Sync> FromRequest<S> for DeclaredJsonBody {
    type Rejection = ApiError;

    async fn from_request(request: Request<Body>, state: &S) -> Result<Self, Self::Rejection> {
        require_json_content_type(request.headers())?;
        Ok(Self(JsonBody::from_request(request, state).await?))
    }
}

impl JsonBody {
    /// A required string field, trimmed; empty counts as missing.
    pub fn required_str(&self, field: &str) -> Result<&str, ApiError> {
        match self.0.get(field) {
            None | Some(Value::Null) => Err(ApiError::field(field, "is required")),
            Some(Value::String(text)) if text.trim().is_empty() => {
                Err(ApiError::field(field, "must not be empty"))
            }
            Some(Value::String(text)) => Ok(text.trim()),
            Some(_) => Err(ApiError::field(field, "must be a string")),
        }
    }

    pub fn optional_str(&self, field: &str) -> Result<Option<&str>, ApiError> {
        match self.0.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(text)) => Ok(Some(text.trim())),
            Some(_) => Err(ApiError::field(field, "must be a string")),
        }
    }

    pub fn get(&self, field: &str) -> Option<&Value> {
        self.0.get(field).filter(|value| !value.is_null())
    }
}
