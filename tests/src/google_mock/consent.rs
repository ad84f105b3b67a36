//! `GET /o/oauth2/v2/auth`, the consent page, and `POST /o/oauth2/v2/auth/decide`, where its
//! buttons go. The request is checked the way Google checks it (an error page with status 400,
//! naming Google's error code); the page echoes every parameter escaped, as hidden fields of
//! the form, and the decision checks them again before a code is issued.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::header::{CONTENT_TYPE, LOCATION};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::oauth::{well_formed_pkce, CodeRequest};
use super::server::Shared;

pub const SEARCH_CONSOLE_SCOPE: &str = "https://www.googleapis.com/auth/webmasters.readonly";

/// The scopes the mock knows, with the words Google's consent screen uses for them.
const SCOPES: [(&str, &str); 7] = [
    (
        SEARCH_CONSOLE_SCOPE,
        "View Search Console data for your verified sites",
    ),
    (
        "https://www.googleapis.com/auth/webmasters",
        "View and manage Search Console data for your verified sites",
    ),
    ("openid", "Associate you with your personal info on Google"),
    ("email", "See your primary Google Account email address"),
    (
        "profile",
        "See your personal info, including any personal info you've made publicly available",
    ),
    (
        "https://www.googleapis.com/auth/userinfo.email",
        "See your primary Google Account email address",
    ),
    (
        "https://www.googleapis.com/auth/userinfo.profile",
        "See your personal info, including any personal info you've made publicly available",
    ),
];

/// The parameters the page carries over to the decision.
const CARRIED: [&str; 11] = [
    "client_id",
    "redirect_uri",
    "response_type",
    "scope",
    "state",
    "code_challenge",
    "code_challenge_method",
    "access_type",
    "prompt",
    "include_granted_scopes",
    "login_hint",
];

pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
    out
}

/// The pairs of a form body or a query string (none when it cannot be read).
pub fn form_pairs(bytes: &[u8]) -> Vec<(String, String)> {
    serde_urlencoded::from_bytes(bytes).unwrap_or_default()
}

