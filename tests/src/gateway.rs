//! The service on one local port, as API Gateway routes it: each API path of the route table
//! to its function's router, every other path to the dashboard. For tests that need a real
//! HTTP server (a browser), with every function mounted in-process.

use std::collections::HashMap;
use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::Request;
use axum::response::Response;
use axum::Router;
use kr_aws::Resources;
use kr_core::config::Config;
use kr_http::routes::{Function, ROUTES};
use tower::ServiceExt;

pub struct Gateway {
    functions: HashMap<Function, Router>,
    dashboard: Router,
}

/// Whether a request path matches a table path, `{param}` segments matching any one segment.
pub fn matches(pattern: &str, path: &str) -> bool {
    let (mut pattern, mut path) = (pattern.split('/'), path.split('/'));
    loop {
        match (pattern.next(), path.next()) {
            (None, None) => return true,
            (Some(expected), Some(actual)) => {
                let wildcard = expected.starts_with('{') && !actual.is_empty();
                if !wildcard && expected != actual {
                    return false;
                }
            }
            _ => return false,
        }
    }
}

/// A function's router with the state it builds at cold start from `config` and `resources`.
pub async fn function_router(function: Function, config: Config, resources: Resources) -> Router {
    match function {
        Function::Account => {
            kr_account::router(kr_account::AccountState::from_config(config, resources).await)
        }
        Function::Integrations => kr_integrations::router(
            kr_integrations::IntegrationsState::from_config(config, resources).await,
        ),
        Function::Jobs => kr_jobs::router(kr_jobs::JobsState::from_config(config, resources).await),
        Function::Results => {
            kr_results::router(kr_results::ResultsState::from_config(config, resources).await)
        }
        Function::Briefs => kr_briefs::router(
            kr_briefs::BriefsState::from_config(config, resources)
                .await
                .expect("crawler settings from KR_CRAWL_* are valid"),
        ),
        Function::Export => {
            kr_export::router(kr_export::ExportState::from_config(config, resources).await)
        }
        Function::Locales => kr_locales::router(),
    }
}

impl Gateway {
    /// Every function of the route table and the dashboard, all configured with `config` and
    /// `resources`.
    pub async fn with_every_function(config: Config, resources: Resources) -> Self {
        let mut functions = HashMap::new();
        for function in Function::ALL {
            functions.insert(
                function,
                function_router(function, config.clone(), resources.clone()).await,
            );
        }
        Self {
            functions,
            dashboard: kr_web::router(kr_web::WebState::from_config(config, resources).await),
        }
    }

    /// Serves `function` with `router` instead: for a test that needs other settings than the
    /// environment gives (the provider's limits in a cost preview).
    pub fn with_router(mut self, function: Function, router: Router) -> Self {
        self.functions.insert(function, router);
        self
    }

    fn router_for(&self, path: &str) -> &Router {
        ROUTES
            .iter()
            .find(|route| matches(route.path, path))
            .and_then(|route| self.functions.get(&route.function))
            .unwrap_or(&self.dashboard)
    }

    async fn call(&self, request: Request<Body>) -> Response {
        let router = self.router_for(request.uri().path()).clone();
        router
            .oneshot(request)
            .await
            .expect("routers are infallible")
    }

    /// Serves until the process ends; returns the address it listens on.
    pub async fn serve(self, listener: tokio::net::TcpListener) -> SocketAddr {
        let address = listener.local_addr().expect("a bound listener");
        let gateway = std::sync::Arc::new(self);
        let app = Router::new().fallback(move |request: Request<Body>| {
            let gateway = gateway.clone();
            async move { gateway.call(request).await }
        });
        tokio::spawn(async move {
            axum::serve(listener, app)
                .await
                .expect("the gateway serves");
        });
        address
    }
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn parameters_match_one_segment() {
        assert!(matches("/api/v1/jobs/{jobId}", "/api/v1/jobs/123"));
        assert!(!matches(
            "/api/v1/jobs/{jobId}",
            "/api/v1/jobs/123/keywords"
        ));
        assert!(!matches("/api/v1/jobs/{jobId}", "/api/v1/jobs/"));
        assert!(matches("/api/v1/jobs", "/api/v1/jobs"));
    }
}
