//! Every endpoint of the API in one table: method, full path, the function that serves it
//! and the handler in that function's crate. The handlers carry the same full paths in their
//! `#[utoipa::path]` (search for a path to find its handler), and
//! `tests/tests/suite/routes_and_template.rs` checks every other declaration against this table:
//! each function's router and OpenAPI paths, `template.yaml` (events, the streaming
//! integration of the export and its invoke permission), the local router of
//! `cargo lambda watch` in `Cargo.toml`, and the published `openapi.json`.

pub mod links;

/// Every endpoint lives below this prefix.
pub const API_PREFIX: &str = "/api/v1";

/// The function serving the dashboard: every path outside the API (`/` and API Gateway's
/// greedy `/{proxy+}`, which matches only what no API path does). Its pages are listed in its
/// crate (`functions/web/src/lib.rs`); under the API prefix it answers the contract's 404.
pub const DASHBOARD_FUNCTION: &str = "web";
pub const DASHBOARD_PATHS: [&str; 2] = ["/", "/{proxy+}"];

/// The dashboard page a share link opens: the link the API hands out and the base of every
/// link on that page.
pub fn share_page(token: &str) -> String {
    format!("/share/{token}")
}

/// The Model Context Protocol endpoint (streamable HTTP) and the function serving it. Not a
/// REST endpoint, so neither in [`ROUTES`] nor in the OpenAPI document.
pub const MCP_FUNCTION: &str = "mcp";
pub const MCP_PATH: &str = "/mcp";

/// The API's functions, by the binary name `template.yaml` deploys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Function {
    Account,
    Integrations,
    Jobs,
    Results,
    Briefs,
    Export,
    Locales,
}

impl Function {
    pub const ALL: [Function; 7] = [
        Self::Account,
        Self::Integrations,
        Self::Jobs,
        Self::Results,
        Self::Briefs,
        Self::Export,
        Self::Locales,
    ];

