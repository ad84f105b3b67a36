//! An account's branding: the name and logo its shared pages show.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::StoreError;
use crate::domain::{BrandName, ImageType, Logo, UserId};

/// What a shared page needs to show the branding, without the logo's bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Branding {
    pub name: Option<String>,
    pub logo: Option<LogoInfo>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LogoInfo {
    pub content_type: String,
    pub width: usize,
    pub height: usize,
    /// Changes with every upload, so a URL carrying it can be cached for long.
    pub updated_at: DateTime<Utc>,
}

#[async_trait]
pub trait BrandingStore: Send + Sync {
    /// The owner's branding (empty when never set).
    async fn branding(&self, owner: UserId) -> Result<Branding, StoreError>;
    /// Sets the name, or removes it with `None`.
    async fn set_brand_name(
        &self,
        owner: UserId,
        name: Option<&BrandName>,
    ) -> Result<(), StoreError>;
    /// Stores a checked logo in place of any earlier one.
    async fn put_logo(
        &self,
        owner: UserId,
        logo: &Logo,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError>;
    /// `false` when there was none.
    async fn delete_logo(&self, owner: UserId) -> Result<bool, StoreError>;
    /// The logo's type and bytes.
    async fn logo(&self, owner: UserId) -> Result<Option<(ImageType, Vec<u8>)>, StoreError>;
}
