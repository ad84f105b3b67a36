//! The overview: where the opportunities are (difficulty against volume), the intent mix,
//! and the best opportunities by value.

use kr_core::dataset::{Intent, KeywordRecord};
use maud::{html, Markup};

use super::View;
use crate::charts;
use crate::format;

const TOP: usize = 10;

pub fn render(view: &View) -> Markup {
    let records: Vec<KeywordRecord> = view.dataset.keywords().collect();
    let keywords: Vec<&KeywordRecord> = records.iter().collect();
    let counts: Vec<(Intent, usize)> = Intent::ALL
        .into_iter()
        .map(|intent| {
            (
                intent,
                keywords.iter().filter(|k| k.intent == intent).count(),
            )
        })
        .collect();
    let mut best = keywords.clone();
    best.sort_by(|a, b| {
        b.opportunity_value
            .total_cmp(&a.opportunity_value)
            .then_with(|| a.keyword.cmp(&b.keyword))
    });
    html! {
        div.overview {
            figure.chart {
                h2 { "Opportunity map" }
                (charts::opportunity_map(&keywords))
                figcaption { "Difficulty against monthly search volume; larger points are worth more, colour is intent." }
            }
            figure.chart {
                h2 { "Intent mix" }
                (charts::intent_mix(&counts))
            }
            section {
                h2 { "Top opportunities" }
                div.table-wrap {
                    table {
                        thead { tr { th scope="col" { "Keyword" } th scope="col" { "Intent" } th scope="col" .num { "Volume" } th scope="col" .num { "KD" } th scope="col" .num { "Value / month" } } }
                        tbody {
                            @for keyword in best.into_iter().take(TOP) {
                                tr {
                                    th scope="row" { (keyword.keyword) }
                                    td { (format::intent_badge(keyword.intent)) }
                                    td.num { (format::volume(keyword.search_volume)) }
                                    td.num { (keyword.difficulty.map(|kd| kd.to_string()).unwrap_or_else(|| "—".into())) }
                                    td.num { (format::money(keyword.opportunity_value)) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
