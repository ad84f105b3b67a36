//! The comparison of two runs' records: keywords new and lost, volume and position moves,
//! clusters and topics matched by the keywords they hold.

use std::collections::{BTreeSet, HashMap, HashSet};

use kr_core::dataset::{
    compared_keyword, ClusterRecord, ClusterSearchConsole, KeywordRecord, RunSummary, TopicRecord,
};

use super::ai_citations::{AiCitationChange, AnswerSeen};
use super::{
    ChangeCounts, ClusterChange, ClusterMove, KeywordChange, PositionMove, SearchConsoleFigures,
    SearchConsoleMove, StrikingDistanceChange, TopicChange, VolumeMove,
};

/// A volume move counts when it is at least this share of the earlier volume…
pub const VOLUME_MOVE_SHARE: f64 = 0.2;
/// …and at least this many searches a month.
pub const VOLUME_MOVE_MIN: i64 = 10;
/// Where an unranked keyword stands when a position move is measured: below the top 100.
const UNRANKED: i64 = 101;

/// What one run says of a keyword.
#[derive(Debug, Clone)]
pub(crate) struct Seen {
    pub keyword: String,
    pub volume: Option<i64>,
    pub estimate: bool,
    pub position: Option<u32>,
    pub cluster_id: String,
    pub topic_id: Option<String>,
    /// Its Search Console figures over the last 28 days of data, when the run has them.
    pub search_console: Option<MeasuredSeen>,
    /// The registrable domains its AI Overview cites (empty without an overview); `None`
    /// when its results page was not read.
    pub ai_cited: Option<BTreeSet<String>>,
}

/// What one run's Search Console says of a keyword.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MeasuredSeen {
    pub clicks: u64,
    pub impressions: u64,
    pub position: f64,
    /// [`kr_core::dataset::SearchConsoleMetrics::in_striking_distance`].
    pub striking: bool,
}

/// One run's records as compared: keywords by their compared form, clusters and topics.
#[derive(Debug, Default)]
pub(crate) struct RunView {
    pub keywords: HashMap<String, Seen>,
    pub clusters: Vec<ClusterRecord>,
    pub topics: Vec<TopicRecord>,
    /// What answer engines said to the run's questions (none when it asked none).
    pub answers: Vec<AnswerSeen>,
}

impl RunView {
    pub fn new(
        keywords: impl Iterator<Item = KeywordRecord>,
        clusters: &[ClusterRecord],
        topics: &[TopicRecord],
        primary_domain: &str,
    ) -> Self {
        let keywords = keywords
            .map(|record| {
                let seen = Seen {
                    position: record.organic_position(primary_domain),
                    search_console: record.search_console.as_ref().map(|sc| MeasuredSeen {
                        clicks: sc.clicks,
                        impressions: sc.impressions,
                        position: sc.position,
                        striking: sc.in_striking_distance(),
                    }),
                    ai_cited: record
                        .ai_overview
                        .as_ref()
                        .map(|overview| overview.cited_domains.iter().cloned().collect()),
                    volume: record.search_volume,
                    estimate: record.is_estimate(),
                    cluster_id: record.cluster_id,
                    topic_id: record.topic_id,
                    keyword: record.keyword,
                };
                (compared_keyword(&seen.keyword), seen)
            })
            .collect();
        Self {
            keywords,
            clusters: clusters.to_vec(),
            topics: topics.to_vec(),
            answers: Vec::new(),
        }
    }

    /// What the history plots for this run.
    pub fn summary(&self) -> RunSummary {
        RunSummary::tally(
            self.keywords.len(),
            self.keywords.values().map(|k| (k.position, k.volume)),
        )
    }

    /// Whether any keyword of the run has Search Console figures.
    pub fn has_search_console(&self) -> bool {
        self.keywords.values().any(|k| k.search_console.is_some())
    }

