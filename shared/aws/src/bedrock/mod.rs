//! Personas written by a language model on Amazon Bedrock (Converse API): research's
//! persona-model seam ([`PersonaModel`]) implemented, falling back to the deterministic
//! personas; the same model words cluster briefs for the writer ([`BedrockBriefs`], kr-core's
//! `BriefWriter`). Off unless a model is configured ([`BedrockSettings`]). What the model is
//! asked and how its answer is read are kr-research's (`kr_research::personas::model::{prompt,
//! answer}`, `kr_research::brief::wording`); this module sends the requests. One request per
//! job, only when its worst case (the prompt's estimated tokens and the output tokens asked
//! for) stays within the job's cap; its real cost, from the response's token counts, is
//! returned for the job's usage.

mod brief;
mod settings;

use async_trait::async_trait;
use aws_sdk_bedrockruntime::types::{
    ContentBlock, ConversationRole, ConverseOutput, InferenceConfiguration, Message,
    SystemContentBlock,
};
use kr_research::personas::model::{answer, prompt, Origin, Outcome, PersonaModel, Spend};
use kr_research::personas::PersonaInput;
use kr_research::PageContent;

use crate::clients::{intercept, SdkConfig};
pub use brief::BedrockBriefs;
pub use settings::{BedrockSettings, MIN_OUTPUT_TOKENS};

/// Usage reported for Bedrock spend in a job's usage record when it is the job's only one.
pub const PROVIDER: &str = "bedrock";

/// One model on the Bedrock runtime with its cap and prices: what personas and briefs send
/// their requests through.
#[derive(Debug, Clone)]
pub struct BedrockModel {
    client: aws_sdk_bedrockruntime::Client,
    settings: BedrockSettings,
}

#[derive(Debug, Clone)]
pub struct BedrockPersonas {
    model: BedrockModel,
}

/// Why a request gave no text, with what it cost when it was answered (and paid).
pub struct Unanswered {
    pub why: String,
    pub spend: Option<Spend>,
}

impl BedrockModel {
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

    /// Sends one Converse request of at most `max_tokens` output tokens; the answer's text and
    /// what it cost.
    pub async fn converse(
        &self,
        system: &str,
        user: &str,
        max_tokens: u32,
    ) -> Result<(String, Option<Spend>), Unanswered> {
        let unanswered = |why: String, spend: Option<Spend>| Unanswered { why, spend };
        let message = Message::builder()
            .role(ConversationRole::User)
            .content(ContentBlock::Text(user.to_string()))
            .build()
            .map_err(|err| unanswered(format!("building the request: {err}"), None))?;
        let sent = self
            .client
            .converse()
            .model_id(&self.settings.model_id)
            .system(SystemContentBlock::Text(system.to_string()))
            .messages(message)
            .inference_config(
                InferenceConfiguration::builder()
                    .max_tokens(max_tokens as i32)
                    .temperature(0.2)
                    .build(),
            )
            .send()
            .await;
        let response = sent.map_err(|err| {
            let err = aws_sdk_bedrockruntime::error::DisplayErrorContext(err);
            unanswered(format!("the request failed: {err}"), None)
        })?;
        let spend = response.usage().map(|usage| {
            let input_tokens = usage.input_tokens().max(0) as u64;
            let output_tokens = usage.output_tokens().max(0) as u64;
            Spend {
                input_tokens,
                output_tokens,
                cost_usd: self.settings.cost(input_tokens, output_tokens),
            }
        });
        match response.output() {
            Some(ConverseOutput::Message(message)) => Ok((
                message
                    .content()
                    .iter()
                    .filter_map(|block| block.as_text().ok())
                    .map(String::as_str)
                    .collect(),
                spend,
            )),
            _ => Err(unanswered("the answer holds no message".into(), spend)),
        }
    }
}

impl BedrockPersonas {
    pub fn new(sdk: &SdkConfig, settings: BedrockSettings) -> Self {
        Self {
            model: BedrockModel::new(sdk, settings),
        }
    }

    pub fn settings(&self) -> &BedrockSettings {
        self.model.settings()
    }
}

#[async_trait]
impl PersonaModel for BedrockPersonas {
    fn provider(&self) -> &str {
        PROVIDER
    }

    async fn generate(&self, input: &PersonaInput, pages: &[PageContent]) -> Outcome {
        let fallback = |why: String, spend: Option<Spend>| {
            tracing::warn!(reason = %why, "Bedrock personas: deterministic fallback");
            Outcome::fallback(input, why, spend)
        };
        let prompt = prompt::build(input, pages);
        let Some(max_tokens) = self.settings().output_budget(prompt.estimated_tokens()) else {
            return fallback(
                "the request could cost more than the job's cap".into(),
                None,
            );
        };
        let (text, spend) = match self
            .model
            .converse(&prompt.system, &prompt.user, max_tokens)
            .await
        {
            Ok(answered) => answered,
            Err(Unanswered { why, spend }) => return fallback(why, spend),
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
