//! The route table (`kr_http::routes::ROUTES`) is the one list of endpoints; every other
//! declaration is checked against it here: each function's router and OpenAPI paths, the
//! methods it answers, template.yaml (events, the export's streaming integration and its
//! invoke permission), the local router of `cargo lambda watch`, and the committed
//! `openapi.json` the locales function serves. The template must also pass SAM's and
//! cfn-lint's checks.
//!
//! After changing an endpoint, regenerate the published document with
//! `KR_UPDATE_OPENAPI=1 cargo test -p kr-tests --test suite -- routes_and_template::` and review its diff.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use kr_http::routes::{
    Function, Method, Route, DASHBOARD_FUNCTION, DASHBOARD_PATHS, MCP_FUNCTION, MCP_PATH, ROUTES,
};
use kr_tests::gateway::function_router;
use kr_tests::harness::{self, Call};
use kr_tests::template::{workspace_root, ApiRoute, Template};
use utoipa::openapi::OpenApi;

/// The local router's stand-in for API Gateway's greedy `/{proxy+}`.
const LOCAL_CATCH_ALL: &str = "/{*path}";
const PUBLISHED_DOCUMENT: &str = "functions/locales/openapi.json";

fn routes_of(function: Function) -> impl Iterator<Item = &'static Route> {
    ROUTES
        .iter()
        .filter(move |route| route.function == function)
}

/// Path → binary of the function serving it, from the table.
fn table_paths() -> BTreeMap<String, String> {
    ROUTES
        .iter()
        .map(|route| (route.path.to_string(), route.function.binary().to_string()))
        .collect()
}

/// The table's paths and the dashboard's, as API Gateway routes them.
fn gateway_paths() -> BTreeMap<String, String> {
    let mut paths = table_paths();
    paths.insert(MCP_PATH.to_string(), MCP_FUNCTION.to_string());
    for path in DASHBOARD_PATHS {
        paths.insert(path.to_string(), DASHBOARD_FUNCTION.to_string());
    }
    paths
}

fn function_document(function: Function) -> OpenApi {
    match function {
        Function::Account => kr_account::api().into_openapi(),
        Function::Integrations => kr_integrations::api().into_openapi(),
        Function::Jobs => kr_jobs::api().into_openapi(),
        Function::Results => kr_results::api().into_openapi(),
        Function::Briefs => kr_briefs::api().into_openapi(),
        Function::Export => kr_export::api().into_openapi(),
        Function::Locales => kr_locales::api().into_openapi(),
    }
}

/// The whole API as the code describes it: every function's paths in the shared skeleton.
fn generated_document() -> OpenApi {
    let mut document = kr_http::openapi::base_document();
    for function in Function::ALL {
        document.merge(function_document(function));
    }
    kr_http::openapi::document_rate_limits(&mut document);
    document
}

/// The published form of [`generated_document`]: with the links between operations.
fn generated_json() -> serde_json::Value {
    let mut json = serde_json::to_value(generated_document()).unwrap();
    kr_http::routes::links::document_links(&mut json);
    json
}

/// `(path, method, operationId)` of every operation of a document.
fn operations(document: &OpenApi) -> BTreeSet<(String, String, String)> {
    let json = serde_json::to_value(document).unwrap();
    let mut found = BTreeSet::new();
    for (path, item) in json["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let id = operation["operationId"].as_str().unwrap_or_default();
            found.insert((path.clone(), method.clone(), id.to_string()));
        }
    }
    found
}

#[test]
fn each_function_documents_exactly_its_routes_with_their_handlers() {
    for function in Function::ALL {
        let expected: BTreeSet<(String, String, String)> = routes_of(function)
            .map(|route| {
                let handler = route.handler.rsplit("::").next().unwrap();
                (
                    route.path.to_string(),
                    route.method.as_str().to_string(),
                    handler.to_string(),
                )
            })
            .collect();
        assert_eq!(
            operations(&function_document(function)),
            expected,
            "the routes of function {}",
            function.binary()
        );
    }
}

#[test]
fn handlers_carry_their_full_path_and_live_where_the_table_says() {
    for route in ROUTES {
        let (module, handler) = route.handler.rsplit_once("::").unwrap();
        let file = workspace_root()
            .join("functions")
            .join(route.function.binary())
            .join("src")
            .join(format!("{}.rs", module.replace("::", "/")));
        let source = std::fs::read_to_string(&file)
            .unwrap_or_else(|err| panic!("{}: {err}", file.display()));
        assert!(
            source.contains(&format!("path = \"{}\"", route.path)),
            "{} declares {} in full",
            file.display(),
            route.path
        );
        assert!(
            source.contains(&format!("pub async fn {handler}(")),
            "{} defines {handler}",
            file.display()
        );
    }
}

