//! The pipeline's writes to a job. A transition is an update of every attribute the domain's
//! next job has, conditional on the version it was computed from; provider usage is left
//! out of transitions and only ever added to, so no write can lose another's spend.

use async_trait::async_trait;
use aws_sdk_dynamodb::types::{AttributeValue, Put, TransactWriteItem, Update};
use chrono::{DateTime, Utc};

use super::job_item::JobItem;
use super::keys::{job_pk, job_sort_key, status_counter, user_pk, JOB_SK, PROFILE_SK};
use super::outbox::owed_event_item;
use super::{
    condition_held, failed_conditions, is_transaction_conflict, key, n, s, sdk_error, to_item,
    DynamoStore, Item,
};
use kr_core::domain::{Job, JobChange, JobStatus, Progress};
use kr_core::store::{
    EventSubject, JobStore, JobTransitions, OwedEvent, StageClaim, StoreError, Transition,
    UsageDelta,
};

/// Written only by [`JobTransitions::add_usage`].
const USAGE: &str = "usage";
/// Written only by the brief ledger (`briefs.rs`).
pub(super) const BRIEFS: &str = "briefs";
/// Counters other writers add to: a transition from an older copy of the job must not reset
/// them.
const COUNTERS: [&str; 2] = [USAGE, BRIEFS];
/// A stage's claim: who holds it and until when (epoch milliseconds).
const LEASE_TOKEN: &str = "leaseToken";
const LEASE_UNTIL: &str = "leaseUntil";
const KEYS: [&str; 2] = ["PK", "SK"];

/// `SET` of every attribute of `next`, `REMOVE` of what `current` had and `next` has not
/// (and of any claim: a transition ends the stage that held it).
fn update_expression(current: &Item, next: &Item) -> (String, Vec<(String, String)>, Item) {
    let mut names = Vec::new();
    let mut values = Item::new();
    let mut sets = Vec::new();
    let mut attributes: Vec<&String> = next
        .keys()
        .filter(|name| !KEYS.contains(&name.as_str()) && !COUNTERS.contains(&name.as_str()))
        .collect();
    attributes.sort();
    for (i, name) in attributes.into_iter().enumerate() {
        names.push((format!("#s{i}"), name.clone()));
        values.insert(format!(":s{i}"), next[name].clone());
        sets.push(format!("#s{i} = :s{i}"));
    }
    let mut removed: Vec<String> = current
        .keys()
        .filter(|name| !next.contains_key(*name) && !COUNTERS.contains(&name.as_str()))
        .cloned()
        .collect();
    removed.extend([LEASE_TOKEN.to_string(), LEASE_UNTIL.to_string()]);
    removed.sort();
    removed.dedup();
    let removes: Vec<String> = removed
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            names.push((format!("#r{i}"), name));
            format!("#r{i}")
        })
        .collect();
    let expression = format!("SET {} REMOVE {}", sets.join(", "), removes.join(", "));
    (expression, names, values)
}

