//! Tooling for the local stack and the tests: provisioning AWS resources on the emulator
//! from `template.yaml`, seeding accounts, and the test harness.

pub mod aws_calls;
pub mod bedrock_mock;
pub mod bridge;
pub mod browser;
pub mod counting;
pub mod dataforseo_mock;
pub mod front_door;
pub mod gateway;
pub mod google_mock;
pub mod harness;
pub mod iam;
pub mod measure;
pub mod pipeline_rig;
pub mod provision;
pub mod scripted_pipeline;
pub mod seed;
pub mod sites;
pub mod template;
