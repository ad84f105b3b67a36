//! A real browser for the dashboard tests: headless Chromium driven over WebDriver.
//!
//! Every [`Browser`] starts its own chromedriver on its own port, so tests running in parallel
//! never share a session, and a test that panics still closes its Chromium. chromedriver's output
//! goes to `target/chromedriver/chromedriver-<port>.log`.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use serde_json::Value;
use thirtyfour::prelude::{
    ChromiumLikeCapabilities, DesiredCapabilities, ElementQueryable, WebDriverResult,
};
use tokio::process::{Child, Command};

pub use thirtyfour::{By, WebDriver, WebElement};

use crate::template::workspace_root;

const CHROMIUM_ARGS: &[&str] = &[
    "--headless=new",
    // Containers and CI run as root, where Chromium refuses to start sandboxed.
    "--no-sandbox",
    "--disable-gpu",
    // Docker's /dev/shm is 64 MB, which Chromium outgrows and then crashes on.
    "--disable-dev-shm-usage",
    "--window-size=1280,900",
    "--lang=en-US",
];

/// How long chromedriver gets to answer `/status` with `ready`.
const DRIVER_READY_TIMEOUT: Duration = Duration::from_secs(20);
/// A free port can be taken by someone else before chromedriver binds it; start over that often.
const DRIVER_START_ATTEMPTS: usize = 3;
/// Chromium can exit while it starts; open the session again that often.
const SESSION_START_ATTEMPTS: usize = 3;
/// Sessions of one test process start one at a time (see [`Browser::start`]).
static SESSION_STARTS: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
/// How long dropping a `Browser` waits for chromedriver to close Chromium.
const END_SESSION_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the dialog helpers wait for the `confirm` that the previous action opens.
const DIALOG_TIMEOUT: Duration = Duration::from_secs(5);
const POLL_INTERVAL: Duration = Duration::from_millis(100);

/// A headless Chromium session with its own chromedriver, which is killed when this is dropped.
pub struct Browser {
    /// `None` only once the session has ended, in `quit` or `drop`.
    driver: Option<WebDriver>,
    chromedriver: Child,
    port: u16,
}

impl Browser {
    /// Starts chromedriver (`KR_CHROMEDRIVER`, else `chromedriver` on `PATH`, else
    /// `/usr/bin/chromedriver`) and opens a headless session of `KR_CHROMIUM`, else
    /// `/usr/bin/chromium`.
    pub async fn start() -> Result<Self> {
        let chromedriver_bin = chromedriver_path()?;
        let chromium = env_path("KR_CHROMIUM").unwrap_or_else(|| "/usr/bin/chromium".into());
        if !chromium.is_file() {
            bail!(
                "no browser at {} (install the Debian package `chromium`, or set KR_CHROMIUM)",
                chromium.display()
            );
        }

        let (chromedriver, port) = start_chromedriver(&chromedriver_bin).await?;

        let mut caps = DesiredCapabilities::chrome();
        caps.set_binary(&chromium.to_string_lossy())?;
        for arg in CHROMIUM_ARGS {
            caps.add_arg(arg)?;
        }
        // Several tests open their browsers at once on a two-core runner, where a Chromium that
        // starts beside others now and then exits before it answers: start one at a time, and
        // start over when one exits.
        let _one_at_a_time = SESSION_STARTS.lock().await;
        let mut failures = Vec::new();
        let driver = loop {
            match WebDriver::new(format!("http://127.0.0.1:{port}"), caps.clone()).await {
                Ok(driver) => break driver,
                Err(err) => failures.push(format!("{err:#}")),
            }
            if failures.len() == SESSION_START_ATTEMPTS {
                let log = driver_log(port);
                bail!(
                    "opening a headless session of {} through {} failed {} times (its log: {}):\n{}",
                    chromium.display(),
                    chromedriver_bin.display(),
                    failures.len(),
                    log.display(),
                    failures.join("\n")
                );
            }
        };
        Ok(Self {
            driver: Some(driver),
            chromedriver,
            port,
        })
    }

    /// The underlying thirtyfour session, for anything this wrapper does not cover.
    pub fn driver(&self) -> &WebDriver {
        self.driver
            .as_ref()
            .expect("the session lives as long as the Browser")
    }

    pub async fn goto(&self, url: &str) -> Result<()> {
        self.driver()
            .goto(url)
            .await
            .with_context(|| format!("opening {url}"))
    }

    pub async fn current_url(&self) -> Result<String> {
        Ok(self.driver().current_url().await?.to_string())
    }

    pub async fn title(&self) -> Result<String> {
        Ok(self.driver().title().await?)
    }

    pub async fn back(&self) -> Result<()> {
        Ok(self.driver().back().await?)
    }

