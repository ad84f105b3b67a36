//! Schema-only mirrors of `kr_core::dataset`'s content plan records, served as they are.
//!
//! GUARDED BY THE DRIFT TEST (`src/drift.rs`): it serialises real core values and checks the
//! JSON against these schemas. A field or variant added to a core type goes here too, with
//! its doc comment word for word (it is the OpenAPI description) and its serde attributes.
//! `Serialize` is derived only so those serde attributes, which the schema derive reads, can
//! be written; nothing serialises a mirror.

use serde::Serialize;
use utoipa::ToSchema;

use crate::ai_overview::AiShareOfVoice;
use crate::records::Intent;

/// How a cluster's keywords were grouped.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ClusterMethod {
    /// By shared top-10 result URLs.
    Serp,
    /// By words: close variants only.
    Lexical,
}

/// What the primary site should do for a cluster.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ClusterAction {
    /// No page of the site serves it.
    Create,
    /// One page serves it.
    Improve,
    /// Two or more pages compete for it.
    Consolidate,
}

/// What decided a cluster's action and target page.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlanBasis {
    /// The job's Search Console data: the pages its keywords brought impressions to.
    SearchConsole,
    /// The site's positions from the data provider (rankings and fetched SERPs).
    Rankings,
    /// The crawled pages: titles, headings and addresses, or the site's name.
    Crawl,
}

/// A site's best organic position for a cluster's keywords, and the page at it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SitePosition {
    pub domain: String,
    pub position: u32,
    pub url: String,
}

/// How many of a topic's clusters call for each action.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActionCounts {
    pub create: usize,
    pub improve: usize,
    pub consolidate: usize,
}

/// Clusters grouped as a pillar page and its supporting pages would be.
#[derive(Serialize, ToSchema)]
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
    #[serde(default)]
    pub ai_share_of_voice: Option<AiShareOfVoice>,
}