    /// A cluster's Search Console figures: the baseline its plan recorded, else (results
    /// computed before baselines were recorded) its keywords' figures summed the same way.
    fn cluster_figures(
        &self,
        cluster: &ClusterRecord,
        keys: Option<&Vec<&str>>,
    ) -> Option<ClusterSearchConsole> {
        cluster.search_console_baseline.or_else(|| {
            ClusterSearchConsole::sum(
                keys.into_iter()
                    .flatten()
                    .filter_map(|key| self.keywords[*key].search_console)
                    .map(|sc| (sc.clicks, sc.impressions, sc.position)),
            )
        })
    }

    /// Compared keywords per group (cluster or topic id).
    fn members(&self, group_of: impl Fn(&Seen) -> Option<&str>) -> HashMap<String, Vec<&str>> {
        let mut members: HashMap<String, Vec<&str>> = HashMap::new();
        for (key, seen) in &self.keywords {
            if let Some(group) = group_of(seen) {
                members.entry(group.to_string()).or_default().push(key);
            }
        }
        members
    }
}

/// Everything the two runs differ in, each list whole and in its order.
#[derive(Debug, Default)]
pub(crate) struct Differences {
    pub new_keywords: Vec<KeywordChange>,
    pub lost_keywords: Vec<KeywordChange>,
    pub kept_keywords: usize,
    pub volume_moves: Vec<VolumeMove>,
    pub volumes_compared: bool,
    pub position_gains: Vec<PositionMove>,
    pub position_losses: Vec<PositionMove>,
    pub cluster_moves: Vec<ClusterMove>,
    pub new_clusters: Vec<ClusterChange>,
    pub gone_clusters: Vec<ClusterChange>,
    pub new_topics: Vec<TopicChange>,
    pub gone_topics: Vec<TopicChange>,
    /// Either run has Search Console figures.
    pub search_console_compared: bool,
    /// Each run's keywords' clicks and impressions summed (`None`: no figures in that run).
    pub search_console_totals: [Option<(u64, u64)>; 2],
    pub search_console_moves: Vec<SearchConsoleMove>,
    pub striking_distance_entered: Vec<StrikingDistanceChange>,
    pub striking_distance_left: Vec<StrikingDistanceChange>,
    /// A keyword's AI Overview was read, or a question answered, in both runs.
    pub ai_citations_compared: bool,
    pub ai_citations_gained: Vec<AiCitationChange>,
    pub ai_citations_lost: Vec<AiCitationChange>,
}

impl Differences {
    pub fn counts(&self) -> ChangeCounts {
        ChangeCounts {
            new_keywords: self.new_keywords.len(),
            lost_keywords: self.lost_keywords.len(),
            kept_keywords: self.kept_keywords,
            volume_moves: self.volume_moves.len(),
            position_gains: self.position_gains.len(),
            position_losses: self.position_losses.len(),
            cluster_moves: self.cluster_moves.len(),
            new_clusters: self.new_clusters.len(),
            gone_clusters: self.gone_clusters.len(),
            new_topics: self.new_topics.len(),
            gone_topics: self.gone_topics.len(),
            search_console_moves: self.search_console_moves.len(),
            striking_distance_entered: self.striking_distance_entered.len(),
            striking_distance_left: self.striking_distance_left.len(),
            ai_citations_gained: self.ai_citations_gained.len(),
            ai_citations_lost: self.ai_citations_lost.len(),
        }
    }
}

pub(crate) fn compare(current: &RunView, previous: &RunView) -> Differences {
    let mut out = Differences {
        // Estimates move with the rest of the crawl, not with the market: never compared.
        volumes_compared: current.keywords.values().any(|k| !k.estimate)
            && previous.keywords.values().any(|k| !k.estimate),
        ..Differences::default()
    };
    for (key, now) in &current.keywords {
        match previous.keywords.get(key) {
            None => out.new_keywords.push(keyword_change(now)),
            Some(before) => {
                out.kept_keywords += 1;
                if let Some(moved) = volume_move(before, now) {
                    out.volume_moves.push(moved);
                }
                if let Some(moved) = position_move(&now.keyword, before.position, now.position) {
                    if moved.change > 0 {
                        out.position_gains.push(moved);
                    } else {
                        out.position_losses.push(moved);
                    }
                }
            }
        }
    }
    out.lost_keywords = previous
        .keywords
        .iter()
        .filter(|(key, _)| !current.keywords.contains_key(*key))
        .map(|(_, seen)| keyword_change(seen))
        .collect();
    sort_by_volume(&mut out.new_keywords);
    sort_by_volume(&mut out.lost_keywords);
    out.volume_moves.sort_by(|a, b| {
        b.change
            .abs()
            .cmp(&a.change.abs())
            .then_with(|| a.keyword.cmp(&b.keyword))
    });
    out.position_gains.sort_by(|a, b| {
        b.change
            .cmp(&a.change)
            .then_with(|| a.keyword.cmp(&b.keyword))
    });
    out.position_losses.sort_by(|a, b| {
        a.change
            .cmp(&b.change)
            .then_with(|| a.keyword.cmp(&b.keyword))
    });
    compare_clusters(current, previous, &mut out);
    compare_topics(current, previous, &mut out);
    compare_striking_distance(current, previous, &mut out);
    out
}

