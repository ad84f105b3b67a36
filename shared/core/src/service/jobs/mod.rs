//! Job use cases: create (validated, charged, enqueued), read, delete, re-enqueue. One file
//! per concern:
//!
//! - `request`: the body of `POST /jobs` and the `Idempotency-Key` header, parsed;
//! - `create`: charging, storing and enqueueing a new job (`CreatedJob`, what its creator is
//!   told; `kr_contract::jobs` has the views the API answers);
//! - `read`, `delete`: one job, for its owner (or anyone, for a demo job);
//! - `sweep`: the sweeper's re-sends of lost and stalled jobs.
//!
//! Every name is used as `service::jobs::X`; the files are private.

mod create;
mod delete;
mod read;
mod request;
mod sweep;

pub use create::{
    create_job, create_job_of, imported_phrases, CreateJobError, CreatedJob, JobPorts,
    KeywordImport,
};
pub use delete::delete_job;
pub use read::readable_job;
pub use request::{
    check_search_console_property, parse_idempotency_key, CreateJobRequest, MAX_COMPETITORS,
    MAX_IDEMPOTENCY_KEY_CHARS,
};
pub use sweep::{redrive_stalled_jobs, requeue_stale_jobs};
