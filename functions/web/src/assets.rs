//! The stylesheet, script and icon, compiled into the binary: every asset is served by us
//! (no CDN, works offline). Their URLs carry a digest of the content, so browsers may keep
//! them for a year and still never run a stale script after a deployment.

use std::sync::OnceLock;

use axum::extract::Path;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

const FILES: [(&str, &str, &str); 3] = [
    (
        "app.css",
        "text/css; charset=utf-8",
        include_str!("assets/app.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("assets/app.js"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_str!("assets/favicon.svg"),
    ),
];

/// FNV-1a over every asset: stable across builds of the same content.
fn version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in FILES.iter().flat_map(|(_, _, body)| body.bytes()) {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
        format!("{hash:016x}")
    })
}

pub fn url(name: &str) -> String {
    format!("/assets/{name}?v={}", version())
}

pub async fn serve(Path(file): Path<String>) -> Response {
    match FILES.iter().find(|(name, _, _)| *name == file) {
        Some((_, content_type, body)) => (
            [
                (CONTENT_TYPE, *content_type),
                (CACHE_CONTROL, "public, max-age=31536000, immutable"),
            ],
            *body,
        )
            .into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}
