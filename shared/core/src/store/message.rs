use serde::{Deserialize, Serialize};

use crate::domain::{JobId, Stage};

/// One unit of pipeline work: run `stage` of `job_id`. Duplicates and stale copies are
/// expected (at-least-once delivery) and recognised by the pipeline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PipelineMessage {
    pub job_id: JobId,
    pub stage: Stage,
}
