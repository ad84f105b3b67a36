//! The Lambda runtime API of `cargo lambda watch` as every function reaches it under
//! `.ci/local-stack`: one request per upstream connection, each request read whole before it
//! is answered.
//!
//!   runtime-proxy --upstream 127.0.0.1:9001 [--listen 127.0.0.1:0] [--front 127.0.0.1:9000]
//!
//! prints the address it serves the runtime API on, then (with `--front`) the front door's: the
//! address clients use, which passes their requests on as API Gateway would (`kr_tests::front_door`).
//!
//! Why (cargo-lambda 1.9.2): its runtime API answers a function's `POST …/response` before
//! reading the body, and hands the body to the invocation's caller. hyper ends that body only
//! when the next request arrives on the same connection; if the function's runtime client
//! closes the connection first (its pool keeps one idle connection, and a second one it opened
//! for `GET …/next` wins the race), the body ends with an error and the caller gets a 500;
//! if it keeps the connection idle instead, the caller waits. Large responses (a page of 500
//! keywords, the OpenAPI document) lose this race about once in a hundred.
//!
//! Here the function's request is read in full (or relayed chunk by chunk for response
//! streaming) and sent upstream on a new connection with `Connection: close`, so hyper ends the
//! body as soon as it is read and then closes; the function gets its answer only after that,
//! as from Lambda's own runtime API. `.ci/lambda-runner` points each function at this proxy.

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::{anyhow, bail, Context, Result};
use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderName, HeaderValue, Response, StatusCode};
use axum::response::IntoResponse;
use axum::Router;
use clap::Parser;
use http_body_util::BodyExt;
use kr_tests::front_door;
use std::future::IntoFuture;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[derive(Parser)]
struct Args {
    /// `cargo lambda watch`'s address (its invoke port also serves the runtime API).
    #[arg(long)]
    upstream: String,
    #[arg(long, default_value = "127.0.0.1:0")]
    listen: SocketAddr,
    /// Where clients connect: their requests go on to `upstream` with the source address
    /// and body encoding API Gateway would give the function.
    #[arg(long)]
    front: Option<SocketAddr>,
}

/// Headers about one connection or one message's framing, which this proxy sets itself.
const HOP_BY_HOP: [&str; 8] = [
    "connection",
    "keep-alive",
    "host",
    "content-length",
    "transfer-encoding",
    "te",
    "trailer",
    "upgrade",
];

fn is_hop_by_hop(name: &HeaderName) -> bool {
    HOP_BY_HOP.contains(&name.as_str())
}

async fn forward(State(upstream): State<Arc<String>>, request: Request) -> Response<Body> {
    let next_event = request.method() == axum::http::Method::GET
        && request.uri().path().ends_with("/invocation/next");
    let relayed = match relay(&upstream, &upstream, request).await {
        Ok(response) if next_event => with_gateway_fields(response).await,
        relayed => relayed,
    };
    answer(relayed)
}

/// A function's next event, with what the front door passed in headers moved into it.
async fn with_gateway_fields(response: Response<Body>) -> Result<Response<Body>> {
    let (parts, body) = response.into_parts();
    let bytes = body
        .collect()
        .await
        .map_err(|e| anyhow!("reading the event: {e}"))?
        .to_bytes();
    let body = match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(mut event) => {
            if front_door::rewrite_event(&mut event) {
                serde_json::to_vec(&event)?
            } else {
                bytes.to_vec()
            }
        }
        Err(_) => bytes.to_vec(),
    };
    Ok(Response::from_parts(parts, Body::from(body)))
}

/// A client's request through the front door.
async fn front(
    State(upstream): State<Arc<String>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
) -> Response<Body> {
    let (mut parts, body) = request.into_parts();
    // The client's Host, as API Gateway passes it on.
    let host = parts
        .headers
        .get("host")
        .and_then(|host| host.to_str().ok())
        .unwrap_or(&upstream)
        .to_string();
    let relayed = match body.collect().await {
        Ok(body) => {
            let body =
                front_door::admit_request(&mut parts.headers, body.to_bytes().to_vec(), peer.ip());
            relay(
                &upstream,
                &host,
                Request::from_parts(parts, Body::from(body)),
            )
            .await
        }
        Err(err) => Err(anyhow!("reading the client's body: {err}")),
    };
    answer(relayed)
}

fn answer(relayed: Result<Response<Body>>) -> Response<Body> {
    match relayed {
        Ok(response) => response,
        Err(err) => {
            eprintln!("runtime-proxy: {err:#}");
            (StatusCode::BAD_GATEWAY, format!("runtime-proxy: {err:#}")).into_response()
        }
    }
}

