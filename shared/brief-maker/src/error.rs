use kr_core::store::StoreError;
use kr_http::error::ErrorCode;
use kr_http::ApiError;

/// Why a brief could not be had.
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

impl From<BriefError> for ApiError {
    fn from(err: BriefError) -> Self {
        match err {
            BriefError::NotCompleted => ApiError::new(
                ErrorCode::JobNotReady,
                "The job has not completed yet: briefs are made from its finished clusters.",
            ),
            BriefError::UnknownCluster => ApiError::not_found("Cluster"),
            BriefError::LimitReached { max } => ApiError::forbidden(format!(
                "This job has had its {max} briefs made; the ones made can still be read."
            )),
            BriefError::NotMade => ApiError::new(
                ErrorCode::NotFound,
                "This cluster's brief has not been made yet; the job's owner makes it with POST on this address.",
            ),
            BriefError::InProgress { retry_after_secs } => ApiError::new(
                ErrorCode::JobNotReady,
                format!("This cluster's brief is being made; ask again in {retry_after_secs} s."),
            ),
            BriefError::Store(err) => ApiError::internal(err),
        }
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
