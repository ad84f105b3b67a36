//! Opportunity scores of a keyword for the primary site.
//!
//! ```text
//! V  = min(1, ln(1 + volume) / ln(1 + 100 000))     volume term; 0 when volume is null
//! C  = min(1, ln(1 + cpc) / ln(1 + 50))             CPC term (USD); 0 when cpc is null
//! D  = difficulty / 100                             0.5 when null (unknown = middling)
//! K  = competition                                  0.5 when null
//! R  = relevance to the primary site, 0..1          (see `relevance`)
//! G  = 1 for a content gap, else 0
//! H  = 1 − CTR(current position) / CTR(1)          headroom; 1 when the primary does not
//!                                                   rank or its rank is unknown
//!
//! organic_opportunity_score = 100 × (0.45 V + 0.35 R + 0.20 G) × (1 − 0.6 D) × (0.25 + 0.75 H)
//! paid_opportunity_score    = 100 × (0.6 V + 0.4 C) × (1 − 0.6 K)
//! opportunity_value (USD/month) = max(0, volume × (CTR(target) − CTR(current)) × cpc)
//!                                 0 when volume or cpc is null
//! ```
//!
//! CTR is [`click_through_rate`] (Backlinko 2019 curve); the target position defaults to 3,
//! a realistic goal for a page written for the keyword. Scores are rounded to 2 decimals,
//! values to cents. A null metric contributes nothing it cannot support: no volume or CPC
//! means no value and no volume credit, while unknown difficulty or competition is taken as
//! average rather than as easy. Every score is monotone in its inputs (tested below).

mod ctr;

use serde::{Deserialize, Serialize};

pub use ctr::{click_through_rate, current_click_through_rate};

/// Default position a keyword's page is expected to reach.
pub const DEFAULT_TARGET_POSITION: u32 = 3;

const VOLUME_REFERENCE: f64 = 100_000.0;
const CPC_REFERENCE: f64 = 50.0;
const UNKNOWN_DIFFICULTY: f64 = 0.5;
const UNKNOWN_COMPETITION: f64 = 0.5;

/// What scoring needs to know about a keyword.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoreInput {
    pub search_volume: Option<i64>,
    pub cpc: Option<f64>,
    pub competition: Option<f64>,
    pub difficulty: Option<i64>,
    /// 0 to 1; see [`relevance`].
    pub relevance: f64,
    pub content_gap: bool,
    /// Where the primary site ranks now, if known.
    pub primary_position: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoreConfig {
    pub target_position: u32,
}

impl Default for ScoreConfig {
    fn default() -> Self {
        ScoreConfig {
            target_position: DEFAULT_TARGET_POSITION,
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Scores {
    /// 0 to 100.
    pub organic_opportunity_score: f64,
    /// 0 to 100.
    pub paid_opportunity_score: f64,
    /// USD per month, ≥ 0.
    pub opportunity_value: f64,
}

pub fn score(input: &ScoreInput, config: &ScoreConfig) -> Scores {
    Scores {
        organic_opportunity_score: organic_opportunity_score(input),
        paid_opportunity_score: paid_opportunity_score(input),
        opportunity_value: opportunity_value(input, config),
    }
}

pub fn organic_opportunity_score(input: &ScoreInput) -> f64 {
    let demand = 0.45 * volume_term(input.search_volume)
        + 0.35 * input.relevance.clamp(0.0, 1.0)
        + 0.20 * if input.content_gap { 1.0 } else { 0.0 };
    let difficulty = input
        .difficulty
        .map_or(UNKNOWN_DIFFICULTY, |d| (d as f64 / 100.0).clamp(0.0, 1.0));
    let headroom = 1.0 - current_click_through_rate(input.primary_position) / click_through_rate(1);
    round2(100.0 * demand * (1.0 - 0.6 * difficulty) * (0.25 + 0.75 * headroom))
}

pub fn paid_opportunity_score(input: &ScoreInput) -> f64 {
    let demand = 0.6 * volume_term(input.search_volume) + 0.4 * cpc_term(input.cpc);
    let competition = input
        .competition
        .map_or(UNKNOWN_COMPETITION, |c| c.clamp(0.0, 1.0));
    round2(100.0 * demand * (1.0 - 0.6 * competition))
}

pub fn opportunity_value(input: &ScoreInput, config: &ScoreConfig) -> f64 {
    let (Some(volume), Some(cpc)) = (input.search_volume, input.cpc) else {
        return 0.0;
    };
    let gained = click_through_rate(config.target_position)
        - current_click_through_rate(input.primary_position);
    round2((volume.max(0) as f64 * gained * cpc.max(0.0)).max(0.0))
}

/// A discovery score mapped to 0..1 relative to the job's best: `ln(1 + s) / ln(1 + best)`.
/// The log keeps the long tail from collapsing to 0 next to one dominant phrase.
pub fn relevance(score: f64, best_score: f64) -> f64 {
    if best_score <= 0.0 || score <= 0.0 {
        return 0.0;
    }
    (score.ln_1p() / best_score.ln_1p()).clamp(0.0, 1.0)
}

fn volume_term(volume: Option<i64>) -> f64 {
    volume.map_or(0.0, |v| {
        ((v.max(0) as f64).ln_1p() / VOLUME_REFERENCE.ln_1p()).min(1.0)
    })
}

fn cpc_term(cpc: Option<f64>) -> f64 {
    cpc.map_or(0.0, |c| {
        (c.max(0.0).ln_1p() / CPC_REFERENCE.ln_1p()).min(1.0)
    })
}

fn round2(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests;
