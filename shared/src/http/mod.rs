//! The axum pieces every function shares: extractors, body and query parsing, fallbacks,
//! the OpenAPI skeleton and the Lambda entry point.

mod body;
mod caller;
mod fallback;
pub mod openapi;
mod query;
mod serve;
mod viewable;

pub use body::JsonBody;
pub use caller::{CurrentUser, Viewer};
pub use fallback::{finish_router, method_not_allowed, not_found};
pub use query::QueryParams;
pub use serve::serve;
pub use viewable::viewable_job;

/// Every endpoint lives below this prefix.
pub const API_PREFIX: &str = "/api/v1";
