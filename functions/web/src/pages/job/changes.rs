//! What changed since an earlier run of the same domain and market: the summary, the site's
//! visibility per run, the biggest winners and losers, keywords and clusters new and gone, and
//! with Search Console data each cluster's clicks, impressions and position before and after
//! and the keywords entering or leaving striking distance; with AI Overviews or answers in
//! both runs, the citations of the site and its competitors gained and lost per cluster.
//! Read before rendering (`load`), since it reads the account's other runs.

use axum::response::Response;
use kr_core::domain::{Job, SharedTab};
use kr_core::query_params::QueryParams;
use kr_http::auth::{AuthMethod, Principal};
use kr_http::extract::{viewable_job, Viewer};
use kr_query::{
    job_changes, AiCitationChange, ChangeQuery, ChangeSources, JobChanges, KeywordChange,
    PositionMove, QueryError, Results, SearchConsoleFigures, StrikingDistanceChange,
};
use maud::{html, Markup};

use super::View;
use crate::layout;
use crate::WebState;
use crate::{charts, format};

/// The tab's data: the changes, or why they cannot be shown (a bad `since`, a run not
/// finished), said on the tab.
pub type Loaded = Result<JobChanges, String>;

/// Who asks: a signed-in visitor may pick the earlier run (`since`, one of theirs); anyone
/// else (a share link's viewer, a demo job's visitor) sees the changes since the previous run.
pub enum Asker {
    Visitor(kr_core::domain::UserId),
    Anyone,
}

/// The changes when the page shows the changes tab; `Err` with the page for a store failure.
pub async fn load(
    state: &WebState,
    job: &Job,
    raw_query: &str,
    asker: Asker,
) -> Result<Option<Loaded>, Response> {
    let Ok(params) = QueryParams::parse(raw_query) else {
        return Ok(None);
    };
    if params.value("tab") != Some(SharedTab::Changes.as_str()) {
        return Ok(None);
    }
    let (viewer, params) = match asker {
        Asker::Visitor(user_id) => (
            Viewer(Some(Principal {
                user_id,
                method: AuthMethod::Session,
            })),
            params,
        ),
        Asker::Anyone => (Viewer(None), QueryParams::default()),
    };
    let query = match ChangeQuery::parse(&params) {
        Ok(query) => query,
        Err(refused) => return Ok(Some(Err(refused.to_string()))),
    };
    let since = match query.since {
        Some(id) => {
            match viewable_job(state.jobs.as_ref(), &state.config, viewer, &id.to_string()).await {
                Ok(since) => Some(since),
                Err(err) if err.status().is_server_error() => {
                    return Err(layout::internal_error(err.message))
                }
                Err(refused) => return Ok(Some(Err(refused.message))),
            }
        }
        None => None,
    };
    let results = Results {
        cache: &state.cache,
        objects: state.objects.as_ref(),
    };
    let sources = ChangeSources {
        results: &results,
        jobs: state.jobs.as_ref(),
    };
    match job_changes(&sources, job, since, &query).await {
        Ok(changes) => Ok(Some(Ok(changes))),
        Err(QueryError::Store(err)) => Err(layout::internal_error(err)),
        Err(refused) => Ok(Some(Err(refused.to_string()))),
    }
}

