//! "Repeat this job" (`/jobs/{jobId}/repeat`): the job's owner makes a schedule that runs the
//! same request every week or every month, and sees, pauses, resumes and deletes the
//! account's schedules of that domain. The rules are the API's (`POST /schedules`).

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use chrono::Utc;
use kr_core::dataset::objects;
use kr_core::domain::{Cadence, Job, Schedule, ScheduleId};
use kr_core::service::schedules::{parse_schedule, set_paused, MAX_SCHEDULES};
use kr_core::store::{get_json, User};
use maud::html;
use serde_json::{json, Map, Value};

use super::share::{own_job, own_job_form};
use crate::format;
use crate::layout;
use crate::session::SignedIn;
use crate::WebState;

const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

fn when(schedule: &Schedule) -> String {
    let recurrence = schedule.recurrence;
    match recurrence.cadence {
        Cadence::Weekly => format!(
            "Every {} at {:02}:00 UTC",
            WEEKDAYS[(recurrence.day - 1) as usize],
            recurrence.hour_utc
        ),
        Cadence::Monthly => format!(
            "Monthly on day {} at {:02}:00 UTC",
            recurrence.day, recurrence.hour_utc
        ),
    }
}

fn render(
    status: StatusCode,
    user: &User,
    job: &Job,
    schedules: &[Schedule],
    notice: Option<&str>,
    problem: Option<&str>,
) -> Response {
    let base = format!("/jobs/{}/repeat", job.id);
    layout::page(
        status,
        "Repeat this job",
        Some(user),
        html! {
            section.share {
                h1 { "Repeat " (job.primary_domain.as_str()) }
                p.muted { "A schedule runs this job's research again (same domains, language and location) every week or every month at the hour you choose, each run a new job that uses one run of your account. A run due when no runs are left is skipped and said so below. Compare runs on a job's Changes tab." }
                @if let Some(notice) = notice { p.notice role="status" { (notice) } }
                @if let Some(problem) = problem { p.error role="alert" { (problem) } }
                form.share-form method="post" action=(base) data-once {
                    label for="cadence" { "Repeat" }
                    select #cadence name="cadence" {
                        option value="weekly" { "Weekly" }
                        option value="monthly" selected { "Monthly" }
                    }
                    label for="day-of-week" { "Weekday (weekly)" }
                    select #day-of-week name="dayOfWeek" {
                        @for (index, day) in WEEKDAYS.iter().enumerate() {
                            option value=(index + 1) { (day) }
                        }
                    }
                    label for="day-of-month" { "Day of month (monthly)" }
                    input #day-of-month name="dayOfMonth" type="number" min="1" max="28" value="1";
                    label for="hour" { "Hour (UTC)" }
                    input #hour name="hourUtc" type="number" min="0" max="23" value="6" required;
                    button.primary type="submit" { "Create schedule" }
                }
                h2 { "Schedules of " (job.primary_domain.as_str()) }
                @if schedules.is_empty() {
                    p.muted #no-schedules { "None yet." }
                } @else {
                    div.table-wrap {
                        table.schedules {
                            thead { tr { th scope="col" { "When" } th scope="col" { "Next run" } th scope="col" { "Last run" } th scope="col" { "" } } }
                            tbody {
                                @for schedule in schedules {
                                    tr data-schedule-id=(schedule.id) {
                                        th scope="row" { (when(schedule)) }
                                        td { @if schedule.paused { "Paused" } @else { (format::moment(&schedule.next_run_at)) } }
                                        td {
                                            @match &schedule.last_run {
                                                None => { "—" }
                                                Some(run) => {
                                                    @if let Some(job_id) = run.job_id {
                                                        a href={"/jobs/" (job_id)} { (format::moment(&run.slot)) }
                                                    } @else {
                                                        (format::moment(&run.slot)) " skipped: " (run.skipped.as_deref().unwrap_or(""))
                                                    }
                                                }
                                            }
                                        }
                                        td {
                                            form.inline method="post" action={(base) "/" (schedule.id) "/pause"} data-once {
                                                input type="hidden" name="paused" value=(if schedule.paused { "false" } else { "true" });
                                                button type="submit" { (if schedule.paused { "Resume" } else { "Pause" }) }
                                            }
                                            form.inline method="post" action={(base) "/" (schedule.id) "/delete"} data-once {
                                                button.danger type="submit" { "Delete" }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                p { a href={"/jobs/" (job.id)} { "Back to the job" } }
            }
        },
    )
}

async fn page_with(
    state: &WebState,
    status: StatusCode,
    user: &User,
    job: &Job,
    notice: Option<&str>,
    problem: Option<&str>,
) -> Response {
    match state.schedules.list_schedules(user.id).await {
        Ok(schedules) => {
            let domain = Value::from(job.primary_domain.as_str());
            let mine: Vec<Schedule> = schedules
                .into_iter()
                .filter(|s| s.request.get("primaryDomain") == Some(&domain))
                .collect();
            render(status, user, job, &mine, notice, problem)
        }
        Err(err) => layout::internal_error(err),
    }
}

pub async fn manage(
    State(state): State<WebState>,
    SignedIn(user): SignedIn,
    Path(job_id): Path<String>,
) -> Response {
    match own_job(&state, &user, &job_id).await {
        Ok(job) => page_with(&state, StatusCode::OK, &user, &job, None, None).await,
        Err(page) => page,
    }
}

/// The body `POST /schedules` would take for this job and the form's timing.
async fn schedule_body(
    state: &WebState,
    job: &Job,
    form: &[(String, String)],
) -> Result<Map<String, Value>, Response> {
    let mut body = json!({
        "primaryDomain": job.primary_domain.as_str(),
        "competitorDomains": job.competitor_domains.iter().map(|d| d.as_str()).collect::<Vec<_>>(),
        "languageCode": job.language_code,
        "locationCode": job.location_code,
        "discoverKeywords": job.discover_keywords,
    });
    if job.imported_keywords > 0 {
        let phrases: Option<Vec<String>> =
            get_json(state.objects.as_ref(), job.id, objects::IMPORTED_KEYWORDS)
                .await
                .map_err(layout::internal_error)?;
        body["keywords"] = json!(phrases.unwrap_or_default());
    }
    let field = |name: &str| form.iter().find(|(n, _)| n == name).map(|(_, v)| v.trim());
    body["cadence"] = json!(field("cadence").unwrap_or_default());
    for name in ["dayOfWeek", "dayOfMonth", "hourUtc"] {
        if let Some(number) = field(name).and_then(|v| v.parse::<i64>().ok()) {
            body[name] = json!(number);
        }
    }
    match body {
        Value::Object(map) => Ok(map),
        _ => unreachable!("a JSON object literal"),
    }
}

pub async fn create(
    State(state): State<WebState>,
    SignedIn(user): SignedIn,
    Path(job_id): Path<String>,
    headers: HeaderMap,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    let job = match own_job_form(&state, &user, &job_id, &headers).await {
        Ok(job) => job,
        Err(page) => return page,
    };
    let mut body = match schedule_body(&state, &job, &form).await {
        Ok(body) => body,
        Err(page) => return page,
    };
    // The form sends both days; the cadence says which one counts.
    match body.get("cadence").and_then(Value::as_str) {
        Some("weekly") => body.remove("dayOfMonth"),
        _ => body.remove("dayOfWeek"),
    };
    let schedule = match parse_schedule(&body, user.id, Utc::now()) {
        Ok(schedule) => schedule,
        Err(errors) => {
            let problem = errors
                .iter()
                .map(|e| format!("{} {}", e.field, e.message))
                .collect::<Vec<_>>()
                .join("; ");
            return page_with(
                &state,
                StatusCode::BAD_REQUEST,
                &user,
                &job,
                None,
                Some(&problem),
            )
            .await;
        }
    };
    match state
        .schedules
        .create_schedule(&schedule, MAX_SCHEDULES)
        .await
    {
        Ok(true) => {
            let notice = format!(
                "Scheduled: {}. The first run is due {}.",
                when(&schedule),
                schedule.next_run_at.format("%Y-%m-%d %H:%M UTC")
            );
            page_with(
                &state,
                StatusCode::CREATED,
                &user,
                &job,
                Some(&notice),
                None,
            )
            .await
        }
        Ok(false) => {
            let problem = format!(
                "An account has at most {MAX_SCHEDULES} schedules; delete one to create another."
            );
            page_with(
                &state,
                StatusCode::FORBIDDEN,
                &user,
                &job,
                None,
                Some(&problem),
            )
            .await
        }
        Err(err) => layout::internal_error(err),
    }
}

/// `/jobs/{jobId}/repeat/{scheduleId}/pause` (`paused=true|false`) and `…/delete`.
pub async fn change(
    State(state): State<WebState>,
    SignedIn(user): SignedIn,
    Path((job_id, schedule_id, action)): Path<(String, String, String)>,
    headers: HeaderMap,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    let job = match own_job_form(&state, &user, &job_id, &headers).await {
        Ok(job) => job,
        Err(page) => return page,
    };
    let not_found = || layout::not_found(Some(&user), "Schedule");
    let Ok(id) = schedule_id.parse::<ScheduleId>() else {
        return not_found();
    };
    let done = match action.as_str() {
        "pause" => {
            let paused = form.iter().any(|(n, v)| n == "paused" && v == "true");
            set_paused(state.schedules.as_ref(), user.id, id, paused, Utc::now())
                .await
                .map(|s| s.is_some())
        }
        "delete" => state.schedules.delete_schedule(user.id, id).await,
        _ => return not_found(),
    };
    match done {
        Ok(true) => Redirect::to(&format!("/jobs/{}/repeat", job.id)).into_response(),
        Ok(false) => not_found(),
        Err(err) => layout::internal_error(err),
    }
}
