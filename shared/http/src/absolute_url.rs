//! URLs handed to a client for later (a share link's), on the host the client reached us at:
//! the API and the dashboard share one origin.

use axum::http::header::HOST;
use axum::http::HeaderMap;

/// `{scheme}://{host}{path}`, or `path` alone when the request named no usable host. The
/// scheme is API Gateway's `X-Forwarded-Proto`; without it, `http` on a loopback host (the
/// local stack) and `https` anywhere else.
pub fn absolute_url(headers: &HeaderMap, path: &str) -> String {
    let host = headers
        .get(HOST)
        .and_then(|value| value.to_str().ok())
        .filter(|host| {
            !host.is_empty()
                && host
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
        });
    let Some(host) = host else {
        return path.to_string();
    };
    let forwarded = headers
        .get("x-forwarded-proto")
        .and_then(|value| value.to_str().ok());
    let scheme = match forwarded {
        Some("http") => "http",
        Some("https") => "https",
        _ if ["127.", "localhost", "[::1]"]
            .iter()
            .any(|loopback| host.starts_with(loopback)) =>
        {
            "http"
        }
        _ => "https",
    };
    format!("{scheme}://{host}{path}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(name, value)| (name.parse().unwrap(), value.parse().unwrap()))
            .collect()
    }

    #[test]
    fn the_host_and_scheme_of_the_request_or_the_path_alone() {
        let path = "/share/abc";
        assert_eq!(
            absolute_url(
                &headers(&[("host", "api.example.com"), ("x-forwarded-proto", "https")]),
                path
            ),
            "https://api.example.com/share/abc"
        );
        assert_eq!(
            absolute_url(&headers(&[("host", "127.0.0.1:3000")]), path),
            "http://127.0.0.1:3000/share/abc"
        );
        assert_eq!(
            absolute_url(&headers(&[("host", "app.example.com")]), path),
            "https://app.example.com/share/abc"
        );
        assert_eq!(
            absolute_url(&headers(&[("host", "evil.com/x?")]), path),
            path
        );
        assert_eq!(absolute_url(&HeaderMap::new(), path), path);
    }
}
