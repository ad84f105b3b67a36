//! The order and paging of a job's clusters (`GET /jobs/{jobId}/clusters`).

use std::cmp::Ordering;

use kr_core::dataset::{ClusterAction, ClusterRecord, Intent, JobResults};
use kr_core::query_params::QueryParams;
use kr_core::validation::FieldError;

use crate::sorting::{ai_share, directed, known_first, parse_sort, sorted_page};

pub const CLUSTER_SORTS: [&str; 7] = [
    "totalSearchVolume",
    "keywordCount",
    "name",
    "opportunityValue",
    "organicOpportunityScore",
    "avgDifficulty",
    "aiShare",
];

pub const DEFAULT_CLUSTER_LIMIT: u32 = 100;
pub const MAX_CLUSTER_LIMIT: u32 = 500;

/// A parsed cluster query: `sortBy` default `totalSearchVolume`, `sortOrder` default `desc`;
/// nulls last, ties by name then id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterQuery {
    pub limit: u32,
    pub offset: u32,
    pub sort: &'static str,
    pub descending: bool,
    pub filter: ClusterFilter,
}

/// Which clusters a list shows: `action`, `topicId`, `intent` (the dominant one).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClusterFilter {
    pub action: Option<ClusterAction>,
    pub topic_id: Option<String>,
    pub intent: Option<Intent>,
}

/// The longest topic id accepted (ids are "t-" and at most 48 characters of slug, and a
/// suffix).
pub const MAX_TOPIC_ID_LENGTH: usize = 64;

impl ClusterQuery {
    pub fn parse(query: &QueryParams) -> Result<Self, FieldError> {
        let (limit, offset) = query.paging(MAX_CLUSTER_LIMIT, DEFAULT_CLUSTER_LIMIT)?;
        let (sort, descending) = parse_sort(query, &CLUSTER_SORTS)?;
        Ok(Self {
            limit,
            offset,
            sort,
            descending,
            filter: ClusterFilter::parse(query)?,
        })
    }

    fn compare(&self, a: &ClusterRecord, b: &ClusterRecord) -> Ordering {
        let ordered = |order: Ordering| directed(order, self.descending);
        let by_value = match self.sort {
            "keywordCount" => ordered(a.keyword_count.cmp(&b.keyword_count)),
            "name" => ordered(a.name.cmp(&b.name)),
            "opportunityValue" => ordered(a.opportunity_value.total_cmp(&b.opportunity_value)),
            "organicOpportunityScore" => ordered(
                a.organic_opportunity_score
                    .total_cmp(&b.organic_opportunity_score),
            ),
            "avgDifficulty" => known_first(a.avg_difficulty, b.avg_difficulty, ordered),
            "aiShare" => known_first(ai_share(a), ai_share(b), ordered),
            _ => ordered(a.total_search_volume.cmp(&b.total_search_volume)),
        };
        by_value
            .then_with(|| a.name.cmp(&b.name))
            .then_with(|| a.id.cmp(&b.id))
    }

    /// The requested page, and how many clusters match in all; see [`ClusterFilter::check`].
    pub fn page<'a>(
        &self,
        dataset: &'a dyn JobResults,
    ) -> Result<(Vec<&'a ClusterRecord>, usize), FieldError> {
        self.filter.check(dataset)?;
        Ok(sorted_page(
            dataset.clusters().iter().filter(|c| self.filter.admits(c)),
            |a, b| self.compare(a, b),
            self.offset,
            self.limit,
        ))
    }
}

impl ClusterFilter {
    pub fn parse(query: &QueryParams) -> Result<Self, FieldError> {
        let action = query
            .value("action")
            .map(|raw| {
                raw.parse()
                    .map_err(|message| FieldError::new("action", message))
            })
            .transpose()?;
        let intent = query
            .value("intent")
            .map(|raw| {
                Intent::ALL
                    .into_iter()
                    .find(|i| i.as_str().eq_ignore_ascii_case(raw))
                    .ok_or_else(|| {
                        FieldError::new(
                            "intent",
                            "must be one of informational, commercial, transactional, navigational",
                        )
                    })
            })
            .transpose()?;
        let topic_id = match query.value("topicId") {
            None => None,
            Some(raw) if is_topic_id(raw) => Some(raw.to_string()),
            Some(_) => return Err(unknown_topic()),
        };
        Ok(Self {
            action,
            topic_id,
            intent,
        })
    }

    /// A `topicId` the dataset does not have is refused, naming the parameter.
    pub fn check(&self, dataset: &dyn JobResults) -> Result<(), FieldError> {
        match &self.topic_id {
            Some(topic) if !dataset.topics().iter().any(|t| &t.id == topic) => Err(unknown_topic()),
            _ => Ok(()),
        }
    }

    pub fn admits(&self, cluster: &ClusterRecord) -> bool {
        self.action
            .is_none_or(|action| cluster.action == Some(action))
            && self
                .intent
                .is_none_or(|intent| cluster.dominant_intent == intent)
            && self
                .topic_id
                .as_deref()
                .is_none_or(|topic| cluster.topic_id.as_deref() == Some(topic))
    }
}

/// "t-" and lowercase ASCII letters, digits and hyphens: the form topic ids take.
fn is_topic_id(raw: &str) -> bool {
    raw.len() <= MAX_TOPIC_ID_LENGTH
        && raw.strip_prefix("t-").is_some_and(|slug| {
            !slug.is_empty()
                && slug
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        })
}

fn unknown_topic() -> FieldError {
    FieldError::new(
        "topicId",
        "is not a topic of this job (see GET /jobs/{jobId}/topics)",
    )
}
