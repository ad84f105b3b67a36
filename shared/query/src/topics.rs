//! The order and paging of a job's topics (`GET /jobs/{jobId}/topics`).

use std::cmp::Ordering;

use kr_core::dataset::TopicRecord;
use kr_core::query_params::QueryParams;
use kr_core::validation::FieldError;

use crate::sorting::{ai_share, directed, known_first, parse_sort, sorted_page};

pub const TOPIC_SORTS: [&str; 6] = [
    "totalSearchVolume",
    "opportunityValue",
    "clusterCount",
    "keywordCount",
    "name",
    "aiShare",
];

pub const DEFAULT_TOPIC_LIMIT: u32 = 50;
pub const MAX_TOPIC_LIMIT: u32 = 500;

/// A parsed topic query: `sortBy` default `totalSearchVolume`, `sortOrder` default `desc`;
/// ties by name then id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicQuery {
    pub limit: u32,
    pub offset: u32,
    pub sort: &'static str,
    pub descending: bool,
}

impl TopicQuery {
    pub fn parse(query: &QueryParams) -> Result<Self, FieldError> {
        let (limit, offset) = query.paging(MAX_TOPIC_LIMIT, DEFAULT_TOPIC_LIMIT)?;
        let (sort, descending) = parse_sort(query, &TOPIC_SORTS)?;
        Ok(Self {
            limit,
            offset,
            sort,
            descending,
        })
    }

    fn compare(&self, a: &TopicRecord, b: &TopicRecord) -> Ordering {
        if self.sort == "aiShare" {
            // Topics without an AI Overview last in either direction.
            return known_first(ai_share(a), ai_share(b), |order| {
                directed(order, self.descending)
            })
            .then_with(|| a.name.cmp(&b.name))
            .then_with(|| a.id.cmp(&b.id));
        }
        let by_value = match self.sort {
            "opportunityValue" => a.opportunity_value.total_cmp(&b.opportunity_value),
            "clusterCount" => a.cluster_count.cmp(&b.cluster_count),
            "keywordCount" => a.keyword_count.cmp(&b.keyword_count),
            "name" => a.name.cmp(&b.name),
            _ => a.total_search_volume.cmp(&b.total_search_volume),
        };
        directed(by_value, self.descending)
            .then_with(|| a.name.cmp(&b.name))
            .then_with(|| a.id.cmp(&b.id))
    }

    /// The requested page, and how many topics there are in all.
    pub fn page<'a>(&self, topics: &'a [TopicRecord]) -> (Vec<&'a TopicRecord>, usize) {
        self.page_by(topics, |topic| topic)
    }

    /// [`Self::page`] over items that each stand for a topic, e.g. a topic with its clusters.
    pub(crate) fn page_by<'a, T>(
        &self,
        items: &'a [T],
        topic: impl Fn(&T) -> &TopicRecord,
    ) -> (Vec<&'a T>, usize) {
        sorted_page(
            items.iter(),
            |a, b| self.compare(topic(a), topic(b)),
            self.offset,
            self.limit,
        )
    }
}