#[test]
fn the_template_routes_each_path_once_to_its_function() {
    let template = Template::load_default().unwrap().api_routes().unwrap();
    let mut routed = BTreeMap::new();
    for ApiRoute {
        path,
        method,
        binary,
        ..
    } in &template
    {
        // Every method reaches the function, which answers the contract's JSON 405 itself;
        // API Gateway would answer an undeclared method with a 403 of its own.
        assert_eq!(method, "any", "{path} is routed for every method");
        let previous = routed.insert(path.clone(), binary.clone());
        assert!(previous.is_none(), "{path} is routed twice");
    }
    assert_eq!(
        routed,
        gateway_paths(),
        "template.yaml and the route table (plus the dashboard's paths)"
    );
}

#[test]
fn streamed_routes_have_a_streaming_integration_and_an_invoke_permission() {
    let template = Template::load_default().unwrap();
    let streamed: BTreeSet<(String, String)> = template
        .api_routes()
        .unwrap()
        .into_iter()
        .filter(|route| route.streaming)
        .map(|route| (route.path, route.binary))
        .collect();
    let expected: BTreeSet<(String, String)> = ROUTES
        .iter()
        .filter(|route| route.streaming)
        .map(|route| (route.path.to_string(), route.function.binary().to_string()))
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(streamed, expected, "response-streaming integrations");

    let permissions = template.api_invoke_permissions().unwrap();
    for (path, binary) in &expected {
        // `{param}` segments match any value in an execute-api ARN.
        let pattern: String = path
            .split('/')
            .map(|segment| {
                if segment.starts_with('{') {
                    "*"
                } else {
                    segment
                }
            })
            .collect::<Vec<_>>()
            .join("/");
        assert!(
            permissions
                .iter()
                .any(|(function, source)| function == binary
                    && source.ends_with(&format!("}}/*/*{pattern}"))),
            "API Gateway may invoke {binary} for {path}; permissions: {permissions:?}"
        );
    }
}

#[test]
fn the_local_router_routes_each_path_to_its_function() {
    let manifest: toml::Value =
        toml::from_str(&std::fs::read_to_string(workspace_root().join("Cargo.toml")).unwrap())
            .unwrap();
    let router = manifest["workspace"]["metadata"]["lambda"]["watch"]["router"]
        .as_table()
        .expect("a watch router");
    let mut local: BTreeMap<String, String> = router
        .iter()
        .map(|(path, function)| {
            let function = function.as_str().expect("one function per path");
            (path.clone(), function.to_string())
        })
        .collect();
    assert_eq!(
        local.remove(LOCAL_CATCH_ALL).as_deref(),
        Some(DASHBOARD_FUNCTION),
        "every other path goes to the dashboard, as API Gateway's /{{proxy+}} does"
    );
    let mut expected = table_paths();
    expected.insert("/".into(), DASHBOARD_FUNCTION.into());
    expected.insert(MCP_PATH.into(), MCP_FUNCTION.into());
    assert_eq!(
        local, expected,
        "[workspace.metadata.lambda.watch.router] and the route table"
    );
}

#[test]
fn the_published_document_is_the_one_the_code_generates() {
    let path = workspace_root().join(PUBLISHED_DOCUMENT);
    let generated = generated_json();
    if std::env::var_os("KR_UPDATE_OPENAPI").is_some() {
        std::fs::write(
            &path,
            serde_json::to_string_pretty(&generated).unwrap() + "\n",
        )
        .unwrap();
    }
    let published: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert!(
        published == generated,
        "{PUBLISHED_DOCUMENT} is out of date: regenerate it with \
         KR_UPDATE_OPENAPI=1 cargo test -p kr-tests --test suite -- routes_and_template::"
    );
    let routed: BTreeSet<(String, String)> = ROUTES
        .iter()
        .map(|route| (route.path.to_string(), route.method.as_str().to_string()))
        .collect();
    let documented: BTreeSet<(String, String)> = operations(&generated_document())
        .into_iter()
        .map(|(path, method, _)| (path, method))
        .collect();
    assert_eq!(
        documented, routed,
        "the published document lists every route"
    );
}

