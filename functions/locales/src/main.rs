#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    kr_shared::http::serve(kr_locales::router()).await
}
