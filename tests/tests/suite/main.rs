//! The integration tests, one module per area, in one test binary: linked once instead of once
//! per file, and each module still run on its own (`cargo test --test suite -- MODULE::`, which
//! is how `.ci/test` gives every module a fresh emulator state).

mod account_api;
mod ai_answers;
mod ai_overview_api;
mod bedrock_personas;
mod brief_claims;
mod briefs;
mod browser_smoke;
mod content_plan;
mod dashboard;
mod dashboard_http;
mod dataforseo_client;
mod dataforseo_e2e;
mod dataforseo_mock;
mod dataforseo_serp_queue;
mod error_bodies;
mod job_changes;
mod jobs_api;
mod keyword_import;
mod keyword_import_pipeline;
mod layout;
mod least_privilege;
mod limits_api;
mod locales_api;
mod mcp;
mod openapi_bounds;
mod pipeline_crawl_parts;
mod pipeline_e2e;
mod pipeline_engine;
mod pipeline_faults;
mod provider_stores;
mod research_quality;
mod results_api;
mod retention;
mod routes_and_template;
mod schedules;
mod search_console_api;
mod search_console_import;
mod search_console_plan;
mod share_links;
mod webhooks;
