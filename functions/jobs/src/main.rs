use kr_shared::config::Config;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    let config = Config::from_env()?;
    let state = kr_jobs::JobsState::from_config(config).await;
    kr_shared::http::serve(kr_jobs::router(state)).await
}