/// Each run's keywords' clicks and impressions summed; `None` without figures.
fn search_console_total(view: &RunView) -> Option<(u64, u64)> {
    view.keywords
        .values()
        .filter_map(|k| k.search_console)
        .fold(None, |total, sc| {
            let (clicks, impressions) = total.unwrap_or((0, 0));
            Some((clicks + sc.clicks, impressions + sc.impressions))
        })
}

/// The keywords of either run that entered striking distance (in it now, not before: a
/// keyword new to the job counts) or left it (in it before, not now: a lost keyword counts),
/// most impressions first (this run's for entries, the earlier one's for exits).
fn compare_striking_distance(current: &RunView, previous: &RunView, out: &mut Differences) {
    out.search_console_compared = current.has_search_console() || previous.has_search_console();
    out.search_console_totals = [
        search_console_total(current),
        search_console_total(previous),
    ];
    if !out.search_console_compared {
        return;
    }
    let striking = |seen: Option<&Seen>| {
        seen.and_then(|k| k.search_console)
            .is_some_and(|sc| sc.striking)
    };
    let change = |key: &str, keyword: &str, impressions: u64| {
        let position = |view: &RunView| {
            view.keywords
                .get(key)
                .and_then(|k| k.search_console)
                .filter(|sc| sc.impressions > 0)
                .map(|sc| sc.position)
        };
        StrikingDistanceChange {
            keyword: keyword.to_string(),
            from: position(previous),
            to: position(current),
            impressions,
        }
    };
    for (key, now) in &current.keywords {
        let before = previous.keywords.get(key);
        if striking(Some(now)) && !striking(before) {
            let impressions = now.search_console.map_or(0, |sc| sc.impressions);
            out.striking_distance_entered
                .push(change(key, &now.keyword, impressions));
        }
    }
    for (key, before) in &previous.keywords {
        let now = current.keywords.get(key);
        if striking(Some(before)) && !striking(now) {
            let impressions = before.search_console.map_or(0, |sc| sc.impressions);
            let keyword = now.map_or(&before.keyword, |k| &k.keyword);
            out.striking_distance_left
                .push(change(key, keyword, impressions));
        }
    }
    for list in [
        &mut out.striking_distance_entered,
        &mut out.striking_distance_left,
    ] {
        list.sort_by(|a, b| {
            b.impressions
                .cmp(&a.impressions)
                .then_with(|| a.keyword.cmp(&b.keyword))
        });
    }
}

fn figures(sc: Option<ClusterSearchConsole>) -> Option<SearchConsoleFigures> {
    sc.map(|sc| SearchConsoleFigures {
        clicks: sc.clicks,
        impressions: sc.impressions,
        position: sc.position,
    })
}

