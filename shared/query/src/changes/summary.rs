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
    sentences.push(format!(
        "{} and {} are new; {} and {} are gone.",
        plural(counts.new_clusters, "cluster", "clusters"),
        plural(counts.new_topics, "topic", "topics"),
        plural(counts.gone_clusters, "cluster", "clusters"),
        plural(counts.gone_topics, "topic", "topics"),
    ));
    sentences.join(" ")
}