/// Sends `request` to `upstream` on a connection of its own, with `host` as its Host.
async fn relay(upstream: &str, host: &str, request: Request) -> Result<Response<Body>> {
    let (parts, mut body) = request.into_parts();
    let chunked = parts
        .headers
        .get("transfer-encoding")
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"chunked"));
    let target = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let mut head = format!(
        "{} {target} HTTP/1.1\r\nhost: {host}\r\nconnection: close\r\n",
        parts.method
    )
    .into_bytes();
    for (name, value) in &parts.headers {
        if !is_hop_by_hop(name) {
            head.extend_from_slice(name.as_str().as_bytes());
            head.extend_from_slice(b": ");
            head.extend_from_slice(value.as_bytes());
            head.extend_from_slice(b"\r\n");
        }
    }
    let mut stream = TcpStream::connect(upstream)
        .await
        .with_context(|| format!("connecting to {upstream}"))?;
    if chunked {
        // Response streaming: relay each frame as it comes.
        head.extend_from_slice(b"transfer-encoding: chunked\r\n\r\n");
        stream.write_all(&head).await?;
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| anyhow!("reading the function's body: {e}"))?;
            if let Some(data) = frame.data_ref() {
                if !data.is_empty() {
                    stream
                        .write_all(format!("{:x}\r\n", data.len()).as_bytes())
                        .await?;
                    stream.write_all(data).await?;
                    stream.write_all(b"\r\n").await?;
                }
            } else if let Some(trailers) = frame.trailers_ref() {
                let mut end = b"0\r\n".to_vec();
                for (name, value) in trailers {
                    end.extend_from_slice(name.as_str().as_bytes());
                    end.extend_from_slice(b": ");
                    end.extend_from_slice(value.as_bytes());
                    end.extend_from_slice(b"\r\n");
                }
                end.extend_from_slice(b"\r\n");
                stream.write_all(&end).await?;
                return read_response(stream).await;
            }
        }
        stream.write_all(b"0\r\n\r\n").await?;
    } else {
        let bytes = body
            .collect()
            .await
            .map_err(|e| anyhow!("reading the function's body: {e}"))?
            .to_bytes();
        if !bytes.is_empty() || parts.headers.contains_key("content-length") {
            head.extend_from_slice(format!("content-length: {}\r\n", bytes.len()).as_bytes());
        }
        head.extend_from_slice(b"\r\n");
        stream.write_all(&head).await?;
        stream.write_all(&bytes).await?;
    }
    read_response(stream).await
}

/// The upstream's answer, read to the end of the connection (it closes after one response).
async fn read_response(mut stream: TcpStream) -> Result<Response<Body>> {
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await?;
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .context("no response head from upstream")?;
    let head = std::str::from_utf8(&raw[..end]).context("response head is not UTF-8")?;
    let payload = &raw[end + 4..];
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .context("no status line from upstream")?;
    let mut response = Response::builder().status(status);
    let mut chunked = false;
    let mut length = None;
    for line in lines {
        let (name, value) = line.split_once(':').context("malformed header line")?;
        let (name, value) = (name.trim(), value.trim());
        let name = HeaderName::try_from(name)?;
        match name.as_str() {
            "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
            "content-length" => length = Some(value.parse::<usize>()?),
            _ if is_hop_by_hop(&name) => {}
            _ => response = response.header(name, HeaderValue::from_str(value)?),
        }
    }
    let body = if chunked {
        dechunk(payload)?
    } else {
        payload[..length.unwrap_or(payload.len()).min(payload.len())].to_vec()
    };
    Ok(response.body(Body::from(body))?)
}

fn dechunk(mut rest: &[u8]) -> Result<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let line_end = rest
            .windows(2)
            .position(|w| w == b"\r\n")
            .context("truncated chunk size")?;
        let size_text = std::str::from_utf8(&rest[..line_end])?;
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)?;
        rest = &rest[line_end + 2..];
        if size == 0 {
            return Ok(body);
        }
        if rest.len() < size + 2 {
            bail!("truncated chunk");
        }
        body.extend_from_slice(&rest[..size]);
        rest = &rest[size + 2..];
    }
}

#[tokio::main]
async fn main() -> Result<()> {
    let args = Args::parse();
    let upstream = Arc::new(args.upstream);
    let listener = tokio::net::TcpListener::bind(args.listen).await?;
    println!("{}", listener.local_addr()?);
    let runtime = Router::new().fallback(forward).with_state(upstream.clone());
    let runtime = axum::serve(listener, runtime).into_future();
    let Some(front_address) = args.front else {
        runtime.await?;
        return Ok(());
    };
    let front_listener = tokio::net::TcpListener::bind(front_address).await?;
    println!("{}", front_listener.local_addr()?);
    let front_door = Router::new().fallback(front).with_state(upstream);
    let front_door = axum::serve(
        front_listener,
        front_door.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .into_future();
    tokio::try_join!(runtime, front_door)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::dechunk;

    #[test]
    fn chunked_bodies_are_joined() {
        assert_eq!(
            dechunk(b"3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n").unwrap(),
            b"abcde"
        );
        assert!(dechunk(b"5\r\nab").is_err());
    }
}
