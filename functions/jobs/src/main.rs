use kr_aws::Resources;
use kr_core::config::Config;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    let config = Config::from_env()?;
    let resources = Resources::from_env()?;
    let state = kr_jobs::JobsState::from_config(config, resources).await;
    kr_http::serve(kr_jobs::router(state)).await
}
