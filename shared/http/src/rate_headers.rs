//! The `RateLimit-*` headers (and `Retry-After` on a 429) of every authenticated response.
//! Extractors identify the caller deep inside a handler's call; they leave the caller's rate
//! status in a slot this middleware put on the request, and it writes the headers on the
//! way out, whatever the handler answered.

use std::sync::{Arc, Mutex};

use axum::extract::Request;
use axum::http::header::RETRY_AFTER;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;
use kr_core::service::rate_limits::RateStatus;

/// Where an extractor leaves the caller's rate status for the response.
#[derive(Clone, Default)]
pub struct RateSlot(Arc<Mutex<Option<RateStatus>>>);

impl RateSlot {
    pub fn record(&self, status: RateStatus) {
        *self.0.lock().expect("rate slot") = Some(status);
    }

    fn taken(&self) -> Option<RateStatus> {
        *self.0.lock().expect("rate slot")
    }
}

pub async fn rate_limit_headers(mut request: Request, next: Next) -> Response {
    let slot = RateSlot::default();
    request.extensions_mut().insert(slot.clone());
    let mut response = next.run(request).await;
    if let Some(status) = slot.taken() {
        let headers = response.headers_mut();
        let number = |value: u32| HeaderValue::from(value);
        headers.insert("ratelimit-limit", number(status.limit));
        headers.insert("ratelimit-remaining", number(status.remaining));
        headers.insert("ratelimit-reset", number(status.reset_secs));
        if status.exceeded {
            headers.insert(RETRY_AFTER, number(status.reset_secs));
        }
    }
    response
}
