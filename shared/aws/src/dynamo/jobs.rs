use std::time::Duration;

use async_trait::async_trait;
use aws_sdk_dynamodb::types::{ConditionCheck, Delete, Put, TransactWriteItem, Update};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::job_item::JobItem;
use super::keys::{
    domain_sk, idempotency_pk, job_pk, job_sort_key, status_counter, user_jobs_pk, user_pk,
    user_status_pk, ALL_JOBS_COUNTER, DOMAIN_QUOTA_SK, GSI1, GSI2, GSI3, IDEMPOTENCY_SK, JOB_SK,
    PROFILE_SK, QUEUED_PK, RUNNING_PK, TTL_ATTRIBUTE,
};
use super::{
    condition_held, failed_conditions, from_item, is_transaction_conflict, key, n, s, sdk_error,
    to_item, DynamoStore,
};
use kr_core::domain::{Job, JobId, JobStatus, NewJob, UserId};
use kr_core::store::{CreateJobOutcome, Idempotency, JobPage, JobStore, ReadCost, StoreError};

/// How long a replay of the same `Idempotency-Key` returns the first response.
const IDEMPOTENCY_WINDOW: chrono::Duration = chrono::Duration::hours(24);
/// Attempts for one create: guessing wrong about the domain being new costs one, a
/// transaction conflict with a concurrent request another.
const MAX_CREATE_ATTEMPTS: usize = 6;

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct IdempotencyItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    job_id: JobId,
    created_at: DateTime<Utc>,
    fingerprint: String,
    ttl: i64,
}

#[derive(Serialize, Deserialize)]
struct DomainItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    #[serde(rename = "firstJobId")]
    first_job_id: JobId,
}

/// Which transaction item failed its condition, by role.
struct CreatePlan {
    domain_is_registered: bool,
    idempotency_index: Option<usize>,
}

const PROFILE_INDEX: usize = 0;
const DOMAIN_INDEX: usize = 1;
const QUOTA_INDEX: usize = 2;

fn build<T, E: std::fmt::Display>(built: Result<T, E>) -> Result<T, StoreError> {
    built.map_err(StoreError::new)
}

impl DynamoStore {
    fn create_transaction(
        &self,
        job: &NewJob,
        idempotency: Option<&Idempotency>,
        domain_is_registered: bool,
    ) -> Result<(Vec<TransactWriteItem>, CreatePlan, Job), StoreError> {
        let queued = status_counter(JobStatus::Queued);
        let charge = build(
            Update::builder()
                .table_name(&self.table)
                .set_key(Some(key(user_pk(job.owner), PROFILE_SK)))
                .update_expression(
                    "SET credits = credits - :one, #total = if_not_exists(#total, :zero) + :one, #queued = if_not_exists(#queued, :zero) + :one",
                )
                .condition_expression("credits >= :one")
                .expression_attribute_names("#total", ALL_JOBS_COUNTER)
                .expression_attribute_names("#queued", queued)
                .expression_attribute_values(":one", n(1))
                .expression_attribute_values(":zero", n(0))
                .build(),
        )?;
        let mut items = vec![TransactWriteItem::builder().update(charge).build()];
        let domain_key = key(user_pk(job.owner), domain_sk(&job.primary_domain));
        if domain_is_registered {
            let check = build(
                ConditionCheck::builder()
                    .table_name(&self.table)
                    .set_key(Some(domain_key))
                    .condition_expression("attribute_exists(PK)")
                    .build(),
            )?;
            items.push(TransactWriteItem::builder().condition_check(check).build());
        } else {
            let domain = to_item(&DomainItem {
                pk: user_pk(job.owner),
                sk: domain_sk(&job.primary_domain),
                first_job_id: job.id,
            })?;
            let register = build(
                Put::builder()
                    .table_name(&self.table)
                    .set_item(Some(domain))
                    .condition_expression("attribute_not_exists(PK)")
                    .build(),
            )?;
            let allowance = build(
                Update::builder()
                    .table_name(&self.table)
                    .set_key(Some(key(user_pk(job.owner), DOMAIN_QUOTA_SK)))
                    .update_expression("SET remaining = remaining - :one")
                    .condition_expression("remaining >= :one")
                    .expression_attribute_values(":one", n(1))
                    .build(),
            )?;
            items.push(TransactWriteItem::builder().put(register).build());
            items.push(TransactWriteItem::builder().update(allowance).build());
        }
        let mut stored = Job::queued(job);
        stored.expires_at = self.expiry_of(&stored);
        let put_job = build(
            Put::builder()
                .table_name(&self.table)
                .set_item(Some(to_item(&JobItem::from_job(&stored))?))
                .condition_expression("attribute_not_exists(PK)")
                .build(),
        )?;
        items.push(TransactWriteItem::builder().put(put_job).build());
        let mut idempotency_index = None;
        if let Some(idempotency) = idempotency {
            let record = to_item(&IdempotencyItem {
                pk: idempotency_pk(job.owner, &idempotency.scope),
                sk: IDEMPOTENCY_SK.into(),
                job_id: job.id,
                created_at: job.created_at,
                fingerprint: idempotency.fingerprint.clone(),
                ttl: (job.created_at + IDEMPOTENCY_WINDOW).timestamp(),
            })?;
            // DynamoDB deletes expired items only eventually (up to days later); until then
            // an expired record is overwritten as if it were absent.
            let put = build(
                Put::builder()
                    .table_name(&self.table)
                    .set_item(Some(record))
                    .condition_expression("attribute_not_exists(PK) OR #ttl < :now")
                    .expression_attribute_names("#ttl", TTL_ATTRIBUTE)
                    .expression_attribute_values(":now", n(job.created_at.timestamp()))
                    .build(),
            )?;
            idempotency_index = Some(items.len());
            items.push(TransactWriteItem::builder().put(put).build());
        }
        let plan = CreatePlan {
            domain_is_registered,
            idempotency_index,
        };
        Ok((items, plan, stored))
    }

