//! The stored shape of a job and its conversion to and from the domain type.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::keys::{job_pk, job_sort_key, user_jobs_pk, user_status_pk, JOB_SK, QUEUED_PK};
use crate::domain::{DomainName, JobId, JobStatus, Progress, Stage, UserId};
use crate::store::{Job, ProviderUsage, StoreError};

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
    /// Absent on jobs that made no paid provider call, and on items older than the field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<ProviderUsage>,
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
            usage: job.usage.clone(),
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
            usage: self.usage,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::dynamo::{from_item, to_item};

    fn job(usage: Option<ProviderUsage>) -> Job {
        Job {
            id: JobId::new(),
            owner: UserId::new(),
            status: JobStatus::Running,
            primary_domain: DomainName::parse("example.com").unwrap(),
            competitor_domains: vec![DomainName::parse("competitor.com").unwrap()],
            language_code: "en".into(),
            location_code: 2840,
            created_at: Utc::now(),
            started_at: Some(Utc::now()),
            completed_at: None,
            progress: Progress::waiting(),
            error_message: None,
            keyword_count: None,
            stage: Some(Stage::first()),
            version: 3,
            refunded: false,
            usage,
        }
    }

    fn round_trip(job: &Job) -> Job {
        let item = to_item(&JobItem::from_job(job)).unwrap();
        from_item::<JobItem>(item).unwrap().into_job().unwrap()
    }

    #[test]
    fn usage_round_trips_and_its_absence_stays_absent() {
        let usage = ProviderUsage {
            provider: "dataforseo".into(),
            cost_usd: 0.1234,
            requests: 17,
            cache_hits: 3,
            cap_usd: Some(1.0),
            cap_reached: true,
        };
        let with = job(Some(usage));
        assert_eq!(round_trip(&with), with);
        let without = job(None);
        let item = to_item(&JobItem::from_job(&without)).unwrap();
        assert!(!item.contains_key("usage"), "no attribute for no usage");
        assert_eq!(round_trip(&without), without);
    }

    #[test]
    fn an_item_older_than_usage_reads_as_none() {
        let mut item = to_item(&JobItem::from_job(&job(None))).unwrap();
        item.remove("usage");
        item.remove("refunded");
        let read = from_item::<JobItem>(item).unwrap().into_job().unwrap();
        assert_eq!(read.usage, None);
    }
}
