//! The network address a request came from, as the gateway saw it: never a header the
//! client could set (`X-Forwarded-For` is the client's word). `None` outside a gateway.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use lambda_http::request::RequestContext;
use std::convert::Infallible;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceAddress(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for SourceAddress {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Infallible> {
        Ok(Self(Self::of(parts)))
    }
}

impl SourceAddress {
    /// The address of a request's parts, for code that is not an extractor.
    pub fn of(parts: &Parts) -> Option<String> {
        parts
            .extensions
            .get::<RequestContext>()
            .and_then(|context| match context {
                RequestContext::ApiGatewayV1(context) => context.identity.source_ip.clone(),
                RequestContext::ApiGatewayV2(context) => context.http.source_ip.clone(),
                _ => None,
            })
            .filter(|address| !address.is_empty())
    }
}
