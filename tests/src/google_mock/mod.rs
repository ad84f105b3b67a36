//! A local stand-in for Google's OAuth 2.0 endpoints and the Search Console API, for the tests
//! and the local stack (`devstack serve-google`); nothing here reaches Google. All on one port:
//!
//! - `GET /o/oauth2/v2/auth`: the consent page (the signed-in account, the scopes, buttons
//!   `#allow` and `#deny`), or an HTML error page with status 400 (`consent.rs`);
//!   `POST /o/oauth2/v2/auth/decide` redirects to `redirect_uri?code=…&scope=…&state=…` or
//!   `?error=access_denied&state=…`.
//! - `POST /token` (authorization code with PKCE S256, refresh token, a service account's
//!   RS256 JWT bearer assertion) and `POST /revoke`
//!   (`token.rs`, `oauth.rs`).
//! - `GET /v1/userinfo`, `GET /webmasters/v3/sites[/{siteUrl}]`,
//!   `POST /webmasters/v3/sites/{siteUrl}/searchAnalytics/query` (`api.rs`, `analytics.rs`).
//! - `/__mock/faults`, `/__mock/stats`, `/__mock/facts`, `/__mock/reset` (`control.rs`).
//!
//! The data is generated, never random (`generate.rs`, `seeded.rs`): 16 months up to the last
//! day of data (two days before today unless configured), and what it plants is computed from
//! it (`facts.rs`).

mod analytics;
mod api;
mod consent;
mod control;
mod dataset;
mod facts;
mod generate;
mod oauth;
mod seeded;
mod server;
#[cfg(test)]
mod tests;
mod token;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use chrono::{Days, NaiveDate, Utc};
use serde_json::Value;

pub use control::{FaultRequest, Faults, GoogleStats};
pub use generate::{BIG_DAYS, BIG_ROWS};
pub use seeded::BIG_SITE_URL;

/// The paths the mock serves, as Google names them.
pub mod paths {
    pub const AUTH: &str = "/o/oauth2/v2/auth";
    pub const AUTH_DECIDE: &str = "/o/oauth2/v2/auth/decide";
    pub const TOKEN: &str = "/token";
    pub const REVOKE: &str = "/revoke";
    pub const USERINFO: &str = "/v1/userinfo";
    pub const SITES: &str = "/webmasters/v3/sites";
    pub const SITE: &str = "/webmasters/v3/sites/{siteUrl}";
    pub const SEARCH_ANALYTICS: &str = "/webmasters/v3/sites/{siteUrl}/searchAnalytics/query";
}

/// The scope the consent page insists on.
pub const SEARCH_CONSOLE_SCOPE: &str = consent::SEARCH_CONSOLE_SCOPE;

#[derive(Debug, Clone)]
pub struct GoogleMockConfig {
    /// Port 0 picks a free one.
    pub address: SocketAddr,
    pub client_id: String,
    pub client_secret: String,
    /// The signed-in Google account.
    pub email: String,
    /// The generator's seed: the same seed, the same data.
    pub seed: u64,
    /// The last day with data; two days before today (UTC) when `None`.
    pub data_end_date: Option<NaiveDate>,
    /// How long an access token lives (`expires_in`; Google's is 3599 s).
    pub access_token_ttl: Duration,
    /// The sample sites whose pages the data is about.
    pub sites_root: PathBuf,
    /// The service accounts the token endpoint knows (e-mail, public key PEM): the test-only
    /// key in `tests/fixtures/google/` unless configured.
    pub service_accounts: Vec<(String, String)>,
}

/// The test-only service-account key file (`tests/fixtures/google/service-account.json`) as
/// uploaded, and its e-mail.
pub fn fixture_service_account_key() -> (String, String) {
    let path = crate::template::workspace_root().join("tests/fixtures/google/service-account.json");
    let json = std::fs::read_to_string(&path).expect("the service-account fixture");
    let value: Value = serde_json::from_str(&json).expect("the fixture is JSON");
    let email = value["client_email"]
        .as_str()
        .expect("client_email")
        .to_string();
    (json, email)
}

/// The fixture service account's e-mail and public key, as the mock knows it by default.
pub fn fixture_service_account() -> (String, String) {
    let root = crate::template::workspace_root().join("tests/fixtures/google");
    let public = std::fs::read_to_string(root.join("service-account.pub.pem"))
        .expect("the service-account fixture's public key");
    (fixture_service_account_key().1, public)
}

impl Default for GoogleMockConfig {
    fn default() -> Self {
        GoogleMockConfig {
            address: SocketAddr::from(([127, 0, 0, 1], 0)),
            client_id: "local-client-id".into(),
            client_secret: "local-client-secret".into(),
            email: "owner@brightbrew-coffee.test".into(),
            seed: 20_260_401,
            data_end_date: None,
            access_token_ttl: Duration::from_secs(oauth::ACCESS_TOKEN_SECONDS),
            sites_root: crate::sites::fixtures_root(),
            service_accounts: vec![fixture_service_account()],
        }
    }
}

