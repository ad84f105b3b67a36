//! The stored shape of a job: the domain's [`Job`] as it serialises, plus the keys that
//! place it in the table and its indexes.

use serde::{Deserialize, Serialize};

use super::keys::{
    job_pk, job_sort_key, user_jobs_pk, user_status_pk, JOB_SK, QUEUED_PK, RUNNING_PK,
};
use kr_core::domain::{Job, JobStatus};

#[derive(Serialize, Deserialize)]
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
    /// Present only while queued (by last enqueue) or running (by heartbeat): GSI3 is where
    /// the sweeper finds jobs that lost their message or stopped showing life.
    #[serde(rename = "GSI3PK", skip_serializing_if = "Option::is_none", default)]
    pub gsi3_pk: Option<String>,
    #[serde(rename = "GSI3SK", skip_serializing_if = "Option::is_none", default)]
    pub gsi3_sk: Option<String>,
    /// DynamoDB's TTL: the item is removed some time after `expiresAt` (readers treat it as
    /// gone from that moment on).
    #[serde(rename = "ttl", skip_serializing_if = "Option::is_none", default)]
    pub ttl: Option<i64>,
    #[serde(flatten)]
    pub job: Job,
}

impl JobItem {
    pub fn from_job(job: &Job) -> Self {
        let sort_key = job_sort_key(job.created_at, job.id);
        let unfinished = match job.status {
            JobStatus::Queued => Some((QUEUED_PK, sort_key.clone())),
            JobStatus::Running => Some((
                RUNNING_PK,
                job_sort_key(
                    job.heartbeat_at
                        .or(job.started_at)
                        .unwrap_or(job.created_at),
                    job.id,
                ),
            )),
            JobStatus::Completed | JobStatus::Failed => None,
        };
        Self {
            pk: job_pk(job.id),
            sk: JOB_SK.into(),
            gsi1_pk: user_jobs_pk(job.owner),
            gsi1_sk: sort_key.clone(),
            gsi2_pk: user_status_pk(job.owner, job.status),
            gsi2_sk: sort_key.clone(),
            gsi3_pk: unfinished.as_ref().map(|(pk, _)| pk.to_string()),
            gsi3_sk: unfinished.map(|(_, sk)| sk),
            ttl: job.expires_at.map(|at| at.timestamp()),
            job: job.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamo::{from_item, to_item};
    use chrono::Utc;
    use kr_core::domain::{DomainName, JobId, Progress, ProviderUsage, Stage, UserId};

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
            heartbeat_at: None,
            redrives: 0,
            expires_at: None,
            imported_keywords: 0,
            discover_keywords: true,
            callback_url: None,
            briefs: 0,
            schedule_id: None,
            search_console: None,
            ai_answers: None,
            search_console_property: None,
        }
    }

    fn round_trip(job: &Job) -> Job {
        let item = to_item(&JobItem::from_job(job)).unwrap();
        from_item::<JobItem>(item).unwrap().job
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
        let item = to_item(&JobItem::from_job(&with)).unwrap();
        let mut attributes: Vec<&str> = item.keys().map(String::as_str).collect();
        attributes.sort_unstable();
        assert_eq!(
            attributes,
            [
                "GSI1PK",
                "GSI1SK",
                "GSI2PK",
                "GSI2SK",
                "GSI3PK",
                "GSI3SK",
                "PK",
                "SK",
                "competitorDomains",
                "completedAt",
                "createdAt",
                "discoverKeywords",
                "errorMessage",
                "id",
                "importedKeywords",
                "keywordCount",
                "languageCode",
                "locationCode",
                "ownerId",
                "primaryDomain",
                "progress",
                "redrives",
                "refunded",
                "stage",
                "startedAt",
                "status",
                "usage",
                "version",
            ],
            "stored jobs keep their attribute names"
        );
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
        let read = from_item::<JobItem>(item).unwrap().job;
        assert_eq!(read.usage, None);
    }
}
