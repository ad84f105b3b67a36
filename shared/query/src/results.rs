//! A job's results as the API answers them: a page of keywords (of the job or of one
//! cluster), a page of clusters, the personas and the site references. The results function
//! and the MCP tools both answer from here, so a page means the same in both.

use std::sync::Arc;

use kr_core::dataset::{objects, ClusterRecord, KeywordRecord, Persona, Reference, TopicRecord};
use kr_core::domain::{Job, JobStatus};
use kr_core::store::{get_json, ArtifactStore, StoreError};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    ClusterFilter, ClusterQuery, DatasetCache, IndexedDataset, KeywordQuery, QueryError, TopicQuery,
};

#[derive(Serialize, ToSchema)]
pub struct KeywordPage {
    #[schema(value_type = Vec<kr_contract::records::KeywordRecord>)]
    pub keywords: Vec<KeywordRecord>,
    pub total: usize,
    pub limit: u32,
    pub offset: u32,
}

#[derive(Serialize, ToSchema)]
pub struct ClusterPage {
    #[schema(value_type = Vec<kr_contract::records::ClusterRecord>)]
    pub clusters: Vec<ClusterRecord>,
    pub total: usize,
    pub limit: u32,
    pub offset: u32,
}

#[derive(Serialize, ToSchema)]
pub struct TopicPage {
    #[schema(value_type = Vec<kr_contract::plan::TopicRecord>)]
    pub topics: Vec<TopicRecord>,
    pub total: usize,
    pub limit: u32,
    pub offset: u32,
}

/// A topic with the clusters shown of it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlannedTopic {
    #[serde(flatten)]
    pub topic: TopicRecord,
    /// Pillar first, then by descending volume.
    pub clusters: Vec<ClusterRecord>,
}

#[derive(Serialize)]
pub struct ContentPlanPage {
    pub topics: Vec<PlannedTopic>,
    pub total: usize,
    pub limit: u32,
    pub offset: u32,
}

#[derive(Serialize, ToSchema)]
pub struct PersonaList {
    #[schema(value_type = Vec<kr_contract::records::Persona>)]
    pub personas: Vec<Persona>,
}

#[derive(Serialize, ToSchema)]
pub struct ReferenceList {
    /// The primary site first, then the competitors in request order; `null` for a site not
    /// fetched (yet, or at all).
    #[schema(value_type = Vec<Option<kr_contract::records::Reference>>)]
    pub references: Vec<Option<Reference>>,
}

/// A job's results, read through the cache of warm datasets.
pub struct Results<'a> {
    pub cache: &'a DatasetCache,
    pub objects: &'a dyn ArtifactStore,
}

impl Results<'_> {
    /// The dataset of a completed job; `None` before completion (results are empty then).
    pub async fn dataset(&self, job: &Job) -> Result<Option<Arc<IndexedDataset>>, StoreError> {
        if job.status != JobStatus::Completed {
            return Ok(None);
        }
        Ok(Some(self.cache.get(job, self.objects).await?))
    }

    pub async fn keywords(
        &self,
        job: &Job,
        query: &KeywordQuery,
    ) -> Result<KeywordPage, StoreError> {
        let (keywords, total) = match self.dataset(job).await? {
            Some(dataset) => {
                let page = dataset.query(query);
                (page.keywords, page.total)
            }
            None => (Vec::new(), 0),
        };
        Ok(KeywordPage {
            keywords,
            total,
            limit: query.limit,
            offset: query.offset,
        })
    }

    /// One cluster's keywords; `None` when the completed job has no such cluster.
    pub async fn cluster_keywords(
        &self,
        job: &Job,
        cluster_id: &str,
        query: KeywordQuery,
    ) -> Result<Option<KeywordPage>, StoreError> {
        if let Some(dataset) = self.dataset(job).await? {
            if !dataset.has_cluster(cluster_id) {
                return Ok(None);
            }
        }
        self.keywords(job, &query.in_cluster(cluster_id))
            .await
            .map(Some)
    }

    /// A page of clusters; a `topicId` the completed job does not have is refused.
    pub async fn clusters(
        &self,
        job: &Job,
        query: &ClusterQuery,
    ) -> Result<ClusterPage, QueryError> {
        let (clusters, total) = match self.dataset(job).await? {
            Some(dataset) => {
                let (page, total) = query.page(dataset.as_ref())?;
                (page.into_iter().cloned().collect(), total)
            }
            None => (Vec::new(), 0),
        };
        Ok(ClusterPage {
            clusters,
            total,
            limit: query.limit,
            offset: query.offset,
        })
    }

    pub async fn topics(&self, job: &Job, query: &TopicQuery) -> Result<TopicPage, StoreError> {
        let (topics, total) = match self.dataset(job).await? {
            Some(dataset) => {
                let (page, total) = query.page(&dataset.topics);
                (page.into_iter().cloned().collect(), total)
            }
            None => (Vec::new(), 0),
        };
        Ok(TopicPage {
            topics,
            total,
            limit: query.limit,
            offset: query.offset,
        })
    }

    /// A page of topics, each with its clusters (pillar first) that pass `filter`; topics
    /// with none are left out, and `total` counts the topics that have some.
    pub async fn content_plan(
        &self,
        job: &Job,
        topics: &TopicQuery,
        filter: &ClusterFilter,
    ) -> Result<ContentPlanPage, QueryError> {
        let Some(dataset) = self.dataset(job).await? else {
            return Ok(ContentPlanPage {
                topics: Vec::new(),
                total: 0,
                limit: topics.limit,
                offset: topics.offset,
            });
        };
        let slice = crate::plan::content_plan(dataset.as_ref(), topics, filter)?;
        Ok(ContentPlanPage {
            topics: slice
                .topics
                .into_iter()
                .map(|entry| PlannedTopic {
                    topic: entry.topic.clone(),
                    clusters: entry.clusters.into_iter().cloned().collect(),
                })
                .collect(),
            total: slice.total,
            limit: topics.limit,
            offset: topics.offset,
        })
    }

    pub async fn personas(&self, job: &Job) -> Result<PersonaList, StoreError> {
        let personas = self
            .dataset(job)
            .await?
            .map(|dataset| dataset.personas.clone())
            .unwrap_or_default();
        Ok(PersonaList { personas })
    }

    /// Available at any stage of the job: one item per site.
    pub async fn references(&self, job: &Job) -> Result<ReferenceList, StoreError> {
        let sites = 1 + job.competitor_domains.len();
        let mut references: Vec<Option<Reference>> =
            get_json(self.objects, job.id, objects::REFERENCES)
                .await?
                .unwrap_or_default();
        references.resize(sites, None);
        Ok(ReferenceList { references })
    }
}