impl DynamoStore {
    /// Writes `next` if the job still has `current.version`, moving the owner's status
    /// counters (and giving a run back when `refund`) in the same transaction. With
    /// `running_cap`, a start is refused while the owner has that many jobs running.
    async fn transition(
        &self,
        current: &Job,
        change: JobChange,
        running_cap: Option<u32>,
    ) -> Result<Transition, StoreError> {
        let owed_event = change.owed_event(current);
        let JobChange { next, refund } = change;
        debug_assert_eq!(next.version, current.version + 1);
        let (expression, names, mut values) = update_expression(
            &to_item(&JobItem::from_job(current))?,
            &to_item(&JobItem::from_job(&next))?,
        );
        values.insert(":version".into(), n(current.version));
        let mut update = Update::builder()
            .table_name(&self.table)
            .set_key(Some(key(job_pk(current.id), JOB_SK)))
            .update_expression(expression)
            .condition_expression("version = :version")
            .set_expression_attribute_values(Some(values));
        for (placeholder, name) in names {
            update = update.expression_attribute_names(placeholder, name);
        }
        let mut items = vec![TransactWriteItem::builder()
            .update(update.build().map_err(StoreError::new)?)
            .build()];
        if current.status != next.status || refund {
            let mut clauses = Vec::new();
            if current.status != next.status {
                clauses.push("#from = #from - :one, #to = if_not_exists(#to, :zero) + :one");
            }
            if refund {
                clauses.push("credits = credits + :one");
            }
            let mut condition = "attribute_exists(PK)".to_string();
            let mut update = Update::builder()
                .table_name(&self.table)
                .set_key(Some(key(user_pk(current.owner), PROFILE_SK)))
                .update_expression(format!("SET {}", clauses.join(", ")))
                .expression_attribute_values(":one", n(1));
            if current.status != next.status {
                update = update
                    .expression_attribute_names("#from", status_counter(current.status))
                    .expression_attribute_names("#to", status_counter(next.status))
                    .expression_attribute_values(":zero", n(0));
            }
            if let (Some(cap), JobStatus::Running) = (running_cap, next.status) {
                condition.push_str(" AND (attribute_not_exists(#to) OR #to < :cap)");
                update = update.expression_attribute_values(":cap", n(cap));
            }
            items.push(
                TransactWriteItem::builder()
                    .update(
                        update
                            .condition_expression(condition)
                            .build()
                            .map_err(StoreError::new)?,
                    )
                    .build(),
            );
        }
        // The finishing write also records that the job's event is owed (an outbox): the
        // event is sent after the write, and a worker that dies in between leaves this
        // record for the sweeper to raise it again.
        if let Some(event) = owed_event {
            let owed = OwedEvent {
                subject: EventSubject::Job { job_id: next.id },
                event,
                owed_since: next.completed_at.unwrap_or_else(Utc::now),
            };
            items.push(
                TransactWriteItem::builder()
                    .put(
                        Put::builder()
                            .table_name(&self.table)
                            .set_item(Some(owed_event_item(&owed)?))
                            .build()
                            .map_err(StoreError::new)?,
                    )
                    .build(),
            );
        }
        for attempt in 0..5u64 {
            let result = self
                .client
                .transact_write_items()
                .set_transact_items(Some(items.clone()))
                .send()
                .await;
            match result {
                Ok(_) => return Ok(Transition::Applied(Box::new(next))),
                Err(err) if is_transaction_conflict(&err) => {
                    tokio::time::sleep(std::time::Duration::from_millis(20 * (attempt + 1))).await;
                }
                Err(err) => {
                    let Some(failed) = failed_conditions(&err) else {
                        return Err(sdk_error(err));
                    };
                    let job_moved = failed.first() == Some(&true);
                    return Ok(match JobStore::job(self, current.id).await? {
                        None => Transition::Gone,
                        Some(_) if job_moved => Transition::Superseded,
                        Some(_) => Transition::AtCapacity,
                    });
                }
            }
        }
        Err(StoreError::new(
            "job transition kept conflicting with concurrent updates",
        ))
    }
}

#[async_trait]
impl JobTransitions for DynamoStore {
    async fn apply(&self, current: &Job, change: JobChange) -> Result<Transition, StoreError> {
        self.transition(current, change, None).await
    }

    async fn start_job(
        &self,
        job: &Job,
        at: DateTime<Utc>,
        running_cap: u32,
    ) -> Result<Transition, StoreError> {
        match job.start(at) {
            Some(change) => self.transition(job, change, Some(running_cap)).await,
            None => Ok(Transition::Superseded),
        }
    }

