use kr_core::store::StoreError;

/// Why a brief could not be had, in the words a client is told (`Display`); the callers (the
/// briefs API, the MCP tool) pick the status and code.
#[derive(Debug)]
pub enum BriefError {
    /// The job has not completed: its clusters are not known yet.
    NotCompleted,
    /// The completed job has no cluster of that id.
    UnknownCluster,
    /// The job already had its bound of briefs made.
    LimitReached {
        max: u32,
    },
    /// Not made yet, and the caller may only read it.
    NotMade,
    /// Another request is making it; ask again in `retry_after_secs`.
    InProgress {
        retry_after_secs: u64,
    },
    Store(StoreError),
}

impl From<StoreError> for BriefError {
    fn from(err: StoreError) -> Self {
        Self::Store(err)
    }
}

impl std::fmt::Display for BriefError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotCompleted => write!(
                f,
                "The job has not completed yet: briefs are made from its finished clusters."
            ),
            Self::UnknownCluster => write!(f, "Cluster not found."),
            Self::LimitReached { max } => write!(
                f,
                "This job has had its {max} briefs made; the ones made can still be read."
            ),
            Self::NotMade => write!(
                f,
                "This cluster's brief has not been made yet; the job's owner makes it with POST on this address."
            ),
            Self::InProgress { retry_after_secs } => write!(
                f,
                "This cluster's brief is being made; ask again in {retry_after_secs} s."
            ),
            Self::Store(_) => write!(f, "the store failed"),
        }
    }
}

impl std::error::Error for BriefError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Store(err) => Some(err),
            _ => None,
        }
    }
}
