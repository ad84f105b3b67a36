//! The content plan's records: how a cluster was made, what to do about it on the site, and
//! the topics clusters are grouped into.

use serde::{Deserialize, Serialize};

use super::{AiShareOfVoice, Intent};

/// How a cluster's keywords were grouped.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum ClusterMethod {
    /// By shared top-10 result URLs.
    Serp,
    /// By words: close variants only.
    Lexical,
}

/// What the primary site should do for a cluster.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum ClusterAction {
    /// No page of the site serves it.
    Create,
    /// One page serves it.
    Improve,
    /// Two or more pages compete for it.
    Consolidate,
}

string_enum! {
    ClusterAction {
        Create => "create",
        Improve => "improve",
        Consolidate => "consolidate",
    }
    from_str(ignore_case, |_| "must be one of create, improve, consolidate".to_string())
}

/// What decided a cluster's action and target page.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum PlanBasis {
    /// The job's Search Console data: the pages its keywords brought impressions to.
    SearchConsole,
    /// The site's positions from the data provider (rankings and fetched SERPs).
    Rankings,
    /// The crawled pages: titles, headings and addresses, or the site's name.
    Crawl,
}

string_enum! {
    PlanBasis {
        SearchConsole => "search_console",
        Rankings => "rankings",
        Crawl => "crawl",
    }
}

/// A site's best organic position for a cluster's keywords, and the page at it.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
#[serde(rename_all = "camelCase")]
pub struct SitePosition {
    pub domain: String,
    pub position: u32,
    pub url: String,
}

/// How many of a topic's clusters call for each action.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
#[serde(rename_all = "camelCase")]
pub struct ActionCounts {
    pub create: usize,
    pub improve: usize,
    pub consolidate: usize,
}

impl ActionCounts {
    pub fn add(&mut self, action: ClusterAction) {
        match action {
            ClusterAction::Create => self.create += 1,
            ClusterAction::Improve => self.improve += 1,
            ClusterAction::Consolidate => self.consolidate += 1,
        }
    }
}

/// Clusters grouped as a pillar page and its supporting pages would be.
// `Default` is a base for records built field by field.
#[derive(
    Debug,
    Clone,
    Default,
    PartialEq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
#[serde(rename_all = "camelCase")]
pub struct TopicRecord {
    /// "t-" and a slug of the name, unique within the job.
    pub id: String,
    /// The pillar cluster's name.
    pub name: String,
    pub pillar_cluster_id: String,
    /// The pillar first, then the others by descending volume.
    pub cluster_ids: Vec<String>,
    pub cluster_count: usize,
    pub keyword_count: usize,
    /// Sum of its clusters' volumes.
    pub total_search_volume: i64,
    /// The most common intent among its keywords (ties as for clusters).
    pub dominant_intent: Intent,
    /// Sum of its clusters' values, USD per month.
    pub opportunity_value: f64,
    /// Mean of its keywords' organic opportunity scores, 2 decimals.
    pub organic_opportunity_score: f64,
    pub actions: ActionCounts,
    /// Of its keywords with an AI Overview, the share citing the site and each competitor;
    /// `null` when none shows one.
    // Not stored: computed from the keywords when a dataset is loaded (kr-query).
    #[serde(default)]
    #[rkyv(with = rkyv::with::Skip)]
    pub ai_share_of_voice: Option<AiShareOfVoice>,
}
