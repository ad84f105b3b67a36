//! The HTTP side: Basic auth, the account balance, fault rules, the documented envelope around
//! each task's answer, and the request log behind `/__mock/stats`.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use super::answer::{answer, Answer, OK};
use super::data::MockData;
use super::faults::{Fault, Faults};
use super::queue::{self, QueuedTask, Reply};
use super::{paths, MockStats, ReceivedTask};

pub(crate) struct Shared {
    pub data: Arc<MockData>,
    /// The exact `Authorization` header the configured login and password produce.
    pub authorization: String,
    pub labs_locations: Vec<i64>,
    pub initial_balance: Option<f64>,
    pub serp_ready_after: std::time::Duration,
    pub serp_ready_after_polls: usize,
    pub inner: Mutex<Inner>,
}

pub(crate) struct Inner {
    /// Engines whose LLM Responses fail (`/__mock/faults`).
    pub failing_engines: Vec<String>,
    /// SERP tasks posted to the Standard queue.
    pub queue: Vec<QueuedTask>,
    /// `tasks_ready` calls so far.
    pub ready_polls: usize,
    pub faults: Faults,
    pub stats: MockStats,
}

/// Standard base64, enough for a Basic credential.
pub(crate) fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |n, b| (n << 8) | u32::from(*b)) << (8 * (3 - chunk.len()));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Costs in whole micro-dollars, so sums do not drift.
pub(crate) fn round_cost(usd: f64) -> f64 {
    (usd * 1e6).round() / 1e6
}

pub(crate) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/__mock/stats", get(stats))
        .route("/__mock/reset", post(reset))
        .route("/__mock/faults", get(faults).post(set_faults))
        .fallback(endpoint)
        .with_state(shared)
}

async fn stats(State(shared): State<Arc<Shared>>) -> Json<MockStats> {
    Json(shared.inner.lock().unwrap().stats.clone())
}

async fn reset(State(shared): State<Arc<Shared>>) -> StatusCode {
    shared.reset();
    StatusCode::NO_CONTENT
}

/// The faults set at run time (the rules file's are fixed): `{"failEngines": [...]}`.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct RuntimeFaults {
    #[serde(default)]
    fail_engines: Vec<String>,
}

async fn faults(State(shared): State<Arc<Shared>>) -> Json<RuntimeFaults> {
    Json(RuntimeFaults {
        fail_engines: shared.inner.lock().unwrap().failing_engines.clone(),
    })
}

async fn set_faults(
    State(shared): State<Arc<Shared>>,
    Json(faults): Json<RuntimeFaults>,
) -> StatusCode {
    shared.inner.lock().unwrap().failing_engines = faults.fail_engines;
    StatusCode::NO_CONTENT
}

impl Shared {
    pub fn reset(&self) {
        let mut inner = self.inner.lock().unwrap();
        inner.failing_engines.clear();
        inner.faults.rearm();
        inner.queue.clear();
        inner.stats = MockStats {
            balance_left: self.initial_balance,
            ..MockStats::default()
        };
    }
}

fn elapsed(started: Instant) -> String {
    format!("{:.4} sec.", started.elapsed().as_secs_f64())
}

fn envelope(
    status: i64,
    message: &str,
    cost: f64,
    tasks: Option<Vec<Value>>,
    started: Instant,
) -> Value {
    let count = tasks.as_ref().map_or(0, Vec::len);
    let errors = tasks.as_ref().map_or(0, |tasks| {
        tasks
            .iter()
            .filter(|t| t["status_code"] != OK && t["status_code"] != queue::TASK_CREATED)
            .count()
    });
    json!({
        "version": "0.1.20260714", "status_code": status, "status_message": message,
        "time": elapsed(started), "cost": round_cost(cost), "tasks_count": count,
        "tasks_error": errors, "tasks": tasks,
    })
}

fn reply(http: StatusCode, body: Value) -> Response {
    (
        http,
        [(CONTENT_TYPE, "application/json")],
        Body::from(body.to_string()),
    )
        .into_response()
}

