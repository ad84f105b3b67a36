use kr_core::dataset::{
    ClusterRecord, ClusterSearchConsole, KeywordRecord, Ranking, RankingKind, TopicRecord,
};

use super::compare::{compare, RunView};

const SITE: &str = "ridgeline-roofing.com";

/// A keyword with a measured volume, a cluster, and the site's position if any.
fn keyword(text: &str, volume: i64, cluster: &str, position: Option<u32>) -> KeywordRecord {
    KeywordRecord {
        keyword: text.into(),
        search_volume: Some(volume),
        metrics_source: "dataforseo".into(),
        cluster_id: cluster.into(),
        topic_id: Some(format!("t-{cluster}")),
        rankings: position
            .map(|position| Ranking {
                domain: format!("www.{SITE}"),
                position,
                url: format!("https://www.{SITE}/"),
                kind: RankingKind::Organic,
            })
            .into_iter()
            .collect(),
        ..KeywordRecord::default()
    }
}

fn cluster(id: &str, name: &str) -> ClusterRecord {
    ClusterRecord {
        id: id.into(),
        name: name.into(),
        ..ClusterRecord::default()
    }
}

fn topic(id: &str, name: &str) -> TopicRecord {
    TopicRecord {
        id: id.into(),
        name: name.into(),
        ..TopicRecord::default()
    }
}

fn run(keywords: Vec<KeywordRecord>, clusters: &[(&str, &str)]) -> RunView {
    let cluster_records: Vec<_> = clusters
        .iter()
        .map(|(id, name)| cluster(id, name))
        .collect();
    let topics: Vec<_> = clusters
        .iter()
        .map(|(id, name)| topic(&format!("t-{id}"), name))
        .collect();
    RunView::new(keywords.into_iter(), &cluster_records, &topics, SITE)
}

fn texts<T>(items: &[T], text: impl Fn(&T) -> &str) -> Vec<String> {
    items.iter().map(|item| text(item).to_string()).collect()
}

#[test]
fn new_and_lost_keywords_are_exactly_those_in_one_run_only() {
    let before = run(
        vec![
            keyword("roof repair", 1000, "c-1", None),
            keyword("gutter cleaning", 300, "c-2", None),
        ],
        &[("c-1", "roof repair"), ("c-2", "gutter cleaning")],
    );
    let now = run(
        vec![
            keyword("Roof  Repair", 1000, "c-1", None),
            keyword("skylight repair", 90, "c-3", None),
            keyword("metal roofing", 880, "c-4", None),
        ],
        &[
            ("c-1", "roof repair"),
            ("c-3", "skylight repair"),
            ("c-4", "metal roofing"),
        ],
    );
    let changes = compare(&now, &before);
    assert_eq!(
        texts(&changes.new_keywords, |k| &k.keyword),
        ["metal roofing", "skylight repair"],
        "by volume, highest first"
    );
    assert_eq!(
        texts(&changes.lost_keywords, |k| &k.keyword),
        ["gutter cleaning"]
    );
    assert_eq!(
        changes.kept_keywords, 1,
        "case and spacing aside, one keyword is kept"
    );
    assert_eq!(
        texts(&changes.new_clusters, |c| &c.name),
        ["metal roofing", "skylight repair"]
    );
    assert_eq!(
        texts(&changes.gone_clusters, |c| &c.name),
        ["gutter cleaning"]
    );
    assert_eq!(
        texts(&changes.gone_topics, |t| &t.name),
        ["gutter cleaning"]
    );
}

#[test]
fn volume_moves_need_a_fifth_and_ten_searches_and_estimates_are_never_compared() {
    let before = run(
        vec![
            keyword("a", 100, "c-1", None),
            keyword("b", 100, "c-1", None),
            keyword("c", 30, "c-1", None),
            keyword("d", 0, "c-1", None),
        ],
        &[("c-1", "a")],
    );
    let now = run(
        vec![
            keyword("a", 120, "c-1", None), // +20 %: a move
            keyword("b", 119, "c-1", None), // +19 %: none
            keyword("c", 39, "c-1", None),  // +30 % but 9 searches: none
            keyword("d", 10, "c-1", None),  // from nothing, 10 searches: a move
        ],
        &[("c-1", "a")],
    );
    let changes = compare(&now, &before);
    assert!(changes.volumes_compared);
    assert_eq!(texts(&changes.volume_moves, |m| &m.keyword), ["a", "d"]);
    assert_eq!(
        (changes.volume_moves[0].from, changes.volume_moves[0].to),
        (100, 120)
    );

    let mut estimated = keyword("a", 500, "c-1", None);
    estimated.metrics_source = "estimate".into();
    let now = run(vec![estimated], &[("c-1", "a")]);
    let changes = compare(&now, &before);
    assert!(!changes.volumes_compared);
    assert!(changes.volume_moves.is_empty());
}

