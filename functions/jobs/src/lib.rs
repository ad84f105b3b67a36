//! The jobs function: `POST/GET /jobs`, `GET/DELETE /jobs/{jobId}`, and jobs on the user's
//! own keywords: `POST /jobs/import`, `POST /jobs/estimate`; a job's read-only share links:
//! `POST`/`GET /jobs/{jobId}/share-links`, `DELETE /jobs/{jobId}/share-links/{linkId}`; the
//! account's scheduled re-runs: `POST`/`GET /schedules`, `GET`/`PATCH`/`DELETE
//! /schedules/{scheduleId}`.

mod handlers;
mod keyword_lists;
mod schedules;
mod share_links;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::Router;
pub use keyword_lists::EstimateSettings;
use kr_aws::signing_key::SigningKeySource;
use kr_aws::sqs::SqsJobQueue;
use kr_aws::{Resources, Wiring};
use kr_core::config::Config;
use kr_core::store::{
    ArtifactStore, JobQueue, JobStore, RegisteredDomains, ResultStore, ScheduleStore,
    SearchConsoleStore, ShareLinkStore, UserStore,
};
use kr_http::auth::Authenticator;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Clone, FromRef)]
pub struct JobsState {
    pub config: Arc<Config>,
    pub auth: Arc<Authenticator>,
    pub jobs: Arc<dyn JobStore>,
    pub queue: Arc<dyn JobQueue>,
    /// Removes a job's objects (and a new job's imported keywords when it is not created).
    pub objects: Arc<dyn ResultStore>,
    /// Stores a new job's imported keywords.
    pub artifacts: Arc<dyn ArtifactStore>,
    pub users: Arc<dyn UserStore>,
    pub domains: Arc<dyn RegisteredDomains>,
    pub share_links: Arc<dyn ShareLinkStore>,
    pub schedules: Arc<dyn ScheduleStore>,
    /// The account's Search Console connection: which properties a job may name.
    pub search_console: Arc<dyn SearchConsoleStore>,
    pub estimates: EstimateSettings,
    /// Signs a job's `callbackUrl` deliveries (read on the first job that has one).
    pub signing: Arc<SigningKeySource>,
}

impl JobsState {
    pub async fn from_config(config: Config, resources: Resources) -> Self {
        let estimates = EstimateSettings::from_vars(|name| std::env::var(name).ok())
            .unwrap_or_else(|err| panic!("configuration: {err}"));
        let wiring = Wiring::from_config(config, resources).await;
        Self {
            estimates,
            signing: Arc::new(SigningKeySource::new(
                wiring.clients.secrets.clone(),
                wiring.resources.webhook_signing_key_arn.clone(),
            )),
            users: wiring.store.clone(),
            artifacts: wiring.objects.clone(),
            domains: wiring.store.clone(),
            share_links: wiring.store.clone(),
            schedules: wiring.store.clone(),
            search_console: wiring.store.clone(),
            auth: Authenticator::on(wiring.store.clone(), wiring.config.limits.clone()),
            queue: Arc::new(SqsJobQueue::new(
                wiring.clients.sqs,
                wiring.resources.jobs_queue_url.clone(),
            )),
            jobs: wiring.store,
            objects: wiring.objects,
            config: wiring.config,
        }
    }
}

/// This function's endpoints (`kr_http::routes::ROUTES`), documented.
pub fn api() -> OpenApiRouter<JobsState> {
    OpenApiRouter::new()
        .routes(routes!(handlers::create, handlers::list))
        .routes(routes!(handlers::get, handlers::delete))
        .routes(routes!(keyword_lists::import))
        .routes(routes!(keyword_lists::estimate))
        .routes(routes!(share_links::create, share_links::list))
        .routes(routes!(share_links::revoke))
        .routes(routes!(schedules::create, schedules::list))
        .routes(routes!(
            schedules::get,
            schedules::update,
            schedules::delete
        ))
}

pub fn router(state: JobsState) -> Router {
    kr_http::router(api(), state)
}
