//! What the account API answers of a user and an API key, built from the stored records
//! (`From`). Core types they hold are documented by their mirrors in [`crate::domain`].

use chrono::{DateTime, Utc};
use kr_core::domain::{ApiKeyId, Plan, UserId};
use kr_core::store::{ApiKeyRecord, User};
use serde::Serialize;
use utoipa::ToSchema;

/// The User resource (snake_case, as interface.md writes it).
#[derive(Debug, Serialize, ToSchema)]
pub struct UserView {
    #[schema(value_type = crate::domain::UserId)]
    pub id: UserId,
    pub email: String,
    /// Runs (jobs) the user may still start.
    pub credits_balance: i64,
    /// New distinct primary domains the user may still research.
    pub domains_balance: i64,
    pub can_create_api_keys: bool,
    /// `free`, `pro` or `agency`; only `agency` includes API keys.
    #[schema(value_type = crate::domain::Plan)]
    pub plan: Plan,
}

impl From<&User> for UserView {
    fn from(user: &User) -> Self {
        Self {
            id: user.id,
            email: user.email.to_string(),
            credits_balance: user.credits_balance,
            domains_balance: user.domains_balance,
            can_create_api_keys: user.plan.can_create_api_keys(),
            plan: user.plan,
        }
    }
}

/// An API key as listed; the secret is never part of it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiKeyView {
    #[schema(value_type = crate::domain::ApiKeyId)]
    pub id: ApiKeyId,
    pub name: String,
    /// The first characters of the key, to tell keys apart.
    pub prefix: String,
    #[serde(with = "kr_core::time")]
    pub created_at: DateTime<Utc>,
    #[serde(with = "kr_core::time::option")]
    pub last_used_at: Option<DateTime<Utc>>,
}

impl From<&ApiKeyRecord> for ApiKeyView {
    fn from(record: &ApiKeyRecord) -> Self {
        Self {
            id: record.id,
            name: record.name.clone(),
            prefix: record.prefix.clone(),
            created_at: record.created_at,
            last_used_at: record.last_used_at,
        }
    }
}