#[test]
fn position_moves_count_an_unranked_side_as_101_and_sort_by_size() {
    let before = run(
        vec![
            keyword("up", 10, "c-1", Some(9)),
            keyword("down", 10, "c-1", Some(2)),
            keyword("entered", 10, "c-1", None),
            keyword("left", 10, "c-1", Some(40)),
            keyword("still", 10, "c-1", Some(5)),
        ],
        &[("c-1", "up")],
    );
    let now = run(
        vec![
            keyword("up", 10, "c-1", Some(3)),
            keyword("down", 10, "c-1", Some(7)),
            keyword("entered", 10, "c-1", Some(51)),
            keyword("left", 10, "c-1", None),
            keyword("still", 10, "c-1", Some(5)),
        ],
        &[("c-1", "up")],
    );
    let changes = compare(&now, &before);
    assert_eq!(
        texts(&changes.position_gains, |m| &m.keyword),
        ["entered", "up"]
    );
    assert_eq!(changes.position_gains[0].change, 50);
    assert_eq!(changes.position_gains[1].change, 6);
    assert_eq!(
        texts(&changes.position_losses, |m| &m.keyword),
        ["left", "down"]
    );
    assert_eq!(changes.position_losses[0].change, -61);
    assert_eq!(changes.position_losses[0].to, None);
    let cluster = &changes.cluster_moves[..];
    assert_eq!(
        cluster.len(),
        1,
        "the cluster's best position went from 2 to 3"
    );
    assert_eq!(
        (cluster[0].from, cluster[0].to, cluster[0].change),
        (Some(2), Some(3), -1)
    );
}

#[test]
fn a_cluster_continues_under_a_new_id_and_name_when_it_keeps_half_its_keywords() {
    let before = run(
        vec![
            keyword("roof repair", 100, "c-1", Some(12)),
            keyword("roof repairs", 50, "c-1", None),
            keyword("fix roof", 40, "c-1", None),
            keyword("roof leak", 40, "c-2", None),
        ],
        &[("c-1", "roof repair"), ("c-2", "roof leak")],
    );
    let now = run(
        vec![
            keyword("roof repair", 100, "c-7", Some(4)),
            keyword("roof repairs", 50, "c-7", None),
            keyword("roof repair cost", 40, "c-7", None),
            keyword("roof leak", 40, "c-9", None),
        ],
        &[("c-7", "repair roof"), ("c-9", "Roof Leak")],
    );
    let changes = compare(&now, &before);
    assert!(
        changes.new_clusters.is_empty(),
        "{:?}",
        changes.new_clusters
    );
    assert!(
        changes.gone_clusters.is_empty(),
        "{:?}",
        changes.gone_clusters
    );
    assert_eq!(changes.cluster_moves.len(), 1);
    let moved = &changes.cluster_moves[0];
    assert_eq!(
        (
            moved.cluster_id.as_str(),
            moved.previous_cluster_id.as_str()
        ),
        ("c-7", "c-1")
    );
    assert_eq!((moved.from, moved.to, moved.change), (Some(12), Some(4), 8));
}

#[test]
fn identical_runs_differ_in_nothing() {
    let records = || {
        vec![
            keyword("roof repair", 100, "c-1", Some(12)),
            keyword("gutter cleaning", 100, "c-2", None),
        ]
    };
    let clusters = [("c-1", "roof repair"), ("c-2", "gutter cleaning")];
    let changes = compare(&run(records(), &clusters), &run(records(), &clusters));
    let counts = changes.counts();
    assert_eq!(counts.kept_keywords, 2);
    assert_eq!(
        counts,
        super::ChangeCounts {
            kept_keywords: 2,
            ..Default::default()
        }
    );
}

/// `keyword` with Search Console figures: clicks, impressions, position.
fn measured(text: &str, cluster: &str, sc: (u64, u64, f64)) -> KeywordRecord {
    KeywordRecord {
        search_console: Some(kr_core::dataset::SearchConsoleMetrics {
            clicks: sc.0,
            impressions: sc.1,
            position: sc.2,
            ..Default::default()
        }),
        ..keyword(text, sc.1 as i64, cluster, None)
    }
}

