//! A writer's brief per cluster (`GET /jobs/{jobId}/clusters/{clusterId}/brief`).
//!
//! [`BriefMaker::brief`] answers a stored brief when there is one; otherwise it counts the
//! brief against the job's bound ([`BriefLedger`](kr_core::store::BriefLedger)), picks the
//! pages that rank ([`sources`]), reads at most [`MAX_SOURCES`] of them through the crawler
//! (robots.txt obeyed, the address guard on every connection) at once, composes the brief
//! ([`compose`]) and stores it with the job. [`markdown`] renders it for people.

mod compose;
mod error;
mod maker;
pub mod markdown;
mod sources;

pub use error::BriefError;
pub use maker::{BriefMaker, BriefSettings};
pub use sources::MAX_SOURCES;