#[test]
fn the_published_document_is_openapi_3_1_version_0_1_0_with_the_security_schemes() {
    let document: serde_json::Value =
        serde_json::from_str(kr_locales::OPENAPI_JSON).expect("the served document parses");
    assert!(document["openapi"].as_str().unwrap().starts_with("3.1"));
    assert_eq!(document["info"]["version"], "0.1.0");
    let schemes = document["components"]["securitySchemes"]
        .as_object()
        .unwrap();
    assert_eq!(schemes["bearerAuth"]["scheme"], "bearer");
    assert_eq!(schemes["apiKeyHeader"]["name"], "X-API-KEY");
    assert_eq!(schemes["sessionCookie"]["in"], "cookie");
    assert_eq!(schemes["sessionCookie"]["name"], "__session");
    let stages = serde_json::to_string(&document["components"]["schemas"]["Stage"]).unwrap();
    for stage in kr_core::domain::Stage::ALL {
        assert!(
            stages.contains(stage.as_str()),
            "stage {} is documented",
            stage.as_str()
        );
    }
}

/// Every link of the served document leads to an operation of it, and names its target's
/// path parameters; the stateful phase of schemathesis (`.ci/schemathesis`) follows them.
#[test]
fn the_links_of_the_published_document_lead_to_its_operations() {
    let document: serde_json::Value = serde_json::from_str(kr_locales::OPENAPI_JSON).unwrap();
    let mut seen = 0;
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            for (status, response) in operation["responses"].as_object().unwrap() {
                let Some(links) = response.get("links").and_then(|l| l.as_object()) else {
                    continue;
                };
                for (name, link) in links {
                    let at = format!("{method} {path} {status} {name}");
                    let target = link["operationRef"].as_str().expect(&at);
                    let target = document
                        .pointer(target.trim_start_matches('#'))
                        .unwrap_or_else(|| panic!("{at}: {target} is not an operation"));
                    let wanted: BTreeSet<&str> = target["parameters"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter(|p| p["in"] == "path")
                        .filter_map(|p| p["name"].as_str())
                        .collect();
                    let given: BTreeSet<&str> = link["parameters"]
                        .as_object()
                        .unwrap()
                        .keys()
                        .map(String::as_str)
                        .collect();
                    assert_eq!(given, wanted, "{at}");
                    seen += 1;
                }
            }
        }
    }
    assert_eq!(seen, kr_http::routes::links::all().count());
}

fn http_method(method: Method) -> &'static str {
    method.as_http()
}

/// Each function answers the table's methods on its paths with a handler, and any other
/// method with the contract's 405. Sent without credentials, so nothing changes.
#[tokio::test]
async fn each_function_answers_exactly_the_tables_methods() {
    for function in Function::ALL {
        let router = function_router(function, harness::config(), harness::resources()).await;
        let paths: BTreeSet<&str> = routes_of(function).map(|route| route.path).collect();
        for path in paths {
            let concrete = path
                .replace("{jobId}", &uuid::Uuid::new_v4().to_string())
                .replace("{keyId}", &uuid::Uuid::new_v4().to_string())
                .replace("{clusterId}", "c-1");
            let listed: BTreeSet<&str> = routes_of(function)
                .filter(|route| route.path == path)
                .map(|route| http_method(route.method))
                .collect();
            for method in ["GET", "POST", "DELETE", "PUT", "PATCH"] {
                let reply = Call::new(method, &concrete)
                    .json(serde_json::json!({}))
                    .send(&router)
                    .await;
                if listed.contains(method) {
                    assert!(
                        reply.code() != "method_not_allowed"
                            && !reply.text.contains("No endpoint at this path"),
                        "{method} {path} reaches its handler: {} {}",
                        reply.status,
                        reply.text
                    );
                } else {
                    assert_eq!(reply.status, 405, "{method} {path}: {}", reply.text);
                    assert_eq!(reply.code(), "method_not_allowed");
                }
            }
        }
    }
}

fn tool(name: &str) -> Command {
    let bin = std::env::var("KR_TOOLS_BIN")
        .expect("KR_TOOLS_BIN names the tools' venv/bin; run through .ci/test");
    let mut command = Command::new(format!("{bin}/{name}"));
    command
        .current_dir(workspace_root())
        .env("SAM_CLI_TELEMETRY", "0")
        .env("AWS_DEFAULT_REGION", "us-east-1");
    command
}

