//! The keyword query engine: every filter, bound, sort and page of
//! `GET /jobs/{jobId}/keywords`, over a job's dataset held in memory, and the cache that keeps
//! datasets across warm invocations. The results API and the dashboard both answer from it,
//! so a filter means the same in both.

#[cfg(test)]
mod ai_overview_tests;
mod ai_share;
mod ai_visibility;
mod cache;
mod changes;
mod clusters;
mod columns;
#[cfg(test)]
mod engine_tests;
mod error;
mod keyword_query;
mod parameters;
mod plan;
mod query;
mod results;
mod sorting;
mod topics;

pub use ai_visibility::{AiVisibility, OverviewSummary};
pub use cache::DatasetCache;
pub use changes::{
    job_changes, AiCitationChange, ChangeCounts, ChangeQuery, ChangeSources, ClusterChange,
    ClusterMove, JobChanges, KeywordChange, PositionMove, RunPoint, SearchConsoleFigures,
    SearchConsoleMove, StrikingDistanceChange, TopicChange, VolumeMove, AI_OVERVIEW_SOURCE,
    DEFAULT_CHANGE_LIMIT, DIGEST_TOP_MOVERS, HISTORY_RUNS, MAX_CHANGE_LIMIT,
};
pub use clusters::{ClusterFilter, ClusterQuery, CLUSTER_SORTS};
pub use error::QueryError;
pub use keyword_query::{
    KeywordQuery, SortKey, AI_OVERVIEW_FILTERS, DEFAULT_LIMIT, MAX_LIMIT, NO_PERSONA,
};
pub use plan::{content_plan, PlanEntry, PlanSlice};
pub use query::{IndexedDataset, Page};
pub use results::{
    ClusterPage, ContentPlanPage, KeywordPage, PersonaList, PlannedTopic, ReferenceList, Results,
    TopicPage,
};
pub use topics::{TopicQuery, TOPIC_SORTS};
