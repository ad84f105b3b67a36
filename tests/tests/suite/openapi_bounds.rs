//! The published OpenAPI document and the code agree on what a request may hold: every bound,
//! length, pattern and enum the document gives for a query parameter, a header or a body
//! field is probed at its edges, inside (accepted) and just outside (400 naming the field).
//! schemathesis (`.ci/schemathesis`) fuzzes the same agreement; these are its findings, fixed
//! and kept: `limit` documented from 0 but refused below 1, an empty password or
//! `Idempotency-Key` documented as valid, empty values of typed parameters taken as absent.

use kr_http::routes::{Method, ROUTES};
use kr_tests::gateway::function_router;
use kr_tests::harness::{self, Call, Reply};
use serde_json::{json, Value};

fn document() -> Value {
    serde_json::from_str(kr_locales::OPENAPI_JSON).expect("the served document parses")
}

struct Api {
    key: String,
    job: String,
}

async fn api() -> Api {
    let store = harness::store().await;
    let (_, key) = harness::new_user_with_key(&store).await;
    let key = key.expose().to_string();
    let created = send(
        Call::post("/api/v1/jobs").api_key(&key).json(json!({
            "primaryDomain": "example.com", "languageCode": "en", "locationCode": 2840
        })),
        "/api/v1/jobs",
    )
    .await
    .expect(201);
    let job = created.json["job"]["id"].as_str().unwrap().to_string();
    Api { key, job }
}

/// Sends `call` to the function that serves `path` (a path of the route table).
async fn send(call: Call, path: &str) -> Reply {
    let route = ROUTES.iter().find(|route| route.path == path).unwrap();
    call.send(&function_router(route.function, harness::config(), harness::resources()).await)
        .await
}

fn names_the_field(reply: &Reply, field: &str) -> bool {
    reply.status == 400 && reply.invalid_fields().iter().any(|f| f == field)
}

/// Values just inside and just outside a parameter's schema, as query text.
fn probes(schema: &Value) -> (Vec<String>, Vec<String>) {
    let mut inside = Vec::new();
    let mut outside = vec![String::new(), "x".to_string()];
    if let Some(values) = schema["enum"].as_array() {
        inside.extend(values.iter().map(|v| v.as_str().unwrap().to_string()));
        outside.push("not-one-of-them".into());
        return (inside, outside);
    }
    let integer = schema["type"] == "integer";
    for (bound, step) in [("minimum", -1), ("maximum", 1)] {
        let Some(edge) = schema.get(bound).filter(|b| b.is_number()) else {
            continue;
        };
        if integer {
            let edge = edge
                .as_i64()
                .map(i128::from)
                .unwrap_or_else(|| edge.as_u64().unwrap().into());
            inside.push(edge.to_string());
            outside.push((edge + step).to_string());
        } else {
            let edge = edge.as_f64().unwrap();
            inside.push(edge.to_string());
            outside.push((edge + step as f64 * 0.5).to_string());
        }
    }
    if integer {
        outside.push("1.5".into());
    }
    (inside, outside)
}

#[tokio::test]
async fn every_documented_query_bound_and_enum_is_the_codes() {
    let api = api().await;
    let document = document();
    let mut probed = 0;
    for route in ROUTES.iter().filter(|route| route.method == Method::Get) {
        let operation = &document["paths"][route.path]["get"];
        let path = route
            .path
            .replace("{jobId}", &api.job)
            .replace("{clusterId}", "any-cluster");
        for parameter in operation["parameters"].as_array().into_iter().flatten() {
            if parameter["in"] != "query" {
                continue;
            }
            let name = parameter["name"].as_str().unwrap();
            let schema = match parameter["schema"].get("$ref").and_then(Value::as_str) {
                Some(reference) => document
                    .pointer(reference.trim_start_matches('#'))
                    .unwrap()
                    .clone(),
                None => parameter["schema"].clone(),
            };
            if schema["type"] == "string" && schema.get("enum").is_none() {
                continue; // text: any value is a filter
            }
            let (inside, outside) = probes(&schema);
            for value in inside {
                let query = serde_urlencoded::to_string([(name, &value)]).unwrap();
                let reply = send(
                    Call::get(&format!("{path}?{query}")).api_key(&api.key),
                    route.path,
                )
                .await;
                assert_eq!(reply.status, 200, "{path}?{query}: {}", reply.text);
                probed += 1;
            }
            for value in outside {
                let query = serde_urlencoded::to_string([(name, &value)]).unwrap();
                let reply = send(
                    Call::get(&format!("{path}?{query}")).api_key(&api.key),
                    route.path,
                )
                .await;
                assert!(
                    names_the_field(&reply, name),
                    "{path}?{query}: {} {}",
                    reply.status,
                    reply.text
                );
                probed += 1;
            }
        }
    }
    assert!(probed > 100, "{probed} probes");
}

