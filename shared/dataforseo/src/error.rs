use crate::status::StatusClass;

/// Why a provider call gave no answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ProviderError {
    /// The account needs its owner: rejected credentials or no balance. Shown to the job's
    /// owner as the reason the job failed.
    #[error("{0}")]
    Account(String),
    /// The job's spending cap is reached; no further paid calls.
    #[error("the job's spending cap is reached")]
    CapReached,
    /// The request cannot succeed as sent (an invalid field, a location the API does not
    /// cover).
    #[error("DataForSEO refused the request ({code}): {message}")]
    Rejected { code: i64, message: String },
    /// Transient trouble that outlasted the retries.
    #[error("DataForSEO is unavailable: {0}")]
    Unavailable(String),
    /// A request that creates paid tasks went out and no readable answer came back: the
    /// tasks may have been created (and paid for) or not. It is never sent again blindly.
    #[error("DataForSEO's answer was lost: {0}")]
    Unanswered(String),
}

impl ProviderError {
    pub fn unavailable(message: impl Into<String>) -> Self {
        Self::Unavailable(message.into())
    }

    pub(crate) fn from_status(class: StatusClass, code: i64, message: String) -> Self {
        match class {
            StatusClass::BadCredentials => Self::Account(
                "DataForSEO rejected the service's credentials; the operator has to renew them."
                    .into(),
            ),
            StatusClass::NoBalance => Self::Account(
                "The DataForSEO account has no balance left; the operator has to top it up.".into(),
            ),
            StatusClass::DailyLimit => Self::Account(
                "The DataForSEO account's daily spending limit is reached; the operator has to raise it or wait for the next day (UTC)."
                    .into(),
            ),
            StatusClass::Retryable => Self::Unavailable(format!("{code} {message}")),
            _ => Self::Rejected { code, message },
        }
    }
}
