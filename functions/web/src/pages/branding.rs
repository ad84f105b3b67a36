//! Settings → Branding: the name and logo an agency's shared pages show, with the same rules
//! as `PATCH /api/v1/users/me/branding` and `PUT /api/v1/users/me/branding/logo`. The logo is
//! an ordinary file upload (`multipart/form-data`), so the page works without script.

use axum::extract::{Multipart, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use chrono::Utc;
use kr_core::domain::{BrandName, Logo, MAX_BRAND_NAME_CHARS, MAX_LOGO_BYTES, MAX_LOGO_SIDE};
use kr_core::store::{Branding, User};
use maud::html;
use serde::Deserialize;

use super::settings::settings_nav;
use crate::layout;
use crate::session::{refused_foreign_form, SignedIn};
use crate::WebState;

/// The most bytes a logo form may send: the logo's own limit plus room for the form around
/// it, so a logo just over its limit is refused by the logo's rule with its own message.
pub const LOGO_FORM_BYTES: usize = MAX_LOGO_BYTES + 16 * 1024;

#[derive(Deserialize)]
pub struct NameForm {
    name: Option<String>,
}

fn render(status: StatusCode, user: &User, branding: &Branding, problem: Option<&str>) -> Response {
    let logo_src = branding.logo.as_ref().map(|logo| {
        format!(
            "/settings/branding/logo?v={}",
            logo.updated_at.timestamp_millis()
        )
    });
    layout::page(
        status,
        "Branding",
        Some(user),
        html! {
            (settings_nav("Branding"))
            section.card {
                h1 { "Branding" }
                p.muted { "Pages you share with clients show your agency's name and logo in their header, instead of ours." }
                @if let Some(problem) = problem { p.error role="alert" { (problem) } }
                h2 { "Name" }
                form.inline-form method="post" action="/settings/branding" data-once {
                    label for="brand-name" { "Agency name" }
                    input #brand-name name="name" maxlength=(MAX_BRAND_NAME_CHARS)
                        value=[branding.name.as_deref()] placeholder="Northwind SEO";
                    button.primary type="submit" { "Save name" }
                }
                p.muted { "Leave it empty to show no name." }
                h2 { "Logo" }
                @match (&branding.logo, &logo_src) {
                    (Some(logo), Some(src)) => {
                        p.logo-current {
                            img #current-logo src=(src) alt="Your logo" width=(logo.width) height=(logo.height);
                        }
                        form method="post" action="/settings/branding/logo/delete" data-once {
                            button.danger type="submit" { "Remove logo" }
                        }
                    },
                    _ => p.muted #no-logo { "No logo yet." },
                }
                form method="post" action="/settings/branding/logo" enctype="multipart/form-data" data-once {
                    label for="logo-file" { "Upload a logo" }
                    input #logo-file type="file" name="logo" accept="image/png,image/jpeg,image/webp" required;
                    p.muted { "PNG, JPEG or WebP (no SVG), at most " (MAX_LOGO_BYTES / 1024) " KiB and " (MAX_LOGO_SIDE) " pixels a side. It replaces the current one." }
                    button.primary type="submit" { "Upload logo" }
                }
            }
        },
    )
}

async fn page(
    state: &WebState,
    user: &User,
    status: StatusCode,
    problem: Option<&str>,
) -> Response {
    match state.branding.branding(user.id).await {
        Ok(branding) => render(status, user, &branding, problem),
        Err(err) => layout::internal_error(err),
    }
}

pub async fn show(State(state): State<WebState>, SignedIn(user): SignedIn) -> Response {
    page(&state, &user, StatusCode::OK, None).await
}

pub async fn rename(
    State(state): State<WebState>,
    SignedIn(user): SignedIn,
    headers: HeaderMap,
    Form(form): Form<NameForm>,
) -> Response {
    if let Some(refused) = refused_foreign_form(&headers, &state) {
        return refused;
    }
    let raw = form.name.unwrap_or_default();
    // An empty field is the form's way of removing the name (the API's `null`).
    let name = if raw.trim().is_empty() && raw.chars().count() <= MAX_BRAND_NAME_CHARS {
        None
    } else {
        match BrandName::parse(&raw) {
            Ok(name) => Some(name),
            Err(message) => {
                let problem = format!("The name {message}.");
                return page(&state, &user, StatusCode::BAD_REQUEST, Some(&problem)).await;
            }
        }
    };
    match state.branding.set_brand_name(user.id, name.as_ref()).await {
        Ok(()) => Redirect::to("/settings/branding").into_response(),
        Err(err) => layout::internal_error(err),
    }
}

pub async fn upload_logo(
    State(state): State<WebState>,
    SignedIn(user): SignedIn,
    headers: HeaderMap,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Response {
    if let Some(refused) = refused_foreign_form(&headers, &state) {
        return refused;
    }
    let logo = match read_logo(multipart).await {
        Ok(logo) => logo,
        Err((status, problem)) => return page(&state, &user, status, Some(&problem)).await,
    };
    match state.branding.put_logo(user.id, &logo, Utc::now()).await {
        Ok(()) => Redirect::to("/settings/branding").into_response(),
        Err(err) => layout::internal_error(err),
    }
}

/// The form's `logo` file, checked as the API checks an upload (its declared type is the one
/// the browser gave the file).
async fn read_logo(
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Result<Logo, (StatusCode, String)> {
    let unreadable = || {
        (
            StatusCode::BAD_REQUEST,
            "The form could not be read: choose an image file and send it again.".to_string(),
        )
    };
    let too_large = || {
        (
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("The logo must be at most {} KiB.", MAX_LOGO_BYTES / 1024),
        )
    };
    let mut multipart = multipart.map_err(|_| unreadable())?;
    loop {
        let field = match multipart.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => return Err(unreadable()),
            Err(err) if err.status() == StatusCode::PAYLOAD_TOO_LARGE => return Err(too_large()),
            Err(_) => return Err(unreadable()),
        };
        if field.name() != Some("logo") {
            continue;
        }
        let declared = field.content_type().map(str::to_owned);
        let bytes = match field.bytes().await {
            Ok(bytes) => bytes,
            Err(err) if err.status() == StatusCode::PAYLOAD_TOO_LARGE => return Err(too_large()),
            Err(_) => return Err(unreadable()),
        };
        if bytes.len() > MAX_LOGO_BYTES {
            return Err(too_large());
        }
        return Logo::parse(bytes.to_vec(), declared.as_deref())
            .map_err(|message| (StatusCode::BAD_REQUEST, format!("The logo {message}.")));
    }
}

pub async fn remove_logo(
    State(state): State<WebState>,
    SignedIn(user): SignedIn,
    headers: HeaderMap,
) -> Response {
    if let Some(refused) = refused_foreign_form(&headers, &state) {
        return refused;
    }
    match state.branding.delete_logo(user.id).await {
        Ok(_) => Redirect::to("/settings/branding").into_response(),
        Err(err) => layout::internal_error(err),
    }
}

/// The signed-in account's own logo, for this page (shared pages serve it under their link).
pub async fn logo(State(state): State<WebState>, SignedIn(user): SignedIn) -> Response {
    match state.branding.logo(user.id).await {
        Ok(Some((kind, bytes))) => layout::image_response(kind, bytes),
        Ok(None) => StatusCode::NOT_FOUND.into_response(),
        Err(err) => layout::internal_error(err),
    }
}