pub(super) fn render(view: &View, loaded: Option<&Loaded>) -> Markup {
    let changes = match loaded {
        Some(Ok(changes)) => changes,
        Some(Err(problem)) => return html! { p.error role="alert" { (problem) } },
        None => return html! { p.muted { "The changes could not be read." } },
    };
    html! {
        div.changes {
            p.summary { (changes.summary) }
            @if !view.shared && changes.history.len() > 1 {
                (other_runs(view, changes))
            }
            @if changes.history.len() > 1 {
                section.history {
                    h2 { "Visibility per run" }
                    (charts::visibility(&changes.history))
                }
            } @else {
                p.muted { "The chart of the site's visibility starts with the next run of this domain and market." }
            }
            @if changes.since.is_some() {
                div.pair {
                    (moves("Biggest winners", "No keyword moved up.", &changes.position_gains, changes.counts.position_gains))
                    (moves("Biggest losers", "No keyword moved down.", &changes.position_losses, changes.counts.position_losses))
                }
                div.pair {
                    (keyword_list("New keywords", &changes.new_keywords, changes.counts.new_keywords))
                    (keyword_list("Lost keywords", &changes.lost_keywords, changes.counts.lost_keywords))
                }
                (volume_moves(changes))
                @if changes.search_console_compared {
                    (search_console_moves(changes))
                    div.pair {
                        (striking_list("Entered striking distance", "No keyword entered positions 4 to 20.", &changes.striking_distance_entered, changes.counts.striking_distance_entered))
                        (striking_list("Left striking distance", "No keyword left positions 4 to 20.", &changes.striking_distance_left, changes.counts.striking_distance_left))
                    }
                }
                @if changes.ai_citations_compared {
                    div.pair.ai-citations {
                        (ai_citations("AI citations gained", "No site gained a citation.", &changes.ai_citations_gained, changes.counts.ai_citations_gained))
                        (ai_citations("AI citations lost", "No site lost a citation.", &changes.ai_citations_lost, changes.counts.ai_citations_lost))
                    }
                }
                div.pair {
                    (cluster_list("New clusters", changes.new_clusters.iter().map(|c| (&c.name, c.keyword_count, c.total_search_volume)), changes.counts.new_clusters))
                    (cluster_list("Gone clusters", changes.gone_clusters.iter().map(|c| (&c.name, c.keyword_count, c.total_search_volume)), changes.counts.gone_clusters))
                }
            }
        }
    }
}

/// Links to compare with each earlier run in the history instead.
fn other_runs(view: &View, changes: &JobChanges) -> Markup {
    let current = changes.since.as_ref().map(|run| run.job_id);
    html! {
        nav.runs aria-label="Compare with" {
            "Compare with the run of "
            @for run in changes.history.iter().filter(|run| run.job_id != changes.job_id).rev() {
                @let date = run.completed_at.map(|at| at.format("%Y-%m-%d").to_string()).unwrap_or_default();
                @if Some(run.job_id) == current {
                    strong aria-current="true" { (date) }
                } @else {
                    a href={(view.base) "?tab=changes&since=" (run.job_id)} data-partial { (date) }
                }
                " "
            }
        }
    }
}

fn position(position: Option<u32>) -> String {
    position.map_or_else(|| "not in top 100".into(), |p| p.to_string())
}

fn shown_of(shown: usize, total: usize) -> Markup {
    html! {
        @if total > shown {
            p.muted { "The " (format::count(shown)) " largest of " (format::count(total)) "." }
        }
    }
}

fn moves(title: &str, none: &str, moves: &[PositionMove], total: usize) -> Markup {
    html! {
        section {
            h2 { (title) " " span.muted { "(" (format::count(total)) ")" } }
            @if moves.is_empty() {
                p.muted { (none) }
            } @else {
                div.table-wrap {
                    table {
                        thead { tr { th scope="col" { "Keyword" } th scope="col" .num { "Was" } th scope="col" .num { "Now" } th scope="col" .num { "Change" } } }
                        tbody {
                            @for moved in moves {
                                tr {
                                    th scope="row" { (moved.keyword) }
                                    td.num { (position(moved.from)) }
                                    td.num { (position(moved.to)) }
                                    td.num class=(if moved.change > 0 { "gain" } else { "loss" }) { (format!("{:+}", moved.change)) }
                                }
                            }
                        }
                    }
                }
                (shown_of(moves.len(), total))
            }
        }
    }
}

fn keyword_list(title: &str, keywords: &[KeywordChange], total: usize) -> Markup {
    html! {
        section {
            h2 { (title) " " span.muted { "(" (format::count(total)) ")" } }
            @if keywords.is_empty() {
                p.muted { "None." }
            } @else {
                div.table-wrap {
                    table {
                        thead { tr { th scope="col" { "Keyword" } th scope="col" .num { "Volume" } th scope="col" .num { "Position" } } }
                        tbody {
                            @for keyword in keywords {
                                tr {
                                    th scope="row" { (keyword.keyword) }
                                    td.num { (format::volume(keyword.search_volume)) }
                                    td.num { (keyword.position.map_or_else(|| format::MISSING.to_string(), |p| p.to_string())) }
                                }
                            }
                        }
                    }
                }
                (shown_of(keywords.len(), total))
            }
        }
    }
}

