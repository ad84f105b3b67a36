//! A cluster's brief as a page that prints well: the one the API made and stored. Until it
//! is made, the job's owner gets a button that has the API make it (`POST`, `assets/app.js`)
//! and the page reloads with it; anyone else (a demo job's visitors) is told it is not made
//! yet. The dashboard itself never reads other sites.

use axum::extract::{Path, State};
use axum::response::Response;
use kr_core::dataset::{objects, ClusterBrief, ClusterRecord};
use kr_core::domain::{Job, JobStatus};
use kr_core::store::{get_json, User};
use maud::{html, Markup};

use crate::format;
use crate::layout;
use crate::session::Visitor;
use crate::WebState;

pub async fn show(
    State(state): State<WebState>,
    Visitor(user): Visitor,
    Path((job_id, cluster_id)): Path<(String, String)>,
) -> Response {
    let user = user.as_ref();
    let job = match state.readable_job(&job_id, user).await {
        Ok(Some(job)) => job,
        Ok(None) => return layout::not_found(user, "Job"),
        Err(err) => return layout::internal_error(err),
    };
    if job.status != JobStatus::Completed {
        return layout::ok(
            "Brief",
            user,
            html! { p.notice { "Briefs are made from a completed job's clusters; this job has not completed yet. " a href={"/jobs/" (job.id)} { "Back to the job" } } },
        );
    }
    let dataset = match state.cache.get(&job, state.objects.as_ref()).await {
        Ok(dataset) => dataset,
        Err(err) => return layout::internal_error(err),
    };
    let Some(cluster) = dataset.clusters.iter().find(|c| c.id == cluster_id) else {
        return layout::not_found(user, "Cluster");
    };
    let stored: Option<ClusterBrief> =
        match get_json(state.objects.as_ref(), job.id, &objects::brief(&cluster.id)).await {
            Ok(stored) => stored,
            Err(err) => return layout::internal_error(err),
        };
    render(&job, cluster, stored.as_ref(), user)
}

fn render(
    job: &Job,
    cluster: &ClusterRecord,
    brief: Option<&ClusterBrief>,
    user: Option<&User>,
) -> Response {
    let back = format!("/jobs/{}?tab=clusters", job.id);
    let api = format!("/api/v1/jobs/{}/clusters/{}/brief", job.id, cluster.id);
    layout::ok(
        &format!("Brief: {}", cluster.name),
        user,
        html! {
            nav.crumbs.no-print { a href=(back) { "← " (job.primary_domain.as_str()) " clusters" } }
            article.brief {
                h1 { "Brief: " (cluster.name) }
                @match brief {
                    Some(brief) => (body(brief, &api)),
                    None if user.is_some_and(|user| user.id == job.owner) => (maker(&api)),
                    None => p.notice { "This brief has not been made yet; only the job's owner can have it made." },
                }
            }
        },
    )
}

/// Before the brief exists: what making it does, and the button that asks for it.
fn maker(api: &str) -> Markup {
    html! {
        div.brief-maker data-brief-endpoint=(api) {
            p { "A brief reads up to five pages that rank for this cluster (robots.txt obeyed), and merges their outlines, lengths and terms with the cluster's keywords and questions. It takes a few seconds, is made once and counts towards the job's briefs." }
            button type="button" data-make-brief hidden { "Make the brief" }
            p.error role="alert" data-brief-error hidden {}
            noscript { form method="post" action=(api) { button type="submit" { "Make the brief" } " (the API answers it as JSON; come back to this page to see it)" } }
        }
    }
}

fn body(brief: &ClusterBrief, api: &str) -> Markup {
    html! {
        dl.brief-facts {
            dt { "Primary keyword" }
            dd { (brief.primary_keyword.keyword) " " span.muted { (format::volume(brief.primary_keyword.search_volume)) "/mo" } }
            dt { "Intent" }
            dd { (format::intent_badge(brief.intent)) }
            dt { "Page type that ranks" }
            dd { @match brief.page_type { Some(kind) => (kind.as_str().replace('_', " ")), None => "unknown (no results page: offline job)" } }
            @if let Some(action) = brief.action {
                dt { "Action" }
                dd { (action.as_str()) @if let Some(url) = &brief.target_url { " " code { (url) } } }
            }
            @if let Some(words) = brief.word_count {
                dt { "Length" }
                dd { (format::count(words.min)) "–" (format::count(words.max)) " words, median " (format::count(words.median)) }
            }
        }
        @if let Some(wording) = &brief.wording {
            section.brief-wording aria-labelledby="for-the-writer" {
                h2 #for-the-writer { "For the writer" }
                dl.brief-facts {
                    dt { "Working title" }
                    dd { (wording.title) }
                    dt { "Meta description" }
                    dd { (wording.meta_description) }
                }
                p { (wording.summary) }
                p.muted { "Written by a language model from this brief's facts." }
            }
        }
        @if !brief.secondary_keywords.is_empty() {
            h2 { "Secondary keywords" }
            ul.columns { @for keyword in &brief.secondary_keywords {
                li { (keyword.keyword) " " span.muted { (format::volume(keyword.search_volume)) } }
            } }
        }
        h2 { "Outline" }
        @if brief.outline.is_empty() {
            p.muted { "No page could be read for an outline." }
        } @else {
            ol.outline { @for heading in &brief.outline {
                li.(if heading.level == 3 { "h3" } else { "h2" }) {
                    (heading.text) " " span.muted { "(" (heading.pages) " of the pages)" }
                }
            } }
        }
        @if !brief.questions.is_empty() {
            h2 { "Questions to answer" }
            ul { @for question in &brief.questions { li { (question) } } }
        }
        @if !brief.missing_terms.is_empty() {
            h2 { "Terms the ranking pages use" }
            p.terms { @for term in &brief.missing_terms { span.term { (term) } " " } }
        }
        @if !brief.internal_links.is_empty() {
            h2 { "Internal links" }
            ul { @for link in &brief.internal_links { li { (link.title) " " code { (link.url) } } } }
        }
        @if !brief.cited_pages.is_empty() {
            h2 { "Pages AI Overviews cite" }
            p.muted { "Competitors' pages Google's AI Overviews cite for this cluster's keywords, most cited first, and their headings." }
            ul.cited { @for page in &brief.cited_pages {
                li {
                    @if let Some(title) = &page.title { (title) " " }
                    code { (page.url) }
                    " " span.muted { "(" (page.competitor) ", cited for " (page.citations) " keyword" @if page.citations != 1 { "s" } ")" }
                    @if let Some(reason) = &page.skipped_because {
                        " — not read: " (reason)
                    } @else if !page.headings.is_empty() {
                        ul { @for heading in &page.headings { li { (heading) } } }
                    }
                }
            } }
        }
        h2 { "Pages read" }
        @if brief.sources.is_empty() {
            p.muted { "None: no page ranking for this cluster was found (offline, only competitors' pages whose title or heading names it are read)." }
        }
        ol.sources { @for source in &brief.sources {
            li {
                code { (source.url) }
                @match (&source.skipped_because, source.word_count) {
                    (Some(reason), _) => { " — skipped: " (reason) },
                    (None, Some(words)) => { " — " (format::count(words)) " words" },
                    (None, None) => {},
                }
            }
        } }
        p.muted.no-print { "Made " (brief.generated_at.format("%Y-%m-%d %H:%M UTC")) ". As data: " a href=(api) { "JSON" } " (Markdown with " code { "Accept: text/markdown" } ")." }
    }
}
