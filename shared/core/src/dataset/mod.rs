//! What a finished job leaves behind, as the pipeline writes it and the results functions
//! read it: the references, and one versioned dataset of keywords, clusters and personas.

use serde::{Deserialize, Serialize};

use crate::domain::JobId;

mod ai_answers;
mod ai_overview;
mod brief;
pub mod export;
mod page;
mod plan;
mod records;
mod run_summary;
mod serp_page;
pub mod stored;

pub use ai_answers::{
    AiAnswer, AiAnswersDocument, EngineReply, SiteNames, AI_ANSWERS_FORMAT, MAX_ANSWER_CHARS,
    MAX_CITED_URLS,
};
pub use ai_overview::{
    registrable_domain, AiOverview, AiReference, AiShareOfVoice, AiShareTally, MAX_AI_REFERENCES,
};
pub use brief::{
    BriefKeyword, BriefSource, BriefWording, BriefWriter, CitedPage, ClusterBrief, InternalLink,
    OutlineHeading, Unworded, WordCountRange,
};
pub use page::{HeadedLink, PageContent, SiteRole};
pub use plan::{ActionCounts, ClusterAction, ClusterMethod, PlanBasis, SitePosition, TopicRecord};
pub use records::ClusterSearchConsole;
pub use records::{
    bare_domain, best_organic_position, ArchivedKeywordRecord, ClusterRecord, Intent,
    KeywordRecord, KeywordSource, MonthlySearch, Persona, Ranking, RankingKind, SearchConsoleDay,
    SearchConsoleMetrics, SearchConsolePage, DECAY_MIN_LOSS, DECAY_MIN_PREVIOUS_CLICKS,
    ESTIMATE_SOURCE, SEARCH_CONSOLE_SOURCE, STRIKING_DISTANCE_MIN_IMPRESSIONS,
    STRIKING_DISTANCE_POSITIONS,
};
pub use run_summary::{compared_keyword, RunSummary};
pub use serp_page::{PageType, SerpFeature, WeakSpot, WeakSpotKind};

/// The layout of [`ResultsDataset`]'s records; part of the stored dataset's object name, so a
/// reader never misreads an older or newer layout. 2 added `searchConsole` to the keyword
/// records (2026-11-29), 3 the plan's `basis` and `searchConsoleBaseline` to the cluster
/// records (2026-11-29), 4 `aiOverview` to the keyword records (2026-11-30); datasets stored
/// as 1, 2 and 3 are still read ([`stored::decode_v1`], [`stored::decode_v2`],
/// [`stored::decode_v3`]).
pub const DATASET_FORMAT: u32 = 4;

/// Object names under a job's prefix.
pub mod objects {
    /// The format in the names of the objects written beside the dataset (run summary, CSV
    /// export, briefs): their own layouts did not change with the records'.
    const FILES_FORMAT: u32 = 1;

    pub const REFERENCES: &str = "references.json";
    /// The sites' preview images kept by the crawler (`[PreviewImage | null]`, in the
    /// references' order); absent for jobs run before images were kept.
    pub const PREVIEW_IMAGES: &str = "preview-images.json";
    /// The bytes of one site's preview image (`index` in the references' order).
    pub fn preview_image(index: usize) -> String {
        format!("previews/{index}.img")
    }
    /// The keywords the user brought: a JSON array of cleaned phrases.
    pub const IMPORTED_KEYWORDS: &str = "imported-keywords.json";

    /// The dataset as JSON: how jobs completed before 2026-11-27 stored it (readers still
    /// accept it); newer jobs store only [`stored_dataset`].
    pub fn json_dataset() -> String {
        "results/dataset-v1.json".to_string()
    }

    /// The dataset in the form readers load (`super::stored`); its presence is what makes a
    /// job's results complete.
    pub fn stored_dataset() -> String {
        format!("results/dataset-v{}.rkyv.lz4", super::DATASET_FORMAT)
    }

    /// The stored dataset of jobs completed before format 2 (no `searchConsole`); readers
    /// still accept it.
    pub fn stored_dataset_v1() -> String {
        "results/dataset-v1.rkyv.lz4".to_string()
    }

