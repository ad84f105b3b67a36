//! A local stand-in for the DataForSEO v3 endpoints this service calls, for the tests, the
//! benchmark and the local stack. It speaks the documented envelope (see
//! `tests/fixtures/dataforseo/FACTS.md`) and answers only from the files in that folder:
//! keyword records, rankings per domain, keyword ideas, SERPs, prices and fault rules.
//!
//! Behaviour worth knowing when writing a test:
//! - HTTP Basic auth with the configured login and password; anything else is HTTP 401.
//! - With a balance configured, a request whose cost exceeds what is left (or any request once
//!   nothing is left) is HTTP 402 and is not billed.
//! - Labs endpoints (not search intent) answer `40501 Invalid Field: 'location_code'.` for a
//!   location outside the Labs list; Google Ads search volume and SERP take any location.
//! - Fault rules (`faults.json` by default) strike before the data is consulted; `reset()`
//!   re-arms them and clears the statistics.
//! - LLM Responses answer each question deterministically ([`answer_kind`]); an engine made to
//!   fail ([`MockDataForSeo::fail_engines`], or `POST /__mock/faults {"failEngines": [...]}`)
//!   answers every task `50000 Internal Error.`, unbilled, until reset.

mod answer;
mod data;
mod facts;
mod faults;
mod llm;
mod queue;
mod ranked;
mod serp;
mod server;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use data::{fixtures_dir, MockData, Price};
pub use facts::{AdsFacts, IntentFacts, LabsFacts, MonthlyVolume, RankedFacts};
use faults::Faults;
pub use llm::{answer_kind, AnswerKind, HOSTILE_SCRIPT};
use server::{base64, round_cost, Inner, Shared};

/// The endpoint paths the mock serves.
pub mod paths {
    pub const RANKED_KEYWORDS: &str = "/v3/dataforseo_labs/google/ranked_keywords/live";
    pub const KEYWORD_IDEAS: &str = "/v3/dataforseo_labs/google/keyword_ideas/live";
    pub const KEYWORD_OVERVIEW: &str = "/v3/dataforseo_labs/google/keyword_overview/live";
    pub const BULK_KEYWORD_DIFFICULTY: &str =
        "/v3/dataforseo_labs/google/bulk_keyword_difficulty/live";
    pub const SEARCH_INTENT: &str = "/v3/dataforseo_labs/google/search_intent/live";
    pub const ADS_SEARCH_VOLUME: &str = "/v3/keywords_data/google_ads/search_volume/live";
    pub const SERP_ORGANIC: &str = "/v3/serp/google/organic/live/advanced";
    /// The Standard queue: post, list the ready ones, collect one (its id follows the path).
    pub const SERP_TASK_POST: &str = "/v3/serp/google/organic/task_post";
    pub const SERP_TASKS_READY: &str = "/v3/serp/google/organic/tasks_ready";
    pub const SERP_TASK_GET: &str = "/v3/serp/google/organic/task_get/advanced";
    /// AI Optimization, LLM Responses (Live), per engine.
    pub const LLM_CHAT_GPT: &str = "/v3/ai_optimization/chat_gpt/llm_responses/live";
    pub const LLM_PERPLEXITY: &str = "/v3/ai_optimization/perplexity/llm_responses/live";
    pub const LLM_GEMINI: &str = "/v3/ai_optimization/gemini/llm_responses/live";
    pub const LLM_CLAUDE: &str = "/v3/ai_optimization/claude/llm_responses/live";
    /// Google AI Mode (SERP API): Live, and the Standard queue as for organic SERPs.
    pub const AI_MODE_LIVE: &str = "/v3/serp/google/ai_mode/live/advanced";
    pub const AI_MODE_TASK_POST: &str = "/v3/serp/google/ai_mode/task_post";
    pub const AI_MODE_TASKS_READY: &str = "/v3/serp/google/ai_mode/tasks_ready";
    pub const AI_MODE_TASK_GET: &str = "/v3/serp/google/ai_mode/task_get/advanced";
    pub const ALL: [&str; 18] = [
        RANKED_KEYWORDS,
        KEYWORD_IDEAS,
        KEYWORD_OVERVIEW,
        BULK_KEYWORD_DIFFICULTY,
        SEARCH_INTENT,
        ADS_SEARCH_VOLUME,
        SERP_ORGANIC,
        SERP_TASK_POST,
        SERP_TASKS_READY,
        SERP_TASK_GET,
        LLM_CHAT_GPT,
        LLM_PERPLEXITY,
        LLM_GEMINI,
        LLM_CLAUDE,
        AI_MODE_LIVE,
        AI_MODE_TASK_POST,
        AI_MODE_TASKS_READY,
        AI_MODE_TASK_GET,
    ];
    /// Whether `path` is answered to a POST (the others are to a GET).
    pub fn is_posted(path: &str) -> bool {
        ALL.contains(&path)
            && ![
                SERP_TASKS_READY,
                SERP_TASK_GET,
                AI_MODE_TASKS_READY,
                AI_MODE_TASK_GET,
            ]
            .contains(&path)
    }
}

