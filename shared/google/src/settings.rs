//! Where Google is and who we are to it: configuration, so the local mock can stand in.

/// Google's endpoints, overridable for the mock (`KR_GOOGLE_*_URL`, `KR_SEARCH_CONSOLE_API_URL`).
#[derive(Clone)]
pub struct GoogleSettings {
    pub client_id: String,
    pub client_secret: String,
    pub auth_url: String,
    pub token_url: String,
    pub revoke_url: String,
    pub userinfo_url: String,
    /// The Search Console API's origin; paths start with `/webmasters/v3/`.
    pub api_url: String,
}

impl std::fmt::Debug for GoogleSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GoogleSettings")
            .field("client_id", &self.client_id)
            .field("auth_url", &self.auth_url)
            .field("token_url", &self.token_url)
            .field("api_url", &self.api_url)
            .finish_non_exhaustive()
    }
}

pub const SCOPE: &str = "https://www.googleapis.com/auth/webmasters.readonly";

impl GoogleSettings {
    /// The endpoints from the environment and the client's credentials: `client_secret` as
    /// read from Secrets Manager in AWS, else `KR_GOOGLE_CLIENT_SECRET`. `None` without a
    /// client id: the deployment has no Google OAuth client.
    pub fn from_env(client_secret: Option<String>) -> Option<Self> {
        Self::from_lookup(|name| std::env::var(name).ok(), client_secret)
    }

    /// As [`from_env`](Self::from_env), reading the variables through `lookup` (tests point
    /// one function at a mock without touching the process environment).
    pub fn from_lookup(
        lookup: impl Fn(&str) -> Option<String>,
        client_secret: Option<String>,
    ) -> Option<Self> {
        let var = |name: &str, default: &str| {
            lookup(name)
                .filter(|value| !value.trim().is_empty())
                .unwrap_or_else(|| default.to_string())
        };
        let client_id = var("KR_GOOGLE_CLIENT_ID", "");
        if client_id.is_empty() {
            return None;
        }
        Some(Self {
            client_id,
            client_secret: client_secret.unwrap_or_else(|| var("KR_GOOGLE_CLIENT_SECRET", "")),
            auth_url: var(
                "KR_GOOGLE_AUTH_URL",
                "https://accounts.google.com/o/oauth2/v2/auth",
            ),
            token_url: var("KR_GOOGLE_TOKEN_URL", "https://oauth2.googleapis.com/token"),
            revoke_url: var(
                "KR_GOOGLE_REVOKE_URL",
                "https://oauth2.googleapis.com/revoke",
            ),
            userinfo_url: var(
                "KR_GOOGLE_USERINFO_URL",
                "https://openidconnect.googleapis.com/v1/userinfo",
            ),
            api_url: var(
                "KR_SEARCH_CONSOLE_API_URL",
                "https://searchconsole.googleapis.com",
            )
            .trim_end_matches('/')
            .to_string(),
        })
    }
}
