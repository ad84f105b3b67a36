//! Every 4xx of the API is the contract's JSON error body, also for input no handler expects:
//! path values that are not UTF-8 once percent-decoded, and request bodies that are not UTF-8
//! (in-process and through the Lambda adapter, as API Gateway delivers them).

use kr_http::routes::{Route, ROUTES};
use kr_tests::gateway::function_router;
use kr_tests::harness::{self, Call, Reply};
use serde_json::Value;

/// Path values that percent-decode to bytes that are not UTF-8.
const NOT_UTF8: [&str; 3] = ["%FF", "%C3%28", "abc%80def"];

fn method(route: &Route) -> &'static str {
    route.method.as_http()
}

/// `route.path` with `{param}` segments replaced: `name` by `value`, the others by ids that
/// exist nowhere.
fn concrete(route: &Route, name: &str, value: &str) -> String {
    route
        .path
        .split('/')
        .map(
            |segment| match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                Some(param) if param == name => value.to_string(),
                Some("clusterId") => "no-such-cluster".to_string(),
                Some(_) => uuid::Uuid::new_v4().to_string(),
                None => segment.to_string(),
            },
        )
        .collect::<Vec<_>>()
        .join("/")
}

fn params(route: &Route) -> Vec<&'static str> {
    route
        .path
        .split('/')
        .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
        .collect()
}

fn assert_contract_error(reply: &Reply, what: &str) {
    assert!(
        reply
            .header("content-type")
            .is_some_and(|t| t.starts_with("application/json")),
        "{what}: {} {:?} {}",
        reply.status,
        reply.header("content-type"),
        reply.text
    );
    assert!(reply.json["error"].is_string(), "{what}: {}", reply.text);
    assert!(reply.json["code"].is_string(), "{what}: {}", reply.text);
}

#[tokio::test]
async fn path_values_that_are_not_utf8_get_the_json_404_of_any_unknown_id() {
    let store = harness::store().await;
    let (_, key) = harness::new_user_with_key(&store).await;
    let key = key.expose().to_string();
    let mut checked = 0;
    for route in ROUTES.iter().filter(|route| route.path.contains('{')) {
        let router = function_router(route.function, harness::config(), harness::resources()).await;
        for name in params(route) {
            // What an id that exists nowhere gets: the same status and the same body.
            let unknown = Call::new(method(route), &concrete(route, name, "no-such-id"))
                .api_key(&key)
                .send(&router)
                .await;
            assert_eq!(unknown.status, 404, "{} {}", route.path, unknown.text);
            for value in NOT_UTF8 {
                let path = concrete(route, name, value);
                let reply = Call::new(method(route), &path)
                    .api_key(&key)
                    .send(&router)
                    .await;
                let what = format!("{} {path}", method(route));
                assert_contract_error(&reply, &what);
                assert_eq!(reply.status, 404, "{what}: {}", reply.text);
                assert_eq!(reply.json, unknown.json, "{what}");
                checked += 1;
            }
        }
    }
    assert!(
        checked >= 9 * NOT_UTF8.len(),
        "every path parameter: {checked}"
    );
}

/// The endpoints that read a JSON body, with the bodies tried on each.
fn body_endpoints() -> [&'static str; 3] {
    ["/api/v1/jobs", "/api/v1/auth/login", "/api/v1/api-keys"]
}

fn bodies() -> [Vec<u8>; 3] {
    [
        b"\xff\xfe\x00{".to_vec(),
        b"{\"primaryDomain\": \"\xff.com\", \"email\": \"a\xc3\x28@example.com\", \"password\": \"\xff\", \"name\": \"\x80\"}".to_vec(),
        b"{\"name\": \"ok\"} \xff".to_vec(),
    ]
}

fn assert_body_refused(reply: &Reply, what: &str) {
    assert_contract_error(reply, what);
    assert_eq!(reply.status, 400, "{what}: {}", reply.text);
    assert_eq!(reply.json["code"], "validation_failed", "{what}");
    assert_eq!(
        reply.json["details"]["fields"][0]["field"], "body",
        "{what}"
    );
}

#[tokio::test]
async fn request_bodies_that_are_not_utf8_are_a_400_naming_the_body() {
    let store = harness::store().await;
    let (_, key) = harness::new_user_with_key(&store).await;
    let key = key.expose().to_string();
    for path in body_endpoints() {
        let route = ROUTES.iter().find(|r| r.path == path).unwrap();
        let router = function_router(route.function, harness::config(), harness::resources()).await;
        for body in bodies() {
            let reply = Call::post(path)
                .api_key(&key)
                .header("content-type", "application/json")
                .raw_body(body.clone())
                .send(&router)
                .await;
            assert_body_refused(&reply, &format!("{path} {body:?}"));
        }
    }
}

/// API Gateway (REST) hands a body it does not treat as text to the function base64-encoded;
/// `lambda_http` decodes it, so the router sees the very bytes the client sent.
fn rest_event(path: &str, key: &str, body: &[u8]) -> String {
    use base64::Engine;
    serde_json::json!({
        "resource": path,
        "path": path,
        "httpMethod": "POST",
        "headers": {"content-type": "application/json", "x-api-key": key, "host": "api.example.com"},
        "multiValueHeaders": {},
        "queryStringParameters": null,
        "multiValueQueryStringParameters": null,
        "pathParameters": null,
        "stageVariables": null,
        "requestContext": {
            "accountId": "123456789012",
            "resourceId": "r1",
            "stage": "$default",
            "requestId": "e1",
            "identity": {"sourceIp": "192.0.2.1"},
            "resourcePath": path,
            "httpMethod": "POST",
            "apiId": "a1"
        },
        "body": base64::engine::general_purpose::STANDARD.encode(body),
        "isBase64Encoded": true
    })
    .to_string()
}

#[tokio::test]
async fn through_the_lambda_adapter_too() {
    use tower::ServiceExt;
    let store = harness::store().await;
    let (_, key) = harness::new_user_with_key(&store).await;
    let key = key.expose().to_string();
    for path in body_endpoints() {
        let route = ROUTES.iter().find(|r| r.path == path).unwrap();
        let router = function_router(route.function, harness::config(), harness::resources()).await;
        for body in bodies() {
            let request = lambda_http::request::from_str(&rest_event(path, &key, &body))
                .expect("an API Gateway REST event")
                .map(|body| axum::body::Body::from(body.to_vec()));
            let response = router.clone().oneshot(request).await.unwrap();
            let status = response.status().as_u16();
            let headers = response.headers().clone();
            let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
                .await
                .unwrap();
            let reply = Reply {
                status,
                headers,
                bytes: bytes.to_vec(),
                text: String::from_utf8_lossy(&bytes).into_owned(),
                json: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
            };
            assert_body_refused(&reply, &format!("{path} {body:?}"));
        }
    }
}
