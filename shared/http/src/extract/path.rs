use axum::extract::{FromRequestParts, MatchedPath};
use axum::http::request::Parts;
use percent_encoding::percent_decode_str;

use crate::ApiError;

/// The values of a route's `{param}` segments, in order, percent-decoded.
///
/// Unlike axum's `Path`, which refuses a value that does not decode to UTF-8 with a 400 in
/// text/plain, bytes that are not UTF-8 become U+FFFD here: such a value names no job, key or
/// cluster, so the handler answers exactly what it answers for any unknown id (the contract's
/// JSON 404). Every path value is a string the handler parses itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathParams<const N: usize>(pub [String; N]);

impl<S: Send + Sync, const N: usize> FromRequestParts<S> for PathParams<N> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let route = MatchedPath::from_request_parts(parts, state)
            .await
            .map_err(ApiError::internal)?;
        let values = values(route.as_str(), parts.uri.path());
        <[String; N]>::try_from(values).map(Self).map_err(|values| {
            ApiError::internal(format!(
                "route {} has {} path parameters, the handler takes {N}",
                route.as_str(),
                values.len()
            ))
        })
    }
}

/// The decoded values of `route`'s `{name}` segments in `path` (a `{*name}` takes the rest).
fn values(route: &str, path: &str) -> Vec<String> {
    let decode = |raw: &str| percent_decode_str(raw).decode_utf8_lossy().into_owned();
    let mut segments = path.split('/');
    let mut found = Vec::new();
    for pattern in route.split('/') {
        if pattern.starts_with("{*") {
            found.push(decode(&segments.by_ref().collect::<Vec<_>>().join("/")));
            break;
        }
        let Some(segment) = segments.next() else {
            break;
        };
        if pattern.starts_with('{') && pattern.ends_with('}') {
            found.push(decode(segment));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::routing::get;
    use axum::Router;
    use tower::ServiceExt;

    #[test]
    fn values_are_decoded_in_order_and_invalid_utf8_is_replaced() {
        assert_eq!(
            values(
                "/api/v1/jobs/{jobId}/clusters/{clusterId}/keywords",
                "/api/v1/jobs/a%20b/clusters/%E2%9C%93/keywords"
            ),
            ["a b", "✓"]
        );
        assert_eq!(
            values("/api/v1/jobs/{jobId}", "/api/v1/jobs/%FF"),
            ["\u{FFFD}"]
        );
        assert_eq!(values("/assets/{*file}", "/assets/a/b%2Ec"), ["a/b.c"]);
        assert!(values("/api/v1/jobs", "/api/v1/jobs").is_empty());
    }

    #[tokio::test]
    async fn a_value_that_is_not_utf8_reaches_the_handler() {
        async fn echo(PathParams([id]): PathParams<1>) -> String {
            id
        }
        let app = Router::new().route("/jobs/{id}", get(echo));
        let request = axum::http::Request::get("/jobs/%FF%41")
            .body(axum::body::Body::empty())
            .unwrap();
        let response = app.oneshot(request).await.unwrap();
        assert_eq!(response.status(), 200);
        let body = axum::body::to_bytes(response.into_body(), 1024)
            .await
            .unwrap();
        assert_eq!(&body[..], "\u{FFFD}A".as_bytes());
    }
}
