//! Settings → Search Console: whether the account is connected to Google Search Console, and
//! the buttons that connect and disconnect it; and the page Google sends the browser back to
//! (the OAuth redirect URI, `/settings/search-console/callback`).
//!
//! The page reads the stored connection and nothing else: the credentials key and Google are
//! the integrations function's alone, so connecting, finishing and disconnecting go through
//! its API (`/api/v1/integrations/search-console`), from `assets/app.js`.

use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use kr_core::domain::PermissionLevel;
use kr_core::store::{SearchConsoleConnection, User};
use maud::{html, Markup};

use super::settings::settings_nav;
use crate::format;
use crate::layout;
use crate::session::SignedIn;
use crate::WebState;

/// The API the buttons call.
const API: &str = "/api/v1/integrations/search-console";
/// The API the callback page posts Google's answer to.
const API_CALLBACK: &str = "/api/v1/integrations/search-console/callback";
/// The API the service-account form puts the key file to.
const API_SERVICE_ACCOUNT: &str = "/api/v1/integrations/search-console/service-account";
/// Where the browser goes once the connection is made.
const CONNECTED: &str = "/settings/search-console?connected=1";
/// The most characters of a query parameter shown back (an `error` from a link).
const MAX_SHOWN_CHARS: usize = 300;

/// The first value of each parameter in `raw`, as text; an unreadable query is an empty one.
fn parameter(raw: Option<&str>, name: &str) -> Option<String> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw?).unwrap_or_default();
    pairs
        .into_iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value)
}

fn shown(text: &str) -> String {
    let text = text.trim();
    if text.chars().count() <= MAX_SHOWN_CHARS {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(MAX_SHOWN_CHARS).collect();
    cut.push('…');
    cut
}

/// What Google lets the account do with a property, in words.
fn permission_words(level: PermissionLevel) -> &'static str {
    match level {
        PermissionLevel::SiteOwner => "Owner",
        PermissionLevel::SiteFullUser => "Full user",
        PermissionLevel::SiteRestrictedUser => "Restricted user",
        PermissionLevel::SiteUnverifiedUser => "Unverified (no data can be read)",
    }
}

/// The explanation and the buttons' error line, shared by both states of the page.
fn script_parts() -> Markup {
    html! {
        p.error role="alert" data-sc-error hidden {}
        noscript { p.notice { "Connecting and disconnecting need JavaScript: turn it on for this site and reload the page." } }
    }
}

/// Whether the connection is a service account's: Google's service accounts' addresses are
/// theirs alone (`…@….gserviceaccount.com`). This page holds no key to open the credential.
fn is_service_account(connection: &SearchConsoleConnection) -> bool {
    connection
        .email
        .to_ascii_lowercase()
        .ends_with(".gserviceaccount.com")
}

/// The form that uploads a service account's JSON key (read and put by `assets/app.js`).
fn service_account_form() -> Markup {
    html! {
        form #sc-service-account data-sc-service-account=(API_SERVICE_ACCOUNT) hidden {
            h2 { "Upload a service-account key" }
            p.muted {
                "Agencies are often given access as a service account. Upload its JSON key file "
                "(Google Cloud console → IAM → Service accounts → Keys), and add the service account's "
                "e-mail as a user of the property in Search Console. The key is stored encrypted and never shown again."
            }
            label for="sc-key-file" { "Service-account key (JSON)" }
            input #sc-key-file type="file" accept="application/json,.json" required;
            button.primary type="submit" { "Upload the key" }
            p.error role="alert" data-sc-key-error hidden {}
        }
    }
}

fn not_connected() -> Markup {
    html! {
        div #sc-not-connected {
            p { strong { "Search Console is not connected." } }
            p {
                "Connecting gives this service " strong { "read-only" } " access to the Search Console properties of a Google account. "
                "A job on a site you have there then reads its measured clicks, impressions and average positions, "
                "so its plan is grounded in how the site really does in Google search, not in estimates alone."
            }
            p.muted { "Nothing is ever changed in Search Console. You can disconnect at any time; access is then revoked at Google." }
            button.primary type="button" data-sc-connect hidden { "Connect Search Console" }
            (script_parts())
            (service_account_form())
        }
    }
}

