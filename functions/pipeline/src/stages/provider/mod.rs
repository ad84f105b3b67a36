//! Research with DataForSEO: discovery from the domains' rankings and keyword ideas besides
//! the crawl, measured metrics, provider intents and SERPs. Used when credentials are
//! configured; the offline estimate covers whatever the provider could not (see `metrics`).

mod discovery;
mod facts;
mod metrics;
mod selection;
mod serps;

pub use discovery::{discover_with_provider, offered_crawl};
pub use facts::KeywordFacts;
pub use metrics::{measure_with_provider, measured};
pub use selection::{select, Gathered, Wanted};
pub use serps::{
    collect, fetch_live, post, serp_targets, Round, SerpQueue, SerpQueueStore, ASK_DIRECTLY_AFTER,
};

use kr_core::domain::Job;
use kr_dataforseo::{Market, ProviderError};

use crate::runner::StageError;

/// `metricsSource` of Labs figures.
pub const LABS_SOURCE: &str = "dataforseo";
/// `metricsSource` of Google Ads figures (markets Labs does not cover).
pub const GOOGLE_ADS_SOURCE: &str = "dataforseo_google_ads";

/// The job's location and language, as the provider's requests name them.
pub fn market(job: &Job) -> Market<'_> {
    Market {
        location_code: job.location_code,
        language_code: &job.language_code,
    }
}

/// What a provider failure means for the stage: `Ok(None)` = go on without that data.
fn settle<T>(result: Result<T, ProviderError>, what: &str) -> Result<Option<T>, StageError> {
    match result {
        Ok(value) => Ok(Some(value)),
        Err(err) => settle_error(err, what).map(|()| None),
    }
}

fn settle_error(err: ProviderError, what: &str) -> Result<(), StageError> {
    match err {
        // The account's owner must act; retrying cannot help, so the job fails and its run
        // is given back.
        ProviderError::Account(message) => Err(StageError::permanent(message)),
        ProviderError::Unavailable(detail) | ProviderError::Unanswered(detail) => {
            tracing::warn!(%detail, what, "provider unavailable");
            Err(StageError::transient(
                "The keyword data provider (DataForSEO) did not answer; try the job again later.",
            ))
        }
        // The cap finishes the job with what it has; a refused request loses only its part.
        ProviderError::CapReached => Ok(()),
        ProviderError::Rejected { code, message } => {
            tracing::warn!(code, %message, what, "provider refused a request");
            Ok(())
        }
    }
}
