//! Schedules on DynamoDB: each under its owner (`USER#id` / `SCHEDULE#id`), counted on the
//! profile so concurrent creates cannot pass the cap together. A schedule not paused is in
//! GSI3's `SCHEDULES` partition by its next run (`GSI3SK`), which is what the tick queries
//! and what closing a slot is conditional on: of two ticks, one closes it.

use async_trait::async_trait;
use aws_sdk_dynamodb::types::ReturnValue;
use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};

use super::keys::{
    schedule_due_key, user_pk, user_schedule_sk, GSI3, PK, SCHEDULES_PK, SK, USER_SCHEDULE_PREFIX,
};
use super::{condition_held, from_item, key, s, sdk_error, to_item, DynamoStore};
use kr_core::domain::{Schedule, ScheduleId, ScheduledRun, UserId};
use kr_core::store::{DueCursor, DuePage, ScheduleStore, StoreError};

/// The profile's count of schedules.
const SCHEDULE_COUNTER: &str = "scheduleCount";

#[derive(Serialize, Deserialize)]
struct ScheduleItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    #[serde(rename = "GSI3PK", skip_serializing_if = "Option::is_none", default)]
    gsi3_pk: Option<String>,
    #[serde(rename = "GSI3SK", skip_serializing_if = "Option::is_none", default)]
    gsi3_sk: Option<String>,
    #[serde(flatten)]
    schedule: Schedule,
}

impl ScheduleItem {
    fn of(schedule: &Schedule) -> Self {
        let due = (!schedule.paused).then(|| schedule_due_key(schedule.next_run_at, schedule.id));
        Self {
            pk: user_pk(schedule.owner),
            sk: user_schedule_sk(schedule.id),
            gsi3_pk: due.as_ref().map(|_| SCHEDULES_PK.to_string()),
            gsi3_sk: due,
            schedule: schedule.clone(),
        }
    }
}

fn time(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::AutoSi, true)
}

/// The index's sort key attribute: a schedule's place among the due ones.
const GSI3_SK: &str = "GSI3SK";

impl DynamoStore {
    /// The schedule a due index entry names, read from its item, if it is still due: the
    /// index holds keys only and may lag a write.
    async fn due_schedule(
        &self,
        entry: &super::Item,
        now: DateTime<Utc>,
    ) -> Result<Option<Schedule>, StoreError> {
        let text = |name: &str| entry.get(name).and_then(|v| v.as_s().ok()).cloned();
        let owner = text(PK).and_then(|pk| pk.strip_prefix("USER#")?.parse::<UserId>().ok());
        let id = text(SK).and_then(|sk| {
            sk.strip_prefix(USER_SCHEDULE_PREFIX)?
                .parse::<ScheduleId>()
                .ok()
        });
        let (Some(owner), Some(id)) = (owner, id) else {
            return Err(StoreError::new(
                "a due schedule's keys are not a schedule's",
            ));
        };
        Ok(self
            .schedule(owner, id)
            .await?
            .filter(|schedule| !schedule.paused && schedule.next_run_at < now))
    }
}

#[async_trait]
impl ScheduleStore for DynamoStore {
    async fn create_schedule(&self, schedule: &Schedule, limit: usize) -> Result<bool, StoreError> {
        let item = to_item(&ScheduleItem::of(schedule))?;
        self.put_counted(schedule.owner, SCHEDULE_COUNTER, limit, item)
            .await
    }

    async fn list_schedules(&self, owner: UserId) -> Result<Vec<Schedule>, StoreError> {
        let mut schedules: Vec<Schedule> = self
            .items_with_prefix(user_pk(owner), USER_SCHEDULE_PREFIX)
            .await?
            .into_iter()
            .map(|item| from_item::<ScheduleItem>(item).map(|item| item.schedule))
            .collect::<Result<_, _>>()?;
        schedules.sort_by_key(|schedule| (schedule.created_at, schedule.id));
        Ok(schedules)
    }

    async fn schedule(
        &self,
        owner: UserId,
        id: ScheduleId,
    ) -> Result<Option<Schedule>, StoreError> {
        self.get(key(user_pk(owner), user_schedule_sk(id)))
            .await?
            .map(|item| from_item::<ScheduleItem>(item).map(|item| item.schedule))
            .transpose()
    }

