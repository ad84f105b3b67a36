//! The extractors every function shares: who is calling, a size-capped JSON body, typed
//! query parameters, and the job a job-scoped request may read.

mod body;
mod caller;
mod path;
mod query;
mod source;
mod viewable;

pub use body::{
    read_body_capped, DeclaredJsonBody, JobRequestBody, JsonBody, KeywordFileBody, MAX_BODY_BYTES,
    MAX_KEYWORDS_BODY_BYTES,
};
pub use caller::{foreign_origin_refused, from_foreign_origin, CurrentUser, Viewer};
pub use path::PathParams;
pub use query::Query;
pub use source::SourceAddress;
pub use viewable::viewable_job;
