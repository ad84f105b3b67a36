//! The MCP endpoint against the emulator, with the official SDK's client over real HTTP: the
//! tool list (schemas from the API's own types), every tool on a job the real pipeline ran,
//! errors in MCP's form, another account's job out of reach, and no access without a key.

use axum::Router;
use kr_core::service::account::issue_api_key;
use kr_core::store::UserStore;
use kr_mcp::{router, McpState};
use kr_tests::harness;
use kr_tests::pipeline_rig::{discovery_request, rig};
use kr_tests::sites::{sample_sites_crawler, DEMO_COMPETITOR, DEMO_PRIMARY};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::ServiceExt;
use serde_json::{json, Map, Value};

mod ai_visibility_tool;

pub(crate) type Client = RunningService<RoleClient, ()>;

pub(crate) async fn serve(app: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{address}/mcp")
}

pub(crate) async fn connect(url: &str, key: &str) -> Client {
    ().serve(StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url.to_string()).auth_header(key.to_string()),
    ))
    .await
    .expect("the client connects")
}

pub(crate) async fn call(client: &Client, tool: &str, args: Value) -> CallToolResult {
    let Value::Object(args) = args else {
        panic!("arguments are an object")
    };
    client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args))
        .await
        .unwrap_or_else(|err| panic!("{tool}: {err}"))
}

pub(crate) fn ok(result: &CallToolResult) -> &Value {
    assert_ne!(result.is_error, Some(true), "{result:?}");
    result
        .structured_content
        .as_ref()
        .expect("structured content")
}

pub(crate) fn failed(result: &CallToolResult) -> &Value {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    result.structured_content.as_ref().expect("the error body")
}

