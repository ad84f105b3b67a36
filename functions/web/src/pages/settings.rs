//! Settings → API keys (and the settings pages' tabs): the same plan rule and key issuing as `POST /api/v1/api-keys`; the
//! secret is shown once, right after it is made.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use kr_core::domain::ApiKeyId;
use kr_core::service::account::{
    issue_api_key, IssueKeyError, MAX_API_KEYS, MAX_API_KEY_NAME_CHARS,
};
use kr_core::store::{ApiKeyRecord, User};
use maud::{html, Markup};
use serde::Deserialize;

use crate::format;
use crate::layout;
use crate::session::{refused_foreign_form, SignedIn};
use crate::WebState;

#[derive(Deserialize)]
pub struct NewKey {
    name: Option<String>,
}

fn key_list(keys: &[ApiKeyRecord]) -> Markup {
    html! {
        @if keys.is_empty() {
            p.muted #no-keys { "No API keys yet." }
        } @else {
            div.table-wrap {
                table.api-keys {
                    caption.sr-only { "Your API keys" }
                    thead { tr { th scope="col" { "Name" } th scope="col" { "Key" } th scope="col" { "Created" } th scope="col" { "Last used" } th scope="col" { span.sr-only { "Actions" } } } }
                    tbody {
                        @for key in keys {
                            tr data-key-id=(key.id) {
                                th scope="row" { (key.name) }
                                td { code { (key.prefix) "…" } }
                                td { (format::moment(&key.created_at)) }
                                td { @match &key.last_used_at { Some(at) => (format::moment(at)), None => "Never" } }
                                td { a.danger href={"/settings/api-keys/" (key.id) "/revoke"} aria-label={"Revoke " (key.name)} { "Revoke" } }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The settings pages' own tabs.
pub fn settings_nav(current: &str) -> Markup {
    const PAGES: [(&str, &str); 3] = [
        ("API keys", "/settings/api-keys"),
        ("Branding", "/settings/branding"),
        ("Search Console", "/settings/search-console"),
    ];
    html! {
        nav.tabs.settings-tabs aria-label="Settings" {
            @for (title, href) in PAGES {
                a href=(href) aria-current=[(title == current).then_some("page")] { (title) }
            }
        }
    }
}

fn render(
    status: StatusCode,
    user: &User,
    keys: &[ApiKeyRecord],
    created: Option<(&str, &str)>,
    problem: Option<&str>,
) -> Response {
    let allowed = user.plan.can_create_api_keys();
    layout::page(
        status,
        "API keys",
        Some(user),
        html! {
            (settings_nav("API keys"))
            section.card {
                h1 { "API keys" }
                p.muted { "Scripts use a key in the " code { "X-API-KEY" } " header or as " code { "Authorization: Bearer …" } ". See the " a href="/api/v1/docs" { "API reference" } "." }
                @if let Some((name, secret)) = created {
                    div.secret role="status" {
                        p { strong { "Your new key “" (name) "”." } " Copy it now: it is shown this once and only its hash is kept." }
                        div.copy {
                            input #new-key type="text" readonly value=(secret) aria-label="The new API key";
                            button type="button" data-copy="#new-key" { "Copy" }
                        }
                    }
                }
                @if let Some(problem) = problem { p.error role="alert" { (problem) } }
                @if allowed {
                    form.inline-form method="post" action="/settings/api-keys" data-once {
                        label for="key-name" { "Name" }
                        input #key-name name="name" maxlength=(MAX_API_KEY_NAME_CHARS) placeholder="Reporting script";
                        button.primary type="submit" { "Create key" }
                    }
                } @else {
                    p.notice #plan-without-keys {
                        "API keys are part of the " strong { "Agency" } " plan. Your plan is "
                        (layout::plan_name(user.plan)) ", so keys cannot be created."
                    }
                }
                (key_list(keys))
            }
        },
    )
}

pub async fn api_keys(State(state): State<WebState>, SignedIn(user): SignedIn) -> Response {
    match state.api_keys.list_api_keys(user.id).await {
        Ok(keys) => render(StatusCode::OK, &user, &keys, None, None),
        Err(err) => layout::internal_error(err),
    }
}

pub async fn create_key(
    State(state): State<WebState>,
    SignedIn(user): SignedIn,
    headers: HeaderMap,
    Form(form): Form<NewKey>,
) -> Response {
    if let Some(refused) = refused_foreign_form(&headers, &state) {
        return refused;
    }
    let name = form
        .name
        .as_deref()
        .map(str::trim)
        .filter(|name| !name.is_empty());
    let issued = issue_api_key(state.users.as_ref(), state.api_keys.as_ref(), user.id, name).await;
    let keys = match state.api_keys.list_api_keys(user.id).await {
        Ok(keys) => keys,
        Err(err) => return layout::internal_error(err),
    };
    match issued {
        Ok((record, secret)) => render(
            StatusCode::CREATED,
            &user,
            &keys,
            Some((&record.name, secret.expose())),
            None,
        ),
        Err(IssueKeyError::BadName) => render(
            StatusCode::BAD_REQUEST,
            &user,
            &keys,
            None,
            Some(&format!(
                "A key's name has 1 to {MAX_API_KEY_NAME_CHARS} characters."
            )),
        ),
        Err(IssueKeyError::PlanWithoutApiKeys) => render(
            StatusCode::FORBIDDEN,
            &user,
            &keys,
            None,
            Some("Your plan does not include API keys."),
        ),
        Err(IssueKeyError::TooManyKeys) => render(
            StatusCode::FORBIDDEN,
            &user,
            &keys,
            None,
            Some(&format!(
                "You have {MAX_API_KEYS} API keys, the most an account can hold. Revoke one to create another."
            )),
        ),
        Err(IssueKeyError::NoSuchUser) => Redirect::to("/login").into_response(),
        Err(IssueKeyError::Store(err)) => layout::internal_error(err),
    }
}

async fn own_key(state: &WebState, user: &User, raw: &str) -> Result<ApiKeyRecord, Response> {
    let not_found = || layout::not_found(Some(user), "API key");
    let id: ApiKeyId = raw.parse().map_err(|_| not_found())?;
    let keys = state
        .api_keys
        .list_api_keys(user.id)
        .await
        .map_err(layout::internal_error)?;
    keys.into_iter()
        .find(|key| key.id == id)
        .ok_or_else(not_found)
}

pub async fn confirm_revoke(
    State(state): State<WebState>,
    SignedIn(user): SignedIn,
    Path(key_id): Path<String>,
) -> Response {
    let key = match own_key(&state, &user, &key_id).await {
        Ok(key) => key,
        Err(page) => return page,
    };
    layout::ok(
        "Revoke API key",
        Some(&user),
        html! {
            section.card.narrow {
                h1 { "Revoke the key “" (key.name) "”?" }
                p { "Scripts using " code { (key.prefix) "…" } " stop working at once. This cannot be undone." }
                form method="post" action={"/settings/api-keys/" (key.id) "/revoke"} data-once {
                    button.danger type="submit" { "Revoke key" }
                    " " a href="/settings/api-keys" { "Cancel" }
                }
            }
        },
    )
}

pub async fn revoke(
    State(state): State<WebState>,
    SignedIn(user): SignedIn,
    headers: HeaderMap,
    Path(key_id): Path<String>,
) -> Response {
    if let Some(refused) = refused_foreign_form(&headers, &state) {
        return refused;
    }
    let Ok(id) = key_id.parse::<ApiKeyId>() else {
        return layout::not_found(Some(&user), "API key");
    };
    match state.api_keys.revoke_api_key(user.id, id).await {
        Ok(true) => Redirect::to("/settings/api-keys").into_response(),
        Ok(false) => layout::not_found(Some(&user), "API key"),
        Err(err) => layout::internal_error(err),
    }
}
