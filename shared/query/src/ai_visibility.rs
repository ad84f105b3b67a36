//! A completed job's AI visibility (`GET /jobs/{jobId}/ai-visibility`): its keywords' AI
//! Overviews summed up, and what answer engines said to its questions (the stored answers
//! document; none when no engine was asked).

use std::collections::BTreeMap;

use kr_core::dataset::{objects, AiAnswer, AiAnswersDocument, KeywordRecord};
use kr_core::domain::Job;
use kr_core::store::{get_json, StoreError};
use serde::Serialize;
use utoipa::ToSchema;

use crate::Results;

/// A job's AI visibility.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AiVisibility {
    pub overviews: OverviewSummary,
    /// Each engine's answer to each question, engines in the configured order, questions best
    /// cluster first; `[]` when no engine was asked (none configured, the budget spent).
    #[schema(value_type = Vec<kr_contract::ai_answers::AiAnswer>)]
    pub answers: Vec<AiAnswer>,
    /// What the answers cost, USD (cached answers cost nothing).
    #[schema(example = 0.124)]
    pub cost_usd: f64,
}

/// The job's keywords' Google AI Overviews, counted.
#[derive(Debug, Default, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OverviewSummary {
    /// Keywords whose SERP was fetched (the others say nothing about AI Overviews).
    #[schema(example = 120)]
    pub keywords: u32,
    /// Of those, keywords whose SERP showed an AI Overview.
    #[schema(example = 45)]
    pub with_overview: u32,
    /// Of those, keywords whose AI Overview cites the site.
    #[schema(example = 6)]
    pub citing_site: u32,
    /// Per competitor of the job (as the job lists it, every one listed), the keywords whose
    /// AI Overview cites it.
    pub by_competitor: BTreeMap<String, u32>,
}

impl OverviewSummary {
    /// Counts `keywords`' overviews for a job listing `competitors`.
    pub fn of<S: AsRef<str>>(
        keywords: impl IntoIterator<Item = KeywordRecord>,
        competitors: &[S],
    ) -> Self {
        let mut summary = Self {
            by_competitor: competitors
                .iter()
                .map(|c| (c.as_ref().to_string(), 0))
                .collect(),
            ..Self::default()
        };
        for keyword in keywords {
            let Some(overview) = keyword.ai_overview else {
                continue;
            };
            summary.keywords += 1;
            if !overview.present {
                continue;
            }
            summary.with_overview += 1;
            summary.citing_site += u32::from(overview.cites_site);
            for competitor in &overview.cites_competitors {
                if let Some(count) = summary.by_competitor.get_mut(competitor) {
                    *count += 1;
                }
            }
        }
        summary
    }
}

impl Results<'_> {
    /// The job's AI visibility; `None` before it completes.
    pub async fn ai_visibility(&self, job: &Job) -> Result<Option<AiVisibility>, StoreError> {
        let Some(dataset) = self.dataset(job).await? else {
            return Ok(None);
        };
        let competitors: Vec<String> = job
            .competitor_domains
            .iter()
            .map(ToString::to_string)
            .collect();
        let overviews = OverviewSummary::of(dataset.keywords(), &competitors);
        let document: AiAnswersDocument = get_json(self.objects, job.id, &objects::ai_answers())
            .await?
            .unwrap_or_default();
        Ok(Some(AiVisibility {
            overviews,
            answers: document.answers,
            cost_usd: document.cost_usd,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kr_core::dataset::{AiOverview, AiReference};

    fn keyword(overview: Option<AiOverview>) -> KeywordRecord {
        KeywordRecord {
            ai_overview: overview,
            ..KeywordRecord::default()
        }
    }

    #[test]
    fn overviews_are_counted_over_the_keywords_with_a_serp() {
        let cited = |urls: &[&str]| {
            let references: Vec<AiReference> = urls
                .iter()
                .filter_map(|u| AiReference::new(u, None, None))
                .collect();
            Some(AiOverview::from_serp(
                Some(&references),
                "brightbrew-coffee.com",
                &["roastrivals.com", "kettleandcrema.com"],
            ))
        };
        let keywords = vec![
            keyword(None),
            keyword(Some(AiOverview::default())),
            keyword(cited(&[
                "https://shop.brightbrew-coffee.com/a",
                "https://roastrivals.com/b",
            ])),
            keyword(cited(&["https://roastrivals.com/c"])),
        ];
        let summary = OverviewSummary::of(keywords, &["roastrivals.com", "kettleandcrema.com"]);
        assert_eq!(
            summary,
            OverviewSummary {
                keywords: 3,
                with_overview: 2,
                citing_site: 1,
                by_competitor: BTreeMap::from([
                    ("kettleandcrema.com".to_string(), 0),
                    ("roastrivals.com".to_string(), 2)
                ]),
            }
        );
    }
}