#[tokio::test]
async fn an_assistant_researches_through_the_tools() {
    let rig = rig(None, &[]).await;
    let (user, job) = rig
        .start_request(discovery_request(DEMO_PRIMARY, &[DEMO_COMPETITOR], 2840))
        .await;
    rig.complete(job.id).await;
    let (_, key) = issue_api_key(rig.store.as_ref(), rig.store.as_ref(), user.id, Some("mcp"))
        .await
        .unwrap();
    let mut resources = harness::resources();
    resources.jobs_queue_url = rig.queue_url.clone();
    // Briefs read the sample sites only, where the rig's crawler found them.
    let crawler = sample_sites_crawler().await;
    let state = McpState::from_config(harness::config(), resources)
        .await
        .with_crawler(crawler);
    let url = serve(router(state)).await;
    let client = connect(&url, key.expose()).await;
    let server = client.peer_info().and_then(|info| info.server_info.clone());
    assert_eq!(server.map(|s| s.name).as_deref(), Some("keyword-research"));

    // The tools, with the API's own schemas.
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "create_job",
            "get_job",
            "list_jobs",
            "query_keywords",
            "list_clusters",
            "cluster_keywords",
            "cluster_brief",
            "content_plan",
            "get_personas",
            "get_references",
            "job_changes",
            "list_schedules",
            "get_balances",
            "search_console_properties",
            "striking_distance",
            "ai_visibility"
        ]
    );
    let published: Value = serde_json::from_str(
        &std::fs::read_to_string(
            kr_tests::template::workspace_root().join("functions/locales/openapi.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let create = tools.iter().find(|t| t.name == "create_job").unwrap();
    let mut create_schema = Value::Object(create.input_schema.as_ref().clone());
    let idempotency_key = create_schema["properties"]
        .as_object_mut()
        .unwrap()
        .remove("idempotencyKey")
        .expect("create_job takes POST /jobs' Idempotency-Key as an argument");
    assert_eq!(idempotency_key["maxLength"], 255);
    assert_eq!(
        create_schema, published["components"]["schemas"]["CreateJobRequest"],
        "create_job takes exactly the body of POST /jobs, and the idempotency key"
    );
    let query = tools.iter().find(|t| t.name == "query_keywords").unwrap();
    let parameters = published["paths"]["/api/v1/jobs/{jobId}/keywords"]["get"]["parameters"]
        .as_array()
        .unwrap();
    for parameter in parameters.iter().filter(|p| p["in"] == "query") {
        let name = parameter["name"].as_str().unwrap();
        assert!(
            query.input_schema["properties"].get(name).is_some(),
            "query_keywords lacks the endpoint's {name}"
        );
    }

    let id = job.id.to_string();
    let got = call(&client, "get_job", json!({"jobId": id})).await;
    assert_eq!(ok(&got)["job"]["status"], "completed");
    let listed = call(&client, "list_jobs", json!({"limit": 5})).await;
    assert_eq!(ok(&listed)["jobs"][0]["id"], id.as_str());

    // Compact pages: 10 by default, only the fields asked for.
    let keywords = call(
        &client,
        "query_keywords",
        json!({"jobId": id, "fields": ["keyword", "intent"], "intent": ["commercial", "transactional"], "sortBy": "keyword", "sortOrder": "asc"}),
    )
    .await;
    let page = ok(&keywords);
    let rows = page["keywords"].as_array().unwrap();
    assert!(!rows.is_empty() && rows.len() <= 10, "{page}");
    for row in rows {
        let mut keys: Vec<&String> = row.as_object().unwrap().keys().collect();
        keys.sort_unstable();
        assert_eq!(keys, ["intent", "keyword"]);
        assert!(matches!(
            row["intent"].as_str(),
            Some("commercial" | "transactional")
        ));
    }
    let clusters = call(&client, "list_clusters", json!({"jobId": id, "limit": 3})).await;
    let cluster_id = ok(&clusters)["clusters"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let members = call(
        &client,
        "cluster_keywords",
        json!({"jobId": id, "clusterId": cluster_id}),
    )
    .await;
    assert!(ok(&members)["total"].as_u64().unwrap() >= 1);
    // The content plan: topics with their clusters, 5 a page; a filter keeps matching clusters.
    let plan = call(&client, "content_plan", json!({"jobId": id})).await;
    let topics = ok(&plan)["topics"].as_array().unwrap();
    assert!(!topics.is_empty() && topics.len() <= 5, "{}", ok(&plan));
    assert!(topics[0]["clusters"][0]["action"].is_string());
    let creates = call(
        &client,
        "content_plan",
        json!({"jobId": id, "action": "create", "limit": 50}),
    )
    .await;
    for topic in ok(&creates)["topics"].as_array().unwrap() {
        for cluster in topic["clusters"].as_array().unwrap() {
            assert_eq!(cluster["action"], "create");
        }
    }
    // A brief, offline: the competitor's pages for the cluster are the pages read.
    let dataset = rig.dataset(job.id).await;
    let moka = dataset
        .keywords
        .iter()
        .find(|k| k.keyword == "best coffee for moka pot")
        .expect("the competitor's moka pot pages are a gap")
        .cluster_id
        .clone();
    let brief = call(
        &client,
        "cluster_brief",
        json!({"jobId": id, "clusterId": moka}),
    )
    .await;
    let brief = &ok(&brief)["brief"];
    let sources = brief["sources"].as_array().unwrap();
    assert!(!sources.is_empty(), "{brief}");
    assert!(sources
        .iter()
        .all(|s| s["url"].as_str().unwrap().contains("roastrivals.com")));
    assert!(sources.iter().any(|s| s["fetched"] == true), "{brief}");
    assert_eq!(brief["pageType"], Value::Null, "offline: no results page");
    let no_cluster = call(
        &client,
        "cluster_brief",
        json!({"jobId": id, "clusterId": "c-nowhere"}),
    )
    .await;
    assert_eq!(failed(&no_cluster)["code"], "not_found");
    let bad_topic = call(
        &client,
        "content_plan",
        json!({"jobId": id, "topicId": "t-nowhere"}),
    )
    .await;
    assert_eq!(
        failed(&bad_topic)["details"]["fields"][0]["field"],
        "topicId"
    );
    let personas = call(&client, "get_personas", json!({"jobId": id})).await;
    assert!(!ok(&personas)["personas"].as_array().unwrap().is_empty());
    let references = call(&client, "get_references", json!({"jobId": id})).await;
    assert_eq!(ok(&references)["references"].as_array().unwrap().len(), 2);
    // The job's first run: nothing to compare with yet; a bad `since` is the API's 400.
    let changes = call(&client, "job_changes", json!({"jobId": id})).await;
    assert_eq!(ok(&changes)["since"], Value::Null);
    assert_eq!(ok(&changes)["history"].as_array().unwrap().len(), 1);
    let bad_since = call(
        &client,
        "job_changes",
        json!({"jobId": id, "since": "yesterday"}),
    )
    .await;
    assert_eq!(failed(&bad_since)["details"]["fields"][0]["field"], "since");
    let schedules = call(&client, "list_schedules", json!({})).await;
    assert_eq!(ok(&schedules)["schedules"], json!([]));
    // No Search Console: not connected, and no keyword in striking distance.
    let properties = call(&client, "search_console_properties", json!({})).await;
    assert_eq!(
        ok(&properties),
        &json!({"connected": false, "properties": []})
    );
    let striking = call(&client, "striking_distance", json!({"jobId": id})).await;
    assert_eq!(ok(&striking)["total"], 0);
    assert_eq!(ok(&striking)["limit"], 20);
    assert_eq!(ok(&striking)["searchConsole"], Value::Null);
    let balances = call(&client, "get_balances", json!({})).await;
    assert_eq!(
        ok(&balances)["user"]["credits_balance"],
        0,
        "the rig's job used the run"
    );

    // Errors: the API's body as a tool error; an unknown tool as a protocol error.
    let refused = call(&client, "create_job", json!({"primaryDomain": "not a domain", "languageCode": "en", "locationCode": 2840, "keywords": ["ok", "bad!"]})).await;
    let body = failed(&refused);
    assert_eq!(body["code"], "validation_failed");
    let fields: Vec<&str> = body["details"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["primaryDomain", "keywords[1]"]);
    let no_runs = call(
        &client,
        "create_job",
        json!({"primaryDomain": DEMO_PRIMARY, "languageCode": "en", "locationCode": 2840}),
    )
    .await;
    assert_eq!(failed(&no_runs)["code"], "insufficient_credits");
    let bad_filter = call(
        &client,
        "query_keywords",
        json!({"jobId": id, "minVolume": -1}),
    )
    .await;
    assert_eq!(
        failed(&bad_filter)["details"]["fields"][0]["field"],
        "minVolume"
    );
    let unknown = client
        .call_tool(CallToolRequestParams::new("drop_tables").with_arguments(Map::new()))
        .await;
    assert!(unknown.is_err(), "{unknown:?}");

    // Another account reaches none of it.
    let store = harness::store().await;
    let (stranger, stranger_key) = harness::new_user_with_key(&store).await;
    let _ = stranger;
    let other = connect(&url, stranger_key.expose()).await;
    for tool in [
        "get_job",
        "query_keywords",
        "get_personas",
        "get_references",
        "list_clusters",
        "content_plan",
        "job_changes",
        "striking_distance",
    ] {
        let hidden = call(&other, tool, json!({"jobId": id})).await;
        assert_eq!(failed(&hidden)["code"], "not_found", "{tool}");
    }
    let theirs = call(&other, "list_jobs", json!({})).await;
    assert_eq!(ok(&theirs)["total"], 0);
    let created = call(&other, "create_job", json!({"primaryDomain": DEMO_PRIMARY, "languageCode": "en", "locationCode": 2840, "keywords": ["cold brew"]})).await;
    let created = ok(&created);
    assert_eq!(created["job"]["status"], "queued");
    assert_eq!(created["job"]["keywordImport"]["imported"], 1);

    // Without a key: the API's 401, before any MCP message is read.
    let anonymous = reqwest::Client::new()
        .post(&url)
        .header("accept", "application/json, text/event-stream")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 401);
    let body: Value = anonymous.json().await.unwrap();
    assert_eq!(body["code"], "unauthorized");
}

#[tokio::test]
async fn a_retried_create_job_with_its_idempotency_key_is_charged_once() {
    let store = harness::store().await;
    let (user, key) = harness::user_with_key(&store, 5, 5).await;
    let mut resources = harness::resources();
    resources.jobs_queue_url = harness::fresh_queue(&harness::clients().await).await;
    let url = serve(router(
        McpState::from_config(harness::config(), resources).await,
    ))
    .await;
    let client = connect(&url, &key).await;
    let args = json!({"primaryDomain": "retried.example.com", "languageCode": "en", "locationCode": 2840, "idempotencyKey": "assistant-call-1"});
    let first = call(&client, "create_job", args.clone()).await;
    let again = call(&client, "create_job", args).await;
    assert_eq!(ok(&first)["job"]["id"], ok(&again)["job"]["id"]);
    let after = store.user(user.id).await.unwrap().unwrap();
    assert_eq!(after.credits_balance, 4, "one run for both calls");
    // The same key with other arguments is refused, as on POST /jobs.
    let other = call(&client, "create_job", json!({"primaryDomain": "other.example.com", "languageCode": "en", "locationCode": 2840, "idempotencyKey": "assistant-call-1"})).await;
    assert_eq!(failed(&other)["code"], "validation_failed");
    let blank = call(&client, "create_job", json!({"primaryDomain": "third.example.com", "languageCode": "en", "locationCode": 2840, "idempotencyKey": ""})).await;
    assert_eq!(
        failed(&blank)["details"]["fields"][0]["field"],
        "idempotencyKey"
    );
}

#[tokio::test]
async fn a_body_over_the_apis_largest_is_refused_before_the_transport_reads_it() {
    let store = harness::store().await;
    let (_, key) = harness::new_user_with_key(&store).await;
    let url = serve(router(
        McpState::from_config(harness::config(), harness::resources()).await,
    ))
    .await;
    let padding = "x".repeat(1024 * 1024 + 1);
    let reply = reqwest::Client::new()
        .post(&url)
        .header("x-api-key", key.expose())
        .header("accept", "application/json, text/event-stream")
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"padding": padding}}))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), 413);
    let body: Value = reply.json().await.unwrap();
    assert_eq!(body["code"], "payload_too_large");
}