/// The task as posted, plus the names of the API and function, as the real `data` carries.
pub(crate) fn task_data(path: &str, task: &Value) -> Value {
    let segments: Vec<&str> = path.trim_start_matches("/v3/").split('/').collect();
    let mut data = task.clone();
    if let Some(fields) = data.as_object_mut() {
        let (api, se) = (segments.first().copied(), segments.get(1).copied());
        fields.insert("api".into(), json!(api));
        fields.insert("se".into(), json!(se));
        if api == Some("serp") {
            // `/v3/serp/google/organic/live/advanced`, `.../task_post`, `.../task_get/advanced`.
            fields.insert("function".into(), json!(segments.get(3)));
            fields.insert("se_type".into(), json!(segments.get(2)));
        } else {
            fields.insert("function".into(), json!(segments.get(2)));
        }
    }
    data
}

fn task_json(path: &str, task: &Value, answer: &Answer, cost: f64, started: Instant) -> Value {
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    json!({
        "id": uuid::Uuid::new_v4().to_string(), "status_code": answer.status,
        "status_message": answer.message, "time": elapsed(started), "cost": round_cost(cost),
        "result_count": answer.result.as_ref().map_or(0, Vec::len), "path": segments,
        "data": task_data(path, task), "result": answer.result,
    })
}

async fn endpoint(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let started = Instant::now();
    let path = request.uri().path().to_owned();
    let serp_queue = queue::queue_of(&path);
    let task_id = serp_queue.and_then(|queue| {
        path.strip_prefix(queue.get)
            .and_then(|rest| rest.strip_prefix('/'))
            .map(str::to_owned)
    });
    let known = match *request.method() {
        Method::POST => paths::is_posted(&path),
        Method::GET => serp_queue.is_some_and(|queue| path == queue.ready) || task_id.is_some(),
        _ => false,
    };
    let authorized = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        == Some(shared.authorization.as_str());
    let body = to_bytes(request.into_body(), 32 << 20)
        .await
        .unwrap_or_default();

    let mut inner = shared.inner.lock().unwrap();
    // Requests to collect a task are counted under the endpoint, not per id.
    let counted = match (serp_queue, &task_id) {
        (Some(queue), Some(_)) => queue.get.to_owned(),
        _ => path.clone(),
    };
    *inner.stats.requests.entry(counted).or_default() += 1;
    if !known {
        return reply(
            StatusCode::NOT_FOUND,
            envelope(40_400, "Not Found.", 0.0, None, started),
        );
    }
    if !authorized {
        let message = "You are not authorized to access this resource.";
        return reply(
            StatusCode::UNAUTHORIZED,
            envelope(40_100, message, 0.0, None, started),
        );
    }
    let payment_required = || {
        reply(
            StatusCode::PAYMENT_REQUIRED,
            envelope(40_200, "Payment Required.", 0.0, None, started),
        )
    };
    if inner.stats.balance_left.is_some_and(|left| left <= 0.0) {
        return payment_required();
    }
    if let (Some(queue), Some(id)) = (serp_queue, &task_id) {
        drop(inner);
        let reply = queue::get(&shared, queue, id);
        return queue_reply(&path, vec![reply], started);
    }
    if let Some(queue) = serp_queue.filter(|queue| path == queue.ready) {
        if let Some(response) = queue_fault(&mut inner, &path, &json!({}), started) {
            return response;
        }
        drop(inner);
        let reply = queue::ready(&shared, queue);
        return queue_reply(&path, vec![reply], started);
    }
    let tasks: Vec<Value> = match serde_json::from_slice::<Vec<Value>>(&body) {
        Ok(tasks) if !tasks.is_empty() && tasks.iter().all(Value::is_object) => tasks,
        _ => {
            return reply(
                StatusCode::OK,
                envelope(40_503, "POST Data Is Invalid.", 0.0, None, started),
            )
        }
    };

    if let Some(queue) = serp_queue.filter(|queue| path == queue.post) {
        // Per-task faults are decided in `post`; a lost answer after the tasks are queued.
        let fault = inner.faults.strike(&path, &tasks[0]);
        let lost = fault == Some(Fault::AnswerLost);
        if let Some(fault) = fault.filter(|_| !lost) {
            if let Some(response) =
                whole_request_fault(&mut inner.stats, &path, &tasks[0], fault, started)
            {
                return response;
            }
        }
        drop(inner);
        let replies = queue::post(&shared, queue, &tasks);
        if lost {
            return lost_answer();
        }
        return queue_reply(&path, replies, started);
    }
    let first = &tasks[0];
    let price = shared.data.price(&path);
    let engine_down = super::llm::engine_of(&path)
        .is_some_and(|engine| inner.failing_engines.iter().any(|e| e == engine));
    let fault = if engine_down {
        Some(Fault::Task {
            status: 50_000,
            message: "Internal Error.".into(),
            charge: false,
        })
    } else {
        inner.faults.strike(&path, first)
    };
    let (answer, charged) = match fault {
        Some(Fault::Task {
            status,
            message,
            charge,
        }) => (Answer::failed(status, message), charge),
        Some(fault) => {
            return whole_request_fault(&mut inner.stats, &path, first, fault, started)
                .expect("a fault of the whole request");
        }
        None => {
            let answer = answer(&shared.data, &path, first, &shared.labs_locations);
            let ok = answer.status == OK;
            (answer, ok)
        }
    };
    let cost = match (charged, price) {
        (true, Some(p)) => round_cost(
            p.task + p.item * answer.billed_items as f64 + p.extra_page * answer.extra_pages as f64,
        ),
        _ => 0.0,
    };
    if inner
        .stats
        .balance_left
        .is_some_and(|left| cost > left + 1e-9)
    {
        inner
            .stats
            .record(ReceivedTask::new(&path, first, 40_200, 0.0, 402));
        return payment_required();
    }
    inner
        .stats
        .record(ReceivedTask::new(&path, first, answer.status, cost, 200));
    let mut out = vec![task_json(&path, first, &answer, cost, started)];
    // Live endpoints run one task per request; the rest are refused, unbilled.
    for extra in &tasks[1..] {
        let refused = Answer::failed(40_000, "You can set only one task at a time.");
        inner
            .stats
            .record(ReceivedTask::new(&path, extra, refused.status, 0.0, 200));
        out.push(task_json(&path, extra, &refused, 0.0, started));
    }
    reply(
        StatusCode::OK,
        envelope(OK, "Ok.", cost, Some(out), started),
    )
}

