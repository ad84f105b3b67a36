//! DynamoDB adapter: a single table, keys described in `keys`, one module per port.

mod api_keys;
mod branding;
mod briefs;
mod fan_out;
mod job_item;
mod jobs;
mod keys;
mod outbox;
mod rate_gate;
mod schedules;
mod search_console;
mod sessions;
mod share_links;
mod transitions;
mod users;
mod webhooks;

use std::collections::HashMap;

use aws_sdk_dynamodb::error::{DisplayErrorContext, SdkError};
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use serde::de::DeserializeOwned;
use serde::Serialize;

use kr_core::store::StoreError;

pub use keys::{GSI1, GSI2, GSI3, PK, SK, TTL_ATTRIBUTE};

pub type Item = HashMap<String, AttributeValue>;

/// Implements every store port on one DynamoDB table.
#[derive(Clone, Debug)]
pub struct DynamoStore {
    client: Client,
    table: String,
    retention: Option<Retention>,
}

/// How long new jobs are kept, and whose are kept for ever.
#[derive(Debug, Clone, Copy)]
struct Retention {
    keep_for: chrono::Duration,
    kept_owner: Option<kr_core::domain::UserId>,
}

impl DynamoStore {
    pub fn new(client: Client, table: impl Into<String>) -> Self {
        Self {
            client,
            table: table.into(),
            retention: None,
        }
    }

    /// New jobs expire `days` after creation (their item's TTL, with the bucket's lifecycle
    /// rule for their objects), except those of `kept_owner` (the demo account).
    pub fn with_retention(
        mut self,
        days: u32,
        kept_owner: Option<kr_core::domain::UserId>,
    ) -> Self {
        self.retention = Some(Retention {
            keep_for: chrono::Duration::days(days.into()),
            kept_owner,
        });
        self
    }

    fn expiry_of(&self, job: &kr_core::domain::Job) -> Option<chrono::DateTime<chrono::Utc>> {
        let retention = self.retention?;
        (retention.kept_owner != Some(job.owner)).then(|| job.created_at + retention.keep_for)
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    pub fn table(&self) -> &str {
        &self.table
    }

    /// One item by key, strongly consistent: every read here must see the latest write (a
    /// revoked key, a deleted job).
    pub(crate) async fn get(&self, key: Item) -> Result<Option<Item>, StoreError> {
        let output = self
            .client
            .get_item()
            .table_name(&self.table)
            .set_key(Some(key))
            .consistent_read(true)
            .send()
            .await
            .map_err(sdk_error)?;
        Ok(output.item)
    }
}

impl DynamoStore {
    /// Every item of partition `pk` whose sort key starts with `prefix`, all pages.
    pub(crate) async fn items_with_prefix(
        &self,
        pk: String,
        prefix: &str,
    ) -> Result<Vec<Item>, StoreError> {
        let mut items = Vec::new();
        let mut start = None;
        loop {
            let output = self
                .client
                .query()
                .table_name(&self.table)
                .key_condition_expression("#pk = :pk AND begins_with(#sk, :prefix)")
                .expression_attribute_names("#pk", PK)
                .expression_attribute_names("#sk", SK)
                .expression_attribute_values(":pk", s(pk.clone()))
                .expression_attribute_values(":prefix", s(prefix))
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(sdk_error)?;
            items.extend(output.items.unwrap_or_default());
            start = output.last_evaluated_key;
            if start.is_none() {
                return Ok(items);
            }
        }
    }
}

pub(crate) fn sdk_error<E, R>(err: SdkError<E, R>) -> StoreError
where
    E: std::error::Error + Send + Sync + 'static,
    R: std::fmt::Debug + Send + Sync + 'static,
{
    StoreError(DisplayErrorContext(err).to_string())
}

/// `Ok(true)` when a conditional write was applied, `Ok(false)` when its condition did not
/// hold, and the error otherwise.
pub(crate) fn condition_held<T, E, R>(result: Result<T, SdkError<E, R>>) -> Result<bool, StoreError>
where
    E: aws_sdk_dynamodb::error::ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
    R: std::fmt::Debug + Send + Sync + 'static,
{
    match result {
        Ok(_) => Ok(true),
        Err(err)
            if err
                .as_service_error()
                .and_then(|e| e.code())
                .is_some_and(|code| code == "ConditionalCheckFailedException") =>
        {
            Ok(false)
        }
        Err(err) => Err(sdk_error(err)),
    }
}

/// [`condition_held`] for a transaction: `Ok(false)` when it was cancelled only because one
/// of its conditions did not hold.
pub(crate) fn transaction_held<T>(
    result: Result<
        T,
        SdkError<TransactWriteItemsError, aws_sdk_dynamodb::config::http::HttpResponse>,
    >,
) -> Result<bool, StoreError> {
    match result {
        Ok(_) => Ok(true),
        Err(err) if failed_conditions(&err).is_some() => Ok(false),
        Err(err) => Err(sdk_error(err)),
    }
}

/// For a transaction whose first item is a limit's counter: `Ok(false)` when it was cancelled
/// because that counter's condition did not hold (the limit was reached). Any other failed
/// condition is an error.
pub(crate) fn limit_held<T>(
    result: Result<
        T,
        SdkError<TransactWriteItemsError, aws_sdk_dynamodb::config::http::HttpResponse>,
    >,
) -> Result<bool, StoreError> {
    match result {
        Ok(_) => Ok(true),
        Err(err) if failed_conditions(&err).is_some_and(|failed| failed.first() == Some(&true)) => {
            Ok(false)
        }
        Err(err) => Err(sdk_error(err)),
    }
}

/// An update of one of the owner's counters on their profile (`#counter` in `expression`).
fn profile_counter(
    table: &str,
    owner: kr_core::domain::UserId,
    counter: &str,
    expression: &str,
) -> aws_sdk_dynamodb::types::builders::UpdateBuilder {
    aws_sdk_dynamodb::types::Update::builder()
        .table_name(table)
        .set_key(Some(key(keys::user_pk(owner), keys::PROFILE_SK)))
        .update_expression(expression)
        .expression_attribute_names("#counter", counter)
}

impl DynamoStore {
    /// Puts `item` (new) and adds one to the owner's `counter`, in one transaction that holds
    /// only while the counter is below `limit`: `Ok(false)` when it is not. Concurrent puts
    /// cannot pass the limit together.
    pub(crate) async fn put_counted(
        &self,
        owner: kr_core::domain::UserId,
        counter: &str,
        limit: usize,
        item: Item,
    ) -> Result<bool, StoreError> {
        use aws_sdk_dynamodb::types::{Put, TransactWriteItem};
        let count = profile_counter(
            &self.table,
            owner,
            counter,
            "SET #counter = if_not_exists(#counter, :zero) + :one",
        )
        .condition_expression(
            "attribute_exists(PK) AND (attribute_not_exists(#counter) OR #counter < :max)",
        )
        .expression_attribute_values(":zero", n(0))
        .expression_attribute_values(":one", n(1))
        .expression_attribute_values(":max", n(limit))
        .build()
        .map_err(StoreError::new)?;
        let put = Put::builder()
            .table_name(&self.table)
            .set_item(Some(item))
            .condition_expression("attribute_not_exists(PK)")
            .build()
            .map_err(StoreError::new)?;
        let result = self
            .client
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().update(count).build())
            .transact_items(TransactWriteItem::builder().put(put).build())
            .send()
            .await;
        limit_held(result)
    }

