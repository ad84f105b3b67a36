//! Provider settings from `KR_DATAFORSEO_*` variables. Credentials are resolved elsewhere
//! (environment locally, Secrets Manager in AWS) and passed in.

use std::time::Duration;

use kr_core::domain::AiEngine;

use crate::pricing::AnswerPlan;

pub const DEFAULT_BASE_URL: &str = "https://api.dataforseo.com";
pub const DEFAULT_MAX_COST_PER_JOB: f64 = 5.0;
pub const DEFAULT_SERP_BUDGET: usize = 1000;
/// As many SERPs as a job can keep keywords.
pub const MAX_SERP_BUDGET: usize = 20_000;
pub const DEFAULT_CACHE_TTL_HOURS: u64 = 168;
/// Questions put to each answer engine per job (`KR_AI_ANSWERS_PROMPTS`).
pub const DEFAULT_AI_ANSWERS_PROMPTS: usize = 20;
pub const MAX_AI_ANSWERS_PROMPTS: usize = 100;

#[derive(Debug, Clone, PartialEq)]
pub struct ProviderSettings {
    pub login: String,
    pub password: String,
    /// No trailing slash.
    pub base_url: String,
    /// Spending cap per job, USD (`KR_DATAFORSEO_MAX_COST_PER_JOB`).
    pub max_cost_per_job: f64,
    /// Keywords whose SERP is fetched, highest volume first (`KR_DATAFORSEO_SERP_BUDGET`, 0 to
    /// 20,000, default 1,000).
    pub serp_budget: usize,
    /// How long a cached response serves later jobs (`KR_DATAFORSEO_CACHE_TTL_HOURS`; 0 = no cache).
    pub cache_ttl: Duration,
    pub retry: RetryPolicy,
    /// How SERPs are fetched (`KR_DATAFORSEO_SERP_METHOD`).
    pub serp_method: SerpMethod,
    /// The answer engines each job asks and how many questions (`KR_AI_ANSWERS`,
    /// `KR_AI_ANSWERS_PROMPTS`); no engine by default.
    pub answers: AnswerPlan,
}

/// The answer engines jobs ask (`KR_AI_ANSWERS`: a comma list of `chat_gpt`, `perplexity`,
/// `gemini`, `claude`, `google_ai_mode`; unset or empty: none) and the questions put to each
/// (`KR_AI_ANSWERS_PROMPTS`, 1 to 100, default 20). An unknown engine is an error.
pub fn answer_plan_from_vars(
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<AnswerPlan, String> {
    let serp_method = serp_method_from_vars(&lookup)?;
    answer_plan(&lookup, &serp_method)
}

/// [`answer_plan_from_vars`] for SERPs fetched the `serp_method` way, read once by its caller.
fn answer_plan(
    lookup: &impl Fn(&str) -> Option<String>,
    serp_method: &SerpMethod,
) -> Result<AnswerPlan, String> {
    let engines = AiEngine::parse_list(&lookup("KR_AI_ANSWERS").unwrap_or_default())
        .map_err(|err| format!("KR_AI_ANSWERS: {err}"))?;
    let prompts = kr_core::config::bounded_var(
        lookup,
        "KR_AI_ANSWERS_PROMPTS",
        1..=MAX_AI_ANSWERS_PROMPTS,
        DEFAULT_AI_ANSWERS_PROMPTS,
    )?;
    // Google AI Mode goes the way SERPs go: through the Standard queue unless they go Live.
    let ai_mode_queued = matches!(serp_method, SerpMethod::Standard { .. });
    Ok(AnswerPlan {
        engines,
        prompts,
        ai_mode_queued,
    })
}

/// How SERPs are fetched (`KR_DATAFORSEO_SERP_METHOD`, `KR_DATAFORSEO_SERP_POLL_SECONDS`,
/// `KR_DATAFORSEO_SERP_WAIT_MINUTES`); Google AI Mode's answers go the same way.
fn serp_method_from_vars(lookup: impl Fn(&str) -> Option<String>) -> Result<SerpMethod, String> {
    let number = |name: &str, min: f64, max: f64, default: f64| {
        kr_core::config::bounded_var(&lookup, name, min..=max, default)
    };
    Ok(
        match lookup("KR_DATAFORSEO_SERP_METHOD")
            .map(|m| m.trim().to_ascii_lowercase())
            .as_deref()
        {
            None | Some("") | Some("standard") => SerpMethod::Standard {
                // Each collection round is the stage's heartbeat: rounds stay well inside the
                // 15 minutes after which the sweeper takes a running job for stalled.
                poll: Duration::from_secs(number(
                    "KR_DATAFORSEO_SERP_POLL_SECONDS",
                    1.0,
                    600.0,
                    DEFAULT_SERP_POLL_SECONDS as f64,
                )? as u64),
                wait: Duration::from_secs(
                    number(
                        "KR_DATAFORSEO_SERP_WAIT_MINUTES",
                        0.0,
                        24.0 * 60.0,
                        DEFAULT_SERP_WAIT_MINUTES as f64,
                    )? as u64
                        * 60,
                ),
            },
            Some("live") => SerpMethod::Live,
            Some(_) => return Err("KR_DATAFORSEO_SERP_METHOD must be standard or live".into()),
        },
    )
}

/// How a job's SERPs are fetched.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SerpMethod {
    /// `live`: one request per SERP, answered in seconds, USD 0.002 each.
    Live,
    /// `standard` (the default): posted to DataForSEO's queue, USD 0.0006 each, ready in about
    /// 5 minutes (45 guaranteed). The job comes back every `poll` to collect what is ready;
    /// what is still missing after `wait` is fetched Live.
    Standard { poll: Duration, wait: Duration },
}

