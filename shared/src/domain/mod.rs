//! Domain types. Each is parsed once at the edge and cannot hold a bad value afterwards.

mod email;
mod ids;
mod locale;
mod plan;
mod secret;

pub use email::Email;
pub use ids::{ApiKeyId, JobId, UserId};
pub use locale::{LanguageCode, LocationCode};
pub use plan::Plan;
pub use secret::{ApiKeySecret, Password, SecretHash, SessionToken};
