//! The web function: the dashboard, rendered on the server from the same services, stores,
//! authentication and keyword query engine as the API, on the same origin, so the session
//! cookie and the Origin rule work unchanged. A little script of our own (`assets/app.js`)
//! enhances the pages: live progress, filters without a full reload, copy buttons.
//!
//! Pages (everything outside `/api/`; `kr_http::routes::DASHBOARD_PATHS` in the template):
//! `/` · `/login` · `/logout` · `/demo` · `/jobs` · `/jobs/new` · `/jobs/{jobId}` (tabs
//! `keywords`, `clusters`, `personas`, `overview`) · `/jobs/{jobId}/previews/{index}` (a
//! site's preview image, kept with the job) · `/jobs/{jobId}/clusters/{clusterId}/brief`
//! · `/jobs/{jobId}/delete` · `/jobs/{jobId}/share` (the owner's share links) ·
//! `/share/{token}` (a job seen through a share link, its logo and preview images below it) ·
//! `/settings/api-keys` · `/settings/api-keys/{keyId}/revoke` · `/settings/branding` (with
//! `/logo` and `/logo/delete`) · `/settings/search-console` (the Search Console connection;
//! its buttons call `/api/v1/integrations/search-console`) ·
//! `/settings/search-console/callback` (Google's OAuth redirect URI: its script posts the
//! code and state to the API) · `/assets/{file}`.

pub mod charts;
pub mod format;
pub mod safe_link;

mod assets;
mod layout;
mod pages;
mod previews;
mod session;

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, FromRef, Request};
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
    X_FRAME_OPTIONS,
};
use axum::http::HeaderValue;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use kr_aws::{Resources, Wiring};
use kr_core::config::Config;
use kr_core::store::{
    ApiKeyStore, ArtifactStore, CredentialStore, JobQueue, JobStore, RegisteredDomains,
    ResultStore, SessionStore, ShareLinkStore, UserStore,
};
use kr_http::auth::Authenticator;
use kr_query::DatasetCache;

/// Datasets kept per warm instance, as in the results function.
const CACHED_DATASETS: usize = 8;
/// Site previews of finished jobs kept per warm instance (a few KB each).
const CACHED_PREVIEWS: usize = 256;

#[derive(Clone, FromRef)]
pub struct WebState {
    pub config: Arc<Config>,
    pub auth: Arc<Authenticator>,
    pub users: Arc<dyn UserStore>,
    pub domains: Arc<dyn RegisteredDomains>,
    pub credentials: Arc<dyn CredentialStore>,
    pub sessions: Arc<dyn SessionStore>,
    pub counters: Arc<dyn kr_core::store::RequestCounters>,
    pub api_keys: Arc<dyn ApiKeyStore>,
    pub jobs: Arc<dyn JobStore>,
    pub share_links: Arc<dyn ShareLinkStore>,
    pub branding: Arc<dyn kr_core::store::BrandingStore>,
    pub schedules: Arc<dyn kr_core::store::ScheduleStore>,
    /// The stored Search Console connection, read without the credentials key (which this
    /// function may not read): what Google granted is opened only by the integrations
    /// function and the pipeline.
    pub search_console: Arc<dyn kr_core::store::SearchConsoleStore>,
    pub queue: Arc<dyn JobQueue>,
    pub objects: Arc<dyn ArtifactStore>,
    pub removals: Arc<dyn ResultStore>,
    pub cache: Arc<DatasetCache>,
    pub previews: Arc<previews::PreviewCache>,
}

impl WebState {
    pub async fn from_config(config: Config, resources: Resources) -> Self {
        let wiring = Wiring::from_config(config, resources).await;
        let store = wiring.store;
        Self {
            queue: Arc::new(kr_aws::sqs::SqsJobQueue::new(
                wiring.clients.sqs,
                wiring.resources.jobs_queue_url.clone(),
            )),
            auth: Authenticator::on(store.clone(), wiring.config.limits.clone()),
            config: wiring.config,
            users: store.clone(),
            domains: store.clone(),
            credentials: store.clone(),
            sessions: store.clone(),
            counters: store.clone(),
            api_keys: store.clone(),
            share_links: store.clone(),
            branding: store.clone(),
            schedules: store.clone(),
            search_console: store.clone(),
            jobs: store,
            objects: wiring.objects.clone(),
            removals: wiring.objects,
            cache: Arc::new(DatasetCache::new(CACHED_DATASETS)),
            previews: Arc::new(previews::PreviewCache::new(CACHED_PREVIEWS)),
        }
    }

