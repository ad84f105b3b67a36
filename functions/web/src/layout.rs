//! The page shell every page shares: head, header with the account's balances, main, and the
//! error pages. Everything interpolated is escaped by maud.

use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use kr_core::domain::{ImageType, Plan};
use kr_core::store::User;
use maud::{html, Markup, DOCTYPE};

use crate::assets;

/// What every page is part of, for search results and link previews.
const DESCRIPTION: &str = "Keyword research for a website and its competitors: keywords with \
    search volume, difficulty and opportunity, clusters, a content plan and personas.";

/// A whole page with the given status.
pub fn page(status: StatusCode, title: &str, user: Option<&User>, main: Markup) -> Response {
    document(status, title, None, header(user), main)
}

/// Whose name and logo a shared page shows: the agency's when it set them (the logo served
/// from our own origin), the product's otherwise.
#[derive(Debug, Clone, Copy, Default)]
pub struct SharedBrand<'a> {
    pub name: Option<&'a str>,
    /// Where the logo is served, with its version so it can be cached.
    pub logo_url: Option<&'a str>,
}

/// A page opened through a share link: the job alone, under the agency's or the product's
/// name, with no way into an account, and kept out of search engines (the URL is the only key
/// to it).
pub fn shared(status: StatusCode, title: &str, brand: SharedBrand, main: Markup) -> Response {
    let name = brand.name.unwrap_or("Keyword Research");
    let header = html! {
        header.top {
            span.brand {
                @if let Some(logo) = brand.logo_url { img.brand-logo src=(logo) alt="" height="32"; }
                (name)
            }
        }
    };
    let mut response = document(status, title, Some("noindex, nofollow"), header, main);
    response.headers_mut().insert(
        axum::http::HeaderName::from_static("x-robots-tag"),
        axum::http::HeaderValue::from_static("noindex, nofollow"),
    );
    response
}

fn document(
    status: StatusCode,
    title: &str,
    robots: Option<&str>,
    header: Markup,
    main: Markup,
) -> Response {
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="description" content=(DESCRIPTION);
                @if let Some(robots) = robots { meta name="robots" content=(robots); }
                title { (title) " · Keyword Research" }
                link rel="stylesheet" href=(assets::url("app.css"));
                link rel="icon" href=(assets::url("favicon.svg")) type="image/svg+xml";
                script src=(assets::url("app.js")) defer {}
            }
            body {
                a.skip href="#main" { "Skip to content" }
                (header)
                main #main tabindex="-1" { (main) }
            }
        }
    };
    (status, Html(markup.into_string())).into_response()
}

pub fn ok(title: &str, user: Option<&User>, main: Markup) -> Response {
    page(StatusCode::OK, title, user, main)
}

fn header(user: Option<&User>) -> Markup {
    html! {
        header.top {
            a.brand href=(if user.is_some() { "/jobs" } else { "/" }) { "Keyword Research" }
            @if let Some(user) = user {
                nav aria-label="Main" {
                    a href="/jobs" { "Jobs" }
                    a href="/jobs/new" { "New job" }
                    a href="/api/v1/docs" { "API reference" }
                }
                div.account {
                    span.email { (user.email.as_str()) }
                    span.badge.plan title="Plan" { (plan_name(user.plan)) }
                    span.balance data-balance="runs" {
                        "Runs left " strong { (user.credits_balance) }
                    }
                    span.balance data-balance="domains" {
                        "New domains left " strong { (user.domains_balance) }
                    }
                    a href="/settings/api-keys" { "Settings" }
                    form.inline method="post" action="/logout" {
                        button.link type="submit" { "Sign out" }
                    }
                }
            } @else {
                nav aria-label="Main" {
                    a href="/demo" { "See the demo" }
                    a href="/api/v1/docs" { "API reference" }
                    a href="/login" { "Sign in" }
                }
            }
        }
    }
}

/// A friendly page for what is not there (or not the visitor's: the same answer, so a job's
/// existence never leaks).
pub fn not_found(user: Option<&User>, what: &str) -> Response {
    page(
        StatusCode::NOT_FOUND,
        "Not found",
        user,
        html! {
            section.notice {
                h1 { (what) " not found" }
                p { "It may have been deleted, or it belongs to another account." }
                p { a href="/jobs" { "Back to your jobs" } }
            }
        },
    )
}

pub fn forbidden(message: &str) -> Response {
    page(
        StatusCode::FORBIDDEN,
        "Not allowed",
        None,
        html! { section.notice { h1 { "Not allowed" } p { (message) } } },
    )
}

/// Too many page views in a minute; `Retry-After` says when the next one is taken.
pub fn too_many_requests(retry_after_secs: u32) -> Response {
    let mut response = page(
        StatusCode::TOO_MANY_REQUESTS,
        "Too many requests",
        None,
        html! {
            section.notice {
                h1 { "Too many requests" }
                p { "Please wait " (retry_after_secs) " s, then reload the page." }
            }
        },
    );
    response
        .headers_mut()
        .insert(axum::http::header::RETRY_AFTER, retry_after_secs.into());
    response
}

/// An image we keep (a logo, a site's preview image), its type read from its bytes. Every
/// address it is served at names its version or never changes, so browsers may keep it.
pub fn image_response(kind: ImageType, bytes: Vec<u8>) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind.content_type()),
            (header::CACHE_CONTROL, "private, max-age=86400"),
            (header::CONTENT_DISPOSITION, "inline"),
        ],
        bytes,
    )
        .into_response()
}

/// Logs the cause for operators; the visitor only learns that something went wrong.
pub fn internal_error(cause: impl std::fmt::Display) -> Response {
    kr_http::ApiError::internal(cause);
    page(
        StatusCode::INTERNAL_SERVER_ERROR,
        "Something went wrong",
        None,
        html! {
            section.notice {
                h1 { "Something went wrong on our side" }
                p { "Please try again in a moment." }
            }
        },
    )
}

pub fn plan_name(plan: Plan) -> &'static str {
    match plan {
        Plan::Free => "Free",
        Plan::Pro => "Pro",
        Plan::Agency => "Agency",
    }
}
