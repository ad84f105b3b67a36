//! Records every AWS request a function makes, for the least-privilege test
//! (`tests/tests/suite/least_privilege.rs`, which checks them against the function's policy in
//! `template.yaml` with [`crate::iam`]).
//!
//! A [`CallRecorder`] is an SDK interceptor. [`CallRecorder::build`] runs a function's own
//! cold-start wiring (`XState::from_config`, the pipeline rig) inside
//! `AwsClients::intercepted`, so every client that wiring makes reports to it and nothing
//! else does: the calls recorded are exactly the function's, retries included. Clients built
//! from an `SdkConfig` directly (the pipeline's Secrets Manager read) are recorded one level
//! lower, by wrapping the config's HTTP client ([`CallRecorder::sdk_config`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpClient,
    SharedHttpConnector,
};
use aws_smithy_runtime_api::client::interceptors::context::{
    BeforeDeserializationInterceptorContextRef, BeforeTransmitInterceptorContextRef,
};
use aws_smithy_runtime_api::client::interceptors::{Intercept, SharedInterceptor};
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, Metadata};
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::config_bag::{ConfigBag, Storable, StoreReplace};
use kr_aws::clients::SdkConfig;
use kr_aws::AwsClients;

/// One request as it went on the wire.
#[derive(Debug, Clone)]
pub struct SdkCall {
    /// The IAM service prefix: `dynamodb`, `s3`, `sqs`, `secretsmanager`.
    pub service: String,
    /// The SDK operation, e.g. `TransactWriteItems`.
    pub operation: String,
    pub method: String,
    pub uri: String,
    /// The body, when it is held in memory (every request but streamed uploads).
    pub body: Option<Vec<u8>>,
    /// The HTTP status of the answer; `None` when none came.
    pub status: Option<u16>,
    /// An S3 upload that sets the object's tags (`x-amz-tagging`).
    pub tagged: bool,
    /// The answer's body length (its `Content-Length`, or the body held in memory).
    pub response_bytes: Option<usize>,
}

impl SdkCall {
    fn new(service: &str, operation: &str, request: &HttpRequest) -> Self {
        Self {
            service: iam_prefix(service),
            operation: operation.to_string(),
            method: request.method().to_string(),
            uri: request.uri().to_string(),
            body: request.body().bytes().map(<[u8]>::to_vec),
            status: None,
            tagged: request.headers().get("x-amz-tagging").is_some(),
            response_bytes: None,
        }
    }

    /// `service.Operation`, as the failures name it.
    pub fn name(&self) -> String {
        format!("{}.{}", self.service, self.operation)
    }
}

/// The SDK's service name (`DynamoDB`, `Secrets Manager`) as IAM prefixes its actions.
fn iam_prefix(service: &str) -> String {
    service.replace(' ', "").to_ascii_lowercase()
}

/// The requests one function made. Cheap to clone; clones share the record.
#[derive(Debug, Clone, Default)]
pub struct CallRecorder {
    calls: Arc<Mutex<Vec<SdkCall>>>,
    paused: Arc<AtomicBool>,
}

/// Which recorded call the current attempt is, so its answer's status lands on it.
#[derive(Debug, Clone, Copy)]
struct Attempt(usize);

impl Storable for Attempt {
    type Storer = StoreReplace<Self>;
}

impl CallRecorder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Builds what `wiring` builds (a function's state, the pipeline rig) with every AWS client
    /// made inside it reporting here.
    pub async fn build<T>(&self, wiring: impl std::future::Future<Output = T>) -> T {
        AwsClients::intercepted(SharedInterceptor::new(self.clone()), wiring).await
    }

    /// `sdk` with its HTTP client recording here: for SDK clients a function builds from the
    /// `SdkConfig` itself rather than through `AwsClients`.
    pub fn sdk_config(&self, sdk: &SdkConfig) -> SdkConfig {
        let inner = sdk
            .http_client()
            .expect("kr_aws::sdk_config sets an HTTP client");
        sdk.to_builder()
            .http_client(RecordingHttpClient {
                inner,
                recorder: self.clone(),
            })
            .build()
    }

    /// Stops recording (for set-up done through the function's own clients) until
    /// [`resume`](Self::resume).
    pub fn pause(&self) {
        self.paused.store(true, Ordering::SeqCst);
    }

    pub fn resume(&self) {
        self.paused.store(false, Ordering::SeqCst);
    }

    /// Every request recorded so far, in order.
    pub fn calls(&self) -> Vec<SdkCall> {
        self.calls.lock().unwrap().clone()
    }

    fn push(&self, call: SdkCall) -> Option<usize> {
        if self.paused.load(Ordering::SeqCst) {
            return None;
        }
        let mut calls = self.calls.lock().unwrap();
        calls.push(call);
        Some(calls.len() - 1)
    }

    fn answered(&self, index: usize, status: u16, response_bytes: Option<usize>) {
        if let Some(call) = self.calls.lock().unwrap().get_mut(index) {
            call.status = Some(status);
            call.response_bytes = response_bytes;
        }
    }
}

impl Intercept for CallRecorder {
    fn name(&self) -> &'static str {
        "CallRecorder"
    }

    fn read_before_transmit(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _components: &RuntimeComponents,
        config: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let metadata = config
            .load::<Metadata>()
            .ok_or("an SDK request without operation metadata")?;
        let call = SdkCall::new(metadata.service(), metadata.name(), context.request());
        if let Some(index) = self.push(call) {
            config.interceptor_state().store_put(Attempt(index));
        }
        Ok(())
    }

    fn read_before_deserialization(
        &self,
        context: &BeforeDeserializationInterceptorContextRef<'_>,
        _components: &RuntimeComponents,
        config: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if let Some(Attempt(index)) = config.load::<Attempt>().copied() {
            let response = context.response();
            let length = response
                .headers()
                .get("content-length")
                .and_then(|length| length.parse().ok())
                .or_else(|| response.body().bytes().map(<[u8]>::len));
            self.answered(index, response.status().as_u16(), length);
        }
        Ok(())
    }
}

/// Records requests below the SDK: only the AWS JSON protocols name their operation on the
/// wire (`X-Amz-Target: secretsmanager.GetSecretValue`), which is all this is used for.
#[derive(Debug, Clone)]
struct RecordingHttpClient {
    inner: SharedHttpClient,
    recorder: CallRecorder,
}

#[derive(Debug)]
struct RecordingConnector {
    inner: SharedHttpConnector,
    recorder: CallRecorder,
}

impl HttpClient for RecordingHttpClient {
    fn http_connector(
        &self,
        settings: &HttpConnectorSettings,
        components: &RuntimeComponents,
    ) -> SharedHttpConnector {
        SharedHttpConnector::new(RecordingConnector {
            inner: self.inner.http_connector(settings, components),
            recorder: self.recorder.clone(),
        })
    }
}

impl HttpConnector for RecordingConnector {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        let target = request
            .headers()
            .get("x-amz-target")
            .unwrap_or("unknown.unknown")
            .to_string();
        let (service, operation) = target.split_once('.').unwrap_or(("unknown", &target));
        let index = self
            .recorder
            .push(SdkCall::new(service, operation, &request));
        let recorder = self.recorder.clone();
        let sent = self.inner.call(request);
        HttpConnectorFuture::new(async move {
            let response = sent.await;
            if let (Ok(response), Some(index)) = (&response, index) {
                recorder.answered(
                    index,
                    response.status().as_u16(),
                    response.body().bytes().map(<[u8]>::len),
                );
            }
            response
        })
    }
}