    async fn replay(
        &self,
        owner: UserId,
        idempotency: &Idempotency,
    ) -> Result<Option<CreateJobOutcome>, StoreError> {
        let item = self
            .get(key(
                idempotency_pk(owner, &idempotency.scope),
                IDEMPOTENCY_SK,
            ))
            .await?;
        let Some(item) = item else {
            return Ok(None);
        };
        let first: IdempotencyItem = from_item(item)?;
        if first.ttl < Utc::now().timestamp() {
            return Ok(None);
        }
        Ok(Some(if first.fingerprint == idempotency.fingerprint {
            CreateJobOutcome::Replayed {
                id: first.job_id,
                created_at: first.created_at,
            }
        } else {
            CreateJobOutcome::IdempotencyKeyReused
        }))
    }

    async fn query_page(
        &self,
        index: &str,
        partition: String,
        wanted: u32,
    ) -> Result<(Vec<Job>, ReadCost), StoreError> {
        let pk_name = if index == GSI1 { "GSI1PK" } else { "GSI2PK" };
        let mut jobs = Vec::new();
        let mut cost = ReadCost::default();
        let mut start = None;
        while jobs.len() < wanted as usize {
            let output = self
                .client
                .query()
                .table_name(&self.table)
                .index_name(index)
                .key_condition_expression("#pk = :pk")
                .expression_attribute_names("#pk", pk_name)
                .expression_attribute_values(":pk", s(partition.clone()))
                .scan_index_forward(false)
                .limit((wanted as usize - jobs.len()) as i32)
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(sdk_error)?;
            cost.requests += 1;
            for item in output.items.unwrap_or_default() {
                cost.items += 1;
                let job = from_item::<JobItem>(item)?.job;
                if !job.is_expired(Utc::now()) {
                    jobs.push(job);
                }
            }
            start = output.last_evaluated_key;
            if start.is_none() {
                break;
            }
        }
        Ok((jobs, cost))
    }
}

#[async_trait]
impl JobStore for DynamoStore {
    async fn create_job(
        &self,
        job: &NewJob,
        idempotency: Option<&Idempotency>,
    ) -> Result<CreateJobOutcome, StoreError> {
        // Most jobs are on a domain the user has researched before; guess that first and let
        // the cancellation reasons correct the guess.
        let mut domain_is_registered = true;
        for attempt in 0..MAX_CREATE_ATTEMPTS {
            let (items, plan, stored) =
                self.create_transaction(job, idempotency, domain_is_registered)?;
            let result = self
                .client
                .transact_write_items()
                .set_transact_items(Some(items))
                .send()
                .await;
            let err = match result {
                Ok(_) => return Ok(CreateJobOutcome::Created(Box::new(stored))),
                Err(err) => err,
            };
            if is_transaction_conflict(&err) {
                tokio::time::sleep(Duration::from_millis(20 * (attempt as u64 + 1))).await;
                continue;
            }
            let Some(failed) = failed_conditions(&err) else {
                return Err(sdk_error(err));
            };
            let failed_at = |index: usize| failed.get(index).copied().unwrap_or(false);
            if let (Some(index), Some(idempotency)) = (plan.idempotency_index, idempotency) {
                if failed_at(index) {
                    if let Some(outcome) = self.replay(job.owner, idempotency).await? {
                        return Ok(outcome);
                    }
                    continue;
                }
            }
            // The contract checks runs before the domain allowance.
            if failed_at(PROFILE_INDEX) {
                return Ok(CreateJobOutcome::InsufficientCredits);
            }
            if failed_at(DOMAIN_INDEX) {
                domain_is_registered = !plan.domain_is_registered;
                continue;
            }
            if !plan.domain_is_registered && failed_at(QUOTA_INDEX) {
                return Ok(CreateJobOutcome::DomainLimitReached);
            }
            return Err(StoreError(format!(
                "job creation failed an unexpected condition: {failed:?}"
            )));
        }
        Err(StoreError::new(
            "job creation kept conflicting with concurrent requests",
        ))
    }