pub const DEFAULT_SERP_POLL_SECONDS: u64 = 60;
pub const DEFAULT_SERP_WAIT_MINUTES: u64 = 60;

/// Attempts per request and the first pause; pauses double from there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    pub attempts: u32,
    pub base_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            attempts: 4,
            base_delay: Duration::from_secs(1),
        }
    }
}

impl ProviderSettings {
    /// `None` without credentials: jobs then use the offline estimate.
    pub fn from_vars(
        lookup: impl Fn(&str) -> Option<String>,
        credentials: Option<(String, String)>,
    ) -> Result<Option<Self>, String> {
        // Read first: a wrong SERP method or engine name is refused with or without
        // credentials.
        let serp_method = serp_method_from_vars(&lookup)?;
        let answers = answer_plan(&lookup, &serp_method)?;
        let Some((login, password)) = credentials else {
            return Ok(None);
        };
        let base_url = lookup("KR_DATAFORSEO_BASE_URL")
            .map(|u| u.trim().trim_end_matches('/').to_string())
            .filter(|u| !u.is_empty())
            .unwrap_or_else(|| DEFAULT_BASE_URL.to_string());
        if !(base_url.starts_with("https://") || base_url.starts_with("http://")) {
            return Err("KR_DATAFORSEO_BASE_URL must be an http(s) URL".into());
        }
        let number = |name: &str, min: f64, max: f64, default: f64| {
            kr_core::config::bounded_var(&lookup, name, min..=max, default)
        };
        Ok(Some(Self {
            answers,
            serp_method,
            login,
            password,
            base_url,
            max_cost_per_job: number(
                "KR_DATAFORSEO_MAX_COST_PER_JOB",
                0.0,
                10_000.0,
                DEFAULT_MAX_COST_PER_JOB,
            )?,
            serp_budget: number(
                "KR_DATAFORSEO_SERP_BUDGET",
                0.0,
                MAX_SERP_BUDGET as f64,
                DEFAULT_SERP_BUDGET as f64,
            )? as usize,
            cache_ttl: Duration::from_secs(
                number(
                    "KR_DATAFORSEO_CACHE_TTL_HOURS",
                    0.0,
                    24.0 * 90.0,
                    DEFAULT_CACHE_TTL_HOURS as f64,
                )? as u64
                    * 3600,
            ),
            retry: RetryPolicy {
                base_delay: Duration::from_millis(number(
                    "KR_DATAFORSEO_RETRY_BASE_MS",
                    0.0,
                    60_000.0,
                    1000.0,
                )? as u64),
                ..RetryPolicy::default()
            },
        }))
    }
}

