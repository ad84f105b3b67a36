use async_trait::async_trait;
use aws_sdk_dynamodb::types::{Put, TransactWriteItem, Update};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::keys::{
    email_pk, user_pk, DOMAIN_PREFIX, DOMAIN_QUOTA_SK, EMAIL_SK, PK, PROFILE_SK, SK,
};
use super::{
    condition_held, failed_conditions, from_item, key, n, s, sdk_error, to_item, DynamoStore,
};
use kr_core::domain::{DomainName, Email, Plan, UserId};
use kr_core::store::{
    CreateUserError, CredentialStore, LoginCredentials, NewUser, RegisteredDomains, StoreError,
    User, UserStore,
};

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ProfileItem {
    #[serde(rename = "PK")]
    pub pk: String,
    #[serde(rename = "SK")]
    pub sk: String,
    pub id: UserId,
    pub email: String,
    pub plan: Plan,
    pub credits: i64,
    pub created_at: DateTime<Utc>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DomainQuotaItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    remaining: i64,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct EmailItem {
    #[serde(rename = "PK")]
    pk: String,
    #[serde(rename = "SK")]
    sk: String,
    user_id: UserId,
    password_hash: String,
}

fn put_new(table: &str, item: super::Item) -> Result<TransactWriteItem, StoreError> {
    let put = Put::builder()
        .table_name(table)
        .set_item(Some(item))
        .condition_expression("attribute_not_exists(PK)")
        .build()
        .map_err(StoreError::new)?;
    Ok(TransactWriteItem::builder().put(put).build())
}

#[async_trait]
impl UserStore for DynamoStore {
    async fn create_user(&self, user: NewUser) -> Result<User, CreateUserError> {
        let created_at = Utc::now();
        let email_item = to_item(&EmailItem {
            pk: email_pk(&user.email),
            sk: EMAIL_SK.into(),
            user_id: user.id,
            password_hash: user.password_hash.clone(),
        })?;
        let profile = to_item(&ProfileItem {
            pk: user_pk(user.id),
            sk: PROFILE_SK.into(),
            id: user.id,
            email: user.email.to_string(),
            plan: user.plan,
            credits: user.credits_balance,
            created_at,
        })?;
        let quota = to_item(&DomainQuotaItem {
            pk: user_pk(user.id),
            sk: DOMAIN_QUOTA_SK.into(),
            remaining: user.domains_balance,
        })?;
        let result = self
            .client
            .transact_write_items()
            .transact_items(put_new(&self.table, email_item)?)
            .transact_items(put_new(&self.table, profile)?)
            .transact_items(put_new(&self.table, quota)?)
            .send()
            .await;
        match result {
            Ok(_) => Ok(User {
                id: user.id,
                email: user.email,
                plan: user.plan,
                credits_balance: user.credits_balance,
                domains_balance: user.domains_balance,
                created_at,
            }),
            Err(err) => match failed_conditions(&err) {
                Some(failed) if failed.first() == Some(&true) => Err(CreateUserError::EmailTaken),
                _ => Err(sdk_error(err).into()),
            },
        }
    }

    async fn user(&self, id: UserId) -> Result<Option<User>, StoreError> {
        // The profile and the domain quota sort next to each other; one query reads both.
        let output = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression("#pk = :pk AND #sk BETWEEN :first AND :last")
            .expression_attribute_names("#pk", PK)
            .expression_attribute_names("#sk", SK)
            .expression_attribute_values(":pk", s(user_pk(id)))
            .expression_attribute_values(":first", s(PROFILE_SK))
            .expression_attribute_values(":last", s(DOMAIN_QUOTA_SK))
            .consistent_read(true)
            .send()
            .await
            .map_err(sdk_error)?;
        let mut profile: Option<ProfileItem> = None;
        let mut domains_remaining = 0;
        for item in output.items.unwrap_or_default() {
            match item
                .get(SK)
                .and_then(|sk| sk.as_s().ok())
                .map(String::as_str)
            {
                Some(PROFILE_SK) => profile = Some(from_item(item)?),
                Some(DOMAIN_QUOTA_SK) => {
                    domains_remaining = from_item::<DomainQuotaItem>(item)?.remaining
                }
                _ => {}
            }
        }
        profile
            .map(|profile| {
                Ok(User {
                    id: profile.id,
                    email: Email::parse(&profile.email).map_err(StoreError::new)?,
                    plan: profile.plan,
                    credits_balance: profile.credits,
                    domains_balance: domains_remaining,
                    created_at: profile.created_at,
                })
            })
            .transpose()
    }

    async fn user_by_email(&self, email: &Email) -> Result<Option<User>, StoreError> {
        match self.login_credentials(email).await? {
            Some(credentials) => self.user(credentials.user_id).await,
            None => Ok(None),
        }
    }

    async fn set_balance(
        &self,
        id: UserId,
        credits: Option<i64>,
        domains: Option<i64>,
    ) -> Result<Option<User>, StoreError> {
        let set =
            |sk: &str, attribute: &str, value: i64| -> Result<TransactWriteItem, StoreError> {
                let update = Update::builder()
                    .table_name(&self.table)
                    .set_key(Some(key(user_pk(id), sk)))
                    .update_expression("SET #value = :value")
                    .condition_expression("attribute_exists(PK)")
                    .expression_attribute_names("#value", attribute)
                    .expression_attribute_values(":value", n(value))
                    .build()
                    .map_err(StoreError::new)?;
                Ok(TransactWriteItem::builder().update(update).build())
            };
        let mut writes = Vec::new();
        if let Some(credits) = credits {
            writes.push(set(PROFILE_SK, "credits", credits)?);
        }
        if let Some(domains) = domains {
            writes.push(set(DOMAIN_QUOTA_SK, "remaining", domains)?);
        }
        if !writes.is_empty() {
            let result = self
                .client
                .transact_write_items()
                .set_transact_items(Some(writes))
                .send()
                .await;
            if let Err(err) = result {
                return match failed_conditions(&err) {
                    Some(_) => Ok(None),
                    None => Err(sdk_error(err)),
                };
            }
        }
        self.user(id).await
    }

    async fn set_plan(&self, id: UserId, plan: Plan) -> Result<Option<User>, StoreError> {
        let result = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(user_pk(id), PROFILE_SK)))
            .update_expression("SET #plan = :plan")
            .condition_expression("attribute_exists(PK)")
            .expression_attribute_names("#plan", "plan")
            .expression_attribute_values(":plan", s(plan.as_str()))
            .send()
            .await;
        if condition_held(result)? {
            self.user(id).await
        } else {
            Ok(None)
        }
    }
}

#[async_trait]
impl CredentialStore for DynamoStore {
    async fn login_credentials(
        &self,
        email: &Email,
    ) -> Result<Option<LoginCredentials>, StoreError> {
        let item = self.get(key(email_pk(email), EMAIL_SK)).await?;
        item.map(|item| {
            let item: EmailItem = from_item(item)?;
            Ok(LoginCredentials {
                user_id: item.user_id,
                password_hash: item.password_hash,
            })
        })
        .transpose()
    }
}

#[async_trait]
impl RegisteredDomains for DynamoStore {
    async fn registered_domains(&self, id: UserId) -> Result<Vec<DomainName>, StoreError> {
        let mut domains = Vec::new();
        for item in self.items_with_prefix(user_pk(id), DOMAIN_PREFIX).await? {
            let sort_key = item.get(SK).and_then(|v| v.as_s().ok());
            if let Some(raw) = sort_key.and_then(|sk| sk.strip_prefix(DOMAIN_PREFIX)) {
                domains.push(DomainName::parse(raw).map_err(StoreError::new)?);
            }
        }
        domains.sort();
        Ok(domains)
    }
}
