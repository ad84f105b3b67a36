//! The outbox of owed webhook events: one item per owed event, deleted once the event is
//! sent; in GSI3's `OWED_EVENTS` partition by when it became owed, where the sweeper finds the
//! ones a worker did not send. A finished job's (`OUTBOX#<job>` / `EVENT#<event>`) is put by
//! the transaction that finishes the job; a skipped scheduled run's (`OUTBOX#<schedule>` /
//! `EVENT#schedule.run_skipped#<slot>`) right after the tick records the run, carrying the
//! run (its owner and reason are not in the keys, and GSI3 holds keys only).

use async_trait::async_trait;
use chrono::{DateTime, Duration, SecondsFormat, Utc};

use super::keys::{
    job_sort_key, outbox_pk, owed_event_sk, schedule_outbox_pk, skipped_run_event_sk,
    OUTBOX_PREFIX, OWED_EVENTS_PK, PK, SK, TTL_ATTRIBUTE,
};
use super::{key, n, s, sdk_error, DynamoStore, Item};
use kr_core::domain::{JobId, WebhookEvent};
use kr_core::store::{EventSubject, OwedEvent, OwedEvents, StoreError};

/// An event still owed this long after its job finished is dropped by the table's TTL: the
/// sweeper raises owed events every few minutes, so only a broken notifier path gets here.
const OWED_EVENTS_KEPT_DAYS: i64 = 7;

/// The attribute holding a skipped run's owed event's run.
const SKIPPED_RUN: &str = "skippedRun";

fn owed_event_key(owed: &OwedEvent) -> Item {
    match &owed.subject {
        EventSubject::Job { job_id } => key(outbox_pk(*job_id), owed_event_sk(owed.event)),
        EventSubject::SkippedRun(run) => key(
            schedule_outbox_pk(run.schedule_id),
            skipped_run_event_sk(run.slot),
        ),
    }
}

/// The item recording `owed` (for the finishing transaction, or a skipped run's put).
pub(super) fn owed_event_item(owed: &OwedEvent) -> Result<Item, StoreError> {
    let mut item = owed_event_key(owed);
    item.insert("GSI3PK".into(), s(OWED_EVENTS_PK));
    let sort_key = match &owed.subject {
        EventSubject::Job { job_id } => job_sort_key(owed.owed_since, *job_id),
        EventSubject::SkippedRun(run) => {
            let value = serde_dynamo::to_attribute_value(run).map_err(StoreError::new)?;
            item.insert(SKIPPED_RUN.into(), value);
            // The shape of a job's, so one index query reads both.
            format!(
                "{}#{}",
                owed.owed_since.to_rfc3339_opts(SecondsFormat::Millis, true),
                run.schedule_id
            )
        }
    };
    item.insert("GSI3SK".into(), s(sort_key));
    item.insert(
        TTL_ATTRIBUTE.into(),
        n((owed.owed_since + Duration::days(OWED_EVENTS_KEPT_DAYS)).timestamp()),
    );
    Ok(item)
}

fn text<'a>(item: &'a Item, name: &str) -> Result<&'a String, StoreError> {
    item.get(name)
        .and_then(|v| v.as_s().ok())
        .ok_or_else(|| StoreError::new(format!("owed event without {name}")))
}

/// The event an item (or its index entry) is owed for.
fn event_of(item: &Item) -> Result<WebhookEvent, StoreError> {
    let sort_key = text(item, SK)?.trim_start_matches("EVENT#");
    let name = sort_key.split('#').next().unwrap_or_default();
    name.parse::<WebhookEvent>().map_err(StoreError::new)
}