fn volume_moves(changes: &JobChanges) -> Markup {
    html! {
        section {
            h2 { "Volume moves " span.muted { "(" (format::count(changes.counts.volume_moves)) ")" } }
            @if !changes.volumes_compared {
                p.muted { "Volumes are estimates in at least one of the two runs; estimates are not compared." }
            } @else if changes.volume_moves.is_empty() {
                p.muted { "No keyword's monthly volume moved by 20 % and 10 searches or more." }
            } @else {
                div.table-wrap {
                    table {
                        thead { tr { th scope="col" { "Keyword" } th scope="col" .num { "Was" } th scope="col" .num { "Now" } th scope="col" .num { "Change" } } }
                        tbody {
                            @for moved in &changes.volume_moves {
                                tr {
                                    th scope="row" { (moved.keyword) }
                                    td.num { (format::volume(Some(moved.from))) }
                                    td.num { (format::volume(Some(moved.to))) }
                                    td.num class=(if moved.change > 0 { "gain" } else { "loss" }) { (if moved.change > 0 { "+" } else { "" }) (format::volume(Some(moved.change))) }
                                }
                            }
                        }
                    }
                }
                (shown_of(changes.volume_moves.len(), changes.counts.volume_moves))
            }
        }
    }
}

fn cluster_list<'a>(
    title: &str,
    clusters: impl Iterator<Item = (&'a String, usize, i64)>,
    total: usize,
) -> Markup {
    let clusters: Vec<_> = clusters.collect();
    html! {
        section {
            h2 { (title) " " span.muted { "(" (format::count(total)) ")" } }
            @if clusters.is_empty() {
                p.muted { "None." }
            } @else {
                ul {
                    @for (name, keywords, volume) in &clusters {
                        li { (name) " " span.muted { "· " (format::counted(*keywords, "keyword")) " · " (format::volume(Some(*volume))) " searches" } }
                    }
                }
                (shown_of(clusters.len(), total))
            }
        }
    }
}

/// A count of clicks or impressions as tables show volumes (`1.2K`), exact in its tooltip.
fn measured_count(count: u64) -> Markup {
    let count = count as i64;
    html! { span title=(format::volume_exact(Some(count))) { (format::volume(Some(count))) } }
}

/// A change of such a count, signed (`+1.2K`, `−40`), exact in its tooltip.
fn measured_change(change: i64) -> Markup {
    let class = match change {
        1.. => "gain",
        0 => "",
        _ => "loss",
    };
    let sign = if change > 0 { "+" } else { "" };
    html! { span class=(class) title=(format!("{sign}{}", format::volume_exact(Some(change)))) { (sign) (format::volume(Some(change))) } }
}

/// A Search Console average position, one decimal; a dash without impressions.
fn measured_position(figures: Option<&SearchConsoleFigures>) -> String {
    figures.filter(|f| f.impressions > 0).map_or_else(
        || format::MISSING.to_string(),
        |f| format!("{:.1}", f.position),
    )
}

