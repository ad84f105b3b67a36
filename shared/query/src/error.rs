//! Why a query over a job's results is refused. Parsing a query refuses with a
//! [`FieldError`] alone; reading results can also fail in the store, and the changes of a job
//! can be refused for their `since` run. Each edge (the results API, the MCP tools, the
//! dashboard) says how it tells them; the sentences are these.

use kr_core::store::StoreError;
use kr_core::validation::FieldError;

#[derive(Debug)]
pub enum QueryError {
    /// A parameter refused, named as the client sent it.
    Invalid(FieldError),
    /// `since` names a job of another account: a demo job is readable by everyone but is not
    /// this job's history, and another account's job is not said to exist.
    SinceNotFound,
    /// `since` names a run that has not completed.
    SinceNotCompleted,
    Store(StoreError),
}

impl From<FieldError> for QueryError {
    fn from(err: FieldError) -> Self {
        Self::Invalid(err)
    }
}

impl From<StoreError> for QueryError {
    fn from(err: StoreError) -> Self {
        Self::Store(err)
    }
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Invalid(err) => err.fmt(f),
            Self::SinceNotFound => write!(f, "Job not found."),
            Self::SinceNotCompleted => write!(
                f,
                "The `since` job has not completed; name a completed run."
            ),
            Self::Store(err) => err.fmt(f),
        }
    }
}

impl std::error::Error for QueryError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Store(err) => Some(err),
            _ => None,
        }
    }
}
