use kr_aws::dynamo::DynamoStore;
use kr_aws::{AwsClients, Resources};
use kr_contract::account::{ApiKeyView, UserView};
use kr_core::domain::{Email, Password, UserId};
use kr_core::service::account::{create_account, issue_api_key};
use kr_core::store::{CreateUserError, User, UserStore};
use serde_json::{json, Value};

use crate::{Command, Outcome};

async fn store() -> Result<DynamoStore, String> {
    let resources = Resources::from_env().map_err(|e| e.to_string())?;
    let clients = AwsClients::from_resources(&resources).await;
    Ok(DynamoStore::new(clients.dynamodb, resources.table_name))
}

async fn user_by_email(store: &DynamoStore, raw: &str) -> Result<User, String> {
    let email = Email::parse(raw).map_err(|e| format!("--email {e}"))?;
    store
        .user_by_email(&email)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("no user with e-mail {email}"))
}

fn non_negative(flag: &str, value: Option<i64>) -> Result<Option<i64>, String> {
    match value {
        Some(v) if v < 0 => Err(format!("{flag} must be 0 or more")),
        other => Ok(other),
    }
}

fn user_json(user: &User) -> Value {
    json!({ "user": UserView::from(user) })
}

pub async fn run(command: Command) -> Outcome {
    let store = store().await?;
    match command {
        Command::CreateUser {
            email,
            password,
            credits,
            domains,
            plan,
            id,
        } => {
            let email = Email::parse(&email).map_err(|e| format!("--email {e}"))?;
            let password = Password::parse_new(&password).map_err(|e| format!("--password {e}"))?;
            non_negative("--credits", Some(credits))?;
            non_negative("--domains", Some(domains))?;
            let id = id.map(|id| id.0).unwrap_or_else(UserId::new);
            match create_account(&store, id, email, &password, plan, credits, domains).await {
                Ok(user) => Ok(user_json(&user)),
                Err(CreateUserError::EmailTaken) => {
                    Err("a user with this e-mail address exists".into())
                }
                Err(CreateUserError::Store(err)) => Err(err.to_string()),
            }
        }
        Command::SetBalance {
            email,
            credits,
            domains,
        } => {
            if credits.is_none() && domains.is_none() {
                return Err("give --credits, --domains or both".into());
            }
            let user = user_by_email(&store, &email).await?;
            let credits = non_negative("--credits", credits)?;
            let domains = non_negative("--domains", domains)?;
            let user = store
                .set_balance(user.id, credits, domains)
                .await
                .map_err(|e| e.to_string())?;
            user.map(|u| user_json(&u))
                .ok_or_else(|| "the user disappeared".into())
        }
        Command::SetPlan { email, plan } => {
            let user = user_by_email(&store, &email).await?;
            let user = store
                .set_plan(user.id, plan)
                .await
                .map_err(|e| e.to_string())?;
            user.map(|u| user_json(&u))
                .ok_or_else(|| "the user disappeared".into())
        }
        Command::CreateApiKey { email, name } => {
            let user = user_by_email(&store, &email).await?;
            let (record, secret) = issue_api_key(&store, &store, user.id, name.as_deref())
                .await
                .map_err(|e| e.to_string())?;
            Ok(json!({ "apiKey": ApiKeyView::from(&record), "key": secret.expose() }))
        }
        Command::ClassifyIntent { .. }
        | Command::ExtractKeywords { .. }
        | Command::Cluster { .. } => Err("not an account command".into()),
    }
}
