//! The job's AI visibility (`?tab=ai_visibility`, for jobs with AI Overviews or answers):
//! AI Overviews' share of voice for the site against each competitor (a chart), the clusters
//! to earn citations in, the keywords' AI Overviews and what they cite, and what answer
//! engines answered to the job's questions with the sources they cited. Reference titles come
//! from Google and answers from models: text, escaped; cited addresses link out only through
//! the URL guard. Read before rendering (`load`), since the answers are a document of their
//! own.

use axum::response::Response;
use kr_core::dataset::{AiAnswer, AiOverview, ClusterRecord, KeywordRecord};
use kr_core::domain::{AiAnswersStatus, Job, SharedTab};
use kr_core::query_params::QueryParams;
use kr_query::{AiVisibility, IndexedDataset, KeywordQuery, Results};
use maud::{html, Markup};

use super::params::urlencode;
use super::View;
use crate::charts::{self, VoiceShare};
use crate::layout;
use crate::safe_link;
use crate::{format, WebState};

/// Rows of the clusters' and keywords' tables: the most valuable fifty.
pub const ROWS: usize = 50;

/// Whether the job has something to show: a keyword whose AI Overview was shown, or answers.
/// The tab exists only then.
pub fn has_data(job: &Job, dataset: &IndexedDataset) -> bool {
    dataset
        .clusters
        .iter()
        .any(|cluster| cluster.ai_share_of_voice.is_some())
        || job
            .ai_answers
            .as_ref()
            .is_some_and(|asked| asked.status == AiAnswersStatus::Completed && asked.prompts > 0)
}

/// The job's AI visibility when the page shows this tab; `Err` with the page for a store
/// failure.
pub async fn load(
    state: &WebState,
    job: &Job,
    raw_query: &str,
) -> Result<Option<AiVisibility>, Response> {
    let shown = QueryParams::parse(raw_query)
        .is_ok_and(|params| params.value("tab") == Some(SharedTab::AiVisibility.as_str()));
    if !shown {
        return Ok(None);
    }
    let results = Results {
        cache: &state.cache,
        objects: state.objects.as_ref(),
    };
    results
        .ai_visibility(job)
        .await
        .map_err(layout::internal_error)
}

/// A share (0 to 1) in whole percent.
fn percent(share: f64) -> String {
    format!("{:.0}%", share * 100.0)
}

/// A link to the keywords tab on `cluster`'s keywords with `filter` (when this page shows
/// that tab), else the cluster's name as text.
fn cluster_link(view: &View, id: &str, name: &str, filter: &str) -> Markup {
    let href = view.tab_link(
        SharedTab::Keywords,
        &format!("&cluster={}{filter}", urlencode(id)),
    );
    html! {
        @match href {
            Some(href) => a href=(href) data-partial data-cluster=(id) { (name) },
            None => (name),
        }
    }
}

fn brief_link(view: &View, id: &str, name: &str) -> Markup {
    html! {
        @if !view.shared {
            td { a.button.small href={"/jobs/" (view.job.id) "/clusters/" (urlencode(id)) "/brief"} aria-label={"Brief for " (name)} { "Brief" } }
        }
    }
}

fn brief_header(view: &View) -> Markup {
    html! { @if !view.shared { th scope="col" { span.sr-only { "Brief" } } } }
}

fn share_section(view: &View, visibility: &AiVisibility) -> Markup {
    let overviews = &visibility.overviews;
    let mut shares = vec![VoiceShare {
        domain: view.job.primary_domain.as_str(),
        own: true,
        cited: overviews.citing_site,
    }];
    for competitor in &view.job.competitor_domains {
        let cited = overviews
            .by_competitor
            .get(competitor.as_str())
            .copied()
            .unwrap_or(0);
        shares.push(VoiceShare {
            domain: competitor.as_str(),
            own: false,
            cited,
        });
    }
    html! {
        section.ai-section #ai-share aria-labelledby="ai-share-title" {
            h2 #ai-share-title { "Share of voice in AI Overviews" }
            p.muted {
                "Of the " (format::counted(overviews.keywords as usize, "keyword")) " whose results page was read, "
                (format::count(overviews.with_overview as usize)) " showed a Google AI Overview; "
                (format::count(overviews.citing_site as usize)) " of those cite your site."
            }
            @if overviews.with_overview == 0 {
                p.empty { "No keyword's results page showed an AI Overview." }
            } @else {
                figure.chart.share-of-voice {
                    (charts::share_of_voice(overviews.with_overview, &shares))
                    figcaption { "The share of the keywords with an AI Overview whose references include each site (any page on its domain, subdomains included)." }
                }
                ul.chart-legend.sov-legend {
                    @for share in &shares {
                        li data-sov=(share.domain) {
                            span class=(if share.own { "sov-key own" } else { "sov-key competitor" }) aria-hidden="true" {}
                            " " (share.domain) @if share.own { " (your site)" } " "
                            span.legend-count { (format::count(share.cited as usize)) }
                        }
                    }
                }
            }
        }
    }
}

