//! Scheduled re-runs: the API (create, list, read, pause, resume, delete; the owner only; at
//! most 20; every bad field named; a job's body allowance), and the pipeline's tick with a clock the test moves: a due
//! slot starts one job under two concurrent ticks, a run without runs left is skipped, says
//! so and raises `schedule.run_skipped` once, and the job a schedule started carries its id;
//! each scheduled run's completion raises `job.changes` with what moved since the run before;
//! schedules cannot be jammed ([`jammed`]); and a skipped run's event is owed until sent ([`owed`]).
//!
//! A tick starts every due schedule of the table, so the parts run one after the other in one
//! test (a test's tick would otherwise start another's schedules), each removing its own.

mod jammed;
mod owed;

use chrono::{DateTime, Duration, Timelike, Utc};
use kr_core::domain::{JobStatus, ScheduleId};
use kr_core::store::{JobStore, ScheduleStore, UserStore};
use kr_jobs::{router, JobsState};
use kr_tests::harness::{self, Call};
use kr_tests::pipeline_rig::rig;
use kr_tests::sites::{DEMO_COMPETITOR, DEMO_PRIMARY};
use serde_json::{json, Value};

use crate::webhooks::{drive, notifier, receiver, verify, webhook_and_secret, Answer};

/// What the receiver was sent, as (type, data), in the order it came.
fn events(received: &[crate::webhooks::Received]) -> Vec<(String, Value)> {
    received
        .iter()
        .map(|(_, body, _)| {
            let body: Value = serde_json::from_slice(body).unwrap();
            (
                body["type"].as_str().unwrap().to_string(),
                body["data"].clone(),
            )
        })
        .collect()
}

async fn app() -> axum::Router {
    router(JobsState::from_config(harness::config(), harness::resources()).await)
}

fn weekly() -> Value {
    json!({
        "primaryDomain": format!("https://www.{DEMO_PRIMARY}/"),
        "competitorDomains": [DEMO_COMPETITOR],
        "languageCode": "en",
        "locationCode": 2840,
        "cadence": "weekly",
        "dayOfWeek": 1,
        "hourUtc": 6
    })
}

async fn create(app: &axum::Router, key: &str, body: Value, status: u16) -> Value {
    Call::post("/api/v1/schedules")
        .api_key(key)
        .json(body)
        .send(app)
        .await
        .expect(status)
        .json
}

fn fields(body: &Value) -> Vec<&str> {
    body["details"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["field"].as_str().unwrap())
        .collect()
}

fn time(value: &Value) -> DateTime<Utc> {
    value.as_str().unwrap().parse().unwrap()
}

#[tokio::test]
async fn schedules_through_the_api_and_the_tick() {
    jammed::a_client_key_never_takes_a_scheduled_runs_place().await;
    jammed::a_tick_pages_past_schedules_it_cannot_run().await;
    a_due_slot_starts_one_job_under_two_concurrent_ticks().await;
    a_run_without_runs_left_is_skipped_and_the_schedule_says_why().await;
    owed::a_skipped_runs_event_whose_send_failed_is_raised_by_the_sweeper_once().await;
    a_schedule_is_made_read_paused_resumed_and_deleted_by_its_owner_only().await;
    a_schedule_with_a_thousand_long_keywords_is_accepted_like_a_job().await;
    every_bad_field_is_named_and_an_account_holds_twenty().await;
}