fn connected(connection: &SearchConsoleConnection) -> Markup {
    html! {
        div #sc-connected {
            @if let Some(reason) = &connection.lapsed {
                p.notice.lapsed #sc-lapsed {
                    strong { "Google refused the grant: " (reason.trim_end_matches('.')) "." } " Jobs run without Search Console data until you connect again. "
                    strong { "Connect again." }
                }
            }
            dl.facts {
                @if is_service_account(connection) {
                    div { dt { "Service account" } dd #sc-email data-kind="serviceAccount" { (connection.email) } }
                } @else {
                    div { dt { "Google account" } dd #sc-email data-kind="oauth" { (connection.email) } }
                }
                div { dt { "Connected" } dd { (format::moment(&connection.connected_at)) } }
                div { dt { "Properties checked" } dd { (format::moment(&connection.checked_at)) } }
            }
            @if is_service_account(connection) {
                p.notice #sc-service-account-hint {
                    "Add this address as a user of the property in Search Console: "
                    code { (connection.email) }
                }
            }
            h2 { "Properties" }
            @if connection.properties.is_empty() {
                p.muted #sc-no-properties { "This Google account has no Search Console properties." }
            } @else {
                div.table-wrap {
                    table #sc-properties {
                        caption.sr-only { "The Search Console properties the Google account sees" }
                        thead { tr { th scope="col" { "Property" } th scope="col" { "Permission" } } }
                        tbody {
                            @for property in &connection.properties {
                                tr data-site-url=(property.site_url) {
                                    th scope="row" { code { (property.site_url) } }
                                    td data-permission=(property.permission_level.as_str()) { (permission_words(property.permission_level)) }
                                }
                            }
                        }
                    }
                }
            }
            p.muted { "Access is read-only. Connecting again replaces this grant; disconnecting revokes it at Google." }
            div.actions {
                button.primary type="button" data-sc-connect hidden { "Reconnect" }
                " "
                button.danger type="button" data-sc-disconnect hidden { "Disconnect" }
            }
            (script_parts())
            (service_account_form())
        }
    }
}

/// `GET /settings/search-console[?connected=1][&error=…]`.
pub async fn show(
    State(state): State<WebState>,
    SignedIn(user): SignedIn,
    RawQuery(raw): RawQuery,
) -> Response {
    let connection = match state.search_console.connection(user.id).await {
        Ok(connection) => connection,
        Err(err) => return layout::internal_error(err),
    };
    let just_connected = parameter(raw.as_deref(), "connected").as_deref() == Some("1");
    let problem = parameter(raw.as_deref(), "error")
        .map(|text| shown(&text))
        .filter(|text| !text.is_empty());
    render(
        &user,
        connection.as_ref(),
        just_connected,
        problem.as_deref(),
    )
}

fn render(
    user: &User,
    connection: Option<&SearchConsoleConnection>,
    just_connected: bool,
    problem: Option<&str>,
) -> Response {
    layout::ok(
        "Search Console",
        Some(user),
        html! {
            (settings_nav("Search Console"))
            section.card data-search-console=(API) {
                h1 { "Search Console" }
                @if let Some(problem) = problem { p.error role="alert" #sc-problem { (problem) } }
                @if just_connected && connection.is_some() {
                    p.success role="status" #sc-just-connected { "Search Console is connected." }
                }
                @match connection {
                    Some(connection) => (connected(connection)),
                    None => (not_connected()),
                }
            }
        },
    )
}

/// `GET /settings/search-console/callback?code=…&state=…` (or `?error=…&state=…`): where
/// Google sends the browser back. The script posts the code and state to the API, which
/// redeems them; this page only carries them.
pub async fn callback(SignedIn(user): SignedIn, RawQuery(raw): RawQuery) -> Response {
    let raw = raw.as_deref();
    let code = parameter(raw, "code").filter(|code| !code.is_empty());
    let flow_state = parameter(raw, "state").filter(|state| !state.is_empty());
    let error = parameter(raw, "error").filter(|error| !error.is_empty());
    let back =
        html! { p { a href="/settings/search-console" { "Back to Search Console settings" } } };
    let (status, body) = match (error, code, flow_state) {
        (Some(error), _, _) if error == "access_denied" => (
            StatusCode::OK,
            html! {
                p #sc-declined { "The connection was declined on Google's consent page, so nothing was connected." }
                (back)
            },
        ),
        (Some(error), _, _) => (
            StatusCode::BAD_REQUEST,
            html! {
                p.error role="alert" #sc-callback-error { "Google did not grant access (" code { (shown(&error)) } "), so nothing was connected." }
                (back)
            },
        ),
        (None, Some(code), Some(flow_state)) => (
            StatusCode::OK,
            html! {
                div #sc-finishing data-sc-callback=(API_CALLBACK) data-code=(code) data-state=(flow_state) data-done=(CONNECTED) {
                    p data-sc-progress { "Finishing the connection…" }
                    p.error role="alert" data-sc-error hidden {}
                    p data-sc-back hidden { a href="/settings/search-console" { "Back to Search Console settings" } }
                    noscript { p.notice { "Finishing the connection needs JavaScript: turn it on for this site and reload this page." } }
                }
            },
        ),
        _ => (
            StatusCode::BAD_REQUEST,
            html! {
                p.error role="alert" #sc-callback-error { "This page is where Google sends you back after you connect, and it came without Google's answer. Start again from the settings." }
                (back)
            },
        ),
    };
    layout::page(
        status,
        "Connecting Search Console",
        Some(&user),
        html! {
            (settings_nav("Search Console"))
            section.card.narrow {
                h1 { "Connecting Search Console" }
                (body)
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_read_leniently() {
        assert_eq!(
            parameter(Some("code=a%2Fb&state=s&code=x"), "code").as_deref(),
            Some("a/b")
        );
        assert_eq!(parameter(Some("state=s"), "code"), None);
        assert_eq!(parameter(None, "code"), None);
    }

    #[test]
    fn long_text_is_cut() {
        let long = "x".repeat(MAX_SHOWN_CHARS + 10);
        assert_eq!(shown(&long).chars().count(), MAX_SHOWN_CHARS + 1);
        assert_eq!(shown("  short "), "short");
    }
}
