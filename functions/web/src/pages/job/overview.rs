//! The overview: where the opportunities are (difficulty against volume), the intent mix,
//! and the best opportunities by value.

use kr_core::dataset::{Intent, KeywordRecord};
use kr_core::query_params::QueryParams;
use kr_query::{IndexedDataset, KeywordQuery, Page};
use maud::{html, Markup};

use super::View;
use crate::charts::{self, LeftOut};
use crate::format;

const TOP: usize = 10;
/// The opportunity map shows at most this many keywords, the most valuable: a 100,000-keyword
/// job would otherwise make a page of megabytes that no one can read point by point.
const MAP_POINTS: usize = 500;

/// A page of the job's keywords through the query engine (the columns, not every record).
fn page(dataset: &IndexedDataset, query: &str) -> Page {
    let query = QueryParams::parse(query)
        .and_then(|params| KeywordQuery::parse(&params))
        .expect("the overview's own queries are valid");
    dataset.query(&query)
}

pub fn render(view: &View) -> Markup {
    let dataset = view.dataset;
    let counts: Vec<(Intent, usize)> = Intent::ALL
        .into_iter()
        .map(|intent| {
            let filter = format!("intent={}&limit=1", intent.as_str());
            (intent, page(dataset, &filter).total)
        })
        .collect();
    let by_value = "sortBy=opportunityValue&sortOrder=desc";
    let placeable = page(
        dataset,
        &format!("{by_value}&minVolume=0&minDifficulty=0&limit={MAP_POINTS}"),
    );
    let plotted: Vec<&KeywordRecord> = placeable.keywords.iter().collect();
    let left_out = LeftOut {
        without_metrics: dataset.keyword_count() - placeable.total,
        of_lower_value: placeable.total - plotted.len(),
    };
    let best = page(dataset, &format!("{by_value}&limit={TOP}")).keywords;
    html! {
        div.overview {
            figure.chart {
                h2 { "Opportunity map" }
                (charts::opportunity_map(&plotted, left_out))
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
                            @for keyword in &best {
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
