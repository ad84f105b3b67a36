//! The account function: `/users/me`, `/auth/login`, `/auth/logout`, `/api-keys`.

mod api_keys;
mod session;
mod users;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::Router;
use kr_shared::auth::Authenticator;
use kr_shared::config::Config;
use kr_shared::http::{finish_router, API_PREFIX};
use kr_shared::store::{ApiKeyStore, CredentialStore, SessionStore, UserStore};
use kr_shared::wiring::Wiring;
use utoipa::openapi::OpenApi;
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
}

impl AccountState {
    pub async fn from_config(config: Config) -> Self {
        let Wiring {
            config,
            store,
            auth,
            ..
        } = Wiring::from_config(config).await;
        Self {
            config,
            auth,
            users: store.clone(),
            credentials: store.clone(),
            api_keys: store.clone(),
            sessions: store,
        }
    }
}

fn api() -> OpenApiRouter<AccountState> {
    OpenApiRouter::new().nest(
        API_PREFIX,
        OpenApiRouter::new()
            .routes(routes!(users::me))
            .routes(routes!(session::login))
            .routes(routes!(session::logout))
            .routes(routes!(api_keys::create, api_keys::list))
            .routes(routes!(api_keys::revoke)),
    )
}

/// The endpoints of this function in the OpenAPI document.
pub fn openapi() -> OpenApi {
    api().into_openapi()
}

pub fn router(state: AccountState) -> Router {
    let (router, _) = api().split_for_parts();
    finish_router(router.with_state(state))
}