/// The fault rules of a queue request, which fail it as a whole or not at all (a task-level
/// rule on these paths is used up without effect).
fn queue_fault(inner: &mut Inner, path: &str, task: &Value, started: Instant) -> Option<Response> {
    let fault = inner.faults.strike(path, task)?;
    whole_request_fault(&mut inner.stats, path, task, fault, started)
}

/// A fault that fails the whole request: the response, recorded; `None` for a task-level one.
fn whole_request_fault(
    stats: &mut MockStats,
    path: &str,
    task: &Value,
    fault: Fault,
    started: Instant,
) -> Option<Response> {
    match fault {
        Fault::Http(code) => {
            let http = StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            stats.record(ReceivedTask::new(path, task, i64::from(code), 0.0, code));
            Some((http, http.canonical_reason().unwrap_or("error")).into_response())
        }
        Fault::Envelope { status, message } => {
            stats.record(ReceivedTask::new(path, task, status, 0.0, 200));
            Some(reply(
                StatusCode::OK,
                envelope(status, &message, 0.0, None, started),
            ))
        }
        Fault::AnswerLost => {
            // Nothing this path does is worth billing without its answer.
            stats.record(ReceivedTask::new(path, task, 0, 0.0, 200));
            Some(lost_answer())
        }
        Fault::Task { .. } => None,
    }
}

/// A 200 whose body breaks off: the connection drops before the answer is whole.
fn lost_answer() -> Response {
    let chunks = futures_util::stream::iter([
        Ok(axum::body::Bytes::from_static(
            b"{\"version\": \"0.1\", \"status_code\": 2",
        )),
        Err(std::io::Error::other("connection lost")),
    ]);
    (
        StatusCode::OK,
        [(CONTENT_TYPE, "application/json")],
        Body::from_stream(chunks),
    )
        .into_response()
}

/// The envelope around the queue's task replies.
fn queue_reply(path: &str, replies: Vec<Reply>, started: Instant) -> Response {
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let cost: f64 = replies.iter().map(|r| r.cost).sum();
    let tasks: Vec<Value> = replies
        .into_iter()
        .map(|r| {
            json!({
                "id": r.id, "status_code": r.status, "status_message": r.message,
                "time": elapsed(started), "cost": round_cost(r.cost),
                "result_count": r.result.as_ref().map_or(0, Vec::len), "path": segments,
                "data": r.data, "result": r.result,
            })
        })
        .collect();
    reply(
        StatusCode::OK,
        envelope(OK, "Ok.", cost, Some(tasks), started),
    )
}
