//! The one paragraph that says what moved between two runs.

use kr_core::domain::Job;

use super::compare::{Differences, VOLUME_MOVE_SHARE};
use super::RunPoint;

fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

fn date(run: &RunPoint) -> String {
    run.completed_at
        .map(|at| at.format("%Y-%m-%d").to_string())
        .unwrap_or_else(|| "an earlier date".into())
}

fn position(run: &RunPoint) -> String {
    run.average_position
        .map_or_else(|| "none".into(), |p| format!("{p:.1}"))
}

pub(crate) fn not_completed() -> String {
    "The job has not completed: its changes are compared once it has.".into()
}

pub(crate) fn no_baseline(job: &Job) -> String {
    format!(
        "This is the first completed run of {} in this market ({}): there is nothing earlier to compare with.",
        job.primary_domain,
        kr_core::locales::market_name(&job.language_code, job.location_code)
    )
}

pub(crate) fn paragraph(differences: &Differences, since: &RunPoint, now: &RunPoint) -> String {
    let counts = differences.counts();
    let mut sentences = vec![format!(
        "Since the run of {} ({} then, {} now), {} appeared and {} dropped out.",
        date(since),
        plural(since.keyword_count, "keyword", "keywords"),
        now.keyword_count,
        plural(counts.new_keywords, "keyword", "keywords"),
        counts.lost_keywords,
    )];
    sentences.push(if differences.volumes_compared {
        format!(
            "{} moved in monthly volume by {:.0} % or more.",
            plural(counts.volume_moves, "keyword", "keywords"),
            VOLUME_MOVE_SHARE * 100.0
        )
    } else {
        "Volumes are estimates in at least one run, so they are not compared.".into()
    });
    sentences.push(if since.ranked_keywords + now.ranked_keywords == 0 {
        "The site's positions are not measured in either run (no ranking data).".into()
    } else {
        format!(
            "The site ranks for {} (was {}) at an average position of {} (was {}); {} moved up and {} down.",
            plural(now.ranked_keywords, "keyword", "keywords"),
            since.ranked_keywords,
            position(now),
            position(since),
            counts.position_gains,
            counts.position_losses,
        )
    });
    if differences.search_console_compared {
        sentences.push(search_console_sentence(differences));
    }
    if differences.ai_citations_compared {
        sentences.push(ai_citations_sentence(differences));
    }
    sentences.push(format!(
        "{} and {} are new; {} and {} are gone.",
        plural(counts.new_clusters, "cluster", "clusters"),
        plural(counts.new_topics, "topic", "topics"),
        plural(counts.gone_clusters, "cluster", "clusters"),
        plural(counts.gone_topics, "topic", "topics"),
    ));
    sentences.join(" ")
}

/// The Search Console sentence: both runs' clicks and impressions over their keywords, the
/// clusters compared and the keywords in and out of striking distance.
fn search_console_sentence(differences: &Differences) -> String {
    let counts = differences.counts();
    let [now, before] = differences.search_console_totals;
    let side = |total: Option<(u64, u64)>| match total {
        Some((clicks, impressions)) => format!(
            "{} and {}",
            plural(clicks as usize, "click", "clicks"),
            plural(impressions as usize, "impression", "impressions")
        ),
        None => "no data".to_string(),
    };
    format!(
        "Search Console: the keywords had {} over the last 28 days of data (was {}); {} with data compared; {} entered striking distance (positions 4 to 20) and {} left it.",
        side(now),
        side(before),
        plural(counts.search_console_moves, "cluster", "clusters"),
        plural(counts.striking_distance_entered, "keyword", "keywords"),
        counts.striking_distance_left,
    )
}

/// The AI citations sentence: the site's citations gained and lost, then its competitors'.
fn ai_citations_sentence(differences: &Differences) -> String {
    let count = |list: &[super::AiCitationChange], site: bool| {
        list.iter().filter(|c| c.site == site).count()
    };
    let (gained, lost) = (
        &differences.ai_citations_gained,
        &differences.ai_citations_lost,
    );
    format!(
        "AI citations (AI Overviews and answers): the site gained {} and lost {}; its competitors gained {} and lost {}.",
        count(gained, true),
        count(lost, true),
        count(gained, false),
        count(lost, false),
    )
}