async fn a_schedule_is_made_read_paused_resumed_and_deleted_by_its_owner_only() {
    let app = app().await;
    let store = harness::store().await;
    let (_, key) = harness::user_with_key(&store, 1, 1).await;
    let before = Utc::now();
    let created = create(&app, &key, weekly(), 201).await;
    let schedule = &created["schedule"];
    let id = schedule["id"].as_str().unwrap().to_string();
    assert_eq!(schedule["cadence"], "weekly");
    assert_eq!(schedule["dayOfWeek"], 1);
    assert_eq!(schedule["dayOfMonth"], Value::Null);
    assert_eq!(schedule["job"]["primaryDomain"], DEMO_PRIMARY, "normalised");
    assert_eq!(schedule["lastRun"], Value::Null);
    let next = time(&schedule["nextRunAt"]);
    assert!(
        next > before && next <= before + Duration::days(7),
        "{next}"
    );
    assert_eq!((next.hour(), next.minute()), (6, 0));
    assert_eq!(next.format("%u").to_string(), "1", "a Monday");

    let path = format!("/api/v1/schedules/{id}");
    let listed = Call::get("/api/v1/schedules")
        .api_key(&key)
        .send(&app)
        .await
        .expect(200);
    assert_eq!(listed.json["schedules"][0]["id"], id.as_str());
    let read = Call::get(&path).api_key(&key).send(&app).await.expect(200);
    assert_eq!(read.json["schedule"], *schedule);

    let paused = Call::patch(&path)
        .api_key(&key)
        .json(json!({"paused": true}))
        .send(&app)
        .await
        .expect(200);
    assert_eq!(paused.json["schedule"]["paused"], true);
    assert_eq!(paused.json["schedule"]["nextRunAt"], Value::Null);
    let resumed = Call::patch(&path)
        .api_key(&key)
        .json(json!({"paused": false}))
        .send(&app)
        .await
        .expect(200);
    assert_eq!(resumed.json["schedule"]["nextRunAt"], schedule["nextRunAt"]);
    for bad in [json!({}), json!({"paused": "yes"})] {
        let refused = Call::patch(&path)
            .api_key(&key)
            .json(bad)
            .send(&app)
            .await
            .expect(400);
        assert_eq!(fields(&refused.json), ["paused"]);
    }

    // Another account sees none of it, and changes nothing.
    let (_, stranger) = harness::user_with_key(&store, 1, 1).await;
    Call::get(&path)
        .api_key(&stranger)
        .send(&app)
        .await
        .expect(404);
    Call::patch(&path)
        .api_key(&stranger)
        .json(json!({"paused": true}))
        .send(&app)
        .await
        .expect(404);
    Call::delete(&path)
        .api_key(&stranger)
        .send(&app)
        .await
        .expect(404);
    let theirs = Call::get("/api/v1/schedules")
        .api_key(&stranger)
        .send(&app)
        .await
        .expect(200);
    assert_eq!(theirs.json["schedules"], json!([]));
    Call::get("/api/v1/schedules/not-an-id")
        .api_key(&key)
        .send(&app)
        .await
        .expect(404);
    Call::get("/api/v1/schedules").send(&app).await.expect(401);

    Call::delete(&path)
        .api_key(&key)
        .send(&app)
        .await
        .expect(204);
    Call::get(&path).api_key(&key).send(&app).await.expect(404);
    Call::delete(&path)
        .api_key(&key)
        .send(&app)
        .await
        .expect(404);
}

/// A schedule carries a job's body, so it has the job's allowance: 1,000 keywords of 80
/// characters are over 64 KiB and still a valid schedule; past 64 KiB without keywords, 413.
async fn a_schedule_with_a_thousand_long_keywords_is_accepted_like_a_job() {
    let app = app().await;
    let store = harness::store().await;
    let (_, key) = harness::user_with_key(&store, 1, 1).await;
    let mut long = weekly();
    let phrases: Vec<String> = (0..1000)
        .map(|i| format!("keyword {i:04} {}", "a".repeat(66)))
        .collect();
    long["keywords"] = phrases.clone().into();
    assert!(long.to_string().len() > 64 * 1024);
    let created = create(&app, &key, long, 201).await;
    assert_eq!(created["schedule"]["job"]["keywords"], json!(phrases));
    let id = created["schedule"]["id"].as_str().unwrap();
    Call::delete(&format!("/api/v1/schedules/{id}"))
        .api_key(&key)
        .send(&app)
        .await
        .expect(204);

    let mut padded = weekly();
    padded["note"] = "x".repeat(64 * 1024).into();
    let refused = create(&app, &key, padded, 413).await;
    assert_eq!(refused["code"], "payload_too_large");
}

