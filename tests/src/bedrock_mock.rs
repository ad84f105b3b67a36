//! A local stand-in for the Amazon Bedrock runtime's Converse API, answering from files:
//! `POST /model/{modelId}/converse` returns `tests/fixtures/bedrock/<modelId>.json` (a Converse
//! response body as AWS documents it), so the model id chooses the answer. An unknown model
//! gets the runtime's 400 `ValidationException`. Every request body is kept for the tests.
//! Run it alone with `devstack serve-bedrock`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;

use crate::template::workspace_root;

/// The answer files.
pub fn fixtures_root() -> PathBuf {
    workspace_root().join("tests/fixtures/bedrock")
}

#[derive(Debug, Clone)]
pub struct ConverseRequest {
    pub model_id: String,
    pub body: serde_json::Value,
}

#[derive(Clone, Default)]
pub struct MockBedrock {
    requests: Arc<Mutex<Vec<ConverseRequest>>>,
    root: Arc<PathBuf>,
}

impl MockBedrock {
    /// Serves the answers in `root` on `address` (port 0: any free one); returns the URL.
    pub async fn start(address: SocketAddr, root: PathBuf) -> std::io::Result<(Self, String)> {
        let mock = Self {
            requests: Arc::default(),
            root: Arc::new(root),
        };
        let listener = tokio::net::TcpListener::bind(address).await?;
        let url = format!("http://{}", listener.local_addr()?);
        let app = Router::new()
            .route("/model/{model_id}/converse", post(converse))
            .with_state(mock.clone());
        tokio::spawn(async move { axum::serve(listener, app).await });
        Ok((mock, url))
    }

    pub fn requests(&self) -> Vec<ConverseRequest> {
        self.requests.lock().unwrap().clone()
    }
}

/// Settings for `model` at the mock's `url`, with `vars` as further `KR_BEDROCK_PERSONA_*`
/// settings, and the SDK config to build a client with (the SDK signs requests; the mock does
/// not check signatures).
pub async fn settings_at(
    url: &str,
    model: &str,
    vars: &[(&str, &str)],
) -> (kr_aws::SdkConfig, kr_aws::bedrock::BedrockSettings) {
    for (name, value) in [
        ("AWS_ACCESS_KEY_ID", "testing"),
        ("AWS_SECRET_ACCESS_KEY", "testing"),
        ("AWS_REGION", "us-east-1"),
    ] {
        if std::env::var(name).is_err() {
            std::env::set_var(name, value);
        }
    }
    let mut all = vec![
        ("KR_BEDROCK_PERSONA_MODEL".to_string(), model.to_string()),
        ("KR_BEDROCK_ENDPOINT_URL".to_string(), url.to_string()),
    ];
    all.extend(vars.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let settings = kr_aws::bedrock::BedrockSettings::from_vars(|name| {
        all.iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    })
    .expect("valid settings")
    .expect("a model is named");
    (kr_aws::sdk_config(None).await, settings)
}

fn error(status: StatusCode, kind: &str, message: &str) -> Response {
    let mut response = (
        status,
        serde_json::json!({ "message": message }).to_string(),
    )
        .into_response();
    response
        .headers_mut()
        .insert("x-amzn-errortype", HeaderValue::from_str(kind).unwrap());
    response
}

async fn converse(
    State(mock): State<MockBedrock>,
    Path(model_id): Path<String>,
    body: Bytes,
) -> Response {
    let Ok(body) = serde_json::from_slice::<serde_json::Value>(&body) else {
        return error(
            StatusCode::BAD_REQUEST,
            "ValidationException",
            "malformed request body",
        );
    };
    mock.requests.lock().unwrap().push(ConverseRequest {
        model_id: model_id.clone(),
        body,
    });
    let safe = !model_id.is_empty()
        && model_id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ':'))
        && !model_id.contains("..");
    let file = mock
        .root
        .join(format!("{}.json", model_id.replace(':', "_")));
    match std::fs::read_to_string(&file) {
        Ok(answer) if safe => {
            let mut response = answer.into_response();
            response
                .headers_mut()
                .insert("content-type", HeaderValue::from_static("application/json"));
            response
        }
        _ => error(
            StatusCode::BAD_REQUEST,
            "ValidationException",
            "The provided model identifier is invalid.",
        ),
    }
}
