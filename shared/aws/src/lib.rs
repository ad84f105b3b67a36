//! The AWS adapters: every store port of `kr-core` implemented on one DynamoDB table
//! (`dynamo`), the results bucket (`s3`) and the jobs queue (`sqs`), with the SDK clients
//! they share built once per cold start from the resources they name (`resources`,
//! `clients`, `wiring`); the webhook signing key in
//! Secrets Manager (`signing_key`); and the optional persona generator on Amazon Bedrock
//! (`bedrock`).

pub mod bedrock;
pub mod clients;
pub mod dynamo;
pub mod google;
pub mod resources;
pub mod s3;
pub mod signing_key;
pub mod sqs;
pub mod wiring;

pub use clients::{sdk_config, AwsClients, SdkConfig};
pub use resources::Resources;
pub use wiring::Wiring;
