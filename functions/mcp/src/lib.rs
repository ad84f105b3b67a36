//! The MCP function: `/mcp`, the Model Context Protocol over its streamable HTTP transport, so
//! AI assistants can run keyword research through tools. Stateless: every POST stands alone
//! and is answered with JSON (no session, no event stream), which is what a Lambda behind API
//! Gateway can serve. Callers authenticate with an API key exactly as on the API; the tools
//! call the same library code as the API's handlers, and answer only the caller's jobs (and
//! demo jobs).

mod refusals;
mod schemas;
mod server;
mod tools;

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use kr_aws::bedrock::BedrockBriefs;
use kr_aws::signing_key::SigningKeySource;
use kr_aws::sqs::SqsJobQueue;
use kr_aws::{Resources, Wiring};
use kr_brief_maker::BriefSettings;
use kr_core::config::Config;
use kr_core::dataset::BriefWriter;
use kr_core::store::{
    ArtifactStore, BriefLedger, JobQueue, JobStore, ResultStore, ScheduleStore, UserStore,
};
use kr_crawler::{CrawlConfig, Crawler};
use kr_http::auth::{AuthMethod, Authenticator};
use kr_http::extract::{read_body_capped, CurrentUser, MAX_KEYWORDS_BODY_BYTES};
use kr_http::routes::MCP_PATH;
use kr_http::ApiError;
use kr_query::DatasetCache;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

pub use server::KeywordResearchTools;

/// Datasets kept per warm instance, as in the results function.
const CACHED_DATASETS: usize = 8;

#[derive(Clone, axum::extract::FromRef)]
pub struct McpState {
    pub config: Arc<Config>,
    pub auth: Arc<Authenticator>,
    pub jobs: Arc<dyn JobStore>,
    pub users: Arc<dyn UserStore>,
    pub schedules: Arc<dyn ScheduleStore>,
    pub queue: Arc<dyn JobQueue>,
    pub artifacts: Arc<dyn ArtifactStore>,
    pub removals: Arc<dyn ResultStore>,
    pub cache: Arc<DatasetCache>,
    pub signing: Arc<SigningKeySource>,
    /// For `cluster_brief`, as in the briefs function.
    pub ledger: Arc<dyn BriefLedger>,
    pub crawler: Arc<Crawler>,
    pub brief_settings: Arc<BriefSettings>,
    pub brief_writer: Option<Arc<dyn BriefWriter>>,
    /// Which Search Console properties `create_job` may name.
    pub search_console: Arc<dyn kr_core::store::SearchConsoleStore>,
}

impl McpState {
    pub async fn from_config(config: Config, resources: Resources) -> Self {
        let wiring = Wiring::from_config(config, resources).await;
        Self {
            search_console: wiring.store.clone(),
            auth: Authenticator::on(wiring.store.clone(), wiring.config.limits.clone()),
            queue: Arc::new(SqsJobQueue::new(
                wiring.clients.sqs.clone(),
                wiring.resources.jobs_queue_url.clone(),
            )),
            signing: Arc::new(SigningKeySource::new(
                wiring.clients.secrets.clone(),
                wiring.resources.webhook_signing_key_arn.clone(),
            )),
            jobs: wiring.store.clone(),
            ledger: wiring.store.clone(),
            schedules: wiring.store.clone(),
            users: wiring.store,
            artifacts: wiring.objects.clone(),
            removals: wiring.objects,
            cache: Arc::new(DatasetCache::new(CACHED_DATASETS)),
            config: wiring.config,
            crawler: Arc::new(
                CrawlConfig::from_env()
                    .and_then(Crawler::new)
                    .expect("KR_CRAWL_* settings are valid"),
            ),
            brief_settings: Arc::new(
                BriefSettings::from_vars(|name| std::env::var(name).ok())
                    .expect("KR_MAX_BRIEFS_PER_JOB is valid"),
            ),
            brief_writer: BedrockBriefs::from_env()
                .await
                .expect("KR_BEDROCK_PERSONA_* settings are valid"),
        }
    }

    /// The state with another crawler for `cluster_brief` (tests reach local sites only).
    pub fn with_crawler(mut self, crawler: Crawler) -> Self {
        self.crawler = Arc::new(crawler);
        self
    }

    /// The state with a writer of the caller's for `cluster_brief` (tests: the Bedrock mock).
    pub fn with_brief_writer(mut self, writer: Arc<dyn BriefWriter>) -> Self {
        self.brief_writer = Some(writer);
        self
    }
}

/// Only API keys open `/mcp`: an assistant holds a key, never a browser's session. Refused
/// callers get the API's 401 body before any MCP message is read.
async fn authenticate(State(state): State<McpState>, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    let principal =
        match <CurrentUser as axum::extract::FromRequestParts<McpState>>::from_request_parts(
            &mut parts, &state,
        )
        .await
        {
            Ok(CurrentUser(principal)) if matches!(principal.method, AuthMethod::ApiKey(_)) => {
                principal
            }
            Ok(_) => return ApiError::new(
                kr_http::error::ErrorCode::Unauthorized,
                "The MCP endpoint takes an API key (Authorization: Bearer <key>, or X-API-Key).",
            )
            .into_response(),
            Err(err) => return err.into_response(),
        };
    parts.extensions.insert(principal);
    // The API's largest body (a job with its own keywords): the transport would read any.
    let body = match read_body_capped(&parts.headers, body, MAX_KEYWORDS_BODY_BYTES).await {
        Ok(bytes) => Body::from(bytes),
        Err(err) => return err.into_response(),
    };
    next.run(Request::from_parts(parts, body)).await
}

pub fn router(state: McpState) -> Router {
    let tools = KeywordResearchTools::new(state.clone());
    let service = StreamableHttpService::new(
        move || Ok(tools.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default()
            .with_legacy_session_mode(false)
            .with_json_response(true)
            .with_sse_keep_alive(None)
            // API Gateway's own host; API keys, not the Host header, guard this endpoint.
            .disable_allowed_hosts(),
    );
    Router::new()
        .route_service(MCP_PATH, service)
        .layer(middleware::from_fn_with_state(state, authenticate))
}