#[test]
fn search_console_moves_compare_each_cluster_before_and_after_and_striking_distance() {
    let mut before = run(
        vec![
            measured("espresso machine maintenance", "c-1", (40, 900, 6.0)),
            measured("descale espresso machine", "c-1", (10, 100, 9.0)),
            measured("cold brew recipe", "c-2", (5, 300, 12.0)),
            measured("french press ratio", "c-3", (80, 1000, 2.5)),
            measured("gone query", "c-4", (1, 50, 15.0)),
            keyword("moka pot", 100, "c-5", None),
        ],
        &[
            ("c-1", "espresso machine maintenance"),
            ("c-2", "cold brew recipe"),
            ("c-3", "french press ratio"),
            ("c-4", "gone query"),
            ("c-5", "moka pot"),
        ],
    );
    // The earlier plan's baseline is what the cluster is measured against, whatever its
    // keywords sum to now.
    before.clusters[0].search_console_baseline = Some(ClusterSearchConsole {
        clicks: 50,
        impressions: 1000,
        position: 6.3,
    });
    before.clusters[0].action = Some(kr_core::dataset::ClusterAction::Consolidate);
    let now = run(
        vec![
            measured("espresso machine maintenance", "c-1", (90, 1400, 4.0)),
            measured("descale espresso machine", "c-1", (20, 200, 5.0)),
            measured("cold brew recipe", "c-2", (30, 500, 2.6)),
            measured("french press ratio", "c-3", (80, 1000, 2.5)),
            measured("new striking query", "c-6", (2, 40, 11.0)),
            keyword("moka pot", 100, "c-5", None),
        ],
        &[
            ("c-1", "espresso machine maintenance"),
            ("c-2", "cold brew recipe"),
            ("c-3", "french press ratio"),
            ("c-5", "moka pot"),
            ("c-6", "new striking query"),
        ],
    );
    let differences = compare(&now, &before);
    assert!(differences.search_console_compared);
    let moves: Vec<(&str, i64, i64, Option<f64>)> = differences
        .search_console_moves
        .iter()
        .map(|m| {
            (
                m.name.as_str(),
                m.clicks_change,
                m.impressions_change,
                m.position_change,
            )
        })
        .collect();
    assert_eq!(
        moves,
        [
            ("espresso machine maintenance", 60, 600, Some(2.17)),
            ("cold brew recipe", 25, 200, Some(9.4)),
            ("french press ratio", 0, 0, Some(0.0)),
        ],
        "largest click change first; the cluster without figures in either run is left out"
    );
    let espresso = &differences.search_console_moves[0];
    assert_eq!(espresso.before.unwrap().clicks, 50, "the stored baseline");
    assert_eq!(espresso.after.unwrap().clicks, 110);
    assert_eq!(
        espresso.after.unwrap().position,
        4.13,
        "(4 × 1400 + 5 × 200) / 1600"
    );
    assert_eq!(
        espresso.previous_action,
        Some(kr_core::dataset::ClusterAction::Consolidate)
    );

    let entered = texts(&differences.striking_distance_entered, |c| &c.keyword);
    let left = texts(&differences.striking_distance_left, |c| &c.keyword);
    assert_eq!(
        entered,
        ["new striking query"],
        "a keyword new to the job counts"
    );
    assert_eq!(
        left,
        ["cold brew recipe", "gone query"],
        "most impressions first: cold brew went up to 2.6 (300 then), gone query left the job"
    );
    assert_eq!(differences.counts().striking_distance_entered, 1);
    assert_eq!(differences.counts().striking_distance_left, 2);
    let new = &differences.striking_distance_entered[0];
    assert_eq!((new.from, new.to, new.impressions), (None, Some(11.0), 40));
}

#[test]
fn runs_without_search_console_compare_none_of_it() {
    let before = run(
        vec![keyword("roof repair", 1000, "c-1", Some(4))],
        &[("c-1", "roof repair")],
    );
    let now = run(
        vec![keyword("roof repair", 1000, "c-1", Some(3))],
        &[("c-1", "roof repair")],
    );
    let differences = compare(&now, &before);
    assert!(!differences.search_console_compared);
    assert!(differences.search_console_moves.is_empty());
    assert!(differences.striking_distance_entered.is_empty());
    assert_eq!(differences.search_console_totals, [None, None]);
}

mod history {
    use std::collections::HashMap;
    use std::sync::Mutex;

    use async_trait::async_trait;
    use chrono::Utc;
    use kr_core::dataset::{objects, stored, ResultsDataset, RunSummary, DATASET_FORMAT};
    use kr_core::domain::{
        DomainName, Job, JobId, JobStatus, LanguageCode, LocationCode, NewJob, UserId,
    };
    use kr_core::store::{put_json, ArtifactStore, StoreError};