/// A running mock; the server stops when this is dropped.
pub struct MockGoogle {
    address: SocketAddr,
    shared: Arc<server::Shared>,
    server: tokio::task::JoinHandle<()>,
}

impl MockGoogle {
    pub async fn start(config: GoogleMockConfig) -> Result<MockGoogle> {
        let end = config
            .data_end_date
            .unwrap_or_else(|| Utc::now().date_naive() - Days::new(2));
        let data = dataset::Dataset::new(config.seed, end, &config.sites_root)?;
        // A stable `sub` of 21 digits, as Google's are.
        let sub = format!("1{:020}", generate::fnv(&config.email) % 10u64.pow(19));
        let shared = Arc::new(server::Shared {
            settings: server::Settings {
                client_id: config.client_id,
                client_secret: config.client_secret,
                email: config.email,
                sub,
                service_accounts: config.service_accounts,
            },
            data,
            inner: Mutex::new(server::Inner {
                oauth: oauth::OAuthState::new(config.access_token_ttl),
                faults: Faults::default(),
                stats: GoogleStats::default(),
            }),
        });
        let listener = tokio::net::TcpListener::bind(config.address)
            .await
            .with_context(|| format!("binding {}", config.address))?;
        let address = listener.local_addr()?;
        let app = server::router(shared.clone());
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(MockGoogle {
            address,
            shared,
            server,
        })
    }

    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// `http://127.0.0.1:PORT`: what `KR_SEARCH_CONSOLE_API_URL` should be.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// The settings the service reads, pointing at this mock (as `.ci/local-stack` exports them).
    pub fn env(&self) -> Vec<(&'static str, String)> {
        let base = self.base_url();
        let settings = &self.shared.settings;
        vec![
            ("KR_GOOGLE_AUTH_URL", format!("{base}{}", paths::AUTH)),
            ("KR_GOOGLE_TOKEN_URL", format!("{base}{}", paths::TOKEN)),
            ("KR_GOOGLE_REVOKE_URL", format!("{base}{}", paths::REVOKE)),
            (
                "KR_GOOGLE_USERINFO_URL",
                format!("{base}{}", paths::USERINFO),
            ),
            ("KR_SEARCH_CONSOLE_API_URL", base),
            ("KR_GOOGLE_CLIENT_ID", settings.client_id.clone()),
            ("KR_GOOGLE_CLIENT_SECRET", settings.client_secret.clone()),
        ]
    }

    pub fn email(&self) -> &str {
        &self.shared.settings.email
    }

    pub fn stats(&self) -> GoogleStats {
        self.shared.inner.lock().unwrap().stats.clone()
    }

    /// As `POST /__mock/faults`.
    pub fn set_faults(&self, request: &FaultRequest) -> Faults {
        let mut inner = self.shared.inner.lock().unwrap();
        inner.apply(request);
        inner.faults.clone()
    }

    /// As `GET /__mock/facts?siteUrl=…[&country=…]`.
    pub fn facts(&self, site_url: &str, country: Option<&str>) -> Option<Value> {
        facts::facts(&self.shared.data, site_url, country)
    }

    /// What a user clicking "Allow" (or "Deny") on the consent page of `authorize_url` does:
    /// the page is fetched (so an invalid request fails here with its error page's text), its
    /// form posted, and the redirect's `Location` returned (`redirect_uri?code=…&state=…`).
    pub async fn consent(&self, authorize_url: &str, allow: bool) -> Result<String> {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()?;
        let page = client.get(authorize_url).send().await?;
        if !page.status().is_success() {
            bail!(
                "the consent page answered {}: {}",
                page.status(),
                page.text().await?
            );
        }
        let query = reqwest::Url::parse(authorize_url)?
            .query()
            .unwrap_or_default()
            .to_owned();
        let mut form = consent::form_pairs(query.as_bytes());
        form.push((
            "decision".into(),
            if allow { "allow" } else { "deny" }.into(),
        ));
        let decided = client
            .post(format!("{}{}", self.base_url(), paths::AUTH_DECIDE))
            .form(&form)
            .send()
            .await?;
        decided
            .headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
            .ok_or_else(|| {
                anyhow!(
                    "the decision answered {} without a redirect",
                    decided.status()
                )
            })
    }
}

impl Drop for MockGoogle {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl MockGoogle {
    /// The service's Google settings pointing at this mock (what `env()` says, read the way
    /// the functions read their environment).
    pub fn settings(&self) -> kr_google::GoogleSettings {
        let env = self.env();
        kr_google::GoogleSettings::from_lookup(
            |name| {
                env.iter()
                    .find(|(key, _)| *key == name)
                    .map(|(_, value)| value.clone())
            },
            None,
        )
        .expect("the mock's settings name a client")
    }
}