    /// The job `job_id` names when `viewer` may read it (its owner's, or the demo account's
    /// for anyone); `None` for one that is not, or for an id that is not one.
    pub async fn readable_job(
        &self,
        job_id: &str,
        viewer: Option<&kr_core::store::User>,
    ) -> Result<Option<kr_core::domain::Job>, kr_core::store::StoreError> {
        let Ok(id) = job_id.parse::<kr_core::domain::JobId>() else {
            return Ok(None);
        };
        let demo = self.config.demo_user_id.map(Into::into);
        kr_core::service::jobs::readable_job(self.jobs.as_ref(), id, viewer.map(|u| u.id), demo)
            .await
    }
}

pub fn router(state: WebState) -> Router {
    Router::new()
        .route("/", get(pages::home))
        .route("/login", get(pages::login::form).post(pages::login::submit))
        .route("/logout", axum::routing::post(pages::login::logout))
        .route("/demo", get(pages::jobs::demo))
        .route("/jobs", get(pages::jobs::list))
        .route(
            "/jobs/new",
            get(pages::new_job::form).post(pages::new_job::submit),
        )
        .route("/jobs/{job_id}", get(pages::job::show))
        .route(
            "/jobs/{job_id}/previews/{index}",
            get(pages::job::preview_image),
        )
        .route(
            "/jobs/{job_id}/clusters/{cluster_id}/brief",
            get(pages::job::brief::show),
        )
        .route(
            "/jobs/{job_id}/delete",
            get(pages::jobs::confirm_delete).post(pages::jobs::delete),
        )
        .route(
            "/jobs/{job_id}/repeat",
            get(pages::repeat::manage).post(pages::repeat::create),
        )
        .route(
            "/jobs/{job_id}/repeat/{schedule_id}/{action}",
            axum::routing::post(pages::repeat::change),
        )
        .route(
            "/jobs/{job_id}/share",
            get(pages::share::manage).post(pages::share::create),
        )
        .route(
            "/jobs/{job_id}/share/{link_id}/revoke",
            axum::routing::post(pages::share::revoke),
        )
        .route("/share/{token}", get(pages::share::open))
        .route("/share/{token}/logo", get(pages::share::logo))
        .route(
            "/share/{token}/previews/{index}",
            get(pages::share::preview_image),
        )
        .route(
            "/settings/api-keys",
            get(pages::settings::api_keys).post(pages::settings::create_key),
        )
        .route(
            "/settings/api-keys/{key_id}/revoke",
            get(pages::settings::confirm_revoke).post(pages::settings::revoke),
        )
        .route(
            "/settings/branding",
            get(pages::branding::show).post(pages::branding::rename),
        )
        .route(
            "/settings/branding/logo",
            get(pages::branding::logo)
                .post(pages::branding::upload_logo)
                .layer(DefaultBodyLimit::max(pages::branding::LOGO_FORM_BYTES)),
        )
        .route(
            "/settings/branding/logo/delete",
            axum::routing::post(pages::branding::remove_logo),
        )
        .route("/settings/search-console", get(pages::search_console::show))
        .route(
            "/settings/search-console/callback",
            get(pages::search_console::callback),
        )
        .route("/assets/{file}", get(assets::serve))
        .fallback(pages::not_found)
        .method_not_allowed_fallback(pages::method_not_allowed)
        .layer(middleware::from_fn(security_headers))
        .with_state(state)
}

/// Every page can show text from crawled sites, which is hostile: no inline script or style
/// runs, nothing loads from elsewhere (preview images included: we serve them), and no other
/// site may frame us.
async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await.into_response();
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
             connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
        ),
    );
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    // Not `no-referrer`: with it browsers send `Origin: null` on our own forms, which the
    // Origin rule must refuse. Other sites (preview images) still get no referrer.
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    headers
        .entry(CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    response
}

/// The job page rendered from data already read (no I/O), for the benchmark that measures
/// the server's own work per page (`.ci/bench dashboard`).
pub fn render_job_page(
    job: &kr_core::domain::Job,
    dataset: Option<&kr_query::IndexedDataset>,
    raw_query: &str,
) -> Response {
    let loaded = pages::job::Loaded {
        dataset,
        previews: &pages::job::SitePreviews::default(),
        changes: None,
        ai_visibility: None,
    };
    pages::job::render(
        job,
        loaded,
        raw_query,
        pages::job::Audience::Dashboard(None),
    )
}
