//! The webhook client ignores proxy settings, as the crawler does: a proxy would connect on
//! the service's behalf, past the resolver's address checks. Its own test binary, because it
//! sets the process's proxy variables.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use axum::Router;
use kr_crawler::GuardedClient;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;

#[tokio::test]
async fn a_post_goes_to_the_receiver_and_never_through_a_configured_proxy() {
    // A "proxy" that counts the connections it gets and answers each with a 502.
    let proxy = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let proxy_address = proxy.local_addr().unwrap();
    let proxied = Arc::new(AtomicUsize::new(0));
    let counted = proxied.clone();
    tokio::spawn(async move {
        while let Ok((mut connection, _)) = proxy.accept().await {
            counted.fetch_add(1, Ordering::SeqCst);
            let _ = connection
                .write_all(b"HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n")
                .await;
        }
    });
    for name in [
        "HTTP_PROXY",
        "http_proxy",
        "HTTPS_PROXY",
        "https_proxy",
        "ALL_PROXY",
        "all_proxy",
    ] {
        std::env::set_var(name, format!("http://{proxy_address}"));
    }
    std::env::remove_var("NO_PROXY");
    std::env::remove_var("no_proxy");

    let receiver = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let receiver_address = receiver.local_addr().unwrap();
    let app = Router::new().fallback(|| async { StatusCode::NO_CONTENT });
    tokio::spawn(async move { axum::serve(receiver, app).await.unwrap() });

    let client = GuardedClient::new(
        &[("hooks.test".into(), receiver_address)],
        Duration::from_secs(5),
        "test",
    )
    .unwrap();
    let outcome = client
        .post("http://hooks.test/hook", &[], b"{}".to_vec())
        .await;
    assert_eq!(outcome.status, Some(204), "{outcome:?}");
    assert_eq!(
        proxied.load(Ordering::SeqCst),
        0,
        "the proxy was never asked"
    );
}
