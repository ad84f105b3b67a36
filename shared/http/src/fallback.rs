use axum::Router;

use crate::error::ErrorCode;
use crate::ApiError;

pub async fn not_found() -> ApiError {
    ApiError::new(
        ErrorCode::NotFound,
        "No endpoint at this path. See /api/v1/docs.",
    )
}

pub async fn method_not_allowed() -> ApiError {
    ApiError::new(
        ErrorCode::MethodNotAllowed,
        "This endpoint does not support this method.",
    )
}

/// Unknown paths and wrong methods answer in the contract's error format too, and every
/// authenticated response carries its caller's rate limit.
pub fn finish_router(router: Router) -> Router {
    router
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn(
            crate::rate_headers::rate_limit_headers,
        ))
}
