//! The brief ledger: the count of briefs on the job item and, per cluster, a claim item in the
//! job's partition naming who makes its brief and until when. The first claim writes the
//! claim and adds to the count in one transaction, so concurrent first requests count one
//! brief and only one of them makes it.

use async_trait::async_trait;
use aws_sdk_dynamodb::operation::update_item::UpdateItemError;
use aws_sdk_dynamodb::types::{ReturnValuesOnConditionCheckFailure, TransactWriteItem, Update};
use chrono::{DateTime, Utc};

use super::keys::{brief_claim_sk, job_pk, JOB_SK, TTL_ATTRIBUTE};
use super::transitions::BRIEFS;
use super::{
    condition_held, failed_conditions, is_transaction_conflict, key, n, s, sdk_error, DynamoStore,
    Item,
};
use kr_core::domain::JobId;
use kr_core::store::{
    BriefClaim, BriefLedger, ClaimOutcome, JobTransitions, StoreError, UsageDelta,
};

/// When the claim lapses, epoch milliseconds.
const LEASE_UNTIL: &str = "leaseUntil";
const LEASE_TOKEN: &str = "leaseToken";
/// Tries of the first claim when concurrent transactions keep touching the job item.
const CONFLICT_TRIES: u32 = 5;

/// What the first claim's transaction found.
enum FirstClaim {
    Done(ClaimOutcome),
    /// Someone claimed the cluster before: its lease decides.
    Exists,
    Conflict,
}

fn claim_key(job: JobId, cluster_id: &str) -> Item {
    key(job_pk(job), brief_claim_sk(cluster_id))
}

fn millis(at: DateTime<Utc>) -> i64 {
    at.timestamp_millis()
}

/// `SET` of the lease (and the job's expiry, so the claim goes with the job's item).
fn lease_update(
    claim: &BriefClaim<'_>,
) -> (
    String,
    Vec<(&'static str, aws_sdk_dynamodb::types::AttributeValue)>,
) {
    let mut expression = "SET #until = :until, #token = :token".to_string();
    let mut values = vec![
        (":until", n(millis(claim.until))),
        (":token", s(claim.token)),
    ];
    if let Some(expires_at) = claim.job.expires_at {
        expression.push_str(", #ttl = :ttl");
        values.push((":ttl", n(expires_at.timestamp())));
    }
    (expression, values)
}

impl DynamoStore {
    async fn first_claim(&self, claim: &BriefClaim<'_>) -> Result<FirstClaim, StoreError> {
        let (expression, values) = lease_update(claim);
        let mut mark = Update::builder()
            .table_name(&self.table)
            .set_key(Some(claim_key(claim.job.id, claim.cluster_id)))
            .update_expression(expression)
            .condition_expression("attribute_not_exists(PK)")
            .expression_attribute_names("#until", LEASE_UNTIL)
            .expression_attribute_names("#token", LEASE_TOKEN);
        if claim.job.expires_at.is_some() {
            mark = mark.expression_attribute_names("#ttl", TTL_ATTRIBUTE);
        }
        for (name, value) in values {
            mark = mark.expression_attribute_values(name, value);
        }
        let count = Update::builder()
            .table_name(&self.table)
            .set_key(Some(key(job_pk(claim.job.id), JOB_SK)))
            // Jobs stored before briefs existed have no counter yet.
            .update_expression("SET #briefs = if_not_exists(#briefs, :zero) + :one")
            .condition_expression(
                "attribute_exists(PK) AND (attribute_not_exists(#briefs) OR #briefs < :max)",
            )
            .expression_attribute_names("#briefs", BRIEFS)
            .expression_attribute_values(":zero", n(0))
            .expression_attribute_values(":one", n(1))
            .expression_attribute_values(":max", n(claim.max));
        let result = self
            .client
            .transact_write_items()
            .transact_items(
                TransactWriteItem::builder()
                    .update(mark.build().map_err(StoreError::new)?)
                    .build(),
            )
            .transact_items(
                TransactWriteItem::builder()
                    .update(count.build().map_err(StoreError::new)?)
                    .build(),
            )
            .send()
            .await;
        match result {
            Ok(_) => Ok(FirstClaim::Done(ClaimOutcome::Claimed { counted: true })),
            Err(err) if is_transaction_conflict(&err) => Ok(FirstClaim::Conflict),
            Err(err) => match failed_conditions(&err) {
                Some(failed) if failed.first() == Some(&true) => Ok(FirstClaim::Exists),
                Some(_) => Ok(FirstClaim::Done(ClaimOutcome::LimitReached)),
                None => Err(sdk_error(err)),
            },
        }
    }

    /// Takes over a claim whose lease ran out; the brief was counted by the first claim.
    async fn take_over(&self, claim: &BriefClaim<'_>) -> Result<ClaimOutcome, StoreError> {
        let (expression, values) = lease_update(claim);
        let mut update = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(claim_key(claim.job.id, claim.cluster_id)))
            .update_expression(expression)
            .condition_expression("attribute_exists(PK) AND #until < :now")
            .expression_attribute_names("#until", LEASE_UNTIL)
            .expression_attribute_names("#token", LEASE_TOKEN)
            .expression_attribute_values(":now", n(millis(claim.now)))
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld);
        if claim.job.expires_at.is_some() {
            update = update.expression_attribute_names("#ttl", TTL_ATTRIBUTE);
        }
        for (name, value) in values {
            update = update.expression_attribute_values(name, value);
        }
        match update.send().await {
            Ok(_) => Ok(ClaimOutcome::Claimed { counted: false }),
            Err(err) => match err.as_service_error() {
                Some(UpdateItemError::ConditionalCheckFailedException(failed)) => {
                    let until = failed
                        .item()
                        .and_then(|item| item.get(LEASE_UNTIL))
                        .and_then(|value| value.as_n().ok())
                        .and_then(|ms| ms.parse::<i64>().ok())
                        .and_then(DateTime::from_timestamp_millis)
                        // Gone between the two writes (its job deleted): nothing to wait for.
                        .unwrap_or(claim.now);
                    Ok(ClaimOutcome::Held { until })
                }
                _ => Err(sdk_error(err)),
            },
        }
    }
}

#[async_trait]
impl BriefLedger for DynamoStore {
    async fn claim_brief(&self, claim: &BriefClaim<'_>) -> Result<ClaimOutcome, StoreError> {
        for _ in 0..CONFLICT_TRIES {
            match self.first_claim(claim).await? {
                FirstClaim::Done(outcome) => return Ok(outcome),
                FirstClaim::Exists => return self.take_over(claim).await,
                FirstClaim::Conflict => continue,
            }
        }
        // Others keep claiming the job's briefs this very moment; one of them may be this one.
        Ok(ClaimOutcome::Held { until: claim.now })
    }

    async fn release_brief(
        &self,
        job: JobId,
        cluster_id: &str,
        token: &str,
    ) -> Result<(), StoreError> {
        let released = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(claim_key(job, cluster_id)))
            .update_expression("SET #until = :lapsed")
            .condition_expression("#token = :token")
            .expression_attribute_names("#until", LEASE_UNTIL)
            .expression_attribute_names("#token", LEASE_TOKEN)
            .expression_attribute_values(":lapsed", n(0))
            .expression_attribute_values(":token", s(token))
            .send()
            .await;
        condition_held(released).map(|_| ())
    }

    async fn add_brief_usage(
        &self,
        job: &kr_core::domain::Job,
        delta: &UsageDelta,
    ) -> Result<bool, StoreError> {
        self.add_usage(job, delta).await
    }
}