    async fn set_paused(
        &self,
        owner: UserId,
        id: ScheduleId,
        paused: bool,
        next_run_at: DateTime<Utc>,
    ) -> Result<Option<Schedule>, StoreError> {
        let update = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(user_pk(owner), user_schedule_sk(id))))
            .condition_expression("attribute_exists(PK)")
            .expression_attribute_values(
                ":paused",
                aws_sdk_dynamodb::types::AttributeValue::Bool(paused),
            )
            .expression_attribute_values(":next", s(time(next_run_at)))
            .return_values(ReturnValue::AllNew);
        let update = if paused {
            update
                .update_expression("SET paused = :paused, nextRunAt = :next REMOVE GSI3PK, GSI3SK")
        } else {
            update
                .update_expression(
                    "SET paused = :paused, nextRunAt = :next, GSI3PK = :due, GSI3SK = :key",
                )
                .expression_attribute_values(":due", s(SCHEDULES_PK))
                .expression_attribute_values(":key", s(schedule_due_key(next_run_at, id)))
        };
        match update.send().await {
            Ok(output) => output
                .attributes
                .map(|item| from_item::<ScheduleItem>(item).map(|item| item.schedule))
                .transpose(),
            Err(err)
                if err
                    .as_service_error()
                    .is_some_and(|e| e.is_conditional_check_failed_exception()) =>
            {
                Ok(None)
            }
            Err(err) => Err(sdk_error(err)),
        }
    }

    async fn delete_schedule(&self, owner: UserId, id: ScheduleId) -> Result<bool, StoreError> {
        self.delete_counted(
            owner,
            SCHEDULE_COUNTER,
            key(user_pk(owner), user_schedule_sk(id)),
        )
        .await
    }

    async fn due_schedules(
        &self,
        now: DateTime<Utc>,
        after: Option<&DueCursor>,
        limit: u32,
    ) -> Result<DuePage, StoreError> {
        let before = schedule_due_key(now, ScheduleId::from(uuid::Uuid::nil()));
        let query = self
            .client
            .query()
            .table_name(&self.table)
            .index_name(GSI3)
            .expression_attribute_values(":partition", s(SCHEDULES_PK))
            .expression_attribute_values(":before", s(before.clone()))
            .limit(limit as i32);
        // A key condition takes one range on the sort key, so the page starts at the cursor
        // (inclusive) and the cursor's own entry, if still due, is dropped below.
        let query = match after {
            Some(cursor) if cursor.as_str() >= before.as_str() => {
                return Ok(DuePage {
                    schedules: Vec::new(),
                    next: None,
                })
            }
            Some(cursor) => query
                .key_condition_expression(
                    "GSI3PK = :partition AND GSI3SK BETWEEN :after AND :before",
                )
                .expression_attribute_values(":after", s(cursor.as_str())),
            None => query.key_condition_expression("GSI3PK = :partition AND GSI3SK < :before"),
        };
        let output = query.send().await.map_err(sdk_error)?;
        let mut schedules = Vec::new();
        for item in output.items.unwrap_or_default() {
            let text = |name: &str| item.get(name).and_then(|v| v.as_s().ok()).cloned();
            if after.is_some_and(|cursor| text(GSI3_SK).as_deref() == Some(cursor.as_str())) {
                continue;
            }
            // An entry that cannot be read is passed over, not failed on: the tick reads
            // every due schedule behind it too, and tries this one again next time.
            match self.due_schedule(&item, now).await {
                Ok(Some(schedule)) => schedules.push(schedule),
                Ok(None) => {}
                Err(err) => tracing::error!(
                    pk = ?text(PK), sk = ?text(SK), %err,
                    "a due schedule could not be read; passed over"
                ),
            }
        }
        let next = output
            .last_evaluated_key
            .and_then(|last| last.get(GSI3_SK)?.as_s().ok().cloned())
            .map(DueCursor::new);
        Ok(DuePage { schedules, next })
    }

    async fn finish_slot(
        &self,
        schedule: &Schedule,
        run: &ScheduledRun,
        next: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        let run = serde_dynamo::to_attribute_value(run).map_err(StoreError::new)?;
        let result = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(
                user_pk(schedule.owner),
                user_schedule_sk(schedule.id),
            )))
            .update_expression("SET nextRunAt = :next, GSI3SK = :next_key, lastRun = :run")
            .condition_expression("GSI3SK = :slot_key")
            .expression_attribute_values(":next", s(time(next)))
            .expression_attribute_values(":next_key", s(schedule_due_key(next, schedule.id)))
            .expression_attribute_values(
                ":slot_key",
                s(schedule_due_key(schedule.next_run_at, schedule.id)),
            )
            .expression_attribute_values(":run", run)
            .send()
            .await;
        condition_held(result)
    }
}
