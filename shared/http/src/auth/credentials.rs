use axum::http::header::{AUTHORIZATION, COOKIE};
use axum::http::{HeaderMap, HeaderValue};

use kr_core::domain::{ApiKeySecret, SessionToken};

pub const SESSION_COOKIE: &str = "__session";

/// The `Set-Cookie` value that opens (or, with an empty value and age 0, clears) a session:
/// never readable by scripts, only over HTTPS (and loopback), not sent on cross-site POSTs.
pub fn session_cookie(value: &str, max_age_secs: u64) -> HeaderValue {
    let cookie = format!(
        "{SESSION_COOKIE}={value}; HttpOnly; Secure; SameSite=Lax; Path=/; Max-Age={max_age_secs}"
    );
    HeaderValue::from_str(&cookie).expect("session tokens are URL-safe")
}
const API_KEY_HEADER: &str = "x-api-key";

/// The credentials a request carries, before any lookup.
#[derive(Debug)]
pub enum PresentedCredentials {
    None,
    /// Something was sent but cannot be a credential of ours (wrong shape, two different keys).
    Malformed,
    ApiKey(ApiKeySecret),
    Session(SessionToken),
}

impl PresentedCredentials {
    /// An API key in either header wins over a cookie: scripts that send a key mean it, and
    /// a bad key must answer 401 even from a browser that also holds a session.
    pub fn from_headers(headers: &HeaderMap) -> Self {
        let bearer = headers
            .get_all(AUTHORIZATION)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .map(|value| {
                let value = value.trim();
                match value.split_once(' ') {
                    Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") => {
                        token.trim().to_string()
                    }
                    _ => value.to_string(),
                }
            });
        let header_key = headers
            .get_all(API_KEY_HEADER)
            .iter()
            .map(|value| value.to_str().unwrap_or("").trim().to_string());
        let mut keys: Vec<String> = bearer.chain(header_key).collect();
        keys.dedup();
        match keys.as_slice() {
            [] => {}
            [only] => return ApiKeySecret::parse(only).map_or(Self::Malformed, Self::ApiKey),
            _ => return Self::Malformed,
        }
        match session_cookie_value(headers) {
            Some(value) => SessionToken::parse(&value).map_or(Self::Malformed, Self::Session),
            None => Self::None,
        }
    }
}

fn session_cookie_value(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, value)| value.trim_matches('"').to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn either_header_carries_a_key() {
        let key = ApiKeySecret::generate();
        for map in [
            headers(&[("authorization", &format!("Bearer {}", key.expose()))]),
            headers(&[("x-api-key", key.expose())]),
            headers(&[
                ("authorization", &format!("bearer {}", key.expose())),
                ("x-api-key", key.expose()),
            ]),
        ] {
            assert!(matches!(
                PresentedCredentials::from_headers(&map),
                PresentedCredentials::ApiKey(_)
            ));
        }
    }

    #[test]
    fn two_different_keys_are_refused() {
        let (a, b) = (ApiKeySecret::generate(), ApiKeySecret::generate());
        let map = headers(&[
            ("authorization", &format!("Bearer {}", a.expose())),
            ("x-api-key", b.expose()),
        ]);
        assert!(matches!(
            PresentedCredentials::from_headers(&map),
            PresentedCredentials::Malformed
        ));
    }

    #[test]
    fn cookie_is_used_only_without_a_key() {
        let token = SessionToken::generate();
        let map = headers(&[(
            "cookie",
            &format!("theme=dark; __session={}", token.expose()),
        )]);
        assert!(matches!(
            PresentedCredentials::from_headers(&map),
            PresentedCredentials::Session(_)
        ));
        let map = headers(&[
            ("cookie", &format!("__session={}", token.expose())),
            ("x-api-key", "kr_bad"),
        ]);
        assert!(matches!(
            PresentedCredentials::from_headers(&map),
            PresentedCredentials::Malformed
        ));
    }

    #[test]
    fn nothing_is_anonymous() {
        assert!(matches!(
            PresentedCredentials::from_headers(&HeaderMap::new()),
            PresentedCredentials::None
        ));
    }
}
