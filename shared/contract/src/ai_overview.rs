//! Schema-only mirrors of `kr_core::dataset`'s AI Overview records: a keyword's
//! `aiOverview`, and the `aiShareOfVoice` of clusters and topics. Guarded by the drift test
//! (`src/drift.rs`), as `records` is.

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

/// A keyword's AI Overview as its SERP showed it (`aiOverview`); `null` on a keyword without
/// a fetched SERP.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AiOverview {
    /// The SERP showed an AI Overview; without one every other field is empty.
    pub present: bool,
    /// One of its references is on the job's site (registrable domain, subdomains included).
    pub cites_site: bool,
    /// The first such reference's address.
    pub cited_url: Option<String>,
    /// Every referenced registrable domain, in reference order, each once.
    pub cited_domains: Vec<String>,
    /// The job's competitors (as the job lists them) among `citedDomains`, in the job's order.
    pub cites_competitors: Vec<String>,
    /// The cited pages, in order, at most 10.
    pub references: Vec<AiReference>,
}

/// One page an AI Overview cites.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AiReference {
    pub url: String,
    /// The page's host as the SERP named it (else read from `url`), lowercase.
    pub domain: String,
    /// The title the overview showed for it; hostile text, escaped wherever it is shown.
    pub title: Option<String>,
}

/// Of a cluster's (or topic's) keywords with an AI Overview, the share citing the site and
/// each competitor (`aiShareOfVoice`).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AiShareOfVoice {
    /// Its keywords with an AI Overview.
    pub overviews: u32,
    /// The share (0 to 1, 3 decimals) of those overviews citing the site.
    pub site: f64,
    /// The same share per competitor of the job, every one listed (0 when never cited).
    pub competitors: BTreeMap<String, f64>,
}
