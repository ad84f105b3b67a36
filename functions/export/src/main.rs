use kr_aws::Resources;
use kr_core::config::Config;

/// Streams the response (Lambda response streaming behind API Gateway's STREAM mode), so
/// neither the function nor API Gateway buffers the whole file.
#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    lambda_http::tracing::init_default_subscriber();
    let config = Config::from_env()?;
    let resources = Resources::from_env()?;
    let state = kr_export::ExportState::from_config(config, resources).await;
    lambda_http::run_with_streaming_response(kr_export::router(state)).await
}
