//! The SERP Standard queue (FACTS.md, "Google organic SERP, Standard method"): `task_post`
//! takes up to 100 tasks and bills each at the Standard price; a task is ready `ready_after`
//! later and after `ready_after_polls` calls of `tasks_ready`, and is listed by `tasks_ready`
//! until it is collected; `task_get/advanced/{id}` answers
//! "Task In Queue." before that and the SERP the Live endpoint would give after, free, as
//! often as asked. Fault rules on the `task_get` path decide, when a task is posted, the
//! failure it will be collected with (a search engine error, say).

use std::time::Instant;

use serde_json::{json, Value};

use super::answer::{answer, Answer, NO_RESULTS, OK};
use super::faults::Fault;
use super::paths;
use super::server::{round_cost, task_data, Shared};
use super::ReceivedTask;

/// "Task Created."
pub(crate) const TASK_CREATED: i64 = 20_100;
const IN_QUEUE: i64 = 40_602;
const TOO_MANY_TASKS: i64 = 40_006;
const MAX_TASKS: usize = 100;
/// `tasks_ready` lists this many at most.
const READY_LIST: usize = 1000;

/// One of the SERP API's queues: its paths, and the Live endpoint whose answer a task gets.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct SerpQueue {
    pub live: &'static str,
    pub post: &'static str,
    pub ready: &'static str,
    pub get: &'static str,
    pub se_type: &'static str,
}

pub(crate) const ORGANIC: SerpQueue = SerpQueue {
    live: paths::SERP_ORGANIC,
    post: paths::SERP_TASK_POST,
    ready: paths::SERP_TASKS_READY,
    get: paths::SERP_TASK_GET,
    se_type: "organic",
};

pub(crate) const AI_MODE: SerpQueue = SerpQueue {
    live: paths::AI_MODE_LIVE,
    post: paths::AI_MODE_TASK_POST,
    ready: paths::AI_MODE_TASKS_READY,
    get: paths::AI_MODE_TASK_GET,
    se_type: "ai_mode",
};

/// The queue one of whose paths `path` is (a `task_get` path with its id included).
pub(crate) fn queue_of(path: &str) -> Option<&'static SerpQueue> {
    [&ORGANIC, &AI_MODE].into_iter().find(|queue| {
        path == queue.post || path == queue.ready || path.starts_with(&format!("{}/", queue.get))
    })
}

/// A posted task and the answer it will have.
pub(crate) struct QueuedTask {
    pub queue: &'static SerpQueue,
    pub id: String,
    pub task: Value,
    pub posted: Instant,
    /// `tasks_ready` calls before it was posted.
    pub polls_at_post: usize,
    pub posted_at: String,
    pub answer: Answer,
    pub collected: bool,
}

/// A task of the reply: its status, cost and result.
pub(crate) struct Reply {
    pub status: i64,
    pub message: String,
    pub cost: f64,
    pub result: Option<Vec<Value>>,
    pub data: Value,
    pub id: String,
}

/// Posts `tasks`; what each posted task will answer is decided now, from the fixtures.
pub(crate) fn post(shared: &Shared, queue: &'static SerpQueue, tasks: &[Value]) -> Vec<Reply> {
    let mut inner = shared.inner.lock().unwrap();
    let price = shared.data.price(queue.post);
    let mut replies = Vec::new();
    for (i, task) in tasks.iter().enumerate() {
        let id = uuid::Uuid::new_v4().to_string();
        let data = task_data(queue.post, task);
        if i >= MAX_TASKS {
            let message = "You can set only 100 tasks at a time.";
            inner.stats.record(ReceivedTask::new(
                queue.post,
                task,
                TOO_MANY_TASKS,
                0.0,
                200,
            ));
            replies.push(reply(id, TOO_MANY_TASKS, message, 0.0, None, data));
            continue;
        }
        let checked = answer(&shared.data, queue.live, task, &[]);
        // A task that cannot run (an invalid field) is refused at once, unbilled.
        if checked.status != OK && checked.status != NO_RESULTS {
            inner.stats.record(ReceivedTask::new(
                queue.post,
                task,
                checked.status,
                0.0,
                200,
            ));
            replies.push(reply(id, checked.status, &checked.message, 0.0, None, data));
            continue;
        }
        let answer = match inner.faults.strike(queue.get, task) {
            Some(Fault::Task {
                status, message, ..
            }) => Answer::failed(status, message),
            _ => checked,
        };
        let cost = price.map_or(0.0, |p| {
            round_cost(p.task + p.extra_page * answer.extra_pages as f64)
        });
        inner
            .stats
            .record(ReceivedTask::new(queue.post, task, TASK_CREATED, cost, 200));
        replies.push(reply(
            id.clone(),
            TASK_CREATED,
            "Task Created.",
            cost,
            None,
            data,
        ));
        let polls = inner.ready_polls;
        inner.queue.push(QueuedTask {
            queue,
            id,
            task: task.clone(),
            posted: Instant::now(),
            polls_at_post: polls,
            posted_at: chrono::Utc::now()
                .format("%Y-%m-%d %H:%M:%S +00:00")
                .to_string(),
            answer,
            collected: false,
        });
    }
    replies
}

