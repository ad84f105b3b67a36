//! Personas written by a language model on Amazon Bedrock (Converse API), behind the same
//! seam as the deterministic ones and falling back to them. Off unless a model is configured
//! ([`BedrockSettings`]). One request per job: the primary site's pages (titles, headings,
//! snippets; bounded) and its top keywords ([`prompt`]); the answer is read strictly
//! ([`answer`]). The request is only sent when its worst case (the prompt's estimated tokens
//! and the output tokens asked for) stays within the job's cap; its real cost, from the
//! response's token counts, is returned for the job's usage.

pub mod answer;
pub mod prompt;
mod settings;

use aws_sdk_bedrockruntime::types::{
    ContentBlock, ConversationRole, ConverseOutput, InferenceConfiguration, Message,
    SystemContentBlock,
};
use kr_research::personas::{OfflinePersonaGenerator, PersonaGenerator, PersonaInput, PersonaSet};
use kr_research::PageContent;

use crate::clients::{intercept, SdkConfig};
pub use settings::{BedrockSettings, MIN_OUTPUT_TOKENS};

/// Usage reported for Bedrock spend in a job's usage record when it is the job's only one.
pub const PROVIDER: &str = "bedrock";

#[derive(Debug, Clone)]
pub struct BedrockPersonas {
    client: aws_sdk_bedrockruntime::Client,
    settings: BedrockSettings,
}

/// What one request cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spend {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: f64,
}

/// Where a job's personas came from.
#[derive(Debug, Clone, PartialEq)]
pub enum Origin {
    Model,
    /// The deterministic personas, and why.
    Fallback(String),
}

#[derive(Debug, Clone)]
pub struct Outcome {
    pub personas: PersonaSet,
    pub origin: Origin,
    /// Set when a request was answered (and paid), whether or not its answer was used.
    pub spend: Option<Spend>,
}

impl BedrockPersonas {
    pub fn new(sdk: &SdkConfig, settings: BedrockSettings) -> Self {
        let mut config = aws_sdk_bedrockruntime::config::Builder::from(sdk);
        // The shared endpoint override (moto) has no Bedrock: only this one applies.
        config.set_endpoint_url(settings.endpoint_url.clone());
        if let Some(interceptor) = intercept() {
            config.push_interceptor(interceptor);
        }
        Self {
            client: aws_sdk_bedrockruntime::Client::from_conf(config.build()),
            settings,
        }
    }

    pub fn settings(&self) -> &BedrockSettings {
        &self.settings
    }

    /// The model's personas for `input`, or the deterministic ones when the request would
    /// exceed the cap, fails, or is answered with anything but what was asked for.
    pub async fn generate(&self, input: &PersonaInput, pages: &[PageContent]) -> Outcome {
        let fallback = |why: String, spend: Option<Spend>| {
            tracing::warn!(reason = %why, "Bedrock personas: deterministic fallback");
            Outcome {
                personas: OfflinePersonaGenerator.generate(input),
                origin: Origin::Fallback(why),
                spend,
            }
        };
        let prompt = prompt::build(input, pages);
        let Some(max_tokens) = self.settings.output_budget(prompt.estimated_tokens()) else {
            return fallback(
                "the request could cost more than the job's cap".into(),
                None,
            );
        };
        let message = Message::builder()
            .role(ConversationRole::User)
            .content(ContentBlock::Text(prompt.user.clone()))
            .build();
        let message = match message {
            Ok(message) => message,
            Err(err) => return fallback(format!("building the request: {err}"), None),
        };
        let sent = self
            .client
            .converse()
            .model_id(&self.settings.model_id)
            .system(SystemContentBlock::Text(prompt.system.clone()))
            .messages(message)
            .inference_config(
                InferenceConfiguration::builder()
                    .max_tokens(max_tokens as i32)
                    .temperature(0.2)
                    .build(),
            )
            .send()
            .await;
        let response = match sent {
            Ok(response) => response,
            Err(err) => {
                let err = aws_sdk_bedrockruntime::error::DisplayErrorContext(err);
                return fallback(format!("the request failed: {err}"), None);
            }
        };
        let spend = response.usage().map(|usage| {
            let input_tokens = usage.input_tokens().max(0) as u64;
            let output_tokens = usage.output_tokens().max(0) as u64;
            Spend {
                input_tokens,
                output_tokens,
                cost_usd: self.settings.cost(input_tokens, output_tokens),
            }
        });
        let text: String = match response.output() {
            Some(ConverseOutput::Message(message)) => message
                .content()
                .iter()
                .filter_map(|block| block.as_text().ok())
                .map(String::as_str)
                .collect(),
            _ => return fallback("the answer holds no message".into(), spend),
        };
        match answer::read(&text, input, &prompt.sent) {
            Ok(personas) => Outcome {
                personas,
                origin: Origin::Model,
                spend,
            },
            Err(refused) => fallback(format!("the answer was refused: {refused}"), spend),
        }
    }
}

#[cfg(test)]
mod answer_tests;