/// The owed event an item names: a job's index entry says it all (the job and event are read
/// from its keys, the time from the index's sort key); a skipped run's item carries its run.
fn owed_event_from_item(item: &Item) -> Result<OwedEvent, StoreError> {
    let subject = match item.get(SKIPPED_RUN) {
        Some(run) => EventSubject::SkippedRun(
            serde_dynamo::from_attribute_value(run.clone()).map_err(StoreError::new)?,
        ),
        None => EventSubject::Job {
            job_id: text(item, PK)?
                .trim_start_matches(OUTBOX_PREFIX)
                .parse::<JobId>()
                .map_err(StoreError::new)?,
        },
    };
    let owed_since = text(item, "GSI3SK")?
        .split('#')
        .next()
        .and_then(|at| DateTime::parse_from_rfc3339(at).ok())
        .map(|at| at.with_timezone(&Utc))
        .ok_or_else(|| StoreError::new("owed event with an unreadable time"))?;
    Ok(OwedEvent {
        subject,
        event: event_of(item)?,
        owed_since,
    })
}

#[async_trait]
impl OwedEvents for DynamoStore {
    async fn owe_event(&self, owed: &OwedEvent) -> Result<(), StoreError> {
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(owed_event_item(owed)?))
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(())
    }

    async fn owed_events(
        &self,
        before: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<OwedEvent>, StoreError> {
        let mut owed = Vec::new();
        for entry in self.gsi3_before(OWED_EVENTS_PK, before, limit).await? {
            if event_of(&entry)? != WebhookEvent::ScheduleRunSkipped {
                owed.push(owed_event_from_item(&entry)?);
                continue;
            }
            let entry_key = key(text(&entry, PK)?.clone(), text(&entry, SK)?.clone());
            // Gone: settled since the index was read.
            if let Some(item) = self.get(entry_key).await? {
                owed.push(owed_event_from_item(&item)?);
            }
        }
        Ok(owed)
    }

    async fn settle_event(&self, owed: &OwedEvent) -> Result<(), StoreError> {
        self.client
            .delete_item()
            .table_name(&self.table)
            .set_key(Some(owed_event_key(owed)))
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kr_core::domain::{ScheduleId, UserId};
    use kr_core::store::SkippedRun;

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text)
            .unwrap()
            .with_timezone(&Utc)
    }

    /// Only the keys: what GSI3 returns.
    fn index_entry(item: &Item) -> Item {
        item.iter()
            .filter(|(name, _)| [PK, SK, "GSI3PK", "GSI3SK"].contains(&name.as_str()))
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect()
    }

    #[test]
    fn a_jobs_owed_event_is_read_back_from_its_index_keys() {
        let owed = OwedEvent {
            subject: EventSubject::Job {
                job_id: JobId::new(),
            },
            event: WebhookEvent::JobFailed,
            owed_since: at("2026-05-01T10:11:12.345Z"),
        };
        let item = owed_event_item(&owed).unwrap();
        assert_eq!(owed_event_from_item(&index_entry(&item)).unwrap(), owed);
    }

    #[test]
    fn a_skipped_runs_owed_event_is_keyed_by_its_slot_and_read_back_from_its_item() {
        let run = SkippedRun {
            owner: UserId::new(),
            schedule_id: ScheduleId::new(),
            slot: at("2026-05-04T06:00:00Z"),
            reason: "the account has no runs left".into(),
        };
        let owed = OwedEvent {
            subject: EventSubject::SkippedRun(run.clone()),
            event: WebhookEvent::ScheduleRunSkipped,
            owed_since: at("2026-05-04T06:01:02.003Z"),
        };
        let item = owed_event_item(&owed).unwrap();
        assert_eq!(
            event_of(&index_entry(&item)).unwrap(),
            WebhookEvent::ScheduleRunSkipped
        );
        assert_eq!(owed_event_from_item(&item).unwrap(), owed);
        let next_slot = OwedEvent {
            subject: EventSubject::SkippedRun(SkippedRun {
                slot: at("2026-05-11T06:00:00Z"),
                ..run
            }),
            ..owed.clone()
        };
        assert_ne!(owed_event_key(&owed), owed_event_key(&next_slot));
    }
}
