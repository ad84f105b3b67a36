//! Google for the keyword research service: the OAuth 2.0 flow an account connects Search
//! Console with, and the Search Console API a job imports its measured searches from. Both
//! behind kr-core's ports (`service::search_console`), so the use cases and their tests never
//! see HTTP; the endpoints are configuration, so the local mock (`devstack serve-google`)
//! can stand in.

mod api;
mod oauth;
pub mod search_analytics;
mod settings;

pub use api::RetryPolicy;
pub use oauth::Google;
pub use settings::{GoogleSettings, SCOPE};
