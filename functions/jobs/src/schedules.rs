//! Scheduled re-runs: `POST`/`GET /schedules`, `GET`/`PATCH`/`DELETE /schedules/{scheduleId}`.
//! Each run is a normal job of the owner's (it uses one run), started by the pipeline's
//! 5-minute tick (`kr_core::service::schedules::run_due_schedules`).

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use chrono::Utc;
use kr_contract::job_request::CreateJobRequest;
use kr_contract::schedules::ScheduleView;
use kr_core::domain::{ScheduleId, MAX_DAY_OF_MONTH};
use kr_core::service::schedules::{
    parse_paused, parse_schedule, set_paused, MAX_SCHEDULED_KEYWORDS, MAX_SCHEDULES,
};
use kr_http::error::ErrorBody;
use kr_http::extract::{CurrentUser, JobRequestBody, JsonBody, PathParams};
use kr_http::ApiError;
use serde::Serialize;
use utoipa::openapi::schema::{AllOfBuilder, ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::openapi::RefOr;
use utoipa::ToSchema;

use crate::JobsState;

/// The body of `POST /schedules`: the body of `POST /jobs` without `callbackUrl` (a run's
/// events go to the account's webhooks) and with at most 1,000 `keywords`, and when to run it:
/// `cadence` `weekly` with `dayOfWeek` 1 (Monday) to 7 (Sunday), or `monthly` with
/// `dayOfMonth` 1 to 28, and `hourUtc` 0 to 23. Documented from the job body's own schema, so
/// the two cannot drift; `parse_schedule` reads it.
pub struct CreateScheduleRequest;

impl utoipa::PartialSchema for CreateScheduleRequest {
    fn schema() -> RefOr<Schema> {
        let mut job = match CreateJobRequest::schema() {
            RefOr::T(Schema::Object(object)) => object,
            _ => unreachable!("the job body is an object schema"),
        };
        job.properties.remove("callbackUrl");
        if let Some(RefOr::T(Schema::Array(keywords))) = job.properties.get_mut("keywords") {
            keywords.max_items = Some(MAX_SCHEDULED_KEYWORDS);
        }
        let day = |name: &str, cadence: &str, high: u32, description: &str| {
            ObjectBuilder::new()
                .property(
                    "cadence",
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .enum_values(Some([cadence])),
                )
                .property(
                    name,
                    ObjectBuilder::new()
                        .schema_type(Type::Integer)
                        .minimum(Some(1))
                        .maximum(Some(high))
                        .description(Some(description)),
                )
                .required("cadence")
                .required(name)
        };
        let hour = ObjectBuilder::new()
            .property(
                "hourUtc",
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(0))
                    .maximum(Some(23))
                    .description(Some(
                        "The hour the run starts, UTC (within 5 minutes of it).",
                    )),
            )
            .required("hourUtc");
        AllOfBuilder::new()
            .item(Schema::Object(job))
            .item(
                OneOfBuilder::new()
                    .item(day("dayOfWeek", "weekly", 7, "1 (Monday) to 7 (Sunday), ISO 8601."))
                    .item(day("dayOfMonth", "monthly", MAX_DAY_OF_MONTH, "1 to 28: a day every month has.")),
            )
            .item(hour)
            .description(Some("The body of `POST /jobs` (without `callbackUrl`; at most 1,000 `keywords`) and when to run it."))
            .into()
    }
}

impl ToSchema for CreateScheduleRequest {
    fn name() -> std::borrow::Cow<'static, str> {
        "CreateScheduleRequest".into()
    }
}

#[derive(Serialize, ToSchema)]
pub struct ScheduleReply {
    schedule: ScheduleView,
}

#[derive(Serialize, ToSchema)]
pub struct ScheduleList {
    /// Oldest first; at most 20.
    schedules: Vec<ScheduleView>,
}

/// The body of `PATCH /schedules/{scheduleId}`.
#[derive(ToSchema)]
#[allow(dead_code)] // Never built: it only documents the body.
pub struct UpdateScheduleRequest {
    /// `true` pauses (no run starts); `false` resumes at the next slot from now.
    paused: bool,
}

fn parse_id(raw: &str) -> Result<ScheduleId, ApiError> {
    raw.parse().map_err(|_| ApiError::not_found("Schedule"))
}

