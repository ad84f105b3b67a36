//! The dashboard's pages; each handler reads what it shows through the core's use cases and
//! store ports and renders it with maud.

pub mod branding;
pub mod job;
pub mod jobs;
pub mod login;
pub mod new_job;
pub mod repeat;
pub mod search_console;
pub mod settings;
pub mod share;

use axum::http::Uri;
use axum::response::{IntoResponse, Redirect, Response};

use crate::layout;
use crate::session::Visitor;

pub async fn home(Visitor(user): Visitor) -> Redirect {
    Redirect::to(if user.is_some() { "/jobs" } else { "/login" })
}

/// Unknown paths: the contract's JSON 404 under the API prefix (where this function is the
/// catch-all), a friendly page everywhere else.
pub async fn not_found(uri: Uri, Visitor(user): Visitor) -> Response {
    if uri.path().starts_with(kr_http::API_PREFIX) {
        return kr_http::not_found().await.into_response();
    }
    layout::not_found(user.as_ref(), "Page")
}

pub async fn method_not_allowed() -> Response {
    kr_http::method_not_allowed().await.into_response()
}