/// The finished tasks not collected yet.
pub(crate) fn ready(shared: &Shared, queue: &'static SerpQueue) -> Reply {
    let mut inner = shared.inner.lock().unwrap();
    let polls = inner.ready_polls;
    inner.ready_polls += 1;
    let listed: Vec<Value> = inner
        .queue
        .iter()
        .filter(|t| t.queue == queue && !t.collected && is_ready(shared, t, polls))
        .take(READY_LIST)
        .map(|t| {
            json!({
                "id": t.id, "se": "google", "se_type": queue.se_type, "date_posted": t.posted_at,
                "tag": t.task.get("tag").cloned().unwrap_or(Value::Null),
                "endpoint_regular": format!("/v3/serp/google/{}/task_get/regular/{}", queue.se_type, t.id),
                "endpoint_advanced": format!("{}/{}", queue.get, t.id),
                "endpoint_html": format!("/v3/serp/google/{}/task_get/html/{}", queue.se_type, t.id),
            })
        })
        .collect();
    let empty = json!({});
    inner
        .stats
        .record(ReceivedTask::new(queue.ready, &empty, OK, 0.0, 200));
    let id = uuid::Uuid::new_v4().to_string();
    let data = task_data(queue.ready, &json!({}));
    reply(id, OK, "Ok.", 0.0, Some(listed), data)
}

/// Whether `task` is done, `polls` `tasks_ready` calls having been made so far.
fn is_ready(shared: &Shared, task: &QueuedTask, polls: usize) -> bool {
    task.posted.elapsed() >= shared.serp_ready_after
        && polls - task.polls_at_post >= shared.serp_ready_after_polls
}

/// Task `id`'s results, once it is ready.
pub(crate) fn get(shared: &Shared, queue: &'static SerpQueue, id: &str) -> Reply {
    let mut inner = shared.inner.lock().unwrap();
    let polls = inner.ready_polls;
    let Some(at) = inner
        .queue
        .iter()
        .position(|t| t.queue == queue && t.id == id)
    else {
        let empty = json!({ "id": id });
        inner
            .stats
            .record(ReceivedTask::new(queue.get, &empty, 40_400, 0.0, 200));
        return reply(id.into(), 40_400, "Not Found.", 0.0, None, json!({}));
    };
    let queued = &mut inner.queue[at];
    let data = task_data(queue.get, &queued.task);
    let task = queued.task.clone();
    let (status, message, result) = if !is_ready(shared, queued, polls) {
        (IN_QUEUE, "Task In Queue.".to_string(), None)
    } else {
        queued.collected = true;
        (
            queued.answer.status,
            queued.answer.message.clone(),
            queued.answer.result.clone(),
        )
    };
    inner
        .stats
        .record(ReceivedTask::new(queue.get, &task, status, 0.0, 200));
    reply(id.into(), status, &message, 0.0, result, data)
}

fn reply(
    id: String,
    status: i64,
    message: &str,
    cost: f64,
    result: Option<Vec<Value>>,
    data: Value,
) -> Reply {
    Reply {
        status,
        message: message.into(),
        cost,
        result,
        data,
        id,
    }
}