/// The per-job cap and SERP budget as [`ProviderSettings::from_vars`] reads them, for a
/// function that only previews costs and never calls the provider; `None` when no provider
/// is configured (`configured` says whether credentials or their secret are set).
pub fn spending_limits_from_vars(
    lookup: impl Fn(&str) -> Option<String>,
    configured: bool,
) -> Result<Option<(f64, usize)>, String> {
    // Placeholder credentials: only the limits are read from what this returns.
    let credentials = configured.then(|| (String::new(), String::new()));
    Ok(ProviderSettings::from_vars(lookup, credentials)?
        .map(|settings| (settings.max_cost_per_job, settings.serp_budget)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(vars: &[(&str, &str)]) -> Result<Option<ProviderSettings>, String> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        ProviderSettings::from_vars(
            |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()),
            Some(("login".into(), "secret".into())),
        )
    }

    #[test]
    fn defaults_bounds_and_no_credentials() {
        let settings = with(&[]).unwrap().unwrap();
        assert_eq!(settings.base_url, DEFAULT_BASE_URL);
        assert_eq!(settings.cache_ttl, Duration::from_secs(168 * 3600));
        let local = with(&[("KR_DATAFORSEO_BASE_URL", "http://127.0.0.1:8790/")]).unwrap();
        assert_eq!(local.unwrap().base_url, "http://127.0.0.1:8790");
        assert!(with(&[("KR_DATAFORSEO_SERP_BUDGET", "20001")]).is_err());
        assert!(with(&[("KR_DATAFORSEO_MAX_COST_PER_JOB", "-1")]).is_err());
        assert!(with(&[("KR_DATAFORSEO_BASE_URL", "ftp://x")]).is_err());
        assert_eq!(ProviderSettings::from_vars(|_| None, None), Ok(None));
        assert_eq!(
            settings.serp_method,
            SerpMethod::Standard {
                poll: Duration::from_secs(60),
                wait: Duration::from_secs(3600)
            }
        );
        let live = with(&[("KR_DATAFORSEO_SERP_METHOD", "Live")])
            .unwrap()
            .unwrap();
        assert_eq!(live.serp_method, SerpMethod::Live);
        assert!(with(&[("KR_DATAFORSEO_SERP_METHOD", "priority")]).is_err());
        assert!(with(&[("KR_DATAFORSEO_SERP_POLL_SECONDS", "601")]).is_err());
    }

    #[test]
    fn answer_engines_are_off_by_default_and_a_wrong_name_is_refused() {
        let settings = with(&[]).unwrap().unwrap();
        assert_eq!(settings.answers.engines, []);
        assert_eq!(settings.answers.prompts, 20);
        let on = with(&[
            ("KR_AI_ANSWERS", "chat_gpt, perplexity"),
            ("KR_AI_ANSWERS_PROMPTS", "5"),
        ])
        .unwrap()
        .unwrap();
        assert_eq!(
            on.answers,
            AnswerPlan {
                engines: vec![AiEngine::ChatGpt, AiEngine::Perplexity],
                prompts: 5,
                ai_mode_queued: true,
            }
        );
        assert_eq!(
            with(&[("KR_AI_ANSWERS", " ")])
                .unwrap()
                .unwrap()
                .answers
                .engines,
            []
        );
        let err = with(&[("KR_AI_ANSWERS", "chat_gpt,bard")]).unwrap_err();
        assert!(
            err.contains("KR_AI_ANSWERS") && err.contains("bard"),
            "{err}"
        );
        assert!(with(&[("KR_AI_ANSWERS_PROMPTS", "0")]).is_err());
        assert!(with(&[("KR_AI_ANSWERS_PROMPTS", "101")]).is_err());
        let typo = |name: &str| (name == "KR_AI_ANSWERS").then(|| "gpt".to_string());
        assert!(ProviderSettings::from_vars(typo, None).is_err());
    }
}
