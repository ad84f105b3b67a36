//! template.yaml, the local router of `cargo lambda watch` and the OpenAPI document must
//! describe the same endpoints, each served by the same function; and the template must
//! pass SAM's and cfn-lint's checks.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use kr_tests::template::{workspace_root, Template};
use utoipa::openapi::OpenApi;

/// The catch-all that stands in, locally, for API Gateway's JSON 404 on unknown paths.
const LOCAL_CATCH_ALL: &str = "/{*path}";

fn local_router() -> BTreeMap<String, String> {
    let manifest: toml::Value =
        toml::from_str(&std::fs::read_to_string(workspace_root().join("Cargo.toml")).unwrap())
            .unwrap();
    let router = manifest["workspace"]["metadata"]["lambda"]["watch"]["router"]
        .as_table()
        .expect("a watch router");
    router
        .iter()
        .filter(|(path, _)| path.as_str() != LOCAL_CATCH_ALL)
        .map(|(path, function)| {
            (
                path.clone(),
                function
                    .as_str()
                    .expect("one function per path")
                    .to_string(),
            )
        })
        .collect()
}

fn paths(document: &OpenApi) -> BTreeSet<String> {
    document.paths.paths.keys().cloned().collect()
}

fn function_documents() -> BTreeMap<&'static str, OpenApi> {
    BTreeMap::from([
        ("account", kr_account::openapi()),
        ("jobs", kr_jobs::openapi()),
        ("results", kr_results::openapi()),
        ("export", kr_export::openapi()),
        ("locales", kr_locales::openapi()),
    ])
}

#[test]
fn template_local_router_and_openapi_list_the_same_endpoints() {
    let template = Template::load_default().unwrap().routes().unwrap();
    assert_eq!(
        template,
        local_router(),
        "template.yaml and [workspace.metadata.lambda.watch.router] differ"
    );

    let documents = function_documents();
    let served_by: BTreeSet<&str> = template.values().map(String::as_str).collect();
    assert_eq!(
        served_by,
        documents.keys().copied().collect(),
        "every function with routes has a document here"
    );
    for (function, document) in &documents {
        let routed: BTreeSet<String> = template
            .iter()
            .filter(|(_, f)| f == function)
            .map(|(p, _)| p.clone())
            .collect();
        assert_eq!(paths(document), routed, "paths of function {function}");
    }
    let all: BTreeSet<String> = template.keys().cloned().collect();
    assert_eq!(
        paths(kr_locales::full_openapi()),
        all,
        "the published document lists every routed path"
    );
}

#[test]
fn the_published_document_is_openapi_3_1_version_0_1_0_with_the_security_schemes() {
    let document = serde_json::to_value(kr_locales::full_openapi()).unwrap();
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
    for stage in kr_shared::domain::Stage::ALL {
        assert!(
            stages.contains(stage.as_str()),
            "stage {} is documented",
            stage.as_str()
        );
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