#[test]
fn sam_validate_lint_passes() {
    let output = tool("sam")
        .args(["validate", "--lint", "--template", "template.yaml"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn cfn_lint_with_the_serverless_rules_passes() {
    let output = tool("cfn-lint")
        .args([
            "--append-rules",
            "cfn_lint_serverless.rules",
            "-t",
            "template.yaml",
        ])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// `callbackUrl` reads the same in the JSON body of `POST /jobs` and in the query of
/// `POST /jobs/import`.
#[test]
fn the_callback_url_is_documented_alike_in_the_body_and_the_import_query() {
    let document = generated_json();
    let body = &document["components"]["schemas"]["CreateJobRequest"]["properties"]["callbackUrl"];
    let query = document["paths"]["/api/v1/jobs/import"]["post"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|parameter| parameter["name"] == "callbackUrl")
        .expect("the import takes callbackUrl");
    for key in ["pattern", "minLength", "maxLength"] {
        assert_eq!(body[key], query["schema"][key], "{key}");
    }
    // Any absolute http(s) URL is accepted: no pattern could say which without calling some
    // accepted URL invalid (tests/README.md, Schemathesis).
    assert!(body["pattern"].is_null());
    assert_eq!(body["maxLength"], 2048);
}

/// Each function states the memory `.ci/bench memory` chose for it (tests/README.md, Memory settings),
/// within what Lambda allows.
#[test]
fn every_function_has_its_own_memory_setting() {
    let template = Template::load_default().unwrap();
    for binary in template.function_binaries().unwrap() {
        let mb = template.function_memory(&binary).unwrap();
        assert!((128..=10_240).contains(&mb), "{binary}: {mb} MB");
    }
    let globals = template.section("Globals").unwrap();
    assert!(
        globals["Function"].get("MemorySize").is_none(),
        "a global MemorySize would stand for a measurement no function had"
    );
}

/// Access logs name each request's route template: a path would write share links' tokens
/// (`/share/{token}`) into the logs.
#[test]
fn access_logs_name_the_route_never_the_path() {
    let template = Template::load_default().unwrap();
    let (_, api) = template
        .resources_of_type("AWS::Serverless::Api")
        .unwrap()
        .into_iter()
        .next()
        .expect("the API");
    let format = api["AccessLogSetting"]["Format"]
        .as_str()
        .expect("an access log format")
        .to_string();
    assert!(format.contains("$context.resourcePath"), "{format}");
    assert!(!format.contains("$context.path"), "{format}");
}

/// A message in a dead-letter queue is work given up: every such queue has an alarm on its
/// visible messages, and the webhooks queue gives up after the receives the notifier counts
/// (its last one logs what was given up).
#[test]
fn every_dead_letter_queue_has_an_alarm_and_the_notifier_knows_the_last_receive() {
    use kr_tests::template::{reference, Reference};
    let template = Template::load_default().unwrap();
    let queues = template.resources_of_type("AWS::SQS::Queue").unwrap();
    let mut dead_letter_queues = BTreeSet::new();
    for (id, queue) in &queues {
        let Some(policy) = queue.get("RedrivePolicy") else {
            continue;
        };
        let Reference::GetAtt { resource, .. } = reference(&policy["deadLetterTargetArn"]).unwrap()
        else {
            panic!("{id}: a dead-letter target by !GetAtt");
        };
        dead_letter_queues.insert(resource);
        if id == "WebhooksQueue" {
            assert_eq!(
                policy["maxReceiveCount"].as_u64(),
                Some(u64::from(kr_notifier::MAX_RECEIVES))
            );
        }
    }
    assert!(dead_letter_queues.contains("WebhooksDeadLetterQueue"));
    let watched: BTreeSet<String> = template
        .resources_of_type("AWS::CloudWatch::Alarm")
        .unwrap()
        .into_iter()
        .filter(|(_, alarm)| {
            alarm["Namespace"].as_str() == Some("AWS/SQS")
                && alarm["MetricName"].as_str() == Some("ApproximateNumberOfMessagesVisible")
                && alarm["Threshold"].as_u64() == Some(0)
                && alarm["ComparisonOperator"].as_str() == Some("GreaterThanThreshold")
        })
        .filter_map(
            |(_, alarm)| match reference(&alarm["Dimensions"][0]["Value"]) {
                Ok(Reference::GetAtt { resource, .. }) => Some(resource),
                _ => None,
            },
        )
        .collect();
    let unwatched: Vec<&String> = dead_letter_queues.difference(&watched).collect();
    assert!(unwatched.is_empty(), "no alarm on {unwatched:?}");
}
