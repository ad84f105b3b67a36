use axum::Router;

/// Runs a function's router on the Lambda runtime. API Gateway REST (in AWS) and HTTP API
/// v2 events (under `cargo lambda watch`) are both accepted.
pub async fn serve(router: Router) -> Result<(), lambda_http::Error> {
    lambda_http::tracing::init_default_subscriber();
    lambda_http::run(router).await
}
