#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    kr_http::serve(kr_locales::router()).await
}