fn param<'a>(params: &'a [(String, String)], name: &str) -> Option<&'a str> {
    params
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// Google's error code and the page's explanation.
type Invalid = (&'static str, String);

/// The request as Google would take it, or why not.
fn check(shared: &Shared, params: &[(String, String)]) -> Result<CodeRequest, Invalid> {
    let get = |name| param(params, name).filter(|v| !v.is_empty());
    let missing = |name: &str| {
        (
            "invalid_request",
            format!("Missing required parameter: {name}"),
        )
    };
    let client_id = get("client_id").ok_or_else(|| missing("client_id"))?;
    if client_id != shared.settings.client_id {
        return Err(("invalid_client", "The OAuth client was not found.".into()));
    }
    let redirect_uri = get("redirect_uri").ok_or_else(|| missing("redirect_uri"))?;
    let registered = reqwest::Url::parse(redirect_uri).ok().filter(|u| {
        matches!(u.scheme(), "http" | "https")
            && matches!(u.host_str(), Some("127.0.0.1" | "localhost"))
            && u.fragment().is_none()
    });
    if registered.is_none() {
        let message = format!(
            "You can't sign in to this app because it doesn't comply with Google's OAuth 2.0 \
             policy. redirect_uri={redirect_uri} (the mock takes http(s)://127.0.0.1 or \
             localhost, any port and path)"
        );
        return Err(("redirect_uri_mismatch", message));
    }
    let response_type = get("response_type").ok_or_else(|| missing("response_type"))?;
    if response_type != "code" {
        let message = format!("Unsupported response_type: {response_type}");
        return Err(("unsupported_response_type", message));
    }
    let scope = get("scope").ok_or_else(|| missing("scope"))?;
    let unknown: Vec<&str> = scope
        .split_whitespace()
        .filter(|s| !SCOPES.iter().any(|(known, _)| known == s))
        .collect();
    if !unknown.is_empty() {
        let message = format!("Some requested scopes were invalid. {{invalid={unknown:?}}}");
        return Err(("invalid_scope", message));
    }
    if !scope.split_whitespace().any(|s| s == SEARCH_CONSOLE_SCOPE) {
        let message = format!("This client must ask for {SEARCH_CONSOLE_SCOPE}.");
        return Err(("invalid_scope", message));
    }
    let challenge = get("code_challenge").ok_or_else(|| missing("code_challenge"))?;
    if get("code_challenge_method") != Some("S256") {
        return Err((
            "invalid_request",
            "Invalid code_challenge_method: use S256.".into(),
        ));
    }
    if !well_formed_pkce(challenge) {
        return Err(("invalid_request", "Invalid code_challenge.".into()));
    }
    let offline = match get("access_type") {
        None | Some("online") => false,
        Some("offline") => true,
        Some(other) => return Err(("invalid_request", format!("Invalid access_type: {other}"))),
    };
    Ok(CodeRequest {
        client_id: client_id.to_owned(),
        redirect_uri: redirect_uri.to_owned(),
        scope: scope.split_whitespace().collect::<Vec<_>>().join(" "),
        code_challenge: challenge.to_owned(),
        offline,
    })
}

fn html(status: StatusCode, body: String) -> Response {
    (status, [(CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
}

fn error_page((code, message): Invalid) -> Response {
    let body = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Error 400 \
         ({code})</title></head><body><main><h1>Access blocked: this app's request is \
         invalid</h1><p id=\"error\">Error 400: {code}</p><p id=\"message\">{}</p></main>\
         </body></html>",
        escape(&message)
    );
    html(StatusCode::BAD_REQUEST, body)
}

pub async fn authorize(State(shared): State<Arc<Shared>>, RawQuery(query): RawQuery) -> Response {
    let params = form_pairs(query.unwrap_or_default().as_bytes());
    if let Err(invalid) = check(&shared, &params) {
        return error_page(invalid);
    }
    shared.inner.lock().unwrap().stats.consent_pages += 1;
    let scope = param(&params, "scope").unwrap_or_default();
    let scopes: String = scope
        .split_whitespace()
        .map(|s| {
            let words = SCOPES.iter().find(|(k, _)| *k == s).map_or("", |(_, w)| *w);
            format!(
                "<li><span>{}</span> <code>{}</code></li>",
                escape(words),
                escape(s)
            )
        })
        .collect();
    let hidden: String = params
        .iter()
        .filter(|(k, _)| CARRIED.contains(&k.as_str()))
        .map(|(k, v)| {
            format!(
                "<input type=\"hidden\" name=\"{}\" value=\"{}\">",
                escape(k),
                escape(v)
            )
        })
        .collect();
    let email = escape(&shared.settings.email);
    let client = escape(param(&params, "client_id").unwrap_or_default());
    let body = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Sign in - Google \
         Accounts (mock)</title></head><body><main><h1>Keyword research wants access to your \
         Google Account</h1><p>Signed in as <strong id=\"account\">{email}</strong></p><p>The \
         app <code id=\"client\">{client}</code> asks to:</p><ul id=\"scopes\">{scopes}</ul>\
         <form method=\"post\" action=\"/o/oauth2/v2/auth/decide\">{hidden}<button \
         type=\"submit\" name=\"decision\" value=\"deny\" id=\"deny\">Deny</button> <button \
         type=\"submit\" name=\"decision\" value=\"allow\" id=\"allow\">Allow</button></form>\
         </main></body></html>"
    );
    html(StatusCode::OK, body)
}

pub async fn decide(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    let params = form_pairs(&body);
    let request = match check(&shared, &params) {
        Ok(request) => request,
        Err(invalid) => return error_page(invalid),
    };
    let Ok(mut target) = reqwest::Url::parse(&request.redirect_uri) else {
        return error_page(("redirect_uri_mismatch", "Unreadable redirect_uri".into()));
    };
    let allow = param(&params, "decision") == Some("allow");
    let state = param(&params, "state");
    let mut inner = shared.inner.lock().unwrap();
    {
        let mut pairs = target.query_pairs_mut();
        if allow {
            let scope = request.scope.clone();
            let code = inner.oauth.issue_code(request, Instant::now());
            inner.stats.consents_allowed += 1;
            inner.stats.codes_issued += 1;
            pairs
                .append_pair("code", &code)
                .append_pair("scope", &scope);
        } else {
            inner.stats.consents_denied += 1;
            pairs.append_pair("error", "access_denied");
        }
        if let Some(state) = state {
            pairs.append_pair("state", state);
        }
    }
    (StatusCode::FOUND, [(LOCATION, target.to_string())]).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn google_consent_escapes_what_it_echoes() {
        assert_eq!(
            escape("<script>\"a\" & 'b'</script>"),
            "&lt;script&gt;&quot;a&quot; &amp; &#x27;b&#x27;&lt;/script&gt;"
        );
    }
}