    /// Deletes the item at `item_key` and takes one from the owner's `counter`, in one
    /// transaction: `Ok(false)` when there was no such item.
    pub(crate) async fn delete_counted(
        &self,
        owner: kr_core::domain::UserId,
        counter: &str,
        item_key: Item,
    ) -> Result<bool, StoreError> {
        let uncount = profile_counter(&self.table, owner, counter, "ADD #counter :minus_one")
            .expression_attribute_values(":minus_one", n(-1))
            .build()
            .map_err(StoreError::new)?;
        self.delete_along(item_key, uncount).await
    }

    /// Deletes the item at `item_key` and applies `also`, in one transaction: `Ok(false)` when
    /// there was no such item (then `also` is not applied either).
    pub(crate) async fn delete_along(
        &self,
        item_key: Item,
        also: aws_sdk_dynamodb::types::Update,
    ) -> Result<bool, StoreError> {
        use aws_sdk_dynamodb::types::{Delete, TransactWriteItem};
        let delete = Delete::builder()
            .table_name(&self.table)
            .set_key(Some(item_key))
            .condition_expression("attribute_exists(PK)")
            .build()
            .map_err(StoreError::new)?;
        let result = self
            .client
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().delete(delete).build())
            .transact_items(TransactWriteItem::builder().update(also).build())
            .send()
            .await;
        transaction_held(result)
    }
}

pub(crate) fn to_item<T: Serialize>(value: &T) -> Result<Item, StoreError> {
    serde_dynamo::to_item(value).map_err(StoreError::new)
}

pub(crate) fn from_item<T: DeserializeOwned>(item: Item) -> Result<T, StoreError> {
    serde_dynamo::from_item(item).map_err(StoreError::new)
}

pub(crate) fn key(pk: impl Into<String>, sk: impl Into<String>) -> Item {
    HashMap::from([
        (PK.to_string(), AttributeValue::S(pk.into())),
        (SK.to_string(), AttributeValue::S(sk.into())),
    ])
}

pub(crate) fn s(value: impl Into<String>) -> AttributeValue {
    AttributeValue::S(value.into())
}

pub(crate) fn n(value: impl std::fmt::Display) -> AttributeValue {
    AttributeValue::N(value.to_string())
}

/// Which items of a cancelled transaction failed their condition, by position.
/// `None` when the failure was not a condition failure (then it is a store error).
pub(crate) fn failed_conditions(
    err: &SdkError<TransactWriteItemsError, aws_sdk_dynamodb::config::http::HttpResponse>,
) -> Option<Vec<bool>> {
    let TransactWriteItemsError::TransactionCanceledException(cancelled) =
        err.as_service_error()?
    else {
        return None;
    };
    let reasons = cancelled.cancellation_reasons();
    let failed: Vec<bool> = reasons
        .iter()
        .map(|reason| reason.code() == Some("ConditionalCheckFailed"))
        .collect();
    // Any other reason (throttling, conflict with a concurrent transaction) is not a verdict
    // on our conditions, so the caller must not treat it as one.
    let only_conditions = reasons.iter().all(|reason| {
        matches!(
            reason.code(),
            None | Some("None") | Some("ConditionalCheckFailed")
        )
    });
    (only_conditions && failed.iter().any(|f| *f)).then_some(failed)
}

/// True when a transaction was cancelled because another transaction touched the same
/// items at the same time; such a transaction can simply be tried again.
pub(crate) fn is_transaction_conflict(
    err: &SdkError<TransactWriteItemsError, aws_sdk_dynamodb::config::http::HttpResponse>,
) -> bool {
    match err.as_service_error() {
        Some(TransactWriteItemsError::TransactionCanceledException(cancelled)) => cancelled
            .cancellation_reasons()
            .iter()
            .any(|reason| matches!(reason.code(), Some("TransactionConflict"))),
        Some(TransactWriteItemsError::TransactionInProgressException(_)) => true,
        _ => false,
    }
}
