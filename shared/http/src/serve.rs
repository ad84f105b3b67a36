use axum::Router;
use utoipa_axum::router::OpenApiRouter;

/// A function's documented endpoints as the router that serves them, with the contract's
/// JSON 404 and 405 for everything else.
pub fn router<S: Clone + Send + Sync + 'static>(api: OpenApiRouter<S>, state: S) -> Router {
    let (router, _) = api.split_for_parts();
    crate::finish_router(router.with_state(state))
}

/// Runs a function's router on the Lambda runtime. API Gateway REST (in AWS) and HTTP API
/// v2 events (under `cargo lambda watch`) are both accepted.
pub async fn serve(router: Router) -> Result<(), lambda_http::Error> {
    lambda_http::tracing::init_default_subscriber();
    lambda_http::run(router).await
}
