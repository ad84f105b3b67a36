use axum::extract::{FromRequestParts, RawQuery};
use axum::http::request::Parts;
use kr_core::query_params::QueryParams;

use crate::ApiError;

/// The request's query parameters ([`QueryParams`]); a repeated parameter is refused with 400,
/// naming it.
#[derive(Debug, Default)]
pub struct Query(pub QueryParams);

impl<S: Send + Sync> FromRequestParts<S> for Query {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let RawQuery(raw) = RawQuery::from_request_parts(parts, state)
            .await
            .map_err(ApiError::internal)?;
        Ok(Self(QueryParams::parse(raw.as_deref().unwrap_or(""))?))
    }
}
