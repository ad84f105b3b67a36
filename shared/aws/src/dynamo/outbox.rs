//! The outbox of finished jobs' events: one item per owed event (`OUTBOX#<job>` /
//! `EVENT#<event>`), put by the transaction that finishes the job and deleted once the event
//! is sent; in GSI3's `OWED_EVENTS` partition by when it became owed, where the sweeper finds
//! the ones a worker did not send.

use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};

use super::keys::{
    job_sort_key, outbox_pk, owed_event_sk, OUTBOX_PREFIX, OWED_EVENTS_PK, PK, SK, TTL_ATTRIBUTE,
};
use super::{key, n, s, sdk_error, DynamoStore, Item};
use kr_core::domain::{JobId, WebhookEvent};
use kr_core::store::{OwedEvent, OwedEvents, StoreError};

/// An event still owed this long after its job finished is dropped by the table's TTL: the
/// sweeper raises owed events every few minutes, so only a broken notifier path gets here.
const OWED_EVENTS_KEPT_DAYS: i64 = 7;

/// The item recording `owed` (for the finishing transaction).
pub(super) fn owed_event_item(owed: &OwedEvent) -> Item {
    let mut item = key(outbox_pk(owed.job_id), owed_event_sk(owed.event));
    item.insert("GSI3PK".into(), s(OWED_EVENTS_PK));
    item.insert(
        "GSI3SK".into(),
        s(job_sort_key(owed.owed_since, owed.job_id)),
    );
    item.insert(
        TTL_ATTRIBUTE.into(),
        n((owed.owed_since + Duration::days(OWED_EVENTS_KEPT_DAYS)).timestamp()),
    );
    item
}

/// The owed event an index entry names (GSI3 holds keys only: the job and event are read
/// from them, the time from the index's sort key).
fn owed_event_from_keys(item: &Item) -> Result<OwedEvent, StoreError> {
    let text = |name: &str| {
        item.get(name)
            .and_then(|v| v.as_s().ok())
            .cloned()
            .ok_or_else(|| StoreError::new(format!("owed event without {name}")))
    };
    let job_id = text(PK)?
        .trim_start_matches(OUTBOX_PREFIX)
        .parse::<JobId>()
        .map_err(StoreError::new)?;
    let event = text(SK)?
        .trim_start_matches("EVENT#")
        .parse::<WebhookEvent>()
        .map_err(StoreError::new)?;
    let sort_key = text("GSI3SK")?;
    let owed_since = sort_key
        .split('#')
        .next()
        .and_then(|at| DateTime::parse_from_rfc3339(at).ok())
        .map(|at| at.with_timezone(&Utc))
        .ok_or_else(|| StoreError::new("owed event with an unreadable time"))?;
    Ok(OwedEvent {
        job_id,
        event,
        owed_since,
    })
}

#[async_trait]
impl OwedEvents for DynamoStore {
    async fn owed_events(
        &self,
        before: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<OwedEvent>, StoreError> {
        self.gsi3_before(OWED_EVENTS_PK, before, limit)
            .await?
            .iter()
            .map(owed_event_from_keys)
            .collect()
    }

    async fn settle_event(&self, owed: &OwedEvent) -> Result<(), StoreError> {
        self.client
            .delete_item()
            .table_name(&self.table)
            .set_key(Some(key(outbox_pk(owed.job_id), owed_event_sk(owed.event))))
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_owed_event_is_read_back_from_its_index_keys() {
        let owed = OwedEvent {
            job_id: JobId::new(),
            event: WebhookEvent::JobFailed,
            owed_since: DateTime::parse_from_rfc3339("2026-05-01T10:11:12.345Z")
                .unwrap()
                .with_timezone(&Utc),
        };
        let item = owed_event_item(&owed);
        assert_eq!(owed_event_from_keys(&item).unwrap(), owed);
    }
}
