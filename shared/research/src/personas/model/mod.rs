//! Personas written by a language model: the seam ([`PersonaModel`]), what the model is asked
//! ([`prompt`]) and how its answer is read ([`answer`]). Nothing here sends a request: an
//! adapter (kr-aws's `BedrockPersonas`, on Amazon Bedrock) implements [`PersonaModel`] by
//! sending [`prompt::build`]'s request within its spending cap and reading the text it gets with
//! [`answer::read`], and falls back to the deterministic personas ([`Outcome::fallback`]).
//!
//! [`PersonaModel`] is async, unlike [`PersonaGenerator`](super::PersonaGenerator): a model
//! answers over the network, reads the crawled pages as well as the keywords, and its answer is
//! paid for, which the [`Outcome`] reports so that the caller can charge the job once. The
//! research run ([`assemble`](crate::research::assemble)) stays synchronous with the offline
//! generator; the pipeline asks the model afterwards and replaces the personas with its answer.

pub mod answer;
pub mod prompt;

use async_trait::async_trait;

use super::{OfflinePersonaGenerator, PersonaGenerator, PersonaInput, PersonaSet};
use crate::PageContent;

/// A language model that writes a job's personas.
#[async_trait]
pub trait PersonaModel: Send + Sync {
    /// Whose model it is, as a job's usage names a provider.
    fn provider(&self) -> &str;
    /// The model's personas for `input` (whose site is read from `pages`), or the deterministic
    /// ones when the request would exceed the cap, fails, or is answered with anything but what
    /// was asked for.
    async fn generate(&self, input: &PersonaInput, pages: &[PageContent]) -> Outcome;
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

impl Outcome {
    /// The deterministic personas for `input`, because of `why`, with what asking cost.
    pub fn fallback(input: &PersonaInput, why: String, spend: Option<Spend>) -> Self {
        Self {
            personas: OfflinePersonaGenerator.generate(input),
            origin: Origin::Fallback(why),
            spend,
        }
    }
}

#[cfg(test)]
mod answer_tests;
