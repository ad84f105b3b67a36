//! Domain types. Each is parsed once at the edge and cannot hold a bad value afterwards.

mod domain_name;
mod email;
mod ids;
mod job;
mod lifecycle;
mod locale;
mod plan;
mod secret;

pub use domain_name::DomainName;
pub use email::Email;
pub use ids::{ApiKeyId, JobId, UserId};
pub use job::{JobStatus, Progress, Stage};
pub use lifecycle::{Job, JobChange, NewJob, ProviderUsage};
pub use locale::{LanguageCode, LocationCode};
pub use plan::Plan;
pub use secret::{ApiKeySecret, Password, SecretHash, SessionToken};
