//! A writer's brief per cluster (`POST`/`GET /jobs/{jobId}/clusters/{clusterId}/brief`).
//!
//! [`BriefMaker::brief`] answers a stored brief when there is one; otherwise, for a caller that
//! may have it made ([`Access::Make`]), it claims the cluster and counts the brief against the
//! job's bound in one write ([`BriefLedger`](kr_core::store::BriefLedger)), so one request at
//! a time makes it, picks the pages that rank ([`sources`]), reads at most [`MAX_SOURCES`] of
//! them through the crawler (robots.txt obeyed, the address guard on every connection) at
//! once, composes the brief ([`compose`]), has it worded within [`WORDING_DEADLINE`] when a
//! writer is configured, and stores it with the job. The competitors' pages the cluster's AI
//! Overviews cite (at most [`MAX_CITED_PAGES`]) are read at the same time, for their
//! headings. [`markdown`] renders it for people.

mod cited;
mod compose;
mod error;
mod maker;
pub mod markdown;
mod sources;
mod wording;

pub use cited::MAX_CITED_PAGES;
pub use error::BriefError;
pub use maker::{Access, BriefMaker, BriefSettings, WORDING_DEADLINE};
pub use sources::MAX_SOURCES;
