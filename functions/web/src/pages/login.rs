//! Signing in with e-mail and password, and out; the session is the API's own `__session`.

use axum::extract::{Query, State};
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use kr_core::service::account::log_in;
use kr_core::service::rate_limits::{LoginAdmission, LoginThrottle};
use kr_http::auth::{session_cookie, PresentedCredentials};
use kr_http::extract::SourceAddress;
use maud::html;
use serde::Deserialize;

use crate::layout;
use crate::session::{local_path, refused_foreign_form, Visitor};
use crate::WebState;

#[derive(Deserialize, Default)]
pub struct Next {
    next: Option<String>,
}

#[derive(Deserialize)]
pub struct Credentials {
    email: String,
    password: String,
    next: Option<String>,
}

fn login_page(
    status: StatusCode,
    email: &str,
    next: Option<&str>,
    error: Option<&str>,
) -> Response {
    layout::page(
        status,
        "Sign in",
        None,
        html! {
            section.card.narrow {
                h1 { "Sign in" }
                @if let Some(error) = error {
                    p.error role="alert" #login-error { (error) }
                }
                form method="post" action="/login" data-once {
                    @if let Some(next) = next { input type="hidden" name="next" value=(next); }
                    label for="email" { "E-mail" }
                    input #email type="email" name="email" value=(email) autocomplete="username" required autofocus;
                    label for="password" { "Password" }
                    input #password type="password" name="password" autocomplete="current-password" required;
                    button.primary type="submit" { "Sign in" }
                }
                p.muted { "Just looking? " a href="/demo" { "See the demo" } " — a finished job, no account needed." }
            }
        },
    )
}

pub async fn form(Visitor(user): Visitor, Query(next): Query<Next>) -> Response {
    if user.is_some() {
        return Redirect::to(local_path(next.next.as_deref())).into_response();
    }
    login_page(StatusCode::OK, "", next.next.as_deref(), None)
}

pub async fn submit(
    State(state): State<WebState>,
    headers: HeaderMap,
    SourceAddress(address): SourceAddress,
    Form(credentials): Form<Credentials>,
) -> Response {
    if let Some(refused) = refused_foreign_form(&headers, &state) {
        return refused;
    }
    let next = credentials.next.as_deref();
    if credentials.email.trim().is_empty() || credentials.password.is_empty() {
        return login_page(
            StatusCode::BAD_REQUEST,
            &credentials.email,
            next,
            Some("Enter your e-mail address and password."),
        );
    }
    let throttle = LoginThrottle::new(state.counters.as_ref(), &state.config.limits);
    let attempt = match throttle
        .begin(&credentials.email, address.as_deref(), chrono::Utc::now())
        .await
    {
        Ok(LoginAdmission::Admitted(attempt)) => attempt,
        Ok(LoginAdmission::Refused { retry_after_secs }) => {
            let mut page = login_page(
                StatusCode::TOO_MANY_REQUESTS,
                &credentials.email,
                next,
                Some(&format!(
                    "Too many failed sign-ins. Try again in {} minutes.",
                    retry_after_secs.div_ceil(60)
                )),
            );
            page.headers_mut()
                .insert(axum::http::header::RETRY_AFTER, retry_after_secs.into());
            return page;
        }
        Err(err) => return layout::internal_error(err),
    };
    tokio::time::sleep(attempt.delay).await;
    let opened = log_in(
        state.credentials.as_ref(),
        state.sessions.as_ref(),
        &credentials.email,
        &credentials.password,
        state.config.session_ttl,
    )
    .await;
    match opened {
        Ok(Some((token, _))) => {
            if let Err(err) = attempt.succeeded(state.counters.as_ref()).await {
                return layout::internal_error(err);
            }
            (
                [(
                    SET_COOKIE,
                    session_cookie(token.expose(), state.config.session_ttl.as_secs()),
                )],
                Redirect::to(local_path(next)),
            )
                .into_response()
        }
        Ok(None) => {
            attempt.failed();
            login_page(
                StatusCode::UNAUTHORIZED,
                &credentials.email,
                next,
                Some("Wrong e-mail or password."),
            )
        }
        Err(err) => layout::internal_error(err),
    }
}

/// Ends the session server-side, then clears the cookie.
pub async fn logout(State(state): State<WebState>, headers: HeaderMap) -> Response {
    if let Some(refused) = refused_foreign_form(&headers, &state) {
        return refused;
    }
    if let PresentedCredentials::Session(token) = PresentedCredentials::from_headers(&headers) {
        if let Err(err) = state.sessions.delete_session(&token.hash()).await {
            return layout::internal_error(err);
        }
    }
    (
        [(SET_COOKIE, session_cookie("", 0))],
        Redirect::to("/login"),
    )
        .into_response()
}