    /// The first element matching `css`, right now (see [`Browser::wait_for`] to wait).
    pub async fn find(&self, css: &str) -> Result<WebElement> {
        let found = self.driver().find(By::Css(css)).await;
        self.located(found, || format!("looking for `{css}`")).await
    }

    /// Every element matching `css`; empty if none do.
    pub async fn find_all(&self, css: &str) -> Result<Vec<WebElement>> {
        let found = self.driver().find_all(By::Css(css)).await;
        self.located(found, || format!("looking for elements matching `{css}`"))
            .await
    }

    pub async fn click(&self, css: &str) -> Result<()> {
        let clicked = self.find(css).await?.click().await;
        self.located(clicked, || format!("clicking `{css}`")).await
    }

    /// Replaces the value of the input matching `css` by typing `text`, as a user would.
    pub async fn fill(&self, css: &str, text: &str) -> Result<()> {
        let element = self.find(css).await?;
        let filled = async {
            element.clear().await?;
            element.send_keys(text).await
        }
        .await;
        self.located(filled, || format!("typing into `{css}`"))
            .await
    }

    /// Chooses the local file at `path` in the file input matching `css`.
    pub async fn choose_file(&self, css: &str, path: &std::path::Path) -> Result<()> {
        let element = self.find(css).await?;
        let chosen = element.send_keys(path.display().to_string()).await;
        self.located(chosen, || format!("choosing a file in `{css}`"))
            .await
    }

    /// The rendered text of the element matching `css`.
    pub async fn text(&self, css: &str) -> Result<String> {
        let text = self.find(css).await?.text().await;
        self.located(text, || format!("reading the text of `{css}`"))
            .await
    }

    /// The current value of the form control matching `css` (what was typed, not the HTML
    /// attribute).
    pub async fn value(&self, css: &str) -> Result<String> {
        let value = self.find(css).await?.value().await;
        self.located(value, || format!("reading the value of `{css}`"))
            .await
            .map(Option::unwrap_or_default)
    }

    /// The HTML attribute `name` of the element matching `css`; `None` if it is absent.
    pub async fn attribute(&self, css: &str, name: &str) -> Result<Option<String>> {
        let value = self.find(css).await?.attr(name).await;
        self.located(value, || format!("reading attribute `{name}` of `{css}`"))
            .await
    }

    /// Waits until an element matching `css` is present and displayed, and returns it.
    pub async fn wait_for(&self, css: &str, timeout: Duration) -> Result<WebElement> {
        let found = self
            .driver()
            .query(By::Css(css))
            .and_displayed()
            .wait(timeout, POLL_INTERVAL)
            .first()
            .await;
        self.located(found, || {
            format!("no displayed element matched `{css}` within {timeout:?}")
        })
        .await
    }

    /// Waits until the text of the element matching `css` contains a substring (`&str`) or
    /// satisfies a predicate (`|text: &str| ...`), and returns that text.
    pub async fn wait_until_text(
        &self,
        css: &str,
        expected: impl TextMatch,
        timeout: Duration,
    ) -> Result<String> {
        let deadline = Instant::now() + timeout;
        let mut last = None;
        loop {
            // The element may not exist yet, or be replaced while we read it.
            if let Ok(element) = self.driver().find(By::Css(css)).await {
                if let Ok(text) = element.text().await {
                    if expected.matches(&text) {
                        return Ok(text);
                    }
                    last = Some(text);
                }
            }
            if !pause_until(deadline).await {
                let seen = match last {
                    Some(text) => format!("its last text was {text:?}"),
                    None => "no element matched".to_string(),
                };
                return Err(self
                    .on_page(anyhow!(
                        "`{css}` never had {} within {timeout:?}; {seen}",
                        expected.describe()
                    ))
                    .await);
            }
        }
    }

    /// Runs `script` (as [`Browser::execute`]) until it returns something other than `null` or
    /// `false`, and returns that.
    pub async fn wait_until_script(&self, script: &str, timeout: Duration) -> Result<Value> {
        let deadline = Instant::now() + timeout;
        loop {
            let value = self.execute(script, Vec::new()).await?;
            if !value.is_null() && value != Value::Bool(false) {
                return Ok(value);
            }
            if !pause_until(deadline).await {
                return Err(self
                    .on_page(anyhow!("`{script}` never held within {timeout:?}"))
                    .await);
            }
        }
    }