async fn every_bad_field_is_named_and_an_account_holds_twenty() {
    let app = app().await;
    let store = harness::store().await;
    let (_, key) = harness::user_with_key(&store, 1, 1).await;
    let empty = create(&app, &key, json!({}), 400).await;
    assert_eq!(
        fields(&empty),
        [
            "primaryDomain",
            "languageCode",
            "locationCode",
            "cadence",
            "hourUtc"
        ]
    );
    let mut monthly = weekly();
    monthly["cadence"] = "monthly".into();
    monthly["dayOfMonth"] = 31.into();
    monthly["hourUtc"] = 24.into();
    monthly["callbackUrl"] = "https://hooks.example.com/kr".into();
    let refused = create(&app, &key, monthly, 400).await;
    assert_eq!(fields(&refused), ["dayOfMonth", "hourUtc", "callbackUrl"]);
    let mut many = weekly();
    many["keywords"] = (0..1001)
        .map(|i| format!("keyword {i}"))
        .collect::<Vec<_>>()
        .into();
    assert_eq!(fields(&create(&app, &key, many, 400).await), ["keywords"]);

    for _ in 0..20 {
        create(&app, &key, weekly(), 201).await;
    }
    let refused = create(&app, &key, weekly(), 403).await;
    assert_eq!(refused["code"], "forbidden");
}

async fn a_due_slot_starts_one_job_under_two_concurrent_ticks() {
    let rig = rig(None, &[]).await;
    let app = app().await;
    let (user, key) = harness::user_with_key(&rig.store, 2, 2).await;
    let created = create(&app, &key, weekly(), 201).await;
    let id: ScheduleId = created["schedule"]["id"].as_str().unwrap().parse().unwrap();
    let slot = time(&created["schedule"]["nextRunAt"]);

    // Before the slot nothing starts.
    let (early, _) = rig
        .pipeline
        .start_due_schedules(slot - Duration::minutes(1))
        .await
        .unwrap();
    assert_eq!(early.started, 0);

    // Two ticks at once, five minutes after the slot.
    let tick = slot + Duration::minutes(5);
    let (a, b) = tokio::join!(
        rig.pipeline.start_due_schedules(tick),
        rig.pipeline.start_due_schedules(tick)
    );
    let (a, b) = (a.unwrap().0, b.unwrap().0);
    assert_eq!(a.started + b.started, 1, "{a:?} {b:?}");
    let jobs = rig.store.list_jobs(user.id, None, 10, 0).await.unwrap();
    assert_eq!(jobs.jobs.len(), 1, "one job for the slot");
    let job = &jobs.jobs[0];
    assert_eq!(job.schedule_id, Some(id));
    let balance = rig.store.user(user.id).await.unwrap().unwrap();
    assert_eq!(balance.credits_balance, 1, "the run used one run");

    let schedule = rig.store.schedule(user.id, id).await.unwrap().unwrap();
    let last = schedule.last_run.clone().unwrap();
    assert_eq!(
        (last.slot, last.job_id, last.skipped),
        (slot, Some(job.id), None)
    );
    assert_eq!(schedule.next_run_at, slot + Duration::days(7));
    // A third tick for the same time finds nothing due.
    let (again, _) = rig.pipeline.start_due_schedules(tick).await.unwrap();
    assert_eq!((again.started, again.skipped), (0, 0));

    // The run is a normal job, and says which schedule started it.
    let done = rig.complete(job.id).await;
    assert_eq!(done.status, JobStatus::Completed);
    let jobs_app = app;
    let read = Call::get(&format!("/api/v1/jobs/{}", job.id))
        .api_key(&key)
        .send(&jobs_app)
        .await
        .expect(200);
    assert_eq!(read.json["job"]["scheduleId"], id.to_string());

    // The next slot's run, and the events of both: each run's `job.changes` compares it with
    // the run before (the first has none).
    let (receiver_state, address) = receiver(vec![Answer::Status(204)]).await;
    let (_, secret) = webhook_and_secret(&rig, user.id, "http://hooks.test/schedule").await;
    let (second, _) = rig
        .pipeline
        .start_due_schedules(slot + Duration::days(7) + Duration::minutes(5))
        .await
        .unwrap();
    assert_eq!(second.started, 1);
    let runs = rig
        .store
        .list_jobs(user.id, None, 10, 0)
        .await
        .unwrap()
        .jobs;
    let next = runs.iter().find(|j| j.id != job.id).unwrap();
    rig.complete(next.id).await;
    drive(
        &rig,
        &notifier(&rig, address, std::time::Duration::from_secs(5)),
    )
    .await;
    let received = receiver_state.received.lock().unwrap().clone();
    for (headers, body, _) in &received {
        verify(&secret, headers, body);
    }
    let sent = events(&received);
    // Fanned out when the queue is read, so the first run's events reach the webhook too.
    let changes_of = |run: kr_core::domain::JobId| {
        let found: Vec<&Value> = sent
            .iter()
            .filter(|(kind, data)| kind == "job.changes" && data["job"]["id"] == run.to_string())
            .map(|(_, data)| &data["changes"])
            .collect();
        assert_eq!(found.len(), 1, "{sent:?}");
        found[0].clone()
    };
    assert_eq!(
        changes_of(job.id)["since"],
        Value::Null,
        "the first run has none before it"
    );
    let digest = changes_of(next.id);
    assert_eq!(digest["since"]["jobId"], job.id.to_string());
    let counts = &digest["counts"];
    assert_eq!(
        (
            counts["newKeywords"].as_u64(),
            counts["lostKeywords"].as_u64()
        ),
        (Some(0), Some(0)),
        "the same sites: {digest}"
    );
    assert!(counts["keptKeywords"].as_u64().unwrap() > 0, "{digest}");
    assert!(!digest["summary"].as_str().unwrap().is_empty());
    assert_eq!(
        sent.iter()
            .filter(|(kind, _)| kind == "job.completed")
            .count(),
        2,
        "{sent:?}"
    );
    assert_eq!(sent.len(), 4, "{sent:?}");
    assert!(rig.store.delete_schedule(user.id, id).await.unwrap());
}

