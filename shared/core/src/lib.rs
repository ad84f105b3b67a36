//! The domain of the keyword research service, with no AWS and no HTTP in it.
//!
//! - `domain`: types parsed once at the edge that cannot hold bad values afterwards, and the
//!   [`Job`](domain::Job) with its lifecycle (which transitions exist and what each does).
//! - `dataset`: what a job produces (keyword, cluster and persona records, site references,
//!   crawled pages), the object names it is stored under and the CSV export format.
//! - `store`: the ports, one small trait per group of store operations; `kr-aws` implements
//!   them.
//! - `service`: the use cases on those ports, shared by the functions and the operator CLI.
//! - `address`: which IP addresses are public: the SSRF rule of the crawler and of webhooks.
//! - `result_url`: search results' URLs without click trackers, as every part keeps them.
//! - `query_params`: a query string's named parameters, read with refusals that name them.

#[macro_use]
mod string_enum;

pub mod address;
pub mod config;
pub mod dataset;
pub mod domain;
pub mod locales;
pub mod query_params;
pub mod result_url;
pub mod service;
pub mod store;
pub mod time;
pub mod validation;
