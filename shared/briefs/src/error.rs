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
            BriefError::Store(err) => ApiError::internal(err),
        }
    }
}
