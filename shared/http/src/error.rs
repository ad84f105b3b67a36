//! The one error type of the API. Every failure a handler can meet becomes an [`ApiError`],
//! which renders the contract's body: `{"error", "code", "details"?}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::{json, Value};
use utoipa::ToSchema;

pub use kr_core::validation::FieldError;

/// Machine-readable codes of the contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    ValidationFailed,
    Unauthorized,
    InsufficientCredits,
    DomainLimitReached,
    Forbidden,
    NotFound,
    MethodNotAllowed,
    JobNotReady,
    PayloadTooLarge,
    /// The body is not declared as JSON where only JSON is taken (sign-in).
    UnsupportedMediaType,
    RateLimited,
    /// A service we depend on (Google) is not configured here or did not answer.
    UpstreamUnavailable,
    Internal,
}

impl ErrorCode {
    pub fn status(self) -> StatusCode {
        match self {
            Self::ValidationFailed => StatusCode::BAD_REQUEST,
            Self::Unauthorized => StatusCode::UNAUTHORIZED,
            Self::InsufficientCredits => StatusCode::PAYMENT_REQUIRED,
            Self::DomainLimitReached | Self::Forbidden => StatusCode::FORBIDDEN,
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::JobNotReady => StatusCode::CONFLICT,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            Self::UpstreamUnavailable => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// The body of every error response.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// A sentence for humans.
    pub error: String,
    pub code: ErrorCode,
    /// For `validation_failed`: `{"fields": [{"field", "message"}]}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<Value>,
}

#[derive(Debug)]
pub struct ApiError {
    pub code: ErrorCode,
    pub message: String,
    pub details: Option<Value>,
}

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            details: None,
        }
    }

    pub fn validation(fields: Vec<FieldError>) -> Self {
        let message = match fields.as_slice() {
            [only] => only.to_string(),
            _ => "The request is invalid.".to_string(),
        };
        Self {
            code: ErrorCode::ValidationFailed,
            message,
            details: Some(json!({ "fields": fields })),
        }
    }

    pub fn field(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::validation(vec![FieldError::new(field, message)])
    }

    pub fn unauthorized() -> Self {
        Self::new(
            ErrorCode::Unauthorized,
            "A valid session or API key is required.",
        )
    }

    pub fn not_found(what: &str) -> Self {
        Self::new(ErrorCode::NotFound, format!("{what} not found."))
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Forbidden, message)
    }

    /// Logs the cause for operators; the client only learns that something went wrong.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(%cause, "internal error");
        Self::new(
            ErrorCode::Internal,
            "Something went wrong on our side. Please try again.",
        )
    }

    pub fn status(&self) -> StatusCode {
        self.code.status()
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}: {}", self.code, self.message)
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let body = ErrorBody {
            error: self.message,
            code: self.code,
            details: self.details,
        };
        (status, axum::Json(body)).into_response()
    }
}

impl From<kr_core::service::jobs::CreateJobError> for ApiError {
    fn from(err: kr_core::service::jobs::CreateJobError) -> Self {
        use kr_core::service::jobs::CreateJobError;
        match err {
            CreateJobError::InsufficientCredits => Self::new(
                ErrorCode::InsufficientCredits,
                "No runs left on this account; each job needs one.",
            ),
            CreateJobError::DomainLimitReached => Self::new(
                ErrorCode::DomainLimitReached,
                "This primary domain would exceed the account's domain allowance.",
            ),
            CreateJobError::IdempotencyKeyReused => Self::field(
                "Idempotency-Key",
                "was already used with a different request",
            ),
            CreateJobError::Store(err) => err.into(),
        }
    }
}

impl From<kr_core::service::share_links::ShareError> for ApiError {
    fn from(err: kr_core::service::share_links::ShareError) -> Self {
        use kr_core::service::share_links::{ShareError, MAX_LIVE_SHARE_LINKS};
        match err {
            ShareError::NoSuchJob => Self::not_found("Job"),
            ShareError::NotCompleted => Self::new(
                ErrorCode::JobNotReady,
                "Only a completed job can be shared.",
            ),
            ShareError::TooManyLinks => Self::forbidden(format!(
                "A job has at most {MAX_LIVE_SHARE_LINKS} live share links; revoke one to create another."
            )),
            ShareError::Store(err) => err.into(),
        }
    }
}

/// One invalid input (a query parameter, a field of the body): 400, naming it.
impl From<FieldError> for ApiError {
    fn from(err: FieldError) -> Self {
        Self::validation(vec![err])
    }
}

impl From<kr_core::store::StoreError> for ApiError {
    fn from(err: kr_core::store::StoreError) -> Self {
        Self::internal(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_error_names_the_field() {
        let err = ApiError::field("locationCode", "must be an integer");
        assert_eq!(err.status(), StatusCode::BAD_REQUEST);
        let body = serde_json::to_value(ErrorBody {
            error: err.message.clone(),
            code: err.code,
            details: err.details.clone(),
        })
        .unwrap();
        assert_eq!(body["code"], "validation_failed");
        assert_eq!(body["details"]["fields"][0]["field"], "locationCode");
    }

    #[test]
    fn internal_error_hides_the_cause() {
        let err = ApiError::internal("ddb: ConditionalCheckFailed on table secret-table");
        assert!(!err.message.contains("secret-table"));
        assert_eq!(err.status(), StatusCode::INTERNAL_SERVER_ERROR);
    }
}
