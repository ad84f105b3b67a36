//! Cold-start init time of each function binary: from process start until it asks the
//! Lambda runtime API for its first event. A local stand-in for the runtime API records
//! that moment. Usage: init-bench <bootstrap>... (see `.ci/bench init`).

use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

const RUNS: usize = 7;

/// Starts `binary` against a runtime API on `listener` and returns the time until its
/// first `GET …/invocation/next`.
async fn time_to_first_poll(binary: &str, listener: &TcpListener) -> Result<Duration> {
    let address = listener.local_addr()?;
    let started = Instant::now();
    let mut child = tokio::process::Command::new(binary)
        .env_clear()
        .env("AWS_LAMBDA_RUNTIME_API", address.to_string())
        .env("AWS_LAMBDA_FUNCTION_NAME", "init-bench")
        .env("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "256")
        .env("AWS_LAMBDA_FUNCTION_VERSION", "1")
        .env("AWS_REGION", "us-east-1")
        .env("AWS_ACCESS_KEY_ID", "bench")
        .env("AWS_SECRET_ACCESS_KEY", "bench")
        .env("KR_TABLE_NAME", "bench")
        .env("KR_JOBS_QUEUE_URL", "http://127.0.0.1:9/queue")
        .env("KR_RESULTS_BUCKET", "bench")
        .kill_on_drop(true)
        .spawn()
        .with_context(|| format!("starting {binary}"))?;
    let (mut socket, _) =
        tokio::time::timeout(Duration::from_secs(10), listener.accept()).await??;
    let mut buffer = vec![0u8; 4096];
    let mut received = Vec::new();
    while !String::from_utf8_lossy(&received).contains("\r\n\r\n") {
        let read = socket.read(&mut buffer).await?;
        if read == 0 {
            break;
        }
        received.extend_from_slice(&buffer[..read]);
    }
    let elapsed = started.elapsed();
    if !String::from_utf8_lossy(&received).contains("/runtime/invocation/next") {
        bail!("{binary} did not poll for an event");
    }
    let _ = socket.shutdown().await;
    child.kill().await?;
    Ok(elapsed)
}

#[tokio::main]
async fn main() -> Result<()> {
    let binaries: Vec<String> = std::env::args().skip(1).collect();
    println!("| function | init, median of {RUNS} (ms) | min (ms) | binary size (MiB) |");
    println!("|---|---|---|---|");
    for binary in binaries {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let mut times = Vec::new();
        for _ in 0..RUNS {
            times.push(time_to_first_poll(&binary, &listener).await?);
        }
        times.sort();
        let size = std::fs::metadata(&binary)?.len() as f64 / (1024.0 * 1024.0);
        let name = std::path::Path::new(&binary)
            .parent()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or(binary.clone());
        println!(
            "| {name} | {:.1} | {:.1} | {size:.1} |",
            times[RUNS / 2].as_secs_f64() * 1000.0,
            times[0].as_secs_f64() * 1000.0
        );
    }
    Ok(())
}
