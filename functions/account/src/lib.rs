//! The account function: `/users/me`, `/users/me/branding`, `/auth/login`, `/auth/logout`,
//! `/api-keys`, `/webhooks`.

mod api_keys;
mod branding;
mod session;
mod users;
mod webhooks;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::Router;
use kr_aws::signing_key::SigningKeySource;
use kr_aws::{Resources, Wiring};
use kr_core::config::Config;
use kr_core::store::{
    ApiKeyStore, BrandingStore, CredentialStore, RequestCounters, SessionStore, UserStore,
    WebhookStore,
};
use kr_http::auth::Authenticator;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Clone, FromRef)]
pub struct AccountState {
    pub config: Arc<Config>,
    pub auth: Arc<Authenticator>,
    pub users: Arc<dyn UserStore>,
    pub credentials: Arc<dyn CredentialStore>,
    pub api_keys: Arc<dyn ApiKeyStore>,
    pub sessions: Arc<dyn SessionStore>,
    pub counters: Arc<dyn RequestCounters>,
    pub webhooks: Arc<dyn WebhookStore>,
    pub branding: Arc<dyn BrandingStore>,
    pub signing: Arc<SigningKeySource>,
}

impl AccountState {
    pub async fn from_config(config: Config, resources: Resources) -> Self {
        let Wiring {
            config,
            resources,
            store,
            clients,
            ..
        } = Wiring::from_config(config, resources).await;
        Self {
            signing: Arc::new(SigningKeySource::new(
                clients.secrets,
                resources.webhook_signing_key_arn.clone(),
            )),
            webhooks: store.clone(),
            branding: store.clone(),
            auth: Authenticator::on(store.clone(), config.limits.clone()),
            config,
            users: store.clone(),
            credentials: store.clone(),
            api_keys: store.clone(),
            sessions: store.clone(),
            counters: store,
        }
    }
}

/// This function's endpoints (`kr_http::routes::ROUTES`), documented.
pub fn api() -> OpenApiRouter<AccountState> {
    OpenApiRouter::new()
        .routes(routes!(users::me))
        .routes(routes!(branding::show, branding::rename))
        .routes(routes!(branding::upload_logo, branding::delete_logo))
        .routes(routes!(session::login))
        .routes(routes!(session::logout))
        .routes(routes!(api_keys::create, api_keys::list))
        .routes(routes!(api_keys::revoke))
        .routes(routes!(webhooks::create, webhooks::list))
        .routes(routes!(webhooks::delete))
        .routes(routes!(webhooks::deliveries))
}

pub fn router(state: AccountState) -> Router {
    kr_http::router(api(), state)
}