    use super::super::{earlier_point, RunView, LEGACY_DECODES_PER_VIEW};
    use super::{keyword, SITE};
    use crate::{DatasetCache, IndexedDataset, Results};

    /// Objects in memory, counting the datasets read.
    #[derive(Default)]
    struct Objects {
        stored: Mutex<HashMap<(JobId, String), Vec<u8>>>,
        dataset_reads: Mutex<usize>,
    }

    #[async_trait]
    impl ArtifactStore for Objects {
        async fn put_artifact(
            &self,
            job: JobId,
            name: &str,
            bytes: Vec<u8>,
        ) -> Result<(), StoreError> {
            self.stored
                .lock()
                .unwrap()
                .insert((job, name.into()), bytes);
            Ok(())
        }

        async fn get_artifact(
            &self,
            job: JobId,
            name: &str,
        ) -> Result<Option<Vec<u8>>, StoreError> {
            if name == objects::stored_dataset() {
                *self.dataset_reads.lock().unwrap() += 1;
            }
            Ok(self
                .stored
                .lock()
                .unwrap()
                .get(&(job, name.to_string()))
                .cloned())
        }
    }

    fn completed_run() -> Job {
        let mut job = Job::queued(&NewJob {
            id: JobId::new(),
            owner: UserId::new(),
            primary_domain: DomainName::parse(SITE).unwrap(),
            competitor_domains: Vec::new(),
            language_code: LanguageCode::parse("en").unwrap(),
            location_code: LocationCode::parse(2840).unwrap(),
            created_at: Utc::now(),
            imported_keywords: 0,
            discover_keywords: true,
            callback_url: None,
            schedule_id: None,
            search_console_property: None,
        });
        job.status = JobStatus::Completed;
        job.completed_at = Some(Utc::now());
        job
    }

    async fn store_run(objects: &Objects, job: &Job, with_summary: bool) {
        let keywords = vec![keyword("roof repair", 500, "c-1", Some(4))];
        if with_summary {
            let summary = RunSummary::of(&keywords, SITE);
            put_json(objects, job.id, &objects::run_summary(), &summary)
                .await
                .unwrap();
        }
        let dataset = ResultsDataset {
            format: DATASET_FORMAT,
            job_id: job.id,
            keywords,
            clusters: Vec::new(),
            personas: Vec::new(),
            topics: Vec::new(),
        };
        objects
            .put_artifact(
                job.id,
                &objects::stored_dataset(),
                stored::encode(&dataset).unwrap(),
            )
            .await
            .unwrap();
    }

    fn view(dataset: &IndexedDataset) -> RunView {
        RunView::new(dataset.keywords(), &dataset.clusters, &dataset.topics, SITE)
    }

    #[tokio::test]
    async fn a_chart_of_many_runs_reads_their_summaries_and_decodes_at_most_a_bound_of_older_ones()
    {
        let objects = Objects::default();
        let cache = DatasetCache::new(8);
        let results = Results {
            cache: &cache,
            objects: &objects,
        };
        // Eleven earlier runs: six with a stored summary, five from before summaries.
        let mut runs = Vec::new();
        for index in 0..11 {
            let run = completed_run();
            store_run(&objects, &run, index % 2 == 0).await;
            runs.push(run);
        }
        let mut decodes_left = LEGACY_DECODES_PER_VIEW;
        let mut points = Vec::new();
        for run in &runs {
            points.extend(
                earlier_point(&results, run, &mut decodes_left, &view)
                    .await
                    .unwrap(),
            );
        }
        assert_eq!(
            *objects.dataset_reads.lock().unwrap(),
            LEGACY_DECODES_PER_VIEW
        );
        assert_eq!(points.len(), 6 + LEGACY_DECODES_PER_VIEW);
        let decoded = points
            .iter()
            .find(|p| p.job_id == runs[1].id)
            .expect("one older run decoded");
        let summarised = points.iter().find(|p| p.job_id == runs[0].id).unwrap();
        // Either way, the same figures.
        assert_eq!(
            (
                decoded.keyword_count,
                decoded.ranked_keywords,
                decoded.average_position,
                decoded.visible_volume
            ),
            (
                summarised.keyword_count,
                summarised.ranked_keywords,
                summarised.average_position,
                summarised.visible_volume
            ),
        );
        assert_eq!(summarised.visible_volume, 500);
    }
}
