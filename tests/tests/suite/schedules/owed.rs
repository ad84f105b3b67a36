//! A skipped run's `schedule.run_skipped` is kept owed until it is sent (issue 46), as a
//! finished job's events are: when its send fails, the sweeper raises it, and the webhook
//! gets it once.

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{Duration, SecondsFormat, Utc};
use kr_core::domain::ScheduleId;
use kr_core::store::ScheduleStore;
use kr_tests::harness;
use kr_tests::pipeline_rig::rig;
use serde_json::Value;

use super::{app, create, events, time, weekly};
use crate::webhooks::{drive, notifier, receiver, verify, webhook_and_secret, Answer, Received};

pub(super) async fn a_skipped_runs_event_whose_send_failed_is_raised_by_the_sweeper_once() {
    let rig = rig(None, &[]).await;
    let app = app().await;
    let (user, key) = harness::user_with_key(&rig.store, 0, 1).await;
    let created = create(&app, &key, weekly(), 201).await;
    let id: ScheduleId = created["schedule"]["id"].as_str().unwrap().parse().unwrap();
    let slot = time(&created["schedule"]["nextRunAt"]);
    let (receiver_state, address) = receiver(vec![Answer::Status(204)]).await;
    let (_, secret) = webhook_and_secret(&rig, user.id, "http://hooks.test/owed-skip").await;
    let notifier = notifier(&rig, address, std::time::Duration::from_secs(5));
    let ours = || -> Vec<Received> {
        receiver_state
            .received
            .lock()
            .unwrap()
            .iter()
            .filter(|(_, _, path)| path == "/owed-skip")
            .cloned()
            .collect()
    };

    rig.webhook_queue.fail_next(1);
    let (_, finished) = rig
        .pipeline
        .start_due_schedules(slot + Duration::minutes(5))
        .await
        .unwrap();
    assert!(
        finished
            .iter()
            .any(|(schedule, run)| schedule.id == id && run.skipped.is_some()),
        "{finished:?}"
    );
    drive(&rig, &notifier).await;
    assert!(ours().is_empty(), "the event was lost with its send");

    // Past the sweeper's grace: the event has been owed for an hour.
    let an_hour_ago =
        (Utc::now() - Duration::hours(1)).to_rfc3339_opts(SecondsFormat::Millis, true);
    rig.clients
        .dynamodb
        .update_item()
        .table_name(harness::resources().table_name)
        .key("PK", AttributeValue::S(format!("OUTBOX#{id}")))
        .key(
            "SK",
            AttributeValue::S(format!(
                "EVENT#schedule.run_skipped#{}",
                slot.to_rfc3339_opts(SecondsFormat::Millis, true)
            )),
        )
        .update_expression("SET GSI3SK = :then")
        .condition_expression("attribute_exists(PK)")
        .expression_attribute_values(":then", AttributeValue::S(format!("{an_hour_ago}#{id}")))
        .send()
        .await
        .expect("the tick recorded the event as owed");
    let swept = rig.sweep().await;
    assert!(swept["eventsRaised"].as_u64().unwrap_or(0) >= 1, "{swept}");
    drive(&rig, &notifier).await;
    let sent = ours();
    assert_eq!(sent.len(), 1);
    verify(&secret, &sent[0].0, &sent[0].1);
    let (kind, data): &(String, Value) = &events(&sent)[0];
    assert_eq!(kind, "schedule.run_skipped");
    assert_eq!(data["scheduleId"], id.to_string());
    assert_eq!(time(&data["slot"]), slot);

    // Settled once sent: the next sweep raises it no more.
    rig.sweep().await;
    drive(&rig, &notifier).await;
    assert_eq!(ours().len(), 1);
    assert!(rig.store.delete_schedule(user.id, id).await.unwrap());
}
