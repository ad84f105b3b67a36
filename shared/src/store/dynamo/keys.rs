//! The single-table key layout. Every item's partition and sort key is built here, so the
//! layout can be read in one place (README, "DynamoDB layout").

use crate::domain::{ApiKeyId, Email, SecretHash, UserId};

pub const PK: &str = "PK";
pub const SK: &str = "SK";
/// A user's jobs, newest first.
pub const GSI1: &str = "GSI1";
/// A user's jobs of one status, newest first.
pub const GSI2: &str = "GSI2";
/// Jobs waiting in `queued`, oldest first, for the re-enqueue sweeper.
pub const GSI3: &str = "GSI3";
/// Epoch seconds after which DynamoDB may delete the item.
pub const TTL_ATTRIBUTE: &str = "ttl";

pub const PROFILE_SK: &str = "PROFILE";
/// Kept apart from the profile so a failed transaction tells "no runs" (profile condition)
/// from "no domain allowance" (this item's condition).
pub const DOMAIN_QUOTA_SK: &str = "QUOTA#DOMAINS";

pub fn user_pk(user: UserId) -> String {
    format!("USER#{user}")
}

pub fn email_pk(email: &Email) -> String {
    format!("EMAIL#{email}")
}

pub const EMAIL_SK: &str = "EMAIL";

pub fn api_key_pk(hash: &SecretHash) -> String {
    format!("APIKEY#{}", hash.as_str())
}

pub const API_KEY_SK: &str = "APIKEY";

/// The user-scoped copy of an API key, for listing and revoking by id.
pub fn user_api_key_sk(key: ApiKeyId) -> String {
    format!("APIKEY#{key}")
}

pub const USER_API_KEY_PREFIX: &str = "APIKEY#";

pub fn session_pk(hash: &SecretHash) -> String {
    format!("SESSION#{}", hash.as_str())
}

pub const SESSION_SK: &str = "SESSION";