    /// Waits until the current URL satisfies `predicate`, and returns it.
    pub async fn wait_for_url(
        &self,
        predicate: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Result<String> {
        let deadline = Instant::now() + timeout;
        loop {
            let url = self.current_url().await?;
            if predicate(&url) {
                return Ok(url);
            }
            if !pause_until(deadline).await {
                bail!("the URL never matched within {timeout:?}; it is still {url}");
            }
        }
    }

    /// Resizes the window; `set_size(375, 812)` gives a phone's viewport.
    pub async fn set_size(&self, width: u32, height: u32) -> Result<()> {
        self.driver()
            .set_window_rect(0, 0, width, height)
            .await
            .with_context(|| format!("resizing the window to {width}x{height}"))
    }

    /// Runs `script` as the body of a function (`arguments[i]` are `args`) and returns what it
    /// returns.
    pub async fn execute(&self, script: &str, args: Vec<Value>) -> Result<Value> {
        let ret = self
            .driver()
            .execute(script, args)
            .await
            .with_context(|| format!("running script: {script}"))?;
        Ok(ret.json().clone())
    }

    /// Saves the viewport as `<workspace>/target/screenshots/<name>.png` and returns that path.
    pub async fn screenshot(&self, name: &str) -> Result<PathBuf> {
        let dir = workspace_root().join("target").join("screenshots");
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        let path = dir.join(format!("{name}.png"));
        let png = self.driver().screenshot_as_png().await?;
        std::fs::write(&path, png).with_context(|| format!("writing {}", path.display()))?;
        Ok(path)
    }

    /// Accepts the `window.confirm` (or `alert`) that the last action opened, and returns its
    /// message.
    pub async fn accept_dialog(&self) -> Result<String> {
        let message = self.dialog_message().await?;
        self.driver().accept_alert().await?;
        Ok(message)
    }

    /// Dismisses ("Cancel") the `window.confirm` that the last action opened, and returns its
    /// message.
    pub async fn dismiss_dialog(&self) -> Result<String> {
        let message = self.dialog_message().await?;
        self.driver().dismiss_alert().await?;
        Ok(message)
    }

    /// Ends the session and stops chromedriver, reporting failures that a drop would hide.
    /// Prints the page as Chromium's Print → Save as PDF does (US Letter, portrait, without
    /// backgrounds): its page count and its text, read back from the PDF (ligatures spelt out).
    pub async fn print_to_pdf(&self) -> Result<(usize, String)> {
        let pdf = self
            .driver()
            .print_page(thirtyfour::common::print::PrintParameters::default())
            .await?;
        let document = lopdf::Document::load_mem(&pdf).context("a PDF")?;
        let pages: Vec<u32> = document.get_pages().keys().copied().collect();
        let text = document.extract_text(&pages).context("the PDF's text")?;
        // Chromium sets "ff", "fi", ... as ligature glyphs, whose text is the ligature character.
        let text = [
            ("ﬀ", "ff"),
            ("ﬁ", "fi"),
            ("ﬂ", "fl"),
            ("ﬃ", "ffi"),
            ("ﬄ", "ffl"),
        ]
        .into_iter()
        .fold(text, |text, (ligature, letters)| {
            text.replace(ligature, letters)
        });
        Ok((pages.len(), text))
    }

    pub async fn quit(mut self) -> Result<()> {
        if let Some(driver) = self.driver.take() {
            driver.quit().await.context("ending the browser session")?;
        }
        self.chromedriver
            .kill()
            .await
            .context("stopping chromedriver")
    }

    /// Dialogs open asynchronously after the click that triggers them.
    async fn dialog_message(&self) -> Result<String> {
        let deadline = Instant::now() + DIALOG_TIMEOUT;
        loop {
            let err = match self.driver().get_alert_text().await {
                Ok(message) => return Ok(message),
                Err(err) => err,
            };
            if !pause_until(deadline).await {
                return Err(err).context(format!("no dialog opened within {DIALOG_TIMEOUT:?}"));
            }
        }
    }

    /// Adds the page to an error, since a selector that fails usually means the test is not
    /// on the page it thinks it is.
    async fn located<T>(
        &self,
        result: WebDriverResult<T>,
        what: impl FnOnce() -> String,
    ) -> Result<T> {
        match result {
            Ok(value) => Ok(value),
            Err(err) => Err(self.on_page(anyhow!(err).context(what())).await),
        }
    }

    async fn on_page(&self, err: anyhow::Error) -> anyhow::Error {
        match self.driver().current_url().await {
            Ok(url) => err.context(format!("on {url}")),
            Err(_) => err,
        }
    }
}

impl Drop for Browser {
    /// Ends a session that was not quit (a failed test) before chromedriver is killed, which
    /// would leave Chromium running. thirtyfour's own fallback cannot be used: it reuses a pooled
    /// connection of the test's runtime, which this drop blocks on a current-thread runtime, so
    /// it hangs for its 120 s request timeout and then gives up.
    fn drop(&mut self) {
        let Some(driver) = self.driver.take() else {
            return;
        };
        let session = driver.session_id().to_string();
        if driver.leak().is_ok() {
            end_session(self.port, &session);
        }
    }
}

/// Sends `DELETE /session/{id}` with a blocking socket, since `drop` cannot await, and waits for
/// the first bytes of the answer, which chromedriver sends once Chromium has closed (it keeps the
/// connection open, so reading to the end would wait for the timeout).
fn end_session(port: u16, session: &str) {
    let Ok(mut stream) = TcpStream::connect((Ipv4Addr::LOCALHOST, port)) else {
        return;
    };
    let request = format!(
        "DELETE /session/{session} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    );
    if stream.set_read_timeout(Some(END_SESSION_TIMEOUT)).is_ok()
        && stream.write_all(request.as_bytes()).is_ok()
    {
        let _ = stream.read(&mut [0; 256]);
    }
}

/// What [`Browser::wait_until_text`] waits for: a substring (`&str`) or a predicate on the text.
pub trait TextMatch {
    fn matches(&self, text: &str) -> bool;
    /// For the error when the wait times out.
    fn describe(&self) -> String;
}

impl TextMatch for &str {
    fn matches(&self, text: &str) -> bool {
        text.contains(*self)
    }

    fn describe(&self) -> String {
        format!("text containing {self:?}")
    }
}

impl<F: Fn(&str) -> bool> TextMatch for F {
    fn matches(&self, text: &str) -> bool {
        self(text)
    }

    fn describe(&self) -> String {
        "text satisfying the predicate".to_string()
    }
}

/// Sleeps one poll interval, or returns false if `deadline` has passed.
async fn pause_until(deadline: Instant) -> bool {
    if Instant::now() >= deadline {
        return false;
    }
    tokio::time::sleep(POLL_INTERVAL).await;
    true
}

fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|value| !value.is_empty())
        .map(PathBuf::from)
}

