//! A cluster brief worded for the writer by the personas' model, on Amazon Bedrock: the
//! request and the strict reading of its answer are kr-research's
//! ([`kr_research::brief::wording`]); this sends it. One request per brief, sent only when
//! its worst case stays within the cap.

use std::sync::Arc;

use async_trait::async_trait;
use kr_core::config::ConfigError;
use kr_core::dataset::{BriefWording, BriefWriter, ClusterBrief, Unworded};
use kr_research::brief::wording::{read, request, BRIEF_OUTPUT_TOKENS, SYSTEM};

use super::{BedrockModel, BedrockSettings, SdkConfig, Unanswered};

#[derive(Debug, Clone)]
pub struct BedrockBriefs {
    model: BedrockModel,
}

impl BedrockBriefs {
    pub fn new(sdk: &SdkConfig, settings: BedrockSettings) -> Self {
        Self {
            model: BedrockModel::new(sdk, settings),
        }
    }

    /// The writer the environment configures: behind the personas' switch
    /// (`KR_BEDROCK_PERSONA_MODEL`, with its cap and prices, here per brief); `None` when off.
    pub async fn from_env() -> Result<Option<Arc<dyn BriefWriter>>, ConfigError> {
        let Some(settings) = BedrockSettings::from_vars(|name| std::env::var(name).ok())? else {
            return Ok(None);
        };
        let sdk = crate::sdk_config(None).await;
        Ok(Some(Arc::new(Self::new(&sdk, settings))))
    }
}

#[async_trait]
impl BriefWriter for BedrockBriefs {
    fn provider(&self) -> &str {
        super::PROVIDER
    }

    async fn word(&self, brief: &ClusterBrief) -> Result<BriefWording, Unworded> {
        let user = request(brief);
        // A generous estimate (three characters a token), as for personas.
        let input_tokens = ((SYSTEM.chars().count() + user.chars().count()) / 3 + 50) as u64;
        let settings = self.model.settings();
        let worst_case = settings.cost(input_tokens, u64::from(BRIEF_OUTPUT_TOKENS));
        if worst_case > settings.max_usd {
            return Err(Unworded {
                why: format!(
                    "the request could cost ${worst_case:.4}, more than the cap of ${:.4}",
                    settings.max_usd
                ),
                cost_usd: None,
            });
        }
        let (text, spend) = self
            .model
            .converse(SYSTEM, &user, BRIEF_OUTPUT_TOKENS)
            .await
            .map_err(|Unanswered { why, spend }| Unworded {
                why,
                cost_usd: spend.map(|spend| spend.cost_usd),
            })?;
        // Without the response's token counts, what it could have cost at most.
        let cost_usd = spend.map_or(worst_case, |spend| spend.cost_usd);
        read(&text, &brief.primary_keyword.keyword, cost_usd).map_err(|refused| Unworded {
            why: format!("the answer was refused ({refused}); it cost ${cost_usd:.4}"),
            cost_usd: Some(cost_usd),
        })
    }
}