/// A continued cluster's Search Console figures in both runs, when either has them.
fn search_console_move(
    cluster: &ClusterRecord,
    earlier: &ClusterRecord,
    after: Option<ClusterSearchConsole>,
    before: Option<ClusterSearchConsole>,
) -> Option<SearchConsoleMove> {
    if after.is_none() && before.is_none() {
        return None;
    }
    let of = |sc: Option<ClusterSearchConsole>| sc.unwrap_or_default();
    let (a, b) = (of(after), of(before));
    let position =
        |sc: Option<ClusterSearchConsole>| sc.filter(|sc| sc.impressions > 0).map(|sc| sc.position);
    let position_change = position(before)
        .zip(position(after))
        .map(|(from, to)| ((from - to) * 100.0).round() / 100.0);
    Some(SearchConsoleMove {
        cluster_id: cluster.id.clone(),
        previous_cluster_id: earlier.id.clone(),
        name: cluster.name.clone(),
        previous_action: earlier.action,
        previous_target_url: earlier.target_url.clone(),
        before: figures(before),
        after: figures(after),
        clicks_change: a.clicks as i64 - b.clicks as i64,
        impressions_change: a.impressions as i64 - b.impressions as i64,
        position_change,
    })
}

fn keyword_change(seen: &Seen) -> KeywordChange {
    KeywordChange {
        keyword: seen.keyword.clone(),
        search_volume: seen.volume,
        position: seen.position,
    }
}

fn sort_by_volume(changes: &mut [KeywordChange]) {
    changes.sort_by(|a, b| {
        b.search_volume
            .unwrap_or(-1)
            .cmp(&a.search_volume.unwrap_or(-1))
            .then_with(|| a.keyword.cmp(&b.keyword))
    });
}

fn volume_move(before: &Seen, now: &Seen) -> Option<VolumeMove> {
    if before.estimate || now.estimate {
        return None;
    }
    let (from, to) = (before.volume?, now.volume?);
    let change = to - from;
    let large = change.abs() >= VOLUME_MOVE_MIN
        && (from == 0 || change.abs() as f64 >= VOLUME_MOVE_SHARE * from as f64);
    large.then(|| VolumeMove {
        keyword: now.keyword.clone(),
        from,
        to,
        change,
    })
}

/// A move of the site's position; `change` is positive when it went up (a smaller number),
/// an unranked side standing at 101.
fn position_move(keyword: &str, from: Option<u32>, to: Option<u32>) -> Option<PositionMove> {
    let rank = |p: Option<u32>| p.map_or(UNRANKED, i64::from);
    (from != to).then(|| PositionMove {
        keyword: keyword.to_string(),
        from,
        to,
        change: rank(from) - rank(to),
    })
}

/// Per group of `current`, the group of `previous` it continues: the one holding the most of
/// its keywords when that is at least half of the smaller group, else one of the same name
/// (case aside). Groups are given as (id, name).
fn match_groups<'a>(
    current: &HashMap<String, Vec<&str>>,
    previous: &HashMap<String, Vec<&str>>,
    current_names: impl Iterator<Item = (&'a str, &'a str)>,
    previous_names: impl Iterator<Item = (&'a str, &'a str)>,
) -> HashMap<String, String> {
    let previous_by_name: HashMap<String, &str> = previous_names
        .map(|(id, name)| (name.to_lowercase(), id))
        .collect();
    let mut group_of_keyword: HashMap<&str, &str> = HashMap::new();
    for (group, keys) in previous {
        for key in keys {
            group_of_keyword.insert(key, group);
        }
    }
    let mut matched = HashMap::new();
    for (group, name) in current_names {
        let keys = current.get(group).map(Vec::as_slice).unwrap_or_default();
        let mut overlap: HashMap<&str, usize> = HashMap::new();
        for key in keys {
            if let Some(&before) = group_of_keyword.get(key) {
                *overlap.entry(before).or_default() += 1;
            }
        }
        let by_keywords = overlap
            .into_iter()
            .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(a.0)))
            .filter(|(before, shared)| 2 * shared >= keys.len().min(previous[*before].len()))
            .map(|(before, _)| before);
        let by_name = || previous_by_name.get(&name.to_lowercase()).copied();
        if let Some(before) = by_keywords.or_else(by_name) {
            matched.insert(group.to_string(), before.to_string());
        }
    }
    matched
}