fn search_console_moves(changes: &JobChanges) -> Markup {
    let total = changes.counts.search_console_moves;
    html! {
        section.search-console-moves {
            h2 { "Search Console per cluster " span.muted { "(" (format::count(total)) ")" } }
            @if changes.search_console_moves.is_empty() {
                p.muted { "No cluster of both runs has Search Console data." }
            } @else {
                p.muted { "Clicks, impressions and average position over the last 28 days of data: before is what the earlier run's plan was made on." }
                div.table-wrap {
                    table {
                        thead { tr {
                            th scope="col" { "Cluster" }
                            th scope="col" { "Planned" }
                            th scope="col" .num { "Clicks before" } th scope="col" .num { "after" } th scope="col" .num { "change" }
                            th scope="col" .num { "Impressions before" } th scope="col" .num { "after" } th scope="col" .num { "change" }
                            th scope="col" .num { "Position before" } th scope="col" .num { "after" }
                        } }
                        tbody {
                            @for moved in &changes.search_console_moves {
                                @let (before, after) = (moved.before.as_ref(), moved.after.as_ref());
                                tr {
                                    th scope="row" { (moved.name) }
                                    td {
                                        @if let Some(action) = moved.previous_action {
                                            (action.as_str())
                                            @if let Some(url) = &moved.previous_target_url {
                                                " " span.muted.url title=(url) { (url) }
                                            }
                                        } @else { (format::MISSING) }
                                    }
                                    td.num { (before.map_or_else(|| html! { (format::MISSING) }, |f| measured_count(f.clicks))) }
                                    td.num { (after.map_or_else(|| html! { (format::MISSING) }, |f| measured_count(f.clicks))) }
                                    td.num { (measured_change(moved.clicks_change)) }
                                    td.num { (before.map_or_else(|| html! { (format::MISSING) }, |f| measured_count(f.impressions))) }
                                    td.num { (after.map_or_else(|| html! { (format::MISSING) }, |f| measured_count(f.impressions))) }
                                    td.num { (measured_change(moved.impressions_change)) }
                                    td.num { (measured_position(before)) }
                                    td.num class=(match moved.position_change { Some(c) if c > 0.0 => "gain", Some(c) if c < 0.0 => "loss", _ => "" }) { (measured_position(after)) }
                                }
                            }
                        }
                    }
                }
                (shown_of(changes.search_console_moves.len(), total))
            }
        }
    }
}

fn striking_list(
    title: &str,
    none: &str,
    keywords: &[StrikingDistanceChange],
    total: usize,
) -> Markup {
    let position =
        |p: Option<f64>| p.map_or_else(|| format::MISSING.to_string(), |p| format!("{p:.1}"));
    html! {
        section {
            h2 { (title) " " span.muted { "(" (format::count(total)) ")" } }
            @if keywords.is_empty() {
                p.muted { (none) }
            } @else {
                div.table-wrap {
                    table {
                        thead { tr { th scope="col" { "Keyword" } th scope="col" .num { "Was" } th scope="col" .num { "Now" } th scope="col" .num { "Impressions" } } }
                        tbody {
                            @for keyword in keywords {
                                tr {
                                    th scope="row" { (keyword.keyword) }
                                    td.num { (position(keyword.from)) }
                                    td.num { (position(keyword.to)) }
                                    td.num { (measured_count(keyword.impressions)) }
                                }
                            }
                        }
                    }
                }
                (shown_of(keywords.len(), total))
            }
        }
    }
}

/// Where a citation was: Google's AI Overview or an answer engine, by the name users know.
fn citation_source(source: &str) -> &str {
    match source {
        kr_query::AI_OVERVIEW_SOURCE => "AI Overview",
        other => match other.parse::<kr_core::domain::AiEngine>() {
            Ok(engine) => engine.display_name(),
            Err(_) => other,
        },
    }
}

fn ai_citations(title: &str, none: &str, citations: &[AiCitationChange], total: usize) -> Markup {
    html! {
        section {
            h2 { (title) " " span.muted { "(" (format::count(total)) ")" } }
            @if citations.is_empty() {
                p.muted { (none) }
            } @else {
                div.table-wrap {
                    table.ai-citations {
                        thead { tr { th scope="col" { "Site" } th scope="col" { "Cluster" } th scope="col" { "Where" } th scope="col" { "Keyword or question" } } }
                        tbody {
                            @for citation in citations {
                                tr data-ai-citation=(citation.domain) data-source=(citation.source) {
                                    th scope="row" {
                                        (citation.domain)
                                        @if citation.site { " " span.muted { "(your site)" } }
                                    }
                                    td { (citation.cluster_name) }
                                    td { (citation_source(&citation.source)) }
                                    td { (citation.keyword.as_deref().or(citation.prompt.as_deref()).unwrap_or_default()) }
                                }
                            }
                        }
                    }
                }
                (shown_of(citations.len(), total))
            }
        }
    }
}
