//! "Repeat this job" (`/jobs/{jobId}/repeat`): the owner makes a schedule of the job's request,
//! sees it listed, pauses, resumes and deletes it; a bad form is said and makes nothing; nobody
//! else reaches the page or the schedule.

use kr_core::store::ScheduleStore;
use kr_tests::harness::{self, Call};

use super::plan_tab::{dataset, job_with};
use super::session;

const ORIGIN: &str = "https://app.keyword-research.test";

#[tokio::test]
async fn the_owner_schedules_pauses_and_deletes_from_the_repeat_page() {
    let (app, job, cookie) = job_with(dataset).await;
    let page = format!("/jobs/{}/repeat", job.id);
    let post = |path: &str, body: &str, cookie: &str| {
        Call::post(path)
            .header("content-type", "application/x-www-form-urlencoded")
            .header("origin", ORIGIN)
            .header("cookie", cookie)
            .raw_body(body.to_string())
    };
    let shown = Call::get(&format!("/jobs/{}", job.id))
        .header("cookie", &cookie)
        .send(&app)
        .await;
    assert!(
        shown.text.contains(&format!("href=\"{page}\"")),
        "the job page links it"
    );
    let empty = Call::get(&page).header("cookie", &cookie).send(&app).await;
    assert_eq!(empty.status, 200);
    assert!(empty.text.contains("None yet."));

    let refused = post(
        &page,
        "cadence=weekly&dayOfWeek=9&dayOfMonth=1&hourUtc=6",
        &cookie,
    )
    .send(&app)
    .await;
    assert_eq!(refused.status, 400, "{}", refused.text);
    assert!(refused
        .text
        .contains("dayOfWeek must be an integer from 1 to 7"));
    let made = post(
        &page,
        "cadence=weekly&dayOfWeek=3&dayOfMonth=1&hourUtc=7",
        &cookie,
    )
    .send(&app)
    .await;
    assert_eq!(made.status, 201, "{}", made.text);
    assert!(
        made.text.contains("Every Wednesday at 07:00 UTC"),
        "{}",
        made.text
    );

    let store = harness::store().await;
    let schedules = store.list_schedules(job.owner).await.unwrap();
    assert_eq!(schedules.len(), 1, "the refused form made nothing");
    let schedule = &schedules[0];
    assert_eq!(
        schedule.request["primaryDomain"],
        job.primary_domain.as_str()
    );
    assert_eq!(schedule.request.get("dayOfMonth"), None);

    let stranger = harness::new_user(&store, kr_core::domain::Plan::Agency, 1, 1).await;
    let stranger_cookie = session(&app, stranger.email.as_str()).await;
    let theirs = Call::get(&page)
        .header("cookie", &stranger_cookie)
        .send(&app)
        .await;
    assert_eq!(theirs.status, 404);
    let pause = format!("{page}/{}/pause", schedule.id);
    let not_theirs = post(&pause, "paused=true", &stranger_cookie)
        .send(&app)
        .await;
    assert_eq!(not_theirs.status, 404);
    let foreign = Call::post(&pause)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("origin", "https://evil.example")
        .header("cookie", &cookie)
        .raw_body("paused=true".to_string())
        .send(&app)
        .await;
    assert_eq!(foreign.status, 403);
    assert!(
        !store
            .schedule(job.owner, schedule.id)
            .await
            .unwrap()
            .unwrap()
            .paused
    );

    let paused = post(&pause, "paused=true", &cookie).send(&app).await;
    assert_eq!(paused.status, 303);
    assert!(
        store
            .schedule(job.owner, schedule.id)
            .await
            .unwrap()
            .unwrap()
            .paused
    );
    let listed = Call::get(&page).header("cookie", &cookie).send(&app).await;
    assert!(listed.text.contains(">Resume<"), "{}", listed.text);
    let deleted = post(&format!("{page}/{}/delete", schedule.id), "", &cookie)
        .send(&app)
        .await;
    assert_eq!(deleted.status, 303);
    assert!(store.list_schedules(job.owner).await.unwrap().is_empty());
}