fn compare_clusters(current: &RunView, previous: &RunView, out: &mut Differences) {
    let now = current.members(|k| Some(&k.cluster_id));
    let before = previous.members(|k| Some(&k.cluster_id));
    let matched = match_groups(
        &now,
        &before,
        current
            .clusters
            .iter()
            .map(|c| (c.id.as_str(), c.name.as_str())),
        previous
            .clusters
            .iter()
            .map(|c| (c.id.as_str(), c.name.as_str())),
    );
    let best_position = |view: &RunView, keys: Option<&Vec<&str>>| {
        keys.into_iter()
            .flatten()
            .filter_map(|key| view.keywords[*key].position)
            .min()
    };
    let previous_by_id: HashMap<&str, &ClusterRecord> = previous
        .clusters
        .iter()
        .map(|c| (c.id.as_str(), c))
        .collect();
    for cluster in &current.clusters {
        match matched.get(&cluster.id) {
            None => out.new_clusters.push(cluster_change(cluster)),
            Some(earlier) => {
                if let Some(&earlier_record) = previous_by_id.get(earlier.as_str()) {
                    let after = current.cluster_figures(cluster, now.get(&cluster.id));
                    let before = previous.cluster_figures(earlier_record, before.get(earlier));
                    out.search_console_moves.extend(search_console_move(
                        cluster,
                        earlier_record,
                        after,
                        before,
                    ));
                }
                let from = best_position(previous, before.get(earlier));
                let to = best_position(current, now.get(&cluster.id));
                if let Some(moved) = position_move(&cluster.name, from, to) {
                    out.cluster_moves.push(ClusterMove {
                        cluster_id: cluster.id.clone(),
                        previous_cluster_id: earlier.clone(),
                        name: cluster.name.clone(),
                        from: moved.from,
                        to: moved.to,
                        change: moved.change,
                    });
                }
            }
        }
    }
    let continued: HashSet<&String> = matched.values().collect();
    out.gone_clusters = previous
        .clusters
        .iter()
        .filter(|c| !continued.contains(&c.id))
        .map(cluster_change)
        .collect();
    for list in [&mut out.new_clusters, &mut out.gone_clusters] {
        list.sort_by(|a, b| {
            b.total_search_volume
                .cmp(&a.total_search_volume)
                .then_with(|| a.name.cmp(&b.name))
        });
    }
    out.cluster_moves.sort_by(|a, b| {
        b.change
            .abs()
            .cmp(&a.change.abs())
            .then_with(|| a.name.cmp(&b.name))
    });
    // The top movers: the largest click changes, then impressions.
    out.search_console_moves.sort_by(|a, b| {
        b.clicks_change
            .abs()
            .cmp(&a.clicks_change.abs())
            .then_with(|| b.impressions_change.abs().cmp(&a.impressions_change.abs()))
            .then_with(|| a.name.cmp(&b.name))
    });
}

fn cluster_change(cluster: &ClusterRecord) -> ClusterChange {
    ClusterChange {
        id: cluster.id.clone(),
        name: cluster.name.clone(),
        keyword_count: cluster.keyword_count,
        total_search_volume: cluster.total_search_volume,
    }
}

fn compare_topics(current: &RunView, previous: &RunView, out: &mut Differences) {
    let now = current.members(|k| k.topic_id.as_deref());
    let before = previous.members(|k| k.topic_id.as_deref());
    let matched = match_groups(
        &now,
        &before,
        current
            .topics
            .iter()
            .map(|t| (t.id.as_str(), t.name.as_str())),
        previous
            .topics
            .iter()
            .map(|t| (t.id.as_str(), t.name.as_str())),
    );
    let topic_change = |topic: &TopicRecord| TopicChange {
        id: topic.id.clone(),
        name: topic.name.clone(),
        cluster_count: topic.cluster_count,
        total_search_volume: topic.total_search_volume,
    };
    out.new_topics = current
        .topics
        .iter()
        .filter(|t| !matched.contains_key(&t.id))
        .map(topic_change)
        .collect();
    let continued: HashSet<&String> = matched.values().collect();
    out.gone_topics = previous
        .topics
        .iter()
        .filter(|t| !continued.contains(&t.id))
        .map(topic_change)
        .collect();
    for list in [&mut out.new_topics, &mut out.gone_topics] {
        list.sort_by(|a, b| {
            b.total_search_volume
                .cmp(&a.total_search_volume)
                .then_with(|| a.name.cmp(&b.name))
        });
    }
}
