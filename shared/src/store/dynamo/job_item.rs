//! The stored shape of a job and its conversion to and from the domain type.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::keys::{job_pk, job_sort_key, user_jobs_pk, user_status_pk, JOB_SK, QUEUED_PK};
use crate::domain::{DomainName, JobId, JobStatus, Progress, Stage, UserId};
use crate::store::{Job, StoreError};

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct JobItem {
    #[serde(rename = "PK")]
    pub pk: String,
    #[serde(rename = "SK")]
    pub sk: String,
    #[serde(rename = "GSI1PK")]
    pub gsi1_pk: String,
    #[serde(rename = "GSI1SK")]
    pub gsi1_sk: String,
    #[serde(rename = "GSI2PK")]
    pub gsi2_pk: String,
    #[serde(rename = "GSI2SK")]
    pub gsi2_sk: String,
    /// Present only while queued, so GSI3 holds nothing else.
    #[serde(rename = "GSI3PK", skip_serializing_if = "Option::is_none", default)]
    pub gsi3_pk: Option<String>,
    #[serde(rename = "GSI3SK", skip_serializing_if = "Option::is_none", default)]
    pub gsi3_sk: Option<String>,
    pub id: JobId,
    pub owner_id: UserId,
    pub status: JobStatus,
    pub primary_domain: String,
    pub competitor_domains: Vec<String>,
    pub language_code: String,
    pub location_code: u32,
    pub created_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub completed_at: Option<DateTime<Utc>>,
    pub progress: Progress,
    pub error_message: Option<String>,
    pub keyword_count: Option<i64>,
    pub stage: Option<Stage>,
    pub version: u64,
    #[serde(default)]
    pub refunded: bool,
}

impl JobItem {
    pub fn from_job(job: &Job) -> Self {
        let sort_key = job_sort_key(job.created_at, job.id);
        let queued = job.status == JobStatus::Queued;
        Self {
            pk: job_pk(job.id),
            sk: JOB_SK.into(),
            gsi1_pk: user_jobs_pk(job.owner),
            gsi1_sk: sort_key.clone(),
            gsi2_pk: user_status_pk(job.owner, job.status),
            gsi2_sk: sort_key.clone(),
            gsi3_pk: queued.then(|| QUEUED_PK.to_string()),
            gsi3_sk: queued.then_some(sort_key),
            id: job.id,
            owner_id: job.owner,
            status: job.status,
            primary_domain: job.primary_domain.to_string(),
            competitor_domains: job
                .competitor_domains
                .iter()
                .map(ToString::to_string)
                .collect(),
            language_code: job.language_code.clone(),
            location_code: job.location_code,
            created_at: job.created_at,
            started_at: job.started_at,
            completed_at: job.completed_at,
            progress: job.progress.clone(),
            error_message: job.error_message.clone(),
            keyword_count: job.keyword_count,
            stage: job.stage,
            version: job.version,
            refunded: job.refunded,
        }
    }

    pub fn into_job(self) -> Result<Job, StoreError> {
        let domain = |raw: &str| {
            DomainName::parse(raw).map_err(|e| StoreError(format!("stored domain {raw:?}: {e}")))
        };
        Ok(Job {
            id: self.id,
            owner: self.owner_id,
            status: self.status,
            primary_domain: domain(&self.primary_domain)?,
            competitor_domains: self
                .competitor_domains
                .iter()
                .map(|d| domain(d))
                .collect::<Result<_, _>>()?,
            language_code: self.language_code,
            location_code: self.location_code,
            created_at: self.created_at,
            started_at: self.started_at,
            completed_at: self.completed_at,
            progress: self.progress,
            error_message: self.error_message,
            keyword_count: self.keyword_count,
            stage: self.stage,
            version: self.version,
            refunded: self.refunded,
            usage: None,
        })
    }
}
