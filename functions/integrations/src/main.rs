use kr_aws::Resources;
use kr_core::config::Config;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    let config = Config::from_env()?;
    let resources = Resources::from_env()?;
    let state = kr_integrations::IntegrationsState::from_config(config, resources).await;
    kr_http::serve(kr_integrations::router(state)).await
}