    /// The binary (and `functions/<name>` crate directory) of the function.
    pub fn binary(self) -> &'static str {
        match self {
            Self::Account => "account",
            Self::Integrations => "integrations",
            Self::Jobs => "jobs",
            Self::Results => "results",
            Self::Briefs => "briefs",
            Self::Export => "export",
            Self::Locales => "locales",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Method {
    Get,
    Post,
    Put,
    Patch,
    Delete,
}

impl Method {
    /// As an HTTP request line writes it.
    pub fn as_http(self) -> &'static str {
        match self {
            Self::Get => "GET",
            Self::Post => "POST",
            Self::Put => "PUT",
            Self::Patch => "PATCH",
            Self::Delete => "DELETE",
        }
    }

    /// As the OpenAPI document names it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Get => "get",
            Self::Post => "post",
            Self::Put => "put",
            Self::Patch => "patch",
            Self::Delete => "delete",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Route {
    pub method: Method,
    /// The full path, as API Gateway and the OpenAPI document write it.
    pub path: &'static str,
    pub function: Function,
    /// `module::fn` in the function's crate (`functions/<binary>/src/`).
    pub handler: &'static str,
    /// Answered with Lambda response streaming, so API Gateway needs an integration of its
    /// own (`responseTransferMode: STREAM`) and a permission to invoke it.
    pub streaming: bool,
}

const fn buffered(
    method: Method,
    path: &'static str,
    function: Function,
    handler: &'static str,
) -> Route {
    Route {
        method,
        path,
        function,
        handler,
        streaming: false,
    }
}

const fn streamed(
    method: Method,
    path: &'static str,
    function: Function,
    handler: &'static str,
) -> Route {
    Route {
        streaming: true,
        ..buffered(method, path, function, handler)
    }
}

use Function::{Account, Briefs, Export, Integrations, Jobs, Locales, Results};
use Method::{Delete, Get, Patch, Post, Put};

#[rustfmt::skip]
pub const ROUTES: &[Route] = &[
    //       method  path                                                  function handler
    buffered(Get,    "/api/v1/users/me",                                   Account, "users::me"),
    buffered(Get,    "/api/v1/users/me/branding",                          Account, "branding::show"),
    buffered(Patch,  "/api/v1/users/me/branding",                          Account, "branding::rename"),
    buffered(Put,    "/api/v1/users/me/branding/logo",                     Account, "branding::upload_logo"),
    buffered(Delete, "/api/v1/users/me/branding/logo",                     Account, "branding::delete_logo"),
    buffered(Post,   "/api/v1/auth/login",                                 Account, "session::login"),
    buffered(Post,   "/api/v1/auth/logout",                                Account, "session::logout"),
    buffered(Post,   "/api/v1/api-keys",                                   Account, "api_keys::create"),
    buffered(Get,    "/api/v1/api-keys",                                   Account, "api_keys::list"),
    buffered(Delete, "/api/v1/api-keys/{keyId}",                           Account, "api_keys::revoke"),
    buffered(Post,   "/api/v1/webhooks",                                   Account, "webhooks::create"),
    buffered(Get,    "/api/v1/webhooks",                                   Account, "webhooks::list"),
    buffered(Delete, "/api/v1/webhooks/{webhookId}",                       Account, "webhooks::delete"),
    buffered(Get,    "/api/v1/webhooks/{webhookId}/deliveries",            Account, "webhooks::deliveries"),
    buffered(Post,   "/api/v1/integrations/search-console",                Integrations, "search_console::connect"),
    buffered(Get,    "/api/v1/integrations/search-console",                Integrations, "search_console::status"),
    buffered(Delete, "/api/v1/integrations/search-console",                Integrations, "search_console::disconnect"),
    buffered(Post,   "/api/v1/integrations/search-console/callback",       Integrations, "search_console::callback"),
    buffered(Put,    "/api/v1/integrations/search-console/service-account", Integrations, "search_console::service_account"),
    buffered(Post,   "/api/v1/jobs",                                       Jobs,    "handlers::create"),
    buffered(Get,    "/api/v1/jobs",                                       Jobs,    "handlers::list"),
    buffered(Post,   "/api/v1/jobs/import",                                Jobs,    "keyword_lists::import"),
    buffered(Post,   "/api/v1/jobs/estimate",                              Jobs,    "keyword_lists::estimate"),
    buffered(Get,    "/api/v1/jobs/{jobId}",                               Jobs,    "handlers::get"),
    buffered(Delete, "/api/v1/jobs/{jobId}",                               Jobs,    "handlers::delete"),
    buffered(Post,   "/api/v1/jobs/{jobId}/share-links",                   Jobs,    "share_links::create"),
    buffered(Get,    "/api/v1/jobs/{jobId}/share-links",                   Jobs,    "share_links::list"),
    buffered(Delete, "/api/v1/jobs/{jobId}/share-links/{linkId}",          Jobs,    "share_links::revoke"),
    buffered(Post,   "/api/v1/schedules",                                  Jobs,    "schedules::create"),
    buffered(Get,    "/api/v1/schedules",                                  Jobs,    "schedules::list"),
    buffered(Get,    "/api/v1/schedules/{scheduleId}",                     Jobs,    "schedules::get"),
    buffered(Patch,  "/api/v1/schedules/{scheduleId}",                     Jobs,    "schedules::update"),
    buffered(Delete, "/api/v1/schedules/{scheduleId}",                     Jobs,    "schedules::delete"),
    buffered(Get,    "/api/v1/jobs/{jobId}/keywords",                      Results, "handlers::keywords"),
    buffered(Get,    "/api/v1/jobs/{jobId}/clusters",                      Results, "handlers::clusters"),
    buffered(Get,    "/api/v1/jobs/{jobId}/clusters/{clusterId}/keywords", Results, "handlers::cluster_keywords"),
    buffered(Get,    "/api/v1/jobs/{jobId}/clusters/{clusterId}/brief",    Briefs,  "handlers::brief"),
    buffered(Post,   "/api/v1/jobs/{jobId}/clusters/{clusterId}/brief",    Briefs,  "handlers::make_brief"),
    buffered(Get,    "/api/v1/jobs/{jobId}/topics",                        Results, "handlers::topics"),
    buffered(Get,    "/api/v1/jobs/{jobId}/personas",                      Results, "handlers::personas"),
    buffered(Get,    "/api/v1/jobs/{jobId}/references",                    Results, "handlers::references"),
    buffered(Get,    "/api/v1/jobs/{jobId}/changes",                       Results, "handlers::changes"),
    buffered(Get,    "/api/v1/jobs/{jobId}/ai-visibility",                 Results, "handlers::ai_visibility"),
    streamed(Get,    "/api/v1/jobs/{jobId}/export-keywords",               Export,  "handlers::export_keywords"),
    buffered(Get,    "/api/v1/languages",                                  Locales, "lists::languages"),
    buffered(Get,    "/api/v1/locations",                                  Locales, "lists::locations"),
    buffered(Get,    "/api/v1/openapi.json",                               Locales, "docs::openapi_json"),
    buffered(Get,    "/api/v1/docs",                                       Locales, "docs::docs_page"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_is_under_the_prefix_and_each_method_path_pair_is_listed_once() {
        let mut seen = std::collections::BTreeSet::new();
        for route in ROUTES {
            assert!(route.path.starts_with(API_PREFIX), "{}", route.path);
            assert!(seen.insert((route.path, route.method)), "{route:?} twice");
        }
    }

    #[test]
    fn a_path_belongs_to_one_function() {
        for a in ROUTES {
            for b in ROUTES.iter().filter(|b| b.path == a.path) {
                assert_eq!(a.function, b.function, "{}", a.path);
            }
        }
    }
}