    async fn job(&self, id: JobId) -> Result<Option<Job>, StoreError> {
        let item = self.get(key(job_pk(id), JOB_SK)).await?;
        let job = item
            .map(|item| Ok::<_, StoreError>(from_item::<JobItem>(item)?.job))
            .transpose()?;
        Ok(job.filter(|job| !job.is_expired(Utc::now())))
    }

    async fn list_jobs(
        &self,
        owner: UserId,
        status: Option<JobStatus>,
        limit: u32,
        offset: u32,
    ) -> Result<JobPage, StoreError> {
        let counter = status.map(status_counter).unwrap_or(ALL_JOBS_COUNTER);
        let profile = self
            .client
            .get_item()
            .table_name(&self.table)
            .set_key(Some(key(user_pk(owner), PROFILE_SK)))
            .projection_expression("#counter")
            .expression_attribute_names("#counter", counter)
            .send()
            .await
            .map_err(sdk_error)?;
        let total = profile
            .item
            .and_then(|item| {
                item.get(counter)
                    .and_then(|v| v.as_n().ok())
                    .and_then(|v| v.parse::<i64>().ok())
            })
            .unwrap_or(0)
            .max(0) as u64;
        let mut reads = ReadCost {
            requests: 1,
            items: 1,
        };
        let wanted = offset.saturating_add(limit);
        if (offset as u64) >= total || limit == 0 {
            return Ok(JobPage {
                jobs: Vec::new(),
                total,
                reads,
            });
        }
        let (mut jobs, cost) = match status {
            None => self.query_page(GSI1, user_jobs_pk(owner), wanted).await?,
            Some(status) => {
                self.query_page(GSI2, user_status_pk(owner, status), wanted)
                    .await?
            }
        };
        reads.requests += cost.requests;
        reads.items += cost.items;
        let jobs = jobs.split_off((offset as usize).min(jobs.len()));
        Ok(JobPage { jobs, total, reads })
    }

    async fn delete_job(&self, owner: UserId, id: JobId) -> Result<Option<Job>, StoreError> {
        for _ in 0..MAX_CREATE_ATTEMPTS {
            let Some(job) = self.job(id).await? else {
                return Ok(None);
            };
            if job.owner != owner {
                return Ok(None);
            }
            // Conditional on the version read, so a concurrent status change is never
            // counted against the wrong status.
            let delete = build(
                Delete::builder()
                    .table_name(&self.table)
                    .set_key(Some(key(job_pk(id), JOB_SK)))
                    .condition_expression("version = :version")
                    .expression_attribute_values(":version", n(job.version))
                    .build(),
            )?;
            let uncount = build(
                Update::builder()
                    .table_name(&self.table)
                    .set_key(Some(key(user_pk(owner), PROFILE_SK)))
                    .update_expression("SET #total = #total - :one, #status = #status - :one")
                    .condition_expression("attribute_exists(PK)")
                    .expression_attribute_names("#total", ALL_JOBS_COUNTER)
                    .expression_attribute_names("#status", status_counter(job.status))
                    .expression_attribute_values(":one", n(1))
                    .build(),
            )?;
            let result = self
                .client
                .transact_write_items()
                .transact_items(TransactWriteItem::builder().delete(delete).build())
                .transact_items(TransactWriteItem::builder().update(uncount).build())
                .send()
                .await;
            match result {
                Ok(_) => return Ok(Some(job)),
                Err(err) if is_transaction_conflict(&err) || failed_conditions(&err).is_some() => {
                    continue
                }
                Err(err) => return Err(sdk_error(err)),
            }
        }
        Err(StoreError::new(
            "job deletion kept conflicting with concurrent updates",
        ))
    }

