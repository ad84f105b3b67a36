//! A job's questions to AI answer engines (ChatGPT, Perplexity, ...): which engines were asked
//! and what asking came to (the Job resource's `aiAnswers`). The answers themselves are a
//! document beside the job's dataset (`crate::dataset::AiAnswersDocument`).

use serde::{Deserialize, Serialize};

/// An answer engine the job's questions can be put to, by the name DataForSEO's AI
/// Optimization API gives its platform (`/v3/ai_optimization/{engine}/llm_responses/live`),
/// and Google's AI Mode (`google_ai_mode`, DataForSEO's SERP API: the answer Google Search
/// writes in its AI Mode tab, with the pages it cites).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AiEngine {
    ChatGpt,
    Perplexity,
    Gemini,
    Claude,
    GoogleAiMode,
}

string_enum! {
    AiEngine {
        ChatGpt => "chat_gpt",
        Perplexity => "perplexity",
        Gemini => "gemini",
        Claude => "claude",
        GoogleAiMode => "google_ai_mode",
    }
    from_str(exact, |raw| format!(
        "unknown answer engine {raw:?}: must be one of chat_gpt, perplexity, gemini, claude, google_ai_mode"
    ))
}

impl std::fmt::Display for AiEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl AiEngine {
    /// The name its users know it by.
    pub fn display_name(self) -> &'static str {
        match self {
            AiEngine::ChatGpt => "ChatGPT",
            AiEngine::Perplexity => "Perplexity",
            AiEngine::Gemini => "Gemini",
            AiEngine::Claude => "Claude",
            AiEngine::GoogleAiMode => "Google AI Mode",
        }
    }

    /// The engines of a `KR_AI_ANSWERS` value (a comma list), each once, in the list's order;
    /// empty for an empty value. An unknown name is an error, never skipped: a typo must not
    /// silently turn answers off.
    pub fn parse_list(raw: &str) -> Result<Vec<AiEngine>, String> {
        let mut engines = Vec::new();
        for name in raw.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let engine: AiEngine = name.parse()?;
            if !engines.contains(&engine) {
                engines.push(engine);
            }
        }
        Ok(engines)
    }
}

/// What asking the engines came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AiAnswersStatus {
    /// Asked; `reason` names what was left out (an engine that failed, prompts past the budget).
    Completed,
    /// Not asked: the job's provider budget was spent, or it had no cluster to ask about.
    Skipped,
    /// Asked and no engine answered; the job completes anyway.
    Failed,
}

string_enum! {
    AiAnswersStatus {
        Completed => "completed",
        Skipped => "skipped",
        Failed => "failed",
    }
}

/// The Job resource's `aiAnswers`: set when the job completes, on jobs run with answer
/// engines configured (`KR_AI_ANSWERS`); `None` otherwise.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AiAnswersOutcome {
    pub status: AiAnswersStatus,
    /// What was skipped or failed, in the owner's words; `None` when everything was asked.
    #[serde(default)]
    pub reason: Option<String>,
    /// The engines configured, in `KR_AI_ANSWERS`'s order.
    #[serde(default)]
    pub engines: Vec<AiEngine>,
    /// Questions put to each engine (derived from the job's clusters).
    #[serde(default)]
    pub prompts: u32,
    /// What the answers cost, USD (cached answers cost nothing); part of the job's `usage`.
    #[serde(default)]
    pub cost_usd: f64,
}

impl AiAnswersOutcome {
    /// Nothing was asked, for `reason`.
    pub fn skipped(engines: &[AiEngine], reason: impl Into<String>) -> Self {
        Self {
            status: AiAnswersStatus::Skipped,
            reason: Some(reason.into()),
            engines: engines.to_vec(),
            prompts: 0,
            cost_usd: 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_lists_keep_their_order_refuse_unknown_names_and_may_be_empty() {
        assert_eq!(
            AiEngine::parse_list(" perplexity, chat_gpt,perplexity "),
            Ok(vec![AiEngine::Perplexity, AiEngine::ChatGpt])
        );
        assert_eq!(AiEngine::parse_list(""), Ok(vec![]));
        assert_eq!(AiEngine::parse_list(" , "), Ok(vec![]));
        let err = AiEngine::parse_list("chat_gpt,chatgpt").unwrap_err();
        assert!(err.contains("\"chatgpt\""), "{err}");
        for engine in AiEngine::ALL {
            let json = serde_json::to_string(&engine).unwrap();
            assert_eq!(json, format!("\"{}\"", engine.as_str()));
        }
        for status in AiAnswersStatus::ALL {
            let json = serde_json::to_string(&status).unwrap();
            assert_eq!(json, format!("\"{}\"", status.as_str()));
        }
    }
}