/// Search Console through the tools, on a job of a property the Google mock serves:
/// `search_console_properties` answers the stored connection (no Google call),
/// `striking_distance` exactly the mock's striking-distance queries the job holds, most
/// impressions first, with their figures but no daily series; `query_keywords` takes the
/// filters, and refuses a bad one naming it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_console_tools_answer_the_connection_and_striking_distance() {
    use crate::search_console_import::{planted_in_job, world};
    use kr_core::dataset::compared_keyword;
    use std::collections::BTreeSet;

    let world = world().await;
    let owner = world.connected_user().await;
    let job = world.job_for(owner).await;
    world.rig.complete(job.id).await;
    let (_, key) = issue_api_key(
        world.rig.store.as_ref(),
        world.rig.store.as_ref(),
        owner,
        None,
    )
    .await
    .unwrap();
    let state = McpState::from_config(harness::config(), harness::resources()).await;
    let url = serve(router(state)).await;
    let client = connect(&url, key.expose()).await;
    let google_calls = world.mock.stats();

    let properties = call(&client, "search_console_properties", json!({})).await;
    let connection = ok(&properties);
    assert_eq!(connection["connected"], true);
    assert_eq!(connection["email"], "owner@brightbrew-coffee.test");
    assert_eq!(connection["lapsed"], Value::Null);
    let sites: Vec<&str> = connection["properties"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["siteUrl"].as_str().unwrap())
        .collect();
    assert!(
        sites.contains(&"sc-domain:brightbrew-coffee.com"),
        "{connection}"
    );
    assert!(connection["properties"][0]["permissionLevel"].is_string());

    let id = job.id.to_string();
    let striking = call(
        &client,
        "striking_distance",
        json!({"jobId": id, "limit": 500}),
    )
    .await;
    let page = ok(&striking);
    assert_eq!(page["searchConsole"]["status"], "imported", "{page}");
    let rows = page["keywords"].as_array().unwrap();
    let found: BTreeSet<String> = rows
        .iter()
        .map(|k| compared_keyword(k["keyword"].as_str().unwrap()))
        .collect();
    let facts = world
        .mock
        .facts("sc-domain:brightbrew-coffee.com", Some("usa"))
        .unwrap();
    let dataset = world.rig.dataset(job.id).await;
    let planted = planted_in_job(&facts, "strikingDistance", &dataset);
    assert!(!planted.is_empty());
    assert_eq!(found, planted);
    let impressions: Vec<u64> = rows
        .iter()
        .map(|k| k["searchConsole"]["impressions"].as_u64().unwrap())
        .collect();
    assert!(
        impressions.windows(2).all(|w| w[0] >= w[1]),
        "{impressions:?}"
    );
    for row in rows {
        let figures = row["searchConsole"].as_object().unwrap();
        assert!(figures.contains_key("position") && figures.contains_key("pages"));
        assert!(
            !figures.contains_key("daily"),
            "the daily series is left out"
        );
        assert!(row.get("clusterName").is_some());
    }
    let first = call(
        &client,
        "striking_distance",
        json!({"jobId": id, "limit": 1}),
    )
    .await;
    assert_eq!(ok(&first)["keywords"].as_array().unwrap().len(), 1);
    assert_eq!(ok(&first)["total"], rows.len());
    // The default page is 20.
    let default = call(&client, "striking_distance", json!({"jobId": id})).await;
    assert_eq!(ok(&default)["limit"], 20);

    // query_keywords takes the same filters.
    let decaying = call(
        &client,
        "query_keywords",
        json!({"jobId": id, "decaying": true, "limit": 500, "fields": ["keyword", "searchConsole"]}),
    )
    .await;
    let decaying: BTreeSet<String> = ok(&decaying)["keywords"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| compared_keyword(k["keyword"].as_str().unwrap()))
        .collect();
    assert_eq!(decaying, planted_in_job(&facts, "decaying", &dataset));
    let bad = call(
        &client,
        "query_keywords",
        json!({"jobId": id, "strikingDistance": "maybe"}),
    )
    .await;
    assert_eq!(
        failed(&bad)["details"]["fields"][0]["field"],
        "strikingDistance"
    );
    let clusters = call(&client, "list_clusters", json!({"jobId": id, "limit": 500})).await;
    assert!(ok(&clusters)["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["searchConsole"]["impressions"].as_u64().is_some()));
    assert_eq!(
        world.mock.stats().requests,
        google_calls.requests,
        "the tools never asked Google"
    );
}
