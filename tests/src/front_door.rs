//! What API Gateway does in front of the functions that `cargo lambda watch` (1.9.2) does not:
//! the event's `sourceIp` is the client's TCP address (cargo-lambda writes `127.0.0.1` for
//! every request), a body that is not UTF-8 reaches the function base64-encoded (cargo-lambda
//! answers such a body with its own 500 when its content type is text or JSON), and a header
//! value that is not UTF-8 reaches it as text, each byte read as the Latin-1 character it is
//! (cargo-lambda answers such a header with its own 500 on any route; the event's headers are
//! JSON strings, so the function sees the characters and answers them itself).
//!
//! The front door (`runtime-proxy --front`) takes the clients' connections and passes each
//! request on with two headers of its own, overwriting any a client sent: the peer address,
//! and a mark when it base64-encoded the body. The runtime side of the same proxy sees every
//! event on its way to a function (`GET …/invocation/next`) and moves them where API Gateway
//! puts them: `requestContext.http.sourceIp` and `isBase64Encoded`. No function reads these
//! headers, and in AWS nothing sets them.

use axum::http::HeaderMap;
use base64::Engine;
use serde_json::Value;

/// The client's address, as the front door saw the connection.
pub const SOURCE_IP_HEADER: &str = "x-kr-local-source-ip";
/// Present when the front door base64-encoded the body.
pub const BASE64_BODY_HEADER: &str = "x-kr-local-body-base64";

/// Whether cargo-lambda would read a body with these headers as text (and fail on bytes that
/// are not UTF-8): no content type, `text/*` or `application/json*`.
fn read_as_text(headers: &HeaderMap) -> bool {
    match headers.get("content-type") {
        None => true,
        Some(value) => {
            let value = value.to_str().unwrap_or_default();
            value.starts_with("text/") || value.starts_with("application/json")
        }
    }
}

/// A request on its way in: the client's own marks removed, the peer address set, and a body
/// cargo-lambda cannot take as text encoded as API Gateway would.
pub fn admit_request(headers: &mut HeaderMap, body: Vec<u8>, peer: std::net::IpAddr) -> Vec<u8> {
    for value in headers.values_mut() {
        if std::str::from_utf8(value.as_bytes()).is_err() {
            let text: String = value
                .as_bytes()
                .iter()
                .map(|&byte| char::from(byte))
                .collect();
            // Bytes over 0x7f stay over it in UTF-8, so the value stays a valid header value.
            *value = text
                .parse()
                .expect("Latin-1 text of a header value is a header value");
        }
    }
    headers.remove(SOURCE_IP_HEADER);
    headers.remove(BASE64_BODY_HEADER);
    headers.insert(
        SOURCE_IP_HEADER,
        peer.to_string()
            .parse()
            .expect("an IP address is a header value"),
    );
    if body.is_empty() || !read_as_text(headers) || std::str::from_utf8(&body).is_ok() {
        return body;
    }
    headers.insert(BASE64_BODY_HEADER, "1".parse().expect("a header value"));
    base64::engine::general_purpose::STANDARD
        .encode(body)
        .into_bytes()
}

/// An event on its way to a function: an HTTP API event from the front door gets its source
/// address and body encoding where API Gateway puts them. Anything else is left alone.
pub fn rewrite_event(event: &mut Value) -> bool {
    let Some(headers) = event.get_mut("headers").and_then(Value::as_object_mut) else {
        return false;
    };
    let source = headers.remove(SOURCE_IP_HEADER);
    let encoded = headers.remove(BASE64_BODY_HEADER).is_some();
    if source.is_none() && !encoded {
        return false;
    }
    if let Some(source) = source.as_ref().and_then(Value::as_str) {
        if let Some(http) = event.pointer_mut("/requestContext/http") {
            http["sourceIp"] = Value::String(source.to_string());
        }
    }
    if encoded {
        event["isBase64Encoded"] = Value::Bool(true);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_peer_replaces_whatever_address_a_client_claims() {
        let mut headers = HeaderMap::new();
        headers.insert(SOURCE_IP_HEADER, "10.0.0.1".parse().unwrap());
        headers.insert(BASE64_BODY_HEADER, "1".parse().unwrap());
        let body = admit_request(&mut headers, b"{}".to_vec(), "127.0.0.2".parse().unwrap());
        assert_eq!(body, b"{}");
        assert_eq!(headers[SOURCE_IP_HEADER], "127.0.0.2");
        assert!(headers.get(BASE64_BODY_HEADER).is_none());
    }

    #[test]
    fn only_a_text_body_that_is_not_utf8_is_encoded() {
        let peer = "127.0.0.1".parse().unwrap();
        let mut json = HeaderMap::new();
        json.insert("content-type", "application/json".parse().unwrap());
        let body = admit_request(&mut json, vec![0xff, 0xfe, b'{'], peer);
        assert_eq!(body, b"//57");
        assert!(json.contains_key(BASE64_BODY_HEADER));
        let mut binary = HeaderMap::new();
        binary.insert("content-type", "application/octet-stream".parse().unwrap());
        assert_eq!(admit_request(&mut binary, vec![0xff], peer), vec![0xff]);
        assert!(!binary.contains_key(BASE64_BODY_HEADER));
    }

    #[test]
    fn a_header_value_that_is_not_utf8_is_passed_on_as_its_latin1_text() {
        let mut headers = HeaderMap::new();
        headers.insert(
            "idempotency-key",
            axum::http::HeaderValue::from_bytes(b"\xd7\xf8\x9b").unwrap(),
        );
        headers.insert("accept", "*/*".parse().unwrap());
        admit_request(&mut headers, Vec::new(), "127.0.0.1".parse().unwrap());
        assert_eq!(
            headers["idempotency-key"].as_bytes(),
            "\u{d7}\u{f8}\u{9b}".as_bytes()
        );
        assert_eq!(headers["accept"], "*/*");
    }

    #[test]
    fn the_event_carries_the_address_and_encoding_where_api_gateway_puts_them() {
        let mut event = json!({
            "headers": {"x-kr-local-source-ip": "127.0.0.2", "x-kr-local-body-base64": "1", "accept": "*/*"},
            "requestContext": {"http": {"sourceIp": "127.0.0.1"}},
            "body": "//57",
            "isBase64Encoded": false
        });
        assert!(rewrite_event(&mut event));
        assert_eq!(event["requestContext"]["http"]["sourceIp"], "127.0.0.2");
        assert_eq!(event["isBase64Encoded"], true);
        assert_eq!(event["headers"], json!({"accept": "*/*"}));
        let mut queue_event = json!({"Records": []});
        assert!(!rewrite_event(&mut queue_event));
    }
}
