//! `.ci/bench search-console`: a property of 1,000,000 (query, page, date) rows, as the Google
//! mock serves `sc-domain:big-property.com`, imported the way the pipeline imports a job's property
//! (`import_search_console` over the real client: 25,000-row pages, folded as they arrive).
//! The mock runs as a process of its own (`devstack serve-google`), so the peak memory printed
//! is the import's alone. Prints rows, pages, queries kept, wall time against the pipeline's
//! 300 s timeout, and the process's peak resident memory before and after.

use std::collections::HashMap;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use async_trait::async_trait;
use chrono::Utc;
use kr_core::domain::{PropertyUrl, SecretHash, UserId};
use kr_core::service::search_console::{
    begin_connection, complete_connection, import_search_console, CredentialKey, ImportOutcome,
};
use kr_core::store::{
    PendingAuthorization, SearchConsoleConnection, SearchConsoleStore, StoreError,
};
use kr_google::{Google, GoogleSettings};
use kr_tests::google_mock::BIG_SITE_URL;

/// What the pipeline's function may take, in all (template.yaml, `PipelineFunction`).
const PIPELINE_TIMEOUT_SECS: f64 = 300.0;

/// The bench's one account's connection, in memory.
#[derive(Default)]
struct OneAccount {
    flows: Mutex<HashMap<String, PendingAuthorization>>,
    connection: Mutex<Option<SearchConsoleConnection>>,
}

#[async_trait]
impl SearchConsoleStore for OneAccount {
    async fn put_authorization(
        &self,
        state: &SecretHash,
        pending: &PendingAuthorization,
    ) -> Result<(), StoreError> {
        self.flows
            .lock()
            .unwrap()
            .insert(state.as_str().to_string(), pending.clone());
        Ok(())
    }

    async fn take_authorization(
        &self,
        state: &SecretHash,
    ) -> Result<Option<PendingAuthorization>, StoreError> {
        Ok(self.flows.lock().unwrap().remove(state.as_str()))
    }

    async fn put_connection(&self, connection: &SearchConsoleConnection) -> Result<(), StoreError> {
        *self.connection.lock().unwrap() = Some(connection.clone());
        Ok(())
    }

    async fn connection(
        &self,
        _owner: UserId,
    ) -> Result<Option<SearchConsoleConnection>, StoreError> {
        Ok(self.connection.lock().unwrap().clone())
    }

    async fn delete_connection(&self, _owner: UserId) -> Result<bool, StoreError> {
        Ok(self.connection.lock().unwrap().take().is_some())
    }
}

/// The mock as its own process; killed when dropped.
struct MockProcess(Child);

impl Drop for MockProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

async fn start_mock() -> Result<(MockProcess, String)> {
    let devstack = std::env::current_exe()?
        .parent()
        .ok_or_else(|| anyhow!("no folder"))?
        .join("devstack");
    let port = free_port()?;
    let child = Command::new(&devstack)
        .args(["serve-google", "--port", &port.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("starting {}", devstack.display()))?;
    let process = MockProcess(child);
    let base = format!("http://127.0.0.1:{port}");
    for _ in 0..200 {
        if reqwest::get(format!("{base}/__mock/stats")).await.is_ok() {
            return Ok((process, base));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    bail!("the Google mock did not start on {base}")
}

/// The consent page's Allow, as the mock's user presses it: `(code, state)`.
async fn allow(base: &str, url: &str) -> Result<(String, String)> {
    let query = reqwest::Url::parse(url)?;
    let mut form: Vec<(String, String)> = query.query_pairs().into_owned().collect();
    form.push(("decision".into(), "allow".into()));
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()?;
    let decided = client
        .post(format!("{base}/o/oauth2/v2/auth/decide"))
        .form(&form)
        .send()
        .await?;
    let location = decided
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| {
            anyhow!(
                "the consent answered {} without a redirect",
                decided.status()
            )
        })?;
    let back = reqwest::Url::parse(location)?;
    let param = |name: &str| {
        back.query_pairs()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
            .ok_or_else(|| anyhow!("{location} has no {name}"))
    };
    Ok((param("code")?, param("state")?))
}

/// Peak resident memory of this process so far (Linux's VmHWM), in MiB.
fn peak_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|line| line.starts_with("VmHWM:"))
                .and_then(|line| line.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kib| kib / 1024.0)
}

#[tokio::main]
async fn main() -> Result<()> {
    let (_mock, base) = start_mock().await?;
    let settings = GoogleSettings::from_lookup(
        |name| match name {
            "KR_GOOGLE_CLIENT_ID" => Some("local-client-id".into()),
            "KR_GOOGLE_CLIENT_SECRET" => Some("local-client-secret".into()),
            "KR_GOOGLE_AUTH_URL" => Some(format!("{base}/o/oauth2/v2/auth")),
            "KR_GOOGLE_TOKEN_URL" => Some(format!("{base}/token")),
            "KR_GOOGLE_REVOKE_URL" => Some(format!("{base}/revoke")),
            "KR_GOOGLE_USERINFO_URL" => Some(format!("{base}/v1/userinfo")),
            "KR_SEARCH_CONSOLE_API_URL" => Some(base.clone()),
            _ => None,
        },
        None,
    )
    .ok_or_else(|| anyhow!("no client"))?;
    let google = Google::new(settings).map_err(|err| anyhow!(err))?;
    let key = CredentialKey::from_secret(&[42u8; 64]).map_err(|err| anyhow!(err))?;
    let store = OneAccount::default();
    let owner = UserId::new();
    let redirect = "http://127.0.0.1:9000/settings/search-console/callback";
    let url = begin_connection(&store, &google, &key, owner, None, redirect, Utc::now()).await?;
    let (code, state) = allow(&base, &url).await?;
    complete_connection(
        &store,
        &google,
        &key,
        owner,
        None,
        &state,
        &code,
        Utc::now(),
    )
    .await?;

    let property = PropertyUrl::parse(BIG_SITE_URL).map_err(|err| anyhow!(err))?;
    let before = peak_mib();
    let started = Instant::now();
    let outcome = import_search_console(
        &store,
        &google,
        &google,
        &key,
        owner,
        &property,
        Some("usa"),
        90,
        Utc::now().date_naive(),
    )
    .await?;
    let seconds = started.elapsed().as_secs_f64();
    let after = peak_mib();
    let ImportOutcome::Imported(data) = outcome else {
        bail!("the import was skipped: {outcome:?}");
    };
    let stats: serde_json::Value = reqwest::get(format!("{base}/__mock/stats"))
        .await?
        .json()
        .await?;
    println!(
        "Search Console import of {BIG_SITE_URL} (the Google mock, its own process; release build)"
    );
    println!("  rows read               {:>12}", data.rows);
    println!(
        "  pages of 25,000 rows    {:>12}",
        stats["searchAnalyticsPages"]
    );
    println!("  queries kept            {:>12}", data.queries.len());
    println!(
        "  time                    {seconds:>10.1} s   ({:.0} % of the pipeline's {PIPELINE_TIMEOUT_SECS:.0} s timeout)",
        100.0 * seconds / PIPELINE_TIMEOUT_SECS
    );
    println!(
        "  rows per second         {:>12.0}",
        data.rows as f64 / seconds
    );
    println!("  peak memory             {after:>10.1} MiB (before the import: {before:.1} MiB)");
    if data.rows < 1_000_000 {
        bail!("only {} of 1,000,000 rows were read", data.rows);
    }
    Ok(())
}
