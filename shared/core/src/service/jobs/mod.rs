//! Job use cases: create (validated, charged, enqueued), read, delete, re-enqueue. One file
//! per concern:
//!
//! - `request`: the body of `POST /jobs` and the `Idempotency-Key` header, parsed;
//! - `views`: what the jobs API answers and its hand-built OpenAPI schemas (no use case);
//! - `create`: charging, storing and enqueueing a new job;
//! - `read`, `delete`: one job, for its owner (or anyone, for a demo job);
//! - `sweep`: the sweeper's re-sends of lost and stalled jobs.
//!
//! Every name is used as `service::jobs::X`; the files are private.

mod create;
mod delete;
mod read;
mod request;
mod sweep;
mod views;

pub use create::{create_job, create_job_of, imported_phrases, CreateJobError, JobPorts};
pub use delete::delete_job;
pub use read::readable_job;
pub use request::{
    parse_idempotency_key, CreateJobRequest, MAX_COMPETITORS, MAX_IDEMPOTENCY_KEY_CHARS,
};
pub use sweep::{redrive_stalled_jobs, requeue_stale_jobs};
pub use views::{
    callback_url_schema, language_code_schema, location_code_schema, CreatedJobView, JobView,
    KeywordImportView, UsageView,
};
