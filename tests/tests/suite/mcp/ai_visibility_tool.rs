//! The `ai_visibility` tool on a job whose dataset and answers are stored as the pipeline
//! leaves them: the same figures as `GET /jobs/{id}/ai-visibility` with each answer's text cut
//! to 500 characters, an output schema that stands alone (every reference resolves) and that
//! the answer follows, `job_changes`' output schema with the AI citations, a job not completed
//! refused as the API refuses it, another account's job out of reach.

use kr_core::dataset::objects;
use kr_core::domain::{JobStatus, Plan};
use kr_core::service::account::issue_api_key;
use kr_mcp::{router, McpState};
use kr_tests::harness::{self, Call};
use serde_json::{json, Map, Value};

use super::{call, connect, failed, ok, serve};
use crate::dashboard_http::ai_visibility_tab::{answers, store_job, OTHER, RIVAL};

/// Every `$ref` in `schema` names one of its `$defs`.
fn references_resolve(schema: &Map<String, Value>) {
    fn walk(value: &Value, defs: &Map<String, Value>) {
        match value {
            Value::Object(map) => {
                if let Some(target) = map.get("$ref").and_then(Value::as_str) {
                    let name = target
                        .strip_prefix("#/$defs/")
                        .unwrap_or_else(|| panic!("{target} points outside the schema"));
                    assert!(defs.contains_key(name), "{name} is not in $defs");
                }
                map.values().for_each(|v| walk(v, defs));
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, defs)),
            _ => {}
        }
    }
    let defs = schema
        .get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    walk(&Value::Object(schema.clone()), &defs);
}

#[tokio::test]
async fn ai_visibility_answers_the_apis_figures_with_answers_cut() {
    let store = harness::store().await;
    let owner = harness::new_user(&store, Plan::Agency, 1, 1).await;
    let job = store_job(owner.id, true).await;
    // A long answer: the tool keeps its first 500 characters.
    let mut document = answers();
    document.answers[1].text = format!("Roast Rivals {}", "long ".repeat(300));
    let results = kr_aws::s3::S3ObjectStore::new(
        harness::clients().await.s3,
        harness::resources().results_bucket,
    );
    kr_core::store::put_json(&results, job.id, &objects::ai_answers(), &document)
        .await
        .unwrap();
    let (_, key) = issue_api_key(store.as_ref(), store.as_ref(), owner.id, None)
        .await
        .unwrap();
    let url = serve(router(
        McpState::from_config(harness::config(), harness::resources()).await,
    ))
    .await;
    let client = connect(&url, key.expose()).await;

    let tools = client.list_all_tools().await.unwrap();
    let tool = tools.iter().find(|t| t.name == "ai_visibility").unwrap();
    assert_eq!(tool.input_schema["required"], json!(["jobId"]));
    let output = tool.output_schema.as_ref().expect("an output schema");
    references_resolve(output);
    for field in ["overviews", "answers", "costUsd"] {
        assert!(output["properties"].get(field).is_some(), "{field}");
    }
    let changes = tools.iter().find(|t| t.name == "job_changes").unwrap();
    let changes_output = changes.output_schema.as_ref().expect("an output schema");
    references_resolve(changes_output);
    for field in [
        "aiCitationsCompared",
        "aiCitationsGained",
        "aiCitationsLost",
    ] {
        assert!(
            changes_output["properties"].get(field).is_some(),
            "{field}: {changes_output:?}"
        );
    }
    let counts = changes_output["properties"]["counts"]["$ref"]
        .as_str()
        .unwrap()
        .trim_start_matches("#/$defs/");
    assert!(changes_output["$defs"][counts]["properties"]
        .get("aiCitationsGained")
        .is_some());

    let id = job.id.to_string();
    let answered = call(&client, "ai_visibility", json!({"jobId": id})).await;
    let visibility = ok(&answered);
    for field in output["required"].as_array().unwrap() {
        assert!(visibility.get(field.as_str().unwrap()).is_some(), "{field}");
    }
    assert_eq!(
        visibility["overviews"],
        json!({"keywords": 4, "withOverview": 3, "citingSite": 1,
               "byCompetitor": {RIVAL: 2, OTHER: 1}})
    );
    assert_eq!(visibility["costUsd"], 0.0123);
    let listed = visibility["answers"].as_array().unwrap();
    assert_eq!(listed.len(), 2);
    assert_eq!(listed[0]["engine"], "chat_gpt");
    assert_eq!(listed[0]["text"], document.answers[0].text, "short: whole");
    let cut = listed[1]["text"].as_str().unwrap();
    assert_eq!(cut.chars().count(), 500, "{cut}");
    assert!(cut.ends_with('…') && cut.starts_with("Roast Rivals long"));
    assert_eq!(
        listed[1]["citedUrls"],
        json!(document.answers[1].cited_urls)
    );

    // The API answers the same, the text whole.
    let app = kr_results::router(
        kr_results::ResultsState::from_config(harness::config(), harness::resources()).await,
    );
    let api = Call::get(&format!("/api/v1/jobs/{id}/ai-visibility"))
        .api_key(key.expose())
        .send(&app)
        .await
        .expect(200)
        .json;
    assert_eq!(api["overviews"], visibility["overviews"]);
    assert_eq!(
        api["answers"][1]["text"].as_str().unwrap(),
        document.answers[1].text
    );

    // A job not completed is refused as the API refuses it; another account's is not found.
    let queued = harness::job_record(owner.id, JobStatus::Queued, "brightbrew-coffee.com", &[]);
    store
        .import_jobs(std::slice::from_ref(&queued))
        .await
        .unwrap();
    let refused = call(
        &client,
        "ai_visibility",
        json!({"jobId": queued.id.to_string()}),
    )
    .await;
    assert_eq!(failed(&refused)["code"], "job_not_ready");
    let stranger = harness::new_user(&store, Plan::Agency, 1, 1).await;
    let (_, stranger_key) = issue_api_key(store.as_ref(), store.as_ref(), stranger.id, None)
        .await
        .unwrap();
    let outsider = connect(&url, stranger_key.expose()).await;
    let hidden = call(&outsider, "ai_visibility", json!({"jobId": id})).await;
    assert_eq!(failed(&hidden)["code"], "not_found");
    let missing = call(&client, "ai_visibility", json!({})).await;
    assert_eq!(failed(&missing)["details"]["fields"][0]["field"], "jobId");
}
