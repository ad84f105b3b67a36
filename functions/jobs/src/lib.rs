//! The jobs function: `POST/GET /jobs`, `GET/DELETE /jobs/{jobId}`.

mod handlers;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::Router;
use kr_shared::auth::Authenticator;
use kr_shared::aws::AwsClients;
use kr_shared::config::Config;
use kr_shared::http::{finish_router, API_PREFIX};
use kr_shared::store::dynamo::DynamoStore;
use kr_shared::store::s3::S3ResultStore;
use kr_shared::store::sqs::SqsJobQueue;
use kr_shared::store::{JobQueue, JobStore, ResultStore};
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
        let clients = AwsClients::from_config(&config).await;
        let store = Arc::new(DynamoStore::new(
            clients.dynamodb,
            config.table_name.clone(),
        ));
        Self {
            auth: Arc::new(Authenticator::new(store.clone(), store.clone())),
            jobs: store,
            queue: Arc::new(SqsJobQueue::new(clients.sqs, config.jobs_queue_url.clone())),
            results: Arc::new(S3ResultStore::new(
                clients.s3,
                config.results_bucket.clone(),
            )),
            config: Arc::new(config),
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
