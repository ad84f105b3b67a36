//! The tree reads as the architecture (README.md, "Architecture"): `functions/` holds only Lambdas that
//! `template.yaml` deploys, `shared/` holds libraries whose dependencies point down only, no
//! function links another, and only the functions behind the API link the HTTP layer.

use std::collections::BTreeSet;
use std::path::Path;

use kr_tests::template::{workspace_root, Template};

/// The crates of the workspace's own that a manifest depends on (normal dependencies).
fn own_dependencies(manifest: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(manifest)
        .unwrap_or_else(|err| panic!("{}: {err}", manifest.display()));
    let manifest: toml::Value = toml::from_str(&text).unwrap();
    manifest
        .get("dependencies")
        .and_then(toml::Value::as_table)
        .map(|table| {
            table
                .keys()
                .filter(|name| name.starts_with("kr-"))
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

fn crate_dirs(parent: &str) -> Vec<String> {
    let mut dirs: Vec<String> = std::fs::read_dir(workspace_root().join(parent))
        .unwrap()
        .filter_map(|entry| {
            let entry = entry.unwrap();
            entry
                .path()
                .join("Cargo.toml")
                .exists()
                .then(|| entry.file_name().to_string_lossy().into_owned())
        })
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn libraries_depend_only_on_the_layers_below() {
    let allowed = |library: &str| -> BTreeSet<String> {
        match library {
            "core" => BTreeSet::new(),
            // The API's wire shapes: views built from core values, schema mirrors.
            "contract" | "research" | "crawler" | "dataforseo" | "google" => {
                BTreeSet::from(["kr-core".to_string()])
            }
            // Its document's error body names the contract's `FieldError`.
            "http" => BTreeSet::from(["kr-core".to_string(), "kr-contract".to_string()]),
            // The Bedrock persona generator implements the research engine's seam; the Google
            // client is built from the secrets only the adapter reads.
            "aws" => BTreeSet::from(["kr-core", "kr-research", "kr-google"].map(String::from)),
            // The query engine and the brief maker know no HTTP: they refuse with their own
            // errors, and each function says how it tells them. The query engine's pages
            // document their records with the contract's mirrors.
            "query" => BTreeSet::from(["kr-core".to_string(), "kr-contract".to_string()]),
            // Briefs read pages (crawler) and compose them (research).
            "brief-maker" => {
                BTreeSet::from(["kr-core", "kr-research", "kr-crawler"].map(String::from))
            }
            // The API reference reads each error code's HTTP status from the HTTP layer's type.
            "api-reference" => BTreeSet::from(["kr-http".to_string()]),
            other => panic!("shared/{other} is not in the layering; add it here and to the README"),
        }
    };
    for library in crate_dirs("shared") {
        let manifest = workspace_root()
            .join("shared")
            .join(&library)
            .join("Cargo.toml");
        let uses = own_dependencies(&manifest);
        let may = allowed(&library);
        assert!(
            uses.is_subset(&may),
            "shared/{library} uses {uses:?}; it may use only {may:?}"
        );
    }
}

/// kr-core is the domain, not the document: what utoipa derives from (views, request bodies,
/// schema mirrors of the core records) is kr-contract's (issue 47).
#[test]
fn the_core_knows_no_openapi() {
    let manifest = workspace_root().join("shared/core/Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let manifest: toml::Value = toml::from_str(&text).unwrap();
    for table in ["dependencies", "dev-dependencies", "build-dependencies"] {
        let names: Vec<&String> = manifest
            .get(table)
            .and_then(toml::Value::as_table)
            .map(|deps| {
                deps.keys()
                    .filter(|name| name.starts_with("utoipa"))
                    .collect()
            })
            .unwrap_or_default();
        assert!(
            names.is_empty(),
            "shared/core [{table}] uses {names:?}; schemas belong in shared/contract"
        );
    }
}

#[test]
fn functions_are_the_deployed_lambdas_and_link_no_other_function() {
    let template = Template::load_default().unwrap();
    let deployed: BTreeSet<String> = template.function_binaries().unwrap().into_iter().collect();
    let functions: BTreeSet<String> = crate_dirs("functions").into_iter().collect();
    assert_eq!(
        functions, deployed,
        "functions/ holds exactly the Lambdas template.yaml deploys"
    );
    let function_crates: BTreeSet<String> =
        functions.iter().map(|name| format!("kr-{name}")).collect();
    for function in &functions {
        let manifest = workspace_root()
            .join("functions")
            .join(function)
            .join("Cargo.toml");
        let linked: Vec<String> = own_dependencies(&manifest)
            .intersection(&function_crates)
            .cloned()
            .collect();
        assert!(
            linked.is_empty(),
            "functions/{function} links other functions: {linked:?}"
        );
        assert!(
            workspace_root()
                .join("functions")
                .join(function)
                .join("src/main.rs")
                .exists(),
            "functions/{function} has a main.rs"
        );
    }
}

/// The queue consumers (the pipeline, the notifier) answer no HTTP request, so they link no
/// `kr-http`, not even for one of its types: what they share with the API is in the libraries.
#[test]
fn only_the_functions_behind_the_api_link_the_http_layer() {
    let template = Template::load_default().unwrap();
    let behind_the_api: BTreeSet<String> = template
        .api_routes()
        .unwrap()
        .into_iter()
        .map(|route| route.binary)
        .collect();
    let consumers: Vec<String> = crate_dirs("functions")
        .into_iter()
        .filter(|function| !behind_the_api.contains(function))
        .collect();
    assert!(
        ["notifier", "pipeline"]
            .map(String::from)
            .iter()
            .all(|f| consumers.contains(f)),
        "the queue consumers are no API route's: {consumers:?}"
    );
    for function in &consumers {
        let manifest = workspace_root()
            .join("functions")
            .join(function)
            .join("Cargo.toml");
        assert!(
            !own_dependencies(&manifest).contains("kr-http"),
            "functions/{function} answers no HTTP request but links kr-http"
        );
    }
}