async fn a_run_without_runs_left_is_skipped_and_the_schedule_says_why() {
    let rig = rig(None, &[]).await;
    let app = app().await;
    let (user, key) = harness::user_with_key(&rig.store, 0, 1).await;
    let created = create(&app, &key, weekly(), 201).await;
    let id: ScheduleId = created["schedule"]["id"].as_str().unwrap().parse().unwrap();
    let slot = time(&created["schedule"]["nextRunAt"]);
    // Three weeks late: the missed slots are not made up, the next is after the tick.
    let tick = slot + Duration::days(15);
    let (receiver_state, address) = receiver(vec![Answer::Status(200)]).await;
    let (webhook, secret) = webhook_and_secret(&rig, user.id, "http://hooks.test/skipped").await;
    let (report, finished) = rig.pipeline.start_due_schedules(tick).await.unwrap();
    assert_eq!((report.started, report.skipped), (0, 1));
    assert_eq!(finished.len(), 1);
    // A second tick finds the slot done and raises nothing more.
    rig.pipeline.start_due_schedules(tick).await.unwrap();
    drive(
        &rig,
        &notifier(&rig, address, std::time::Duration::from_secs(5)),
    )
    .await;
    let received = receiver_state.received.lock().unwrap().clone();
    let sent = events(&received);
    assert_eq!(sent.len(), 1, "{sent:?}");
    verify(&secret, &received[0].0, &received[0].1);
    let (kind, data) = &sent[0];
    assert_eq!(kind, "schedule.run_skipped");
    assert_eq!(data["scheduleId"], id.to_string());
    assert_eq!(time(&data["slot"]), slot);
    assert!(
        data["reason"].as_str().unwrap().contains("no runs left"),
        "{data}"
    );
    let logged = kr_core::store::WebhookStore::deliveries(rig.store.as_ref(), webhook.id, 10)
        .await
        .unwrap();
    assert_eq!(logged.len(), 1);
    assert_eq!((logged[0].job_id, logged[0].schedule_id), (None, Some(id)));
    assert_eq!(
        rig.store
            .list_jobs(user.id, None, 10, 0)
            .await
            .unwrap()
            .jobs
            .len(),
        0
    );
    let read = Call::get(&format!("/api/v1/schedules/{id}"))
        .api_key(&key)
        .send(&app)
        .await
        .expect(200);
    let last = &read.json["schedule"]["lastRun"];
    assert_eq!(last["jobId"], Value::Null);
    assert!(
        last["skipped"].as_str().unwrap().contains("no runs left"),
        "{last}"
    );
    assert_eq!(time(&last["slot"]), slot);
    assert_eq!(
        time(&read.json["schedule"]["nextRunAt"]),
        slot + Duration::days(21)
    );
    let _ = rig
        .store
        .schedule(user.id, id)
        .await
        .unwrap()
        .expect("kept");
}
