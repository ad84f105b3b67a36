//! The brief ledger on the job item: one conditional add per brief made.

use async_trait::async_trait;

use super::keys::{job_pk, JOB_SK};
use super::transitions::BRIEFS;
use super::{condition_held, key, n, DynamoStore};
use kr_core::domain::JobId;
use kr_core::store::{BriefLedger, StoreError};

#[async_trait]
impl BriefLedger for DynamoStore {
    async fn count_brief(&self, job: JobId, max: u32) -> Result<bool, StoreError> {
        let added = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(job_pk(job), JOB_SK)))
            // Jobs stored before briefs existed have no counter yet.
            .update_expression("SET #briefs = if_not_exists(#briefs, :zero) + :one")
            .condition_expression(
                "attribute_exists(PK) AND (attribute_not_exists(#briefs) OR #briefs < :max)",
            )
            .expression_attribute_names("#briefs", BRIEFS)
            .expression_attribute_values(":zero", n(0))
            .expression_attribute_values(":one", n(1))
            .expression_attribute_values(":max", n(max))
            .send()
            .await;
        condition_held(added)
    }
}