    /// Progress is also a heartbeat: it moves the job's place in the sweeper's index.
    async fn report_progress(&self, job: &Job, progress: Progress) -> Result<bool, StoreError> {
        let now = Utc::now();
        let progress = serde_dynamo::to_attribute_value(&progress).map_err(StoreError::new)?;
        let result = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(job_pk(job.id), JOB_SK)))
            .update_expression("SET progress = :progress, heartbeatAt = :now, GSI3SK = :beat")
            .condition_expression("version = :version")
            .expression_attribute_values(":progress", progress)
            .expression_attribute_values(":now", s(now.to_rfc3339()))
            .expression_attribute_values(":beat", s(job_sort_key(now, job.id)))
            .expression_attribute_values(":version", n(job.version))
            .send()
            .await;
        condition_held(result)
    }

    async fn add_usage(&self, job: &Job, delta: &UsageDelta) -> Result<bool, StoreError> {
        let job_key = || key(job_pk(job.id), JOB_SK);
        // A nested attribute can only be added to inside an existing map: create it first.
        let empty = AttributeValue::M(
            [
                ("provider", s(delta.provider.clone())),
                ("costUsd", n(0)),
                ("requests", n(0)),
                ("cacheHits", n(0)),
                ("capReached", AttributeValue::Bool(false)),
            ]
            .into_iter()
            .map(|(name, value)| (name.to_string(), value))
            .collect(),
        );
        let created = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(job_key()))
            .update_expression("SET #usage = :empty")
            .condition_expression("attribute_exists(PK) AND attribute_not_exists(#usage)")
            .expression_attribute_names("#usage", USAGE)
            .expression_attribute_values(":empty", empty)
            .send()
            .await;
        condition_held(created)?;
        let mut expression = String::from(
            "SET #usage.costUsd = #usage.costUsd + :cost, #usage.requests = #usage.requests + :requests, #usage.cacheHits = #usage.cacheHits + :hits",
        );
        let mut update = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(job_key()))
            .condition_expression("attribute_exists(PK)")
            .expression_attribute_names("#usage", USAGE)
            .expression_attribute_values(":cost", n(delta.cost_usd))
            .expression_attribute_values(":requests", n(delta.requests))
            .expression_attribute_values(":hits", n(delta.cache_hits));
        if let Some(cap) = delta.cap_usd {
            expression.push_str(", #usage.capUsd = :cap");
            update = update.expression_attribute_values(":cap", n(cap));
        }
        if delta.cap_reached {
            expression.push_str(", #usage.capReached = :reached");
            update = update.expression_attribute_values(":reached", AttributeValue::Bool(true));
        }
        condition_held(update.update_expression(expression).send().await)
    }

    async fn claim_stage(
        &self,
        job: &Job,
        token: &str,
        until: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<StageClaim, StoreError> {
        let result = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(job_pk(job.id), JOB_SK)))
            .update_expression(
                "SET #token = :token, #until = :until, heartbeatAt = :now, GSI3SK = :beat",
            )
            .condition_expression(
                "version = :version AND (attribute_not_exists(#until) OR #until < :now_ms OR #token = :token)",
            )
            .expression_attribute_names("#token", LEASE_TOKEN)
            .expression_attribute_names("#until", LEASE_UNTIL)
            .expression_attribute_values(":token", s(token))
            .expression_attribute_values(":until", n(until.timestamp_millis()))
            .expression_attribute_values(":now_ms", n(now.timestamp_millis()))
            .expression_attribute_values(":now", s(now.to_rfc3339()))
            .expression_attribute_values(":beat", s(job_sort_key(now, job.id)))
            .expression_attribute_values(":version", n(job.version))
            .send()
            .await;
        if condition_held(result)? {
            return Ok(StageClaim::Claimed);
        }
        Ok(match JobStore::job(self, job.id).await? {
            Some(stored) if stored.version == job.version => StageClaim::Held,
            _ => StageClaim::Moved,
        })
    }

    async fn release_stage(&self, job: &Job, token: &str) -> Result<(), StoreError> {
        let result = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(job_pk(job.id), JOB_SK)))
            .update_expression("REMOVE #token, #until")
            .condition_expression("#token = :token")
            .expression_attribute_names("#token", LEASE_TOKEN)
            .expression_attribute_names("#until", LEASE_UNTIL)
            .expression_attribute_values(":token", s(token))
            .send()
            .await;
        // Not held: the claim expired and another worker took it, or the job moved on.
        condition_held(result)?;
        Ok(())
    }
}
