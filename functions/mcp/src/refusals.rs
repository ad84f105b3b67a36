//! The query engine's and the brief maker's refusals as the API tells them (the same code and
//! message as `functions/results` and `functions/briefs` answer), so a tool fails the way the
//! endpoint behind it does. The libraries know no HTTP: each edge says how it tells them.

use kr_brief_maker::BriefError;
use kr_http::error::ErrorCode;
use kr_http::ApiError;
use kr_query::QueryError;

pub fn query(err: QueryError) -> ApiError {
    let code = match err {
        QueryError::Invalid(field) => return field.into(),
        QueryError::Store(err) => return err.into(),
        QueryError::SinceNotFound => ErrorCode::NotFound,
        QueryError::SinceNotCompleted => ErrorCode::JobNotReady,
    };
    ApiError::new(code, err.to_string())
}

pub fn brief(err: BriefError) -> ApiError {
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
