//! An account's branding: `USER#id` / `BRANDING` holds the name and the logo's description
//! (what every shared page reads), `USER#id` / `LOGO` the logo's bytes (read only when the
//! image itself is asked for). Both logo writes are one transaction, so the description never
//! names a logo that is not there.

use async_trait::async_trait;
use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::{AttributeValue, Put, TransactWriteItem, Update};
use chrono::{DateTime, Utc};

use super::keys::user_pk;
use super::{from_item, key, s, sdk_error, DynamoStore};
use kr_core::domain::{BrandName, ImageType, Logo, UserId};
use kr_core::store::{Branding, BrandingStore, LogoInfo, StoreError};

const BRANDING_SK: &str = "BRANDING";
const LOGO_SK: &str = "LOGO";

#[async_trait]
impl BrandingStore for DynamoStore {
    async fn branding(&self, owner: UserId) -> Result<Branding, StoreError> {
        let item = self
            .client
            .get_item()
            .table_name(&self.table)
            .set_key(Some(key(user_pk(owner), BRANDING_SK)))
            .send()
            .await
            .map_err(sdk_error)?
            .item;
        match item {
            Some(mut item) => {
                item.remove("PK");
                item.remove("SK");
                from_item(item)
            }
            None => Ok(Branding::default()),
        }
    }

    async fn set_brand_name(
        &self,
        owner: UserId,
        name: Option<&BrandName>,
    ) -> Result<(), StoreError> {
        let update = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(user_pk(owner), BRANDING_SK)))
            .expression_attribute_names("#name", "name");
        let update = match name {
            Some(name) => update
                .update_expression("SET #name = :name")
                .expression_attribute_values(":name", s(name.as_str())),
            None => update.update_expression("REMOVE #name"),
        };
        update.send().await.map_err(sdk_error)?;
        Ok(())
    }

    async fn put_logo(
        &self,
        owner: UserId,
        logo: &Logo,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let (width, height) = logo.dimensions();
        let info = LogoInfo {
            content_type: logo.kind().content_type().to_string(),
            width,
            height,
            updated_at: at,
        };
        let mut bytes = key(user_pk(owner), LOGO_SK);
        bytes.insert("contentType".into(), s(&info.content_type));
        bytes.insert("bytes".into(), AttributeValue::B(Blob::new(logo.bytes())));
        let put = Put::builder()
            .table_name(&self.table)
            .set_item(Some(bytes))
            .build()
            .map_err(StoreError::new)?;
        let describe = Update::builder()
            .table_name(&self.table)
            .set_key(Some(key(user_pk(owner), BRANDING_SK)))
            .update_expression("SET logo = :logo")
            .expression_attribute_values(
                ":logo",
                serde_dynamo::to_attribute_value(&info).map_err(StoreError::new)?,
            )
            .build()
            .map_err(StoreError::new)?;
        self.client
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().put(put).build())
            .transact_items(TransactWriteItem::builder().update(describe).build())
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(())
    }

    async fn delete_logo(&self, owner: UserId) -> Result<bool, StoreError> {
        let undescribe = Update::builder()
            .table_name(&self.table)
            .set_key(Some(key(user_pk(owner), BRANDING_SK)))
            .update_expression("REMOVE logo")
            .build()
            .map_err(StoreError::new)?;
        self.delete_along(key(user_pk(owner), LOGO_SK), undescribe)
            .await
    }

    async fn logo(&self, owner: UserId) -> Result<Option<(ImageType, Vec<u8>)>, StoreError> {
        let item = self
            .client
            .get_item()
            .table_name(&self.table)
            .set_key(Some(key(user_pk(owner), LOGO_SK)))
            .send()
            .await
            .map_err(sdk_error)?
            .item;
        let Some(item) = item else { return Ok(None) };
        let kind = item
            .get("contentType")
            .and_then(|v| v.as_s().ok())
            .and_then(|raw| ImageType::from_content_type(raw));
        let bytes = item.get("bytes").and_then(|v| v.as_b().ok());
        match (kind, bytes) {
            (Some(kind), Some(bytes)) => Ok(Some((kind, bytes.as_ref().to_vec()))),
            _ => Err(StoreError::new("a logo item without its type or bytes")),
        }
    }
}
