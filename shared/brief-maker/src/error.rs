use kr_core::store::StoreError;

/// Why a brief could not be had. The callers (the briefs API, the MCP tool) say how they tell
/// each to the client.
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
            Self::NotCompleted => write!(f, "the job has not completed"),
            Self::UnknownCluster => write!(f, "no such cluster"),
            Self::LimitReached { max } => write!(f, "the job has had its {max} briefs"),
            Self::NotMade => write!(f, "the brief has not been made"),
            Self::InProgress { .. } => write!(f, "the brief is being made"),
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
