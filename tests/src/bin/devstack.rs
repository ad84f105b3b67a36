//! Local stack tooling: `provision` creates the template's resources on the emulator and
//! writes the functions' environment; `seed` creates the demo and dev accounts.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{anyhow, Context, Result};
use clap::{Parser, Subcommand};
use kr_shared::aws::AwsClients;
use kr_shared::config::Config;
use kr_shared::store::dynamo::DynamoStore;
use kr_tests::provision::{function_environment, provision};
use kr_tests::template::Template;

#[derive(Parser)]
#[command(about = "Local stack tooling for the keyword research service")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Create the tables, queues and buckets of template.yaml on the emulator at
    /// KR_AWS_ENDPOINT and write the functions' environment as KEY=VALUE lines.
    Provision {
        /// Local resource names are `<prefix>-<logical id>`.
        #[arg(long, default_value = "kr-local")]
        prefix: String,
        /// Template parameter values, `Name=value`.
        #[arg(long = "param", value_parser = parse_pair)]
        params: Vec<(String, String)>,
        /// Where to write the environment; stdout when absent.
        #[arg(long)]
        env_file: Option<PathBuf>,
    },
    /// Create the demo account and the dev user with an API key; prints one JSON object.
    Seed,
}

fn parse_pair(raw: &str) -> Result<(String, String), String> {
    raw.split_once('=')
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .ok_or_else(|| format!("{raw:?} is not Name=value"))
}

#[tokio::main]
async fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Provision {
            prefix,
            params,
            env_file,
        } => {
            let endpoint = std::env::var("KR_AWS_ENDPOINT")
                .context("KR_AWS_ENDPOINT must name the emulator")?;
            let config = Config::from_lookup(|name| match name {
                "KR_TABLE_NAME" => Some("unused".into()),
                "KR_AWS_ENDPOINT" => Some(endpoint.clone()),
                _ => None,
            })?;
            let template = Template::load_default()?;
            let clients = AwsClients::from_config(&config).await;
            let provisioned = provision(&clients, &template, &prefix).await?;
            let parameters: BTreeMap<String, String> = params.into_iter().collect();
            let mut environment = function_environment(&template, &provisioned, &parameters)?;
            environment.insert("KR_AWS_ENDPOINT".into(), endpoint);
            let lines: String = environment
                .iter()
                .map(|(k, v)| format!("{k}={v}\n"))
                .collect();
            match env_file {
                Some(path) => std::fs::write(&path, lines)
                    .with_context(|| format!("writing {}", path.display()))?,
                None => print!("{lines}"),
            }
        }
        Command::Seed => {
            let config = Config::from_env()?;
            let demo = config
                .demo_user_id
                .ok_or_else(|| anyhow!("KR_DEMO_USER_ID must be set to seed the demo account"))?;
            let clients = AwsClients::from_config(&config).await;
            let store = DynamoStore::new(clients.dynamodb, config.table_name);
            let report = kr_tests::seed::seed(&store, &store, demo.into()).await?;
            println!("{}", serde_json::to_string(&report)?);
        }
    }
    Ok(())
}
