//! What the HTTP functions share: the route table, the one error type and the contract's
//! error body, extractors, authentication, the OpenAPI skeleton and the Lambda entry point.
//! Handlers live in their function's crate and hold HTTP concerns only; the logic they call
//! is `kr-core`'s.

pub mod absolute_url;
pub mod auth;
pub mod error;
pub mod extract;
mod fallback;
pub mod openapi;
pub mod rate_headers;
pub mod routes;
mod serve;

pub use error::ApiError;
pub use fallback::{finish_router, method_not_allowed, not_found};
pub use routes::API_PREFIX;
pub use serve::{router, serve};
