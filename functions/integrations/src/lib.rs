//! The integrations function: `/integrations/search-console` (connect, callback, status,
//! disconnect, a service account's key). The only API function that reads the credentials key, so the only one that
//! can open a sealed grant (`tests/tests/suite/least_privilege.rs`).

mod search_console;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::Router;
use kr_aws::google::GoogleSource;
use kr_aws::{Resources, Wiring};
use kr_core::config::Config;
use kr_core::store::{RequestCounters, SearchConsoleStore};
use kr_google::GoogleSettings;
use kr_http::auth::Authenticator;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Clone, FromRef)]
pub struct IntegrationsState {
    pub config: Arc<Config>,
    pub auth: Arc<Authenticator>,
    pub counters: Arc<dyn RequestCounters>,
    pub search_console: Arc<dyn SearchConsoleStore>,
    pub google: Arc<GoogleSource>,
}

impl IntegrationsState {
    pub async fn from_config(config: Config, resources: Resources) -> Self {
        Self::build(config, resources, None).await
    }

    /// With Google at `settings` instead of as the environment says (tests and their mock).
    pub async fn with_google(
        config: Config,
        resources: Resources,
        settings: GoogleSettings,
    ) -> Self {
        Self::build(config, resources, Some(settings)).await
    }

    async fn build(config: Config, resources: Resources, settings: Option<GoogleSettings>) -> Self {
        let Wiring {
            config,
            resources,
            store,
            clients,
            ..
        } = Wiring::from_config(config, resources).await;
        let mut google = GoogleSource::new(
            clients.secrets,
            resources.credentials_key_arn.clone(),
            resources.google_client_secret_arn.clone(),
        );
        if let Some(settings) = settings {
            google = google.with_settings(settings);
        }
        Self {
            google: Arc::new(google),
            auth: Authenticator::on(store.clone(), config.limits.clone()),
            config,
            counters: store.clone(),
            search_console: store,
        }
    }
}

/// This function's endpoints (`kr_http::routes::ROUTES`), documented.
pub fn api() -> OpenApiRouter<IntegrationsState> {
    OpenApiRouter::new()
        .routes(routes!(
            search_console::connect,
            search_console::status,
            search_console::disconnect
        ))
        .routes(routes!(search_console::callback))
        .routes(routes!(search_console::service_account))
}

pub fn router(state: IntegrationsState) -> Router {
    kr_http::router(api(), state)
}