/// The document's schema of a body property.
fn property(document: &Value, schema: &str, name: &str) -> Value {
    document["components"]["schemas"][schema]["properties"][name].clone()
}

#[tokio::test]
async fn the_idempotency_key_is_1_to_255_printable_characters() {
    let api = api().await;
    let document = document();
    let header = document["paths"]["/api/v1/jobs"]["post"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "Idempotency-Key")
        .unwrap()["schema"]
        .clone();
    assert_eq!(header["type"], "string", "a header is never null: {header}");
    assert_eq!(
        (header["minLength"].as_u64(), header["maxLength"].as_u64()),
        (Some(1), Some(255))
    );
    let create = |key: String| {
        Call::post("/api/v1/jobs")
            .api_key(&api.key)
            .header("idempotency-key", &key)
            .json(
                json!({"primaryDomain": "example.com", "languageCode": "en", "locationCode": 2840}),
            )
    };
    for key in ["k".to_string(), "a b~!".to_string(), "x".repeat(255)] {
        send(create(key), "/api/v1/jobs").await.expect(201);
    }
    let reply = send(create("x".repeat(256)), "/api/v1/jobs").await;
    assert!(names_the_field(&reply, "Idempotency-Key"), "{}", reply.text);
}

#[tokio::test]
async fn sign_in_fields_and_key_names_are_bounded_as_documented() {
    let api = api().await;
    let document = document();
    assert_eq!(
        property(&document, "LoginRequest", "password")["minLength"],
        1
    );
    assert!(property(&document, "LoginRequest", "email")["pattern"].is_string());
    for (body, field) in [
        (
            json!({"email": "someone@example.com", "password": ""}),
            "password",
        ),
        (json!({"email": " \t", "password": "secret"}), "email"),
    ] {
        let reply = send(
            Call::post("/api/v1/auth/login").json(body.clone()),
            "/api/v1/auth/login",
        )
        .await;
        assert!(names_the_field(&reply, field), "{body}: {}", reply.text);
    }
    // The same e-mail with anything in it but white space is a sign-in attempt (401).
    send(
        Call::post("/api/v1/auth/login").json(json!({"email": " x ", "password": " "})),
        "/api/v1/auth/login",
    )
    .await
    .expect(401);

    let name = property(&document, "CreateApiKeyRequest", "name");
    let pattern = name["pattern"].as_str().unwrap();
    let create = |name: String| {
        Call::post("/api/v1/api-keys")
            .api_key(&api.key)
            .json(json!({ "name": name }))
    };
    assert!(
        pattern.starts_with('^') && pattern.ends_with('$'),
        "{pattern}"
    );
    // 1 to 100 characters once trimmed: white space around them is not counted.
    for name in [
        " a ".to_string(),
        "n".repeat(100),
        format!("  {}  ", "n".repeat(100)),
    ] {
        send(create(name), "/api/v1/api-keys").await.expect(201);
    }
    for name in [String::new(), " \u{3000}\t".to_string(), "n".repeat(101)] {
        let reply = send(create(name.clone()), "/api/v1/api-keys").await;
        assert_eq!(reply.status, 400, "{name:?}: {}", reply.text);
    }
}

#[test]
fn the_documented_language_and_location_codes_are_the_lists() {
    let document = document();
    let language = property(&document, "CreateJobRequest", "languageCode");
    let languages: Vec<&str> = language["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let listed: Vec<&str> = kr_core::locales::languages()
        .iter()
        .map(|l| l.language_code.as_str())
        .collect();
    assert_eq!(languages, listed);
    let locations: Vec<u64> = property(&document, "CreateJobRequest", "locationCode")["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let listed: Vec<u64> = kr_core::locales::locations()
        .iter()
        .map(|l| u64::from(l.location_code))
        .collect();
    assert_eq!(locations, listed);
}