/// Creates a schedule: the job is run again every week or every month at `hourUtc`, each run
/// a new job of the account that uses one run. A run due when the account has no runs left is
/// skipped and said so in `lastRun`. At most 20 schedules per account.
#[utoipa::path(
    post,
    path = "/api/v1/schedules",
    tag = "schedules",
    request_body = CreateScheduleRequest,
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 201, description = "Created", body = ScheduleReply),
        (status = 400, description = "Invalid fields (every one named in details)", body = ErrorBody),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 403, description = "The account has 20 schedules already", body = ErrorBody),
        (status = 413, description = "Body over 64 KiB (1 MiB with `keywords`)", body = ErrorBody),
    )
)]
pub async fn create(
    State(state): State<JobsState>,
    CurrentUser(principal): CurrentUser,
    // The job body's own allowance: 1,000 keywords of 80 characters do not fit in 64 KiB.
    body: Result<JobRequestBody, ApiError>,
) -> Result<(StatusCode, Json<ScheduleReply>), ApiError> {
    let JobRequestBody(JsonBody(body)) = body?;
    let schedule =
        parse_schedule(&body, principal.user_id, Utc::now()).map_err(ApiError::validation)?;
    // Its runs name the property too: checked now, and again by each run's import.
    if let Ok(request) = kr_core::service::jobs::CreateJobRequest::parse(&schedule.request) {
        crate::keyword_lists::check_property(&state, principal.user_id, &request).await?;
    }
    if !state
        .schedules
        .create_schedule(&schedule, MAX_SCHEDULES)
        .await?
    {
        return Err(ApiError::forbidden(format!(
            "An account has at most {MAX_SCHEDULES} schedules; delete one to create another."
        )));
    }
    Ok((
        StatusCode::CREATED,
        Json(ScheduleReply {
            schedule: ScheduleView::from(&schedule),
        }),
    ))
}

/// The account's schedules, oldest first.
#[utoipa::path(
    get,
    path = "/api/v1/schedules",
    tag = "schedules",
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The schedules", body = ScheduleList),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
    )
)]
pub async fn list(
    State(state): State<JobsState>,
    CurrentUser(principal): CurrentUser,
) -> Result<Json<ScheduleList>, ApiError> {
    let schedules = state.schedules.list_schedules(principal.user_id).await?;
    Ok(Json(ScheduleList {
        schedules: schedules.iter().map(ScheduleView::from).collect(),
    }))
}

/// One schedule, with its next run and its latest run (the job it started, or why it was
/// skipped). Its jobs carry its id as `scheduleId`.
#[utoipa::path(
    get,
    path = "/api/v1/schedules/{scheduleId}",
    tag = "schedules",
    params(("scheduleId" = String, Path, format = Uuid)),
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The schedule", body = ScheduleReply),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 404, description = "No such schedule, or not yours", body = ErrorBody),
    )
)]
pub async fn get(
    State(state): State<JobsState>,
    CurrentUser(principal): CurrentUser,
    PathParams([schedule_id]): PathParams<1>,
) -> Result<Json<ScheduleReply>, ApiError> {
    let id = parse_id(&schedule_id)?;
    let schedule = state
        .schedules
        .schedule(principal.user_id, id)
        .await?
        .ok_or_else(|| ApiError::not_found("Schedule"))?;
    Ok(Json(ScheduleReply {
        schedule: ScheduleView::from(&schedule),
    }))
}

/// Pauses or resumes a schedule (`{"paused": true}`); resumed, it runs next at its first slot
/// from now (slots missed while paused are not made up).
#[utoipa::path(
    patch,
    path = "/api/v1/schedules/{scheduleId}",
    tag = "schedules",
    params(("scheduleId" = String, Path, format = Uuid)),
    request_body = UpdateScheduleRequest,
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The schedule as it is now", body = ScheduleReply),
        (status = 400, description = "`paused` missing or not a boolean", body = ErrorBody),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 404, description = "No such schedule, or not yours", body = ErrorBody),
        (status = 413, description = "Body over 64 KiB", body = ErrorBody),
    )
)]
pub async fn update(
    State(state): State<JobsState>,
    CurrentUser(principal): CurrentUser,
    PathParams([schedule_id]): PathParams<1>,
    // Read after the path, so an id that is no schedule is the 404 of any unknown id.
    body: Result<JsonBody, ApiError>,
) -> Result<Json<ScheduleReply>, ApiError> {
    let id = parse_id(&schedule_id)?;
    let paused = parse_paused(&body?.0).map_err(|e| ApiError::validation(vec![e]))?;
    let schedule = set_paused(
        state.schedules.as_ref(),
        principal.user_id,
        id,
        paused,
        Utc::now(),
    )
    .await?
    .ok_or_else(|| ApiError::not_found("Schedule"))?;
    Ok(Json(ScheduleReply {
        schedule: ScheduleView::from(&schedule),
    }))
}

/// Deletes a schedule: no further run starts; jobs it started stay.
#[utoipa::path(
    delete,
    path = "/api/v1/schedules/{scheduleId}",
    tag = "schedules",
    params(("scheduleId" = String, Path, format = Uuid)),
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 404, description = "No such schedule, or not yours", body = ErrorBody),
    )
)]
pub async fn delete(
    State(state): State<JobsState>,
    CurrentUser(principal): CurrentUser,
    PathParams([schedule_id]): PathParams<1>,
) -> Result<StatusCode, ApiError> {
    let id = parse_id(&schedule_id)?;
    if state
        .schedules
        .delete_schedule(principal.user_id, id)
        .await?
    {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found("Schedule"))
    }
}
