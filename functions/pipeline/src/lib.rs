//! The pipeline function. Each SQS message names a job and a stage; the engine runs the
//! stage if the job is still at it, records the result with a conditional write, and sends
//! the next stage's message. Delivery is at least once, so every step is safe to repeat.

pub mod engine;
pub mod event;
pub mod provider_credentials;
pub mod runner;
pub mod stages;
pub mod wiring;

pub use engine::Pipeline;
pub use runner::{ProgressReporter, StageError, StageOutcome, StageRunner};