    /// The stored dataset of jobs completed before format 3 (no plan `basis` or
    /// `searchConsoleBaseline`); readers still accept it.
    pub fn stored_dataset_v2() -> String {
        "results/dataset-v2.rkyv.lz4".to_string()
    }

    /// The stored dataset of jobs completed before format 4 (no `aiOverview`); readers
    /// still accept it.
    pub fn stored_dataset_v3() -> String {
        "results/dataset-v3.rkyv.lz4".to_string()
    }

    /// The run's [`super::RunSummary`], written before the dataset; absent for jobs that
    /// completed before summaries were kept.
    pub fn run_summary() -> String {
        format!("results/run-summary-v{FILES_FORMAT}.json")
    }

    /// What answer engines said to the job's questions (`super::AiAnswersDocument`), written
    /// before the dataset; absent when no engine was asked.
    pub fn ai_answers() -> String {
        format!("results/ai-answers-v{}.json", super::AI_ANSWERS_FORMAT)
    }

    /// The CSV export, written with the dataset from the same records.
    pub fn export() -> String {
        format!("results/keywords-v{FILES_FORMAT}.csv")
    }

    /// A cluster's brief, made on its first request. Cluster ids are the dataset's own
    /// ("c-12"), never a caller's text.
    pub fn brief(cluster_id: &str) -> String {
        format!("briefs/{cluster_id}-v{FILES_FORMAT}.json")
    }

    pub fn stage(name: &str) -> String {
        format!("stages/{name}.json")
    }
}

/// Every keyword of a job with its cluster and persona, the clusters and the personas.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
#[serde(rename_all = "camelCase")]
pub struct ResultsDataset {
    pub format: u32,
    /// Not in the binary form: its object's key names the job.
    #[rkyv(with = rkyv::with::Skip)]
    pub job_id: JobId,
    pub keywords: Vec<KeywordRecord>,
    pub clusters: Vec<ClusterRecord>,
    pub personas: Vec<Persona>,
    /// Empty in results computed before topics.
    #[serde(default)]
    pub topics: Vec<TopicRecord>,
}

/// A site preview (contract: `GET /jobs/{id}/references`). Missing parts are `null`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Reference {
    /// The site address fetched.
    pub url: String,
    /// `og:title`, else `<title>`.
    pub title: Option<String>,
    /// `og:description`, else the meta description.
    pub description: Option<String>,
    /// Absolute `og:image`, else `twitter:image`, else the site icon.
    pub image_url: Option<String>,
    /// The canonical link, else `og:url`, else the final URL after redirects.
    pub link: Option<String>,
}

/// The most bytes and pixels a side of a site's preview image the crawler keeps: larger
/// than a typical 1200×630 link preview, small enough to serve with a page.
pub const PREVIEW_IMAGE_LIMITS: crate::domain::ImageLimits = crate::domain::ImageLimits {
    max_bytes: 1024 * 1024,
    max_side: 4096,
};

/// A site's preview image kept with its job and served from our own origin, so a viewer's
/// browser never asks the site for it. Its bytes are [`objects::preview_image`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PreviewImage {
    /// Read from the image's own bytes: `image/png`, `image/jpeg` or `image/webp`.
    pub content_type: String,
    pub width: u32,
    pub height: u32,
}

/// What readers of a completed job's clusters and topics need, whether its records are in
/// memory ([`ResultsDataset`]) or read in place from their stored form (`kr_query`).
pub trait JobResults: Send + Sync {
    fn clusters(&self) -> &[ClusterRecord];
    fn topics(&self) -> &[TopicRecord];
    fn personas(&self) -> &[Persona];
    /// The keywords of one cluster, in the dataset's order.
    fn cluster_keywords(&self, cluster_id: &str) -> Vec<KeywordRecord>;
}

impl JobResults for ResultsDataset {
    fn clusters(&self) -> &[ClusterRecord] {
        &self.clusters
    }

    fn topics(&self) -> &[TopicRecord] {
        &self.topics
    }

    fn personas(&self) -> &[Persona] {
        &self.personas
    }

    fn cluster_keywords(&self, cluster_id: &str) -> Vec<KeywordRecord> {
        self.keywords
            .iter()
            .filter(|k| k.cluster_id == cluster_id)
            .cloned()
            .collect()
    }
}