/// The clusters whose AI Overviews cite a competitor and never the site, the most volume
/// first.
fn earn_clusters(dataset: &IndexedDataset) -> Vec<&ClusterRecord> {
    let mut clusters: Vec<&ClusterRecord> = dataset
        .clusters
        .iter()
        .filter(|c| c.earn_citation)
        .collect();
    clusters.sort_by(|a, b| {
        b.total_search_volume
            .cmp(&a.total_search_volume)
            .then_with(|| a.name.cmp(&b.name))
    });
    clusters
}

fn earn_section(view: &View) -> Markup {
    let clusters = earn_clusters(view.dataset);
    let total = clusters.len();
    html! {
        section.ai-section #earn-citation aria-labelledby="earn-citation-title" {
            h2 #earn-citation-title { "Clusters to earn citations in " span.muted { "(" (format::count(total)) ")" } }
            p.muted { "AI Overviews on these clusters' keywords cite a competitor and never your site: a page answering them well can be cited next. The most searched first"
                @if total > ROWS { "; " (ROWS) " of " (format::count(total)) }
                "." }
            @if clusters.is_empty() {
                p.empty { "No cluster's AI Overviews cite a competitor without citing you." }
            } @else {
                div.table-wrap { table.ai.earn {
                    caption.sr-only { "Clusters to earn citations in" }
                    thead { tr {
                        th scope="col" { "Cluster" } (brief_header(view))
                        th scope="col" .num { "Volume" } th scope="col" .num { "AI Overviews" }
                        th scope="col" { "Competitors cited" }
                    } }
                    tbody { @for cluster in clusters.iter().take(ROWS) {
                        tr data-earn-cluster=(cluster.id) {
                            th scope="row" { (cluster_link(view, &cluster.id, &cluster.name, "&aiOverview=cites_competitor")) }
                            (brief_link(view, &cluster.id, &cluster.name))
                            td.num { (format::volume(Some(cluster.total_search_volume))) }
                            td.num { (cluster.ai_share_of_voice.as_ref().map_or(0, |s| s.overviews)) }
                            td { @if let Some(share) = &cluster.ai_share_of_voice {
                                @for (domain, cited) in share.competitors.iter().filter(|(_, s)| **s > 0.0) {
                                    span.cited { (domain) " " span.muted { (percent(*cited)) } } " "
                                }
                            } }
                        }
                    } }
                } }
            }
        }
    }
}

/// The keywords showing an AI Overview, the most searched first.
fn overview_keywords(dataset: &IndexedDataset) -> (Vec<KeywordRecord>, usize) {
    let query = QueryParams::parse(&format!(
        "aiOverview=present&sortBy=searchVolume&sortOrder=desc&limit={ROWS}"
    ))
    .and_then(|params| KeywordQuery::parse(&params))
    .expect("the tab's own query is valid");
    let page = dataset.query(&query);
    (page.keywords, page.total)
}

/// The pages an overview cites: each a link through the guard, its title as text.
fn references(overview: &AiOverview) -> Markup {
    html! {
        ol.ai-references {
            @for reference in &overview.references {
                li {
                    (safe_link::external_link(&reference.url, reference.title.as_deref().unwrap_or(safe_link::url_text(&reference.url))))
                    " " span.muted.domain { (reference.domain) }
                }
            }
        }
    }
}

