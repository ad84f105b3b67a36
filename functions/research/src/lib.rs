//! The research engine. Pure, deterministic computation over crawled page content: no I/O,
//! so the pipeline, the operator CLI and the benchmarks all run exactly the same code.

pub mod page;

pub use page::{PageContent, SiteRole};
