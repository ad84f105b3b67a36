//! Configuration of the Bedrock persona generator (`KR_BEDROCK_PERSONA_*`): off unless a
//! model is named.

use kr_core::config::ConfigError;

/// Defaults: a mid-sized model's list prices, USD per 1,000 tokens, and a cent-sized cap.
pub const DEFAULT_MAX_USD: f64 = 0.05;
pub const DEFAULT_USD_PER_1K_INPUT: f64 = 0.003;
pub const DEFAULT_USD_PER_1K_OUTPUT: f64 = 0.015;
pub const DEFAULT_MAX_OUTPUT_TOKENS: u32 = 4000;
/// Fewer output tokens than this cannot hold a persona set: no call is made.
pub const MIN_OUTPUT_TOKENS: u32 = 1000;

#[derive(Debug, Clone, PartialEq)]
pub struct BedrockSettings {
    /// Bedrock model id (`KR_BEDROCK_PERSONA_MODEL`), e.g. `anthropic.claude-3-5-haiku-20241022-v1:0`.
    pub model_id: String,
    /// Most a job may spend on personas, USD (`KR_BEDROCK_PERSONA_MAX_USD`).
    pub max_usd: f64,
    /// `KR_BEDROCK_PERSONA_USD_PER_1K_INPUT`, `KR_BEDROCK_PERSONA_USD_PER_1K_OUTPUT`.
    pub usd_per_1k_input: f64,
    pub usd_per_1k_output: f64,
    /// `KR_BEDROCK_PERSONA_MAX_OUTPUT_TOKENS`.
    pub max_output_tokens: u32,
    /// `KR_BEDROCK_ENDPOINT_URL`: the runtime's URL (a local mock in tests).
    pub endpoint_url: Option<String>,
}

impl BedrockSettings {
    /// `None` when no model is configured (the deterministic personas only).
    pub fn from_vars(lookup: impl Fn(&str) -> Option<String>) -> Result<Option<Self>, ConfigError> {
        let get = |name: &str| {
            lookup(name)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let Some(model_id) = get("KR_BEDROCK_PERSONA_MODEL") else {
            return Ok(None);
        };
        let number = |name: &str, default: f64| -> Result<f64, ConfigError> {
            match get(name) {
                None => Ok(default),
                Some(raw) => raw
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v >= 0.0)
                    .ok_or_else(|| ConfigError::new(format!("{name} must be a number ≥ 0"))),
            }
        };
        let max_output_tokens = kr_core::config::bounded_var(
            get,
            "KR_BEDROCK_PERSONA_MAX_OUTPUT_TOKENS",
            MIN_OUTPUT_TOKENS..=64_000,
            DEFAULT_MAX_OUTPUT_TOKENS,
        )
        .map_err(ConfigError::new)?;
        Ok(Some(Self {
            model_id,
            max_usd: number("KR_BEDROCK_PERSONA_MAX_USD", DEFAULT_MAX_USD)?,
            usd_per_1k_input: number(
                "KR_BEDROCK_PERSONA_USD_PER_1K_INPUT",
                DEFAULT_USD_PER_1K_INPUT,
            )?,
            usd_per_1k_output: number(
                "KR_BEDROCK_PERSONA_USD_PER_1K_OUTPUT",
                DEFAULT_USD_PER_1K_OUTPUT,
            )?,
            max_output_tokens,
            endpoint_url: get("KR_BEDROCK_ENDPOINT_URL"),
        }))
    }

    /// USD for the given token counts.
    pub fn cost(&self, input_tokens: u64, output_tokens: u64) -> f64 {
        (input_tokens as f64 * self.usd_per_1k_input
            + output_tokens as f64 * self.usd_per_1k_output)
            / 1000.0
    }

    /// The most output tokens a request with `input_tokens` may ask for within the cap, if
    /// that is enough for an answer.
    pub fn output_budget(&self, input_tokens: u64) -> Option<u32> {
        let left = self.max_usd - self.cost(input_tokens, 0);
        if left <= 0.0 {
            return None;
        }
        let affordable = if self.usd_per_1k_output > 0.0 {
            (left / self.usd_per_1k_output * 1000.0).floor()
        } else {
            f64::from(self.max_output_tokens)
        };
        let tokens = affordable.min(f64::from(self.max_output_tokens)) as u32;
        (tokens >= MIN_OUTPUT_TOKENS).then_some(tokens)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(pairs: &[(&str, &str)]) -> Result<Option<BedrockSettings>, ConfigError> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        BedrockSettings::from_vars(|name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        })
    }

    #[test]
    fn off_unless_a_model_is_named() {
        assert_eq!(with(&[]).unwrap(), None);
        assert_eq!(with(&[("KR_BEDROCK_PERSONA_MODEL", " ")]).unwrap(), None);
        let on = with(&[("KR_BEDROCK_PERSONA_MODEL", "m")]).unwrap().unwrap();
        assert_eq!(on.max_usd, DEFAULT_MAX_USD);
        assert!(with(&[
            ("KR_BEDROCK_PERSONA_MODEL", "m"),
            ("KR_BEDROCK_PERSONA_MAX_USD", "-1")
        ])
        .is_err());
    }

    #[test]
    fn the_output_budget_keeps_within_the_cap() {
        let settings = with(&[
            ("KR_BEDROCK_PERSONA_MODEL", "m"),
            ("KR_BEDROCK_PERSONA_MAX_USD", "0.05"),
        ])
        .unwrap()
        .unwrap();
        // 5,000 input tokens cost 0.015; 0.035 left buys 2,333 output tokens.
        assert_eq!(settings.output_budget(5000), Some(2333));
        assert!(settings.cost(5000, 2333) <= 0.05);
        // 15,000 input tokens leave 0.005: 333 output tokens, too few.
        assert_eq!(settings.output_budget(15_000), None);
        // 1,000 input tokens leave 0.047: 3,133 output tokens, under the 4,000 asked at most.
        assert_eq!(settings.output_budget(1000), Some(3133));
    }
}