fn keywords_section(view: &View) -> Markup {
    let (keywords, total) = overview_keywords(view.dataset);
    html! {
        section.ai-section #ai-overviews aria-labelledby="ai-overviews-title" {
            h2 #ai-overviews-title { "Keywords with an AI Overview " span.muted { "(" (format::count(total)) ")" } }
            p.muted { "What each AI Overview cites, the most searched keywords first"
                @if total > keywords.len() { "; " (keywords.len()) " of " (format::count(total)) }
                "." }
            @if keywords.is_empty() {
                p.empty { "No keyword shows an AI Overview." }
            } @else {
                div.table-wrap { table.ai.overviews {
                    caption.sr-only { "Keywords with an AI Overview" }
                    thead { tr {
                        th scope="col" { "Keyword" } th scope="col" { "Cluster" }
                        th scope="col" .num { "Volume" } th scope="col" { "Cites your site" }
                        th scope="col" { "Competitors cited" } th scope="col" { "Sources" }
                    } }
                    tbody { @for keyword in &keywords { @if let Some(overview) = &keyword.ai_overview {
                        tr data-ai-keyword=(keyword.id) data-cites-site=(overview.cites_site) {
                            th scope="row" .keyword { (keyword.keyword) }
                            td { (cluster_link(view, &keyword.cluster_id, &keyword.cluster_name, "")) }
                            td.num { (format::volume(keyword.search_volume)) }
                            td { @match (&overview.cited_url, overview.cites_site) {
                                (Some(url), true) => span.cites.yes { "Yes: " (safe_link::external_link(url, safe_link::url_text(url))) },
                                _ => span.cites.no { "No" },
                            } }
                            td { (overview.cites_competitors.join(", ")) }
                            td { (references(overview)) }
                        }
                    } } }
                } }
            }
        }
    }
}

/// What was asked and what came of it, when there are no answers to show.
fn no_answers(job: &Job) -> Markup {
    html! {
        @match &job.ai_answers {
            None => p.empty { "No answer engine was asked: the service runs without one (KR_AI_ANSWERS names the engines)." },
            Some(asked) => p.empty data-status=(asked.status.as_str()) {
                "No answers: asking was " (asked.status.as_str())
                @if let Some(reason) = &asked.reason { " (" (reason) ")" }
                "."
            },
        }
    }
}

fn answer(view: &View, answer: &AiAnswer) -> Markup {
    let cluster = view
        .dataset
        .clusters
        .iter()
        .find(|c| c.id == answer.cluster_id);
    html! {
        article.ai-answer data-engine=(answer.engine.as_str()) {
            header {
                strong.engine { (answer.engine.display_name()) }
                " " q.prompt { (answer.prompt) }
                @if let Some(cluster) = cluster {
                    " " span.muted { "· " (cluster_link(view, &cluster.id, &cluster.name, "")) }
                }
            }
            p.verdicts {
                span class=(if answer.cites_site { "verdict yes" } else { "verdict no" }) {
                    (if answer.cites_site { "Cites your site" } else { "Does not cite your site" })
                }
                " · "
                span class=(if answer.mentions_site { "verdict yes" } else { "verdict no" }) {
                    (if answer.mentions_site { "names it" } else { "does not name it" })
                }
                @if !answer.competitors.is_empty() {
                    " · competitors: " (answer.competitors.join(", "))
                }
                @if answer.cached { " · " span.muted { "from the cache" } }
            }
            blockquote.answer-text { (answer.text) }
            @if answer.cited_urls.is_empty() {
                p.muted { "No source cited." }
            } @else {
                ol.ai-references.cited-urls {
                    @for url in &answer.cited_urls {
                        li { (safe_link::external_link(url, safe_link::url_text(url))) }
                    }
                }
            }
        }
    }
}

fn answers_section(view: &View, visibility: &AiVisibility) -> Markup {
    let answers = &visibility.answers;
    let citing = answers.iter().filter(|a| a.cites_site).count();
    html! {
        section.ai-section #ai-answers aria-labelledby="ai-answers-title" {
            h2 #ai-answers-title { "Answer engines " span.muted { "(" (format::counted(answers.len(), "answer")) ")" } }
            @if answers.is_empty() {
                (no_answers(view.job))
            } @else {
                p.muted {
                    "The job's questions, derived from its most valuable clusters, put to each engine: "
                    (format::count(citing)) " of " (format::counted(answers.len(), "answer")) " cite your site"
                    @if !view.shared { " (cost $" (format!("{:.4}", visibility.cost_usd)) ", as the job's provider usage shows it)" }
                    "."
                }
                @for one in answers { (answer(view, one)) }
            }
        }
    }
}

pub(super) fn render(view: &View, visibility: Option<&AiVisibility>) -> Markup {
    let Some(visibility) = visibility else {
        return html! { p.muted { "The AI visibility could not be read." } };
    };
    if !has_data(view.job, view.dataset) {
        return html! { div.empty { p { "This job has no AI Overviews or answers to show." } } };
    }
    html! {
        div.ai-visibility {
            (share_section(view, visibility))
            (earn_section(view))
            (keywords_section(view))
            (answers_section(view, visibility))
        }
    }
}
