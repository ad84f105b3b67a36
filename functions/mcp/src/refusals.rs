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
    let code = match &err {
        BriefError::NotCompleted | BriefError::InProgress { .. } => ErrorCode::JobNotReady,
        BriefError::UnknownCluster | BriefError::NotMade => ErrorCode::NotFound,
        BriefError::LimitReached { .. } => ErrorCode::Forbidden,
        BriefError::Store(cause) => return ApiError::internal(cause),
    };
    ApiError::new(code, err.to_string())
}
