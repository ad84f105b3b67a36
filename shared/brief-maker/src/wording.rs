//! A brief's wording by the configured writer, within a deadline, and what asking for it cost.

use std::time::Duration;

use kr_core::dataset::{BriefWording, BriefWriter, ClusterBrief, Unworded};
use kr_core::store::UsageDelta;

pub(crate) struct Worded {
    pub wording: Option<BriefWording>,
    /// Why there is no wording.
    pub missing: Option<String>,
    /// What to add to the job's usage: one request, at its cost when the writer reports one.
    pub spend: Option<UsageDelta>,
}

/// The writer's wording of `brief`, or none once `deadline` has passed: a model that does not
/// answer must not hold the brief past the function's own timeout.
pub(crate) async fn word(
    writer: &dyn BriefWriter,
    brief: &ClusterBrief,
    deadline: Duration,
) -> Worded {
    let one_request = |cost_usd: f64| UsageDelta {
        provider: writer.provider().to_string(),
        cost_usd,
        requests: 1,
        ..UsageDelta::default()
    };
    match tokio::time::timeout(deadline, writer.word(brief)).await {
        Ok(Ok(wording)) => Worded {
            spend: Some(one_request(wording.cost_usd)),
            wording: Some(wording),
            missing: None,
        },
        Ok(Err(Unworded { why, cost_usd })) => Worded {
            wording: None,
            missing: Some(why),
            spend: cost_usd.map(one_request),
        },
        // The request went out and may be billed; what it cost is not known.
        Err(_) => Worded {
            wording: None,
            missing: Some(format!(
                "the model did not answer within {} s",
                deadline.as_secs_f32()
            )),
            spend: Some(one_request(0.0)),
        },
    }
}