/// The primary site and the competitors with ranking data; the last two are for benchmarks
/// (serve a sample site under their names).
pub const PRIMARY: &str = "brightbrew-coffee.com";
pub const COMPETITORS: [&str; 3] = [
    "roastrivals.com",
    "beanhavenroasters.com",
    "kettleandcrema.com",
];

#[derive(Debug, Clone)]
pub struct MockConfig {
    /// Port 0 picks a free one.
    pub address: SocketAddr,
    pub login: String,
    pub password: String,
    /// USD the account holds; `None` is unlimited.
    pub balance_usd: Option<f64>,
    /// Location codes Labs accepts; `None` takes `locations.json`.
    pub labs_locations: Option<Vec<i64>>,
    /// Fault rules file in `data_dir`; `None` plays no faults.
    pub faults: Option<String>,
    pub data_dir: PathBuf,
    /// How long a posted SERP task stays in the queue before it is ready.
    pub serp_ready_after: std::time::Duration,
    /// How many `tasks_ready` calls a posted SERP task waits through before it is ready: a
    /// wait that does not depend on how fast the machine runs.
    pub serp_ready_after_polls: usize,
}

impl MockConfig {
    /// The default mock, playing `rules` (a fault rules file's JSON, see `faults.json`) from
    /// a file the returned guard deletes when dropped.
    pub fn with_fault_rules(rules: &str) -> (Self, FaultRulesFile) {
        let dir = std::env::temp_dir().join(format!("dataforseo-faults-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let path = dir.join("faults.json");
        std::fs::write(&path, rules).expect("the fault rules are written");
        let config = MockConfig {
            faults: Some(path.to_string_lossy().into_owned()),
            ..MockConfig::default()
        };
        (config, FaultRulesFile { dir })
    }
}

/// A fault rules file of [`MockConfig::with_fault_rules`], deleted on drop.
pub struct FaultRulesFile {
    dir: PathBuf,
}

impl Drop for FaultRulesFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Default for MockConfig {
    fn default() -> Self {
        MockConfig {
            address: SocketAddr::from(([127, 0, 0, 1], 0)),
            login: "mock-login".into(),
            password: "mock-password".into(),
            balance_usd: None,
            labs_locations: None,
            faults: Some("faults.json".into()),
            data_dir: fixtures_dir(),
            serp_ready_after: std::time::Duration::ZERO,
            serp_ready_after_polls: 0,
        }
    }
}

impl MockConfig {
    pub fn without_faults(mut self) -> Self {
        self.faults = None;
        self
    }

    pub fn with_serp_ready_after(mut self, after: std::time::Duration) -> Self {
        self.serp_ready_after = after;
        self
    }

    pub fn with_serp_ready_after_polls(mut self, polls: usize) -> Self {
        self.serp_ready_after_polls = polls;
        self
    }

    pub fn with_balance(mut self, usd: f64) -> Self {
        self.balance_usd = Some(usd);
        self
    }
}

/// One task as the mock received it, and how it answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReceivedTask {
    pub path: String,
    pub task: Value,
    /// The task's status code, or the envelope's when the whole request failed, or the HTTP
    /// status when the answer was a bare HTTP error.
    pub status_code: i64,
    pub http_status: u16,
    pub cost: f64,
}

impl ReceivedTask {
    pub(crate) fn new(
        path: &str,
        task: &Value,
        status_code: i64,
        cost: f64,
        http_status: u16,
    ) -> Self {
        ReceivedTask {
            path: path.to_owned(),
            task: task.clone(),
            status_code,
            http_status,
            cost,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MockStats {
    /// HTTP requests per path, whatever their outcome.
    pub requests: BTreeMap<String, u64>,
    /// USD billed so far.
    pub total_cost: f64,
    /// USD left, when a balance is configured.
    pub balance_left: Option<f64>,
    pub tasks: Vec<ReceivedTask>,
}

impl MockStats {
    fn record(&mut self, task: ReceivedTask) {
        self.total_cost = round_cost(self.total_cost + task.cost);
        if let Some(left) = self.balance_left.as_mut() {
            *left = round_cost(*left - task.cost);
        }
        self.tasks.push(task);
    }

    pub fn requests_to(&self, path: &str) -> u64 {
        self.requests.get(path).copied().unwrap_or(0)
    }

    pub fn tasks_to(&self, path: &str) -> Vec<&ReceivedTask> {
        self.tasks.iter().filter(|t| t.path == path).collect()
    }
}

/// A running mock; the server stops when this is dropped.
pub struct MockDataForSeo {
    address: SocketAddr,
    shared: Arc<Shared>,
    server: tokio::task::JoinHandle<()>,
}

impl MockDataForSeo {
    pub async fn start(config: MockConfig) -> Result<MockDataForSeo> {
        let data = Arc::new(MockData::load(&config.data_dir)?);
        let faults = match &config.faults {
            Some(name) => Faults::load(&config.data_dir.join(name))?,
            None => Faults::none(),
        };
        let credential = format!("{}:{}", config.login, config.password);
        let shared = Arc::new(Shared {
            labs_locations: config
                .labs_locations
                .clone()
                .unwrap_or_else(|| data.labs_locations().to_vec()),
            data,
            authorization: format!("Basic {}", base64(credential.as_bytes())),
            initial_balance: config.balance_usd,
            serp_ready_after: config.serp_ready_after,
            serp_ready_after_polls: config.serp_ready_after_polls,
            inner: Mutex::new(Inner {
                failing_engines: Vec::new(),
                queue: Vec::new(),
                ready_polls: 0,
                faults,
                stats: MockStats {
                    balance_left: config.balance_usd,
                    ..MockStats::default()
                },
            }),
        });
        let listener = tokio::net::TcpListener::bind(config.address)
            .await
            .with_context(|| format!("binding {}", config.address))?;
        let address = listener.local_addr()?;
        let app = server::router(shared.clone());
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(MockDataForSeo {
            address,
            shared,
            server,
        })
    }

    /// What `KR_DATAFORSEO_BASE_URL` should be.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.address)
    }

    pub fn address(&self) -> SocketAddr {
        self.address
    }

    pub fn stats(&self) -> MockStats {
        self.shared.inner.lock().unwrap().stats.clone()
    }

    /// Clears the statistics, restores the balance and re-arms the fault rules.
    pub fn reset(&self) {
        self.shared.reset();
    }

    /// Makes the LLM Responses of these engines (`chat_gpt`, `perplexity`, ...) fail until
    /// reset; an empty list makes every engine answer again.
    pub fn fail_engines(&self, engines: &[&str]) {
        self.shared.inner.lock().unwrap().failing_engines =
            engines.iter().map(|e| e.to_string()).collect();
    }

    /// The files the mock answers from.
    pub fn data(&self) -> &MockData {
        &self.shared.data
    }
}

impl Drop for MockDataForSeo {
    fn drop(&mut self) {
        self.server.abort();
    }
}
