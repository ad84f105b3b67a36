//! The jobs function: `POST/GET /jobs`, `GET/DELETE /jobs/{jobId}`.

mod handlers;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::Router;
use kr_shared::auth::Authenticator;
use kr_shared::config::Config;
use kr_shared::http::{finish_router, API_PREFIX};
use kr_shared::store::sqs::SqsJobQueue;
use kr_shared::store::{JobQueue, JobStore, ResultStore};
use kr_shared::wiring::Wiring;
use utoipa::openapi::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Clone, FromRef)]
pub struct JobsState {
    pub config: Arc<Config>,
    pub auth: Arc<Authenticator>,
    pub jobs: Arc<dyn JobStore>,
    pub queue: Arc<dyn JobQueue>,
    pub results: Arc<dyn ResultStore>,
}

impl JobsState {
    pub async fn from_config(config: Config) -> Self {
        let wiring = Wiring::from_config(config).await;
        Self {
            queue: Arc::new(SqsJobQueue::new(
                wiring.clients.sqs,
                wiring.config.jobs_queue_url.clone(),
            )),
            auth: wiring.auth,
            jobs: wiring.store,
            results: wiring.results,
            config: wiring.config,
        }
    }
}

fn api() -> OpenApiRouter<JobsState> {
    OpenApiRouter::new().nest(
        API_PREFIX,
        OpenApiRouter::new()
            .routes(routes!(handlers::create, handlers::list))
            .routes(routes!(handlers::get, handlers::delete)),
    )
}

/// The endpoints of this function in the OpenAPI document.
pub fn openapi() -> OpenApi {
    api().into_openapi()
}

pub fn router(state: JobsState) -> Router {
    let (router, _) = api().split_for_parts();
    finish_router(router.with_state(state))
}
