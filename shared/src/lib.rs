//! The library behind every function of the keyword research service.
//!
//! Layout follows ports and adapters: `domain` holds types that cannot hold bad values,
//! `store` declares one small trait per store operation group and implements them on
//! DynamoDB, `http` holds the axum pieces every function shares, and `error` is the one
//! error type that renders the contract's error body.

pub mod auth;
pub mod aws;
pub mod config;
pub mod domain;
pub mod error;
pub mod http;
pub mod locales;
pub mod results;
pub mod service;
pub mod store;
pub mod time;
pub mod wiring;

pub use error::ApiError;
