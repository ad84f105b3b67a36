//! The order and paging of a job's clusters (`GET /jobs/{jobId}/clusters`).

use std::cmp::Ordering;

use kr_core::dataset::ClusterRecord;
use kr_http::extract::QueryParams;
use kr_http::ApiError;

pub const CLUSTER_SORTS: [&str; 6] = [
    "totalSearchVolume",
    "keywordCount",
    "name",
    "opportunityValue",
    "organicOpportunityScore",
    "avgDifficulty",
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
}

impl ClusterQuery {
    pub fn parse(query: &QueryParams) -> Result<Self, ApiError> {
        let (limit, offset) = query.paging(MAX_CLUSTER_LIMIT, DEFAULT_CLUSTER_LIMIT)?;
        let sort = query
            .choice("sortBy", &CLUSTER_SORTS, Some("totalSearchVolume"))?
            .unwrap_or("totalSearchVolume");
        let descending = query.choice("sortOrder", &["asc", "desc"], Some("desc"))? != Some("asc");
        Ok(Self {
            limit,
            offset,
            sort,
            descending,
        })
    }

    fn compare(&self, a: &ClusterRecord, b: &ClusterRecord) -> Ordering {
        let ordered = |order: Ordering| {
            if self.descending {
                order.reverse()
            } else {
                order
            }
        };
        let by_value = match self.sort {
            "keywordCount" => ordered(a.keyword_count.cmp(&b.keyword_count)),
            "name" => ordered(a.name.cmp(&b.name)),
            "opportunityValue" => ordered(a.opportunity_value.total_cmp(&b.opportunity_value)),
            "organicOpportunityScore" => ordered(
                a.organic_opportunity_score
                    .total_cmp(&b.organic_opportunity_score),
            ),
            "avgDifficulty" => match (a.avg_difficulty, b.avg_difficulty) {
                (Some(x), Some(y)) => ordered(x.total_cmp(&y)),
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            },
            _ => ordered(a.total_search_volume.cmp(&b.total_search_volume)),
        };
        by_value
            .then_with(|| a.name.cmp(&b.name))
            .then_with(|| a.id.cmp(&b.id))
    }

    /// The requested page, and how many clusters there are in all.
    pub fn page<'a>(&self, clusters: &'a [ClusterRecord]) -> (Vec<&'a ClusterRecord>, usize) {
        let mut sorted: Vec<&ClusterRecord> = clusters.iter().collect();
        sorted.sort_by(|a, b| self.compare(a, b));
        let total = sorted.len();
        let page = sorted
            .into_iter()
            .skip(self.offset as usize)
            .take(self.limit as usize)
            .collect();
        (page, total)
    }
}
