//! A writer's brief for one cluster: what to target, the outline the ranking pages share, the
//! questions to answer, how long those pages are and the terms they use, and where to link.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{ClusterAction, Intent, PageType};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterBrief {
    pub cluster_id: String,
    pub cluster_name: String,
    /// The keyword the page targets: the cluster's primary keyword.
    pub primary_keyword: BriefKeyword,
    /// The cluster's other keywords by search volume, the most searched first (at most 20).
    pub secondary_keywords: Vec<BriefKeyword>,
    /// The cluster's dominant intent.
    pub intent: Intent,
    /// The kind of page most of the ranking pages are; `null` when none is known (offline
    /// jobs have no results pages).
    pub page_type: Option<PageType>,
    /// What the content plan says to do on the primary site, and its page for it.
    pub action: Option<ClusterAction>,
    pub target_url: Option<String>,
    /// H2 and H3 headings of the ranking pages, similar ones merged, in the order the pages
    /// use them; each with how many pages have it.
    pub outline: Vec<OutlineHeading>,
    /// People Also Ask questions of the cluster's keywords, then its question keywords.
    pub questions: Vec<String>,
    /// Words in the main text of the pages read; `null` when none was.
    pub word_count: Option<WordCountRange>,
    /// Terms most of the pages read use and the primary site's page for the cluster does not
    /// (every common term when there is no such page), most used first.
    pub missing_terms: Vec<String>,
    /// The primary site's pages on the same topic: link from them to the page, and from the
    /// page to them.
    pub internal_links: Vec<InternalLink>,
    /// Every page the brief tried to read, in rank order; the ones that could not be read
    /// are named with the reason.
    pub sources: Vec<BriefSource>,
    pub generated_at: DateTime<Utc>,
    /// What a language model wrote for the writer from this brief's own facts: `null` unless
    /// one is configured, and when its answer could not be used (the rest of the brief is the
    /// same either way).
    #[serde(default)]
    pub wording: Option<BriefWording>,
    /// The competitors' pages the AI Overviews on the cluster's keywords cite, most cited
    /// first (at most 5), and what they say; empty when no overview cites a competitor.
    #[serde(default)]
    pub cited_pages: Vec<CitedPage>,
}

/// A competitor's page an AI Overview on the cluster's keywords cites, read as the ranking
/// pages are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CitedPage {
    pub url: String,
    /// The competitor it is on, as the job lists it.
    pub competitor: String,
    /// The title the overview showed for it (plain text; render it escaped).
    pub title: Option<String>,
    /// How many of the cluster's keywords' overviews cite it.
    pub citations: usize,
    pub fetched: bool,
    /// Why it was not read; `null` when it was.
    pub skipped_because: Option<String>,
    /// Its H2 and H3 headings in page order, when read (plain text; render it escaped).
    pub headings: Vec<String>,
}

/// A language model's wording of a brief, read strictly: plain text (no markup or links) of
/// bounded length.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BriefWording {
    /// A working title for the page, with the primary keyword (at most 90 characters).
    pub title: String,
    /// A meta description for the page (at most 160 characters).
    pub meta_description: String,
    /// The angle for the writer: who the page is for and what it must do better than the
    /// pages that rank (at most 700 characters).
    pub summary: String,
    /// What the model's request cost, USD.
    pub cost_usd: f64,
}

/// Writes a brief's wording: a language model, when one is configured.
#[async_trait::async_trait]
pub trait BriefWriter: Send + Sync {
    /// Whose model it is, as a job's usage names a provider.
    fn provider(&self) -> &str;
    /// The wording of `brief`, or why there is none (the brief is then made without it).
    async fn word(&self, brief: &ClusterBrief) -> Result<BriefWording, Unworded>;
}

/// Why a brief has no wording, and what asking for it cost: a refused answer was still paid.
#[derive(Debug, Clone, PartialEq)]
pub struct Unworded {
    pub why: String,
    /// USD, when a request was answered; `None` when none was sent or none was answered.
    pub cost_usd: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BriefKeyword {
    pub keyword: String,
    pub search_volume: Option<i64>,
    pub intent: Intent,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OutlineHeading {
    /// 2 or 3.
    pub level: u8,
    /// As the first page that has it writes it (plain text; render it escaped).
    pub text: String,
    /// How many of the pages read have this heading or one like it.
    pub pages: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WordCountRange {
    pub min: usize,
    pub median: usize,
    pub max: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InternalLink {
    pub url: String,
    pub title: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BriefSource {
    pub url: String,
    /// Organic position for the primary keyword's results page, when it came from there.
    pub position: Option<u32>,
    pub fetched: bool,
    /// Why a page was not read ("robots.txt disallows it", "HTTP 404"…); `null` when it was.
    pub skipped_because: Option<String>,
    /// Words in its main text, when read.
    pub word_count: Option<usize>,
}
