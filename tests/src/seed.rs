//! The accounts every local stack starts with.

use anyhow::{anyhow, Result};
use kr_aws::s3::S3ObjectStore;
use kr_core::domain::{
    DomainName, Email, JobId, LanguageCode, LocationCode, Password, Plan, UserId,
};
use kr_core::service::account::{create_account, issue_api_key};
use kr_core::service::jobs::{create_job, CreateJobRequest, JobPorts};
use kr_core::store::{ApiKeyStore, CreateUserError, JobQueue, JobStore, User, UserStore};

use crate::sites::{DEMO_COMPETITOR, DEMO_PRIMARY};
use serde::Serialize;

pub const DEMO_EMAIL: &str = "demo@keyword-research.local";
pub const DEV_EMAIL: &str = "dev@keyword-research.local";
/// A local-only account; the stack listens on loopback only.
pub const DEV_PASSWORD: &str = "local-dev-password";

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SeedReport {
    pub demo_user_id: UserId,
    pub dev_user_id: UserId,
    pub dev_email: String,
    pub dev_password: String,
    pub dev_api_key: String,
    pub demo_job_id: JobId,
}

async fn ensure_user(
    users: &dyn UserStore,
    id: UserId,
    email: &str,
    password: &str,
    plan: Plan,
    credits: i64,
    domains: i64,
) -> Result<User> {
    let email = Email::parse(email).map_err(|e| anyhow!(e))?;
    let password = Password::parse_new(password).map_err(|e| anyhow!(e))?;
    match create_account(users, id, email.clone(), &password, plan, credits, domains).await {
        Ok(user) => Ok(user),
        Err(CreateUserError::EmailTaken) => users
            .user_by_email(&email)
            .await?
            .ok_or_else(|| anyhow!("{email} vanished while seeding")),
        Err(CreateUserError::Store(err)) => Err(err.into()),
    }
}

/// Creates the demo account (with the configured id) with a job on the sample sites, and an
/// Agency dev user with a fresh API key. Running it again reuses both accounts, issues
/// another key and starts another demo job.
pub async fn seed(
    users: &dyn UserStore,
    keys: &dyn ApiKeyStore,
    jobs: &dyn JobStore,
    queue: &dyn JobQueue,
    objects: &S3ObjectStore,
    demo_user_id: UserId,
) -> Result<SeedReport> {
    let demo_password = uuid::Uuid::new_v4().to_string();
    ensure_user(
        users,
        demo_user_id,
        DEMO_EMAIL,
        &demo_password,
        Plan::Agency,
        100,
        100,
    )
    .await?;
    let dev = ensure_user(
        users,
        UserId::new(),
        DEV_EMAIL,
        DEV_PASSWORD,
        Plan::Agency,
        100,
        10,
    )
    .await?;
    let (_, secret) = issue_api_key(users, keys, dev.id, Some("local stack"))
        .await
        .map_err(|e| anyhow!("issuing the dev API key: {e}"))?;
    let demo_job = CreateJobRequest {
        primary_domain: DomainName::parse(DEMO_PRIMARY).map_err(|e| anyhow!(e))?,
        competitor_domains: vec![DomainName::parse(DEMO_COMPETITOR).map_err(|e| anyhow!(e))?],
        language_code: LanguageCode::parse("en").map_err(|e| anyhow!(e))?,
        location_code: LocationCode::parse(2840).map_err(|e| anyhow!(e))?,
        keywords: None,
        discover_keywords: true,
        callback_url: None,
        search_console_property: None,
    };
    let demo_job = create_job(
        &JobPorts {
            jobs,
            queue,
            artifacts: objects,
            removals: objects,
        },
        demo_user_id,
        demo_job,
        None,
        None,
    )
    .await
    .map_err(|e| anyhow!("creating the demo job: {e:?}"))?;
    Ok(SeedReport {
        demo_user_id,
        demo_job_id: demo_job.id,
        dev_user_id: dev.id,
        dev_email: DEV_EMAIL.into(),
        dev_password: DEV_PASSWORD.into(),
        dev_api_key: secret.expose().to_string(),
    })
}
