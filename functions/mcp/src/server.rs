//! The MCP server: lists the tools and runs them for the caller the HTTP layer authenticated.

use std::sync::Arc;

use axum::http::request::Parts;
use kr_http::auth::Principal;
use kr_http::error::ErrorBody;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool as McpTool, ToolAnnotations,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};

use crate::tools::{run, Tool};
use crate::McpState;

#[derive(Clone)]
pub struct KeywordResearchTools {
    state: McpState,
    catalog: Arc<Vec<McpTool>>,
}

impl KeywordResearchTools {
    pub fn new(state: McpState) -> Self {
        let catalog = Tool::ALL
            .into_iter()
            .map(|tool| {
                let mut described =
                    McpTool::new(tool.name(), tool.description(), tool.input_schema());
                if let Some(schema) = tool.output_schema() {
                    described = described.with_raw_output_schema(Arc::new(schema));
                }
                let mut annotations = ToolAnnotations::new();
                annotations.read_only_hint = Some(tool.read_only());
                described.annotations = Some(annotations);
                described
            })
            .collect();
        Self {
            state,
            catalog: Arc::new(catalog),
        }
    }
}

impl ServerHandler for KeywordResearchTools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            // Named as the service, not as the SDK's crate.
            .with_server_info(Implementation::new(
                "keyword-research",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(
            "Keyword research for a website and its competitors: create_job starts one (it takes minutes), get_job follows it, and once it is completed query_keywords, list_clusters, cluster_keywords, content_plan, get_personas and get_references read its results.",
        )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            self.catalog.as_ref().clone(),
        ))
    }

    fn get_tool(&self, name: &str) -> Option<McpTool> {
        self.catalog.iter().find(|tool| tool.name == name).cloned()
    }

    /// An unknown tool is a protocol error (invalid params); a failure of a known tool,
    /// including invalid arguments, is a result with `isError` whose structured content is
    /// the API's error body, as the MCP specification asks.
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let tool = Tool::from_name(&request.name).ok_or_else(|| {
            ErrorData::invalid_params(format!("there is no tool {:?}", request.name), None)
        })?;
        let caller = context
            .extensions
            .get::<Parts>()
            .and_then(|parts| parts.extensions.get::<Principal>())
            .copied()
            .ok_or_else(|| ErrorData::internal_error("the caller is unknown", None))?;
        let args = request.arguments.unwrap_or_default();
        let result = match run(&self.state, caller, tool, &args).await {
            Ok(value) => CallToolResult::structured(value),
            Err(err) => {
                let body = ErrorBody {
                    error: err.message,
                    code: err.code,
                    details: err.details,
                };
                CallToolResult::structured_error(serde_json::to_value(body).unwrap_or_default())
            }
        };
        Ok(result.into())
    }
}
