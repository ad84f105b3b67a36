//! The content plan over a dataset in memory: topics, each with those of its clusters that
//! pass a filter. The MCP `content_plan` tool (through [`crate::Results::content_plan`]) and
//! the dashboard's plan tab both page from here, so a filter leaves out the same topics in
//! both.

use std::collections::HashMap;

use kr_core::dataset::{ClusterRecord, JobResults, TopicRecord};
use kr_core::validation::FieldError;

use crate::{ClusterFilter, TopicQuery};

/// A topic with the clusters shown of it, pillar first.
#[derive(Debug, Clone)]
pub struct PlanEntry<'a> {
    pub topic: &'a TopicRecord,
    pub clusters: Vec<&'a ClusterRecord>,
}

/// A page of topics, and how many topics have a cluster that passes the filter.
#[derive(Debug)]
pub struct PlanSlice<'a> {
    pub topics: Vec<PlanEntry<'a>>,
    pub total: usize,
}

/// The requested page of `dataset`'s topics in `topics`' order, each with its clusters that
/// `filter` admits; topics with none are left out (and not counted). A `topicId` the dataset
/// does not have is refused, as [`ClusterFilter::check`] does.
pub fn content_plan<'a>(
    dataset: &'a dyn JobResults,
    topics: &TopicQuery,
    filter: &ClusterFilter,
) -> Result<PlanSlice<'a>, FieldError> {
    filter.check(dataset)?;
    let clusters: HashMap<&str, &ClusterRecord> = dataset
        .clusters()
        .iter()
        .map(|c| (c.id.as_str(), c))
        .collect();
    let planned: Vec<PlanEntry> = dataset
        .topics()
        .iter()
        .filter_map(|topic| {
            let shown: Vec<&ClusterRecord> = topic
                .cluster_ids
                .iter()
                .filter_map(|id| clusters.get(id.as_str()).copied())
                .filter(|c| filter.admits(c))
                .collect();
            (!shown.is_empty()).then_some(PlanEntry {
                topic,
                clusters: shown,
            })
        })
        .collect();
    let (page, total) = topics.page_by(&planned, |entry| entry.topic);
    Ok(PlanSlice {
        topics: page.into_iter().cloned().collect(),
        total,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kr_core::dataset::{ActionCounts, ClusterAction, Intent, ResultsDataset, DATASET_FORMAT};
    use kr_core::domain::JobId;
    use kr_core::query_params::QueryParams;

    fn cluster(id: &str, topic: &str, action: ClusterAction, volume: i64) -> ClusterRecord {
        ClusterRecord {
            id: id.into(),
            name: id.into(),
            primary_keyword: id.into(),
            keyword_count: 1,
            total_search_volume: volume,
            avg_difficulty: None,
            avg_cpc: None,
            dominant_intent: Intent::Informational,
            organic_opportunity_score: 0.0,
            paid_opportunity_score: 0.0,
            opportunity_value: 0.0,
            topic_id: Some(topic.into()),
            action: Some(action),
            ..ClusterRecord::default()
        }
    }

    fn topic(id: &str, clusters: &[&ClusterRecord]) -> TopicRecord {
        TopicRecord {
            id: id.into(),
            name: id.into(),
            pillar_cluster_id: clusters[0].id.clone(),
            cluster_ids: clusters.iter().map(|c| c.id.clone()).collect(),
            cluster_count: clusters.len(),
            keyword_count: clusters.len(),
            total_search_volume: clusters.iter().map(|c| c.total_search_volume).sum(),
            dominant_intent: Intent::Informational,
            opportunity_value: 0.0,
            organic_opportunity_score: 0.0,
            actions: ActionCounts::default(),
            ai_share_of_voice: None,
        }
    }

    fn dataset() -> ResultsDataset {
        let pillar = cluster("c-pillar", "t-big", ClusterAction::Improve, 10);
        let support = cluster("c-support", "t-big", ClusterAction::Create, 500);
        let lone = cluster("c-lone", "t-small", ClusterAction::Create, 20);
        let topics = vec![
            topic("t-big", &[&pillar, &support]),
            topic("t-small", &[&lone]),
        ];
        ResultsDataset {
            format: DATASET_FORMAT,
            job_id: JobId::new(),
            keywords: Vec::new(),
            clusters: vec![lone, support, pillar],
            personas: Vec::new(),
            topics,
        }
    }

    fn plan(
        dataset: &ResultsDataset,
        query: &str,
    ) -> Result<Vec<(String, Vec<String>)>, FieldError> {
        let query = QueryParams::parse(query)?;
        let slice = content_plan(
            dataset,
            &TopicQuery::parse(&query)?,
            &ClusterFilter::parse(&query)?,
        )?;
        Ok(slice
            .topics
            .iter()
            .map(|entry| {
                let clusters = entry.clusters.iter().map(|c| c.id.clone()).collect();
                (entry.topic.id.clone(), clusters)
            })
            .collect())
    }

    #[test]
    fn topics_keep_their_pillar_first_and_lose_what_the_filter_refuses() {
        let dataset = dataset();
        let everything = plan(&dataset, "").unwrap();
        assert_eq!(
            everything,
            [
                ("t-big".into(), vec!["c-pillar".into(), "c-support".into()]),
                ("t-small".into(), vec!["c-lone".into()]),
            ]
        );
        let improve = plan(&dataset, "action=improve").unwrap();
        assert_eq!(improve, [("t-big".into(), vec!["c-pillar".into()])]);
        let slice = content_plan(
            &dataset,
            &TopicQuery::parse(&QueryParams::parse("limit=1&offset=1").unwrap()).unwrap(),
            &ClusterFilter::default(),
        )
        .unwrap();
        assert_eq!(slice.total, 2);
        assert_eq!(slice.topics[0].topic.id, "t-small");
        assert!(plan(&dataset, "topicId=t-nothing").is_err());
    }
}
