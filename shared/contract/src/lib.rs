//! The API's wire shapes, everything the OpenAPI document is derived from that is not a
//! handler: kr-core knows no utoipa (issue 47). Three kinds, one file per area:
//!
//! - **Views**, real response types built from core values with `From`: [`jobs`] (`JobView`,
//!   `CreatedJobView`), [`estimate`], [`account`], [`webhooks`], [`schedules`]. The functions
//!   serialise these very types, so their schemas cannot drift.
//! - **Request bodies** as documented: [`job_request`] (`CreateJobRequest` and the hand-built
//!   schemas of its fields); `kr_core` parses the body into its own command type.
//! - **Mirrors**, schema-only copies of core types that responses serialise as they are
//!   (stored dataset records, domain enums and ids): [`domain`], [`records`], [`plan`],
//!   [`ai_overview`], [`ai_answers`], [`serp_page`], [`brief`], [`locales`], [`validation`]. Each carries the
//!   core type's name (the component's), doc comments (the descriptions) and serde attributes.
//!   The drift test (`src/drift.rs`) serialises real core values, every `Option` filled and
//!   empty, and checks the JSON against the generated schemas; a field added to a core record
//!   and not here fails it.
//!
//! [`query_params`] documents the paging parameters `kr_core::query_params` reads.

pub mod account;
pub mod ai_answers;
pub mod ai_overview;
pub mod brief;
pub mod domain;
pub mod estimate;
pub mod job_request;
pub mod jobs;
pub mod locales;
pub mod plan;
pub mod query_params;
pub mod records;
pub mod schedules;
pub mod serp_page;
pub mod validation;
pub mod webhooks;

#[cfg(test)]
mod drift;
