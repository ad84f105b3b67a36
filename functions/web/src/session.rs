//! Who is looking at a page, and the Origin rule for the forms that change something.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use kr_core::store::User;
use kr_http::auth::PresentedCredentials;
use kr_http::extract::{from_foreign_origin, SourceAddress};

use crate::layout;
use crate::WebState;

async fn signed_in_user(parts: &Parts, state: &WebState) -> Result<Option<User>, Response> {
    // Page views count like API calls: a signed-in user's against their plan's limit, a
    // visitor's against their address's, and are refused past it.
    let identified = state
        .auth
        .identify_reader(
            PresentedCredentials::from_headers(&parts.headers),
            SourceAddress::of(parts).as_deref(),
        )
        .await
        .map_err(layout::internal_error)?;
    if let Some(rate) = identified.rate.filter(|rate| rate.exceeded) {
        return Err(layout::too_many_requests(rate.reset_secs));
    }
    Ok(identified.user)
}

/// The signed-in user, if any (the demo job and the sign-in page are for everyone).
pub struct Visitor(pub Option<User>);

impl FromRequestParts<WebState> for Visitor {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &WebState) -> Result<Self, Response> {
        Ok(Self(signed_in_user(parts, state).await?))
    }
}

/// A page for signed-in users only; anyone else is sent to sign in and brought back after.
pub struct SignedIn(pub User);

impl FromRequestParts<WebState> for SignedIn {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &WebState) -> Result<Self, Response> {
        match signed_in_user(parts, state).await? {
            Some(user) => Ok(Self(user)),
            None => {
                let here = parts
                    .uri
                    .path_and_query()
                    .map(|p| p.as_str())
                    .unwrap_or("/");
                let query = serde_urlencoded::to_string([("next", here)]).unwrap_or_default();
                Err(Redirect::to(&format!("/login?{query}")).into_response())
            }
        }
    }
}

/// A form that changes something must come from one of our own pages: the same Origin rule
/// as the API's cookie requests, and the cookie is `SameSite=Lax` besides.
/// `Some(refusal)` for a form sent from another site.
pub fn refused_foreign_form(headers: &HeaderMap, state: &WebState) -> Option<Response> {
    from_foreign_origin(headers, &state.config)
        .then(|| layout::forbidden("This form was sent from another site, so it was not accepted."))
}

/// Where to go after signing in: only a path on this site, never another site.
pub fn local_path(next: Option<&str>) -> &str {
    match next {
        Some(path)
            if path.starts_with('/')
                && !path.starts_with("//")
                && !path.starts_with("/\\")
                && !path.chars().any(char::is_control) =>
        {
            path
        }
        _ => "/jobs",
    }
}

#[cfg(test)]
mod tests {
    use super::local_path;

    #[test]
    fn only_local_paths_are_followed_after_sign_in() {
        assert_eq!(
            local_path(Some("/jobs/1?tab=keywords")),
            "/jobs/1?tab=keywords"
        );
        for hostile in [
            "//evil.example",
            "/\\evil.example",
            "https://evil.example",
            "javascript:alert(1)",
            "/\nx",
        ] {
            assert_eq!(local_path(Some(hostile)), "/jobs", "{hostile:?}");
        }
        assert_eq!(local_path(None), "/jobs");
    }
}