    async fn stale_queued_jobs(
        &self,
        before: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<JobId>, StoreError> {
        self.unfinished_jobs_before(QUEUED_PK, before, limit).await
    }

    async fn stalled_running_jobs(
        &self,
        before: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<JobId>, StoreError> {
        self.unfinished_jobs_before(RUNNING_PK, before, limit).await
    }

    async fn oldest_queued_job(&self, owner: UserId) -> Result<Option<JobId>, StoreError> {
        let output = self
            .client
            .query()
            .table_name(&self.table)
            .index_name(GSI2)
            .key_condition_expression("GSI2PK = :pk")
            .expression_attribute_values(":pk", s(user_status_pk(owner, JobStatus::Queued)))
            .scan_index_forward(true)
            .limit(1)
            .send()
            .await
            .map_err(sdk_error)?;
        output
            .items
            .unwrap_or_default()
            .into_iter()
            .next()
            .map(|item| Ok(from_item::<JobItem>(item)?.job.id))
            .transpose()
    }

    async fn mark_enqueued(&self, id: JobId, at: DateTime<Utc>) -> Result<(), StoreError> {
        let result = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(job_pk(id), JOB_SK)))
            .update_expression("SET GSI3SK = :at")
            .condition_expression("GSI3PK = :queued")
            .expression_attribute_values(":queued", s(QUEUED_PK))
            .expression_attribute_values(":at", s(job_sort_key(at, id)))
            .send()
            .await;
        // Not held: the job has started or is gone, so there is nothing to re-enqueue.
        condition_held(result)?;
        Ok(())
    }
}

impl DynamoStore {
    /// Jobs of a GSI3 partition (queued by last enqueue, running by heartbeat) older than
    /// `before`, oldest first.
    async fn unfinished_jobs_before(
        &self,
        partition: &str,
        before: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<JobId>, StoreError> {
        self.gsi3_before(partition, before, limit)
            .await?
            .into_iter()
            .map(|item| {
                let pk = item
                    .get("PK")
                    .and_then(|v| v.as_s().ok())
                    .cloned()
                    .unwrap_or_default();
                pk.trim_start_matches("JOB#")
                    .parse::<JobId>()
                    .map_err(StoreError::new)
            })
            .collect()
    }

    /// Items of a GSI3 partition (each sorted by a time and a job) from before `before`,
    /// oldest first: the sweepers' work lists.
    pub(super) async fn gsi3_before(
        &self,
        partition: &str,
        before: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<super::Item>, StoreError> {
        let output = self
            .client
            .query()
            .table_name(&self.table)
            .index_name(GSI3)
            .key_condition_expression("GSI3PK = :partition AND GSI3SK < :before")
            .expression_attribute_values(":partition", s(partition))
            .expression_attribute_values(
                ":before",
                s(job_sort_key(before, JobId::from(uuid::Uuid::nil()))),
            )
            .limit(limit as i32)
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(output.items.unwrap_or_default())
    }

    /// Writes jobs as they are, charging nothing, and adds them to their owners' counters:
    /// for restoring from a backup and for load tests that need thousands of jobs.
    pub async fn import_jobs(&self, jobs: &[Job]) -> Result<(), StoreError> {
        use aws_sdk_dynamodb::types::{PutRequest, WriteRequest};
        use std::collections::HashMap;
        for chunk in jobs.chunks(25) {
            let mut pending: Vec<WriteRequest> = chunk
                .iter()
                .map(|job| {
                    let put = PutRequest::builder()
                        .set_item(Some(to_item(&JobItem::from_job(job))?))
                        .build()
                        .map_err(StoreError::new)?;
                    Ok(WriteRequest::builder().put_request(put).build())
                })
                .collect::<Result<_, StoreError>>()?;
            while !pending.is_empty() {
                let output = self
                    .client
                    .batch_write_item()
                    .request_items(&self.table, std::mem::take(&mut pending))
                    .send()
                    .await
                    .map_err(sdk_error)?;
                pending = output
                    .unprocessed_items
                    .and_then(|mut u| u.remove(&self.table))
                    .unwrap_or_default();
            }
        }
        let mut counts: HashMap<(UserId, JobStatus), i64> = HashMap::new();
        for job in jobs {
            *counts.entry((job.owner, job.status)).or_default() += 1;
        }
        for ((owner, status), count) in counts {
            self.client
                .update_item()
                .table_name(&self.table)
                .set_key(Some(key(user_pk(owner), PROFILE_SK)))
                .update_expression("ADD #total :count, #status :count")
                .expression_attribute_names("#total", ALL_JOBS_COUNTER)
                .expression_attribute_names("#status", status_counter(status))
                .expression_attribute_values(":count", n(count))
                .send()
                .await
                .map_err(sdk_error)?;
        }
        Ok(())
    }
}
