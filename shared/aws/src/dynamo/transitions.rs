use async_trait::async_trait;
use aws_sdk_dynamodb::types::{Put, TransactWriteItem, Update};

use super::job_item::JobItem;
use super::keys::{job_pk, status_counter, user_pk, JOB_SK, PROFILE_SK};
use super::{
    condition_held, failed_conditions, is_transaction_conflict, key, n, sdk_error, to_item,
    DynamoStore,
};
use kr_core::domain::{Job, JobChange, Progress, ProviderUsage};
use kr_core::store::{JobStore, JobTransitions, StoreError, Transition};

impl DynamoStore {
    /// Replaces the job with `next` if it still has `current.version`, moving the owner's
    /// status counters (and giving a run back when `refund`) in the same transaction.
    async fn transition(
        &self,
        current: &Job,
        next: Job,
        refund: bool,
    ) -> Result<Transition, StoreError> {
        debug_assert_eq!(next.version, current.version + 1);
        let put = Put::builder()
            .table_name(&self.table)
            .set_item(Some(to_item(&JobItem::from_job(&next))?))
            .condition_expression("version = :version")
            .expression_attribute_values(":version", n(current.version))
            .build()
            .map_err(StoreError::new)?;
        let mut items = vec![TransactWriteItem::builder().put(put).build()];
        if current.status != next.status || refund {
            let mut expression = String::from("SET ");
            let mut clauses = Vec::new();
            if current.status != next.status {
                clauses.push("#from = #from - :one, #to = if_not_exists(#to, :zero) + :one");
            }
            if refund {
                clauses.push("credits = credits + :one");
            }
            expression.push_str(&clauses.join(", "));
            let mut update = Update::builder()
                .table_name(&self.table)
                .set_key(Some(key(user_pk(current.owner), PROFILE_SK)))
                .update_expression(expression)
                .condition_expression("attribute_exists(PK)")
                .expression_attribute_values(":one", n(1));
            if current.status != next.status {
                update = update
                    .expression_attribute_names("#from", status_counter(current.status))
                    .expression_attribute_names("#to", status_counter(next.status))
                    .expression_attribute_values(":zero", n(0));
            }
            items.push(
                TransactWriteItem::builder()
                    .update(update.build().map_err(StoreError::new)?)
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
                Err(err) if failed_conditions(&err).is_some() => {
                    return Ok(match JobStore::job(self, current.id).await? {
                        None => Transition::Gone,
                        Some(_) => Transition::Superseded,
                    });
                }
                Err(err) => return Err(sdk_error(err)),
            }
        }
        Err(StoreError::new(
            "job transition kept conflicting with concurrent updates",
        ))
    }

    /// Sets one attribute of the job without a version change, if the job is still at
    /// `job.version`; `false` when it has moved on or is gone.
    async fn set_if_unmoved<T: serde::Serialize + Sync>(
        &self,
        job: &Job,
        attribute: &str,
        value: &T,
    ) -> Result<bool, StoreError> {
        let value = serde_dynamo::to_attribute_value(value).map_err(StoreError::new)?;
        let result = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(job_pk(job.id), JOB_SK)))
            // A name placeholder, since some attribute names (`usage`) are reserved words.
            .update_expression("SET #attribute = :value")
            .condition_expression("version = :version")
            .expression_attribute_names("#attribute", attribute)
            .expression_attribute_values(":value", value)
            .expression_attribute_values(":version", n(job.version))
            .send()
            .await;
        condition_held(result)
    }
}

#[async_trait]
impl JobTransitions for DynamoStore {
    async fn apply(&self, current: &Job, change: JobChange) -> Result<Transition, StoreError> {
        self.transition(current, change.next, change.refund).await
    }

    async fn report_progress(&self, job: &Job, progress: Progress) -> Result<bool, StoreError> {
        self.set_if_unmoved(job, "progress", &progress).await
    }

    async fn record_usage(&self, job: &Job, usage: &ProviderUsage) -> Result<bool, StoreError> {
        self.set_if_unmoved(job, "usage", usage).await
    }
}