fn chromedriver_path() -> Result<PathBuf> {
    if let Some(path) = env_path("KR_CHROMEDRIVER") {
        return Ok(path);
    }
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join("chromedriver"))
        .find(|candidate| candidate.is_file());
    let path = on_path.unwrap_or_else(|| "/usr/bin/chromedriver".into());
    if !path.is_file() {
        bail!(
            "no chromedriver in KR_CHROMEDRIVER, on PATH or at /usr/bin/chromedriver \
             (install the Debian package `chromium-driver`)"
        );
    }
    Ok(path)
}

/// Where every chromedriver writes its output.
fn driver_log_dir() -> PathBuf {
    workspace_root().join("target").join("chromedriver")
}

/// Where the chromedriver on `port` writes its output.
fn driver_log(port: u16) -> PathBuf {
    driver_log_dir().join(format!("chromedriver-{port}.log"))
}

/// Starts chromedriver on a free loopback port and waits until it is ready for sessions.
async fn start_chromedriver(binary: &Path) -> Result<(Child, u16)> {
    let log_dir = driver_log_dir();
    std::fs::create_dir_all(&log_dir).with_context(|| format!("creating {}", log_dir.display()))?;
    let mut failures = Vec::new();
    for _ in 0..DRIVER_START_ATTEMPTS {
        let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?
            .local_addr()?
            .port();
        let log_path = driver_log(port);
        let log = std::fs::File::create(&log_path)
            .with_context(|| format!("creating {}", log_path.display()))?;
        let mut child = Command::new(binary)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .kill_on_drop(true)
            .spawn()
            .with_context(|| format!("starting {}", binary.display()))?;
        match wait_until_ready(&mut child, port).await {
            Ok(()) => return Ok((child, port)),
            Err(err) => {
                let output = std::fs::read_to_string(&log_path).unwrap_or_default();
                failures.push(format!("port {port}: {err:#}; its log: {}", output.trim()));
            }
        }
    }
    bail!(
        "{} did not become ready:\n{}",
        binary.display(),
        failures.join("\n")
    )
}

async fn wait_until_ready(child: &mut Child, port: u16) -> Result<()> {
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(2))
        .build()?;
    let url = format!("http://127.0.0.1:{port}/status");
    let deadline = Instant::now() + DRIVER_READY_TIMEOUT;
    loop {
        if let Some(status) = child.try_wait()? {
            bail!("it exited ({status})");
        }
        if let Ok(response) = client.get(&url).send().await {
            if let Ok(body) = response.json::<Value>().await {
                if body["value"]["ready"] == Value::Bool(true) {
                    return Ok(());
                }
            }
        }
        if !pause_until(deadline).await {
            // Dropping the child kills it; do it now so a retry starts clean.
            child.kill().await.ok();
            bail!("{url} did not answer ready within {DRIVER_READY_TIMEOUT:?}");
        }
    }
}
