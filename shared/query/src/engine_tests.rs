//! The engine's answers against the contract's rules applied record by record: every filter,
//! sort and page of a seeded dataset with unknown values, ties, non-ASCII text and SERPs.

use std::cmp::Ordering;

use kr_core::dataset::{
    ClusterRecord, ClusterSearchConsole, Intent, KeywordRecord, KeywordSource, ResultsDataset,
    SearchConsoleMetrics, SerpFeature, WeakSpot, WeakSpotKind, DATASET_FORMAT,
};
use kr_core::domain::JobId;
use kr_core::query_params::QueryParams;

use crate::{IndexedDataset, KeywordQuery, SortKey};

/// A fixed-seed generator: the same dataset on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % below
    }
}

fn dataset() -> ResultsDataset {
    let words = [
        "Kaffee",
        "coffee",
        "ÉSPRESSO",
        "grinder",
        "beans",
        "brew",
        "cold",
    ];
    let personas = [None, Some("Curious Casey"), Some("Décidé Dana")];
    let mut rng = Lcg(7);
    let keywords = (0..600)
        .map(|i| {
            let known = |rng: &mut Lcg| rng.next(5) != 0;
            let length = 1 + rng.next(3) as usize;
            let phrase: Vec<&str> = (0..length)
                .map(|_| words[rng.next(words.len() as u64) as usize])
                .collect();
            let with_serp = rng.next(3) == 0;
            let with_console = rng.next(2) == 0;
            KeywordRecord {
                id: format!("k-{}", i + 1),
                keyword: phrase.join(" "),
                search_volume: known(&mut rng).then(|| rng.next(4) as i64 * 100),
                cpc: known(&mut rng).then(|| rng.next(5) as f64 / 2.0),
                competition: known(&mut rng).then(|| rng.next(3) as f64 / 2.0),
                difficulty: known(&mut rng).then(|| rng.next(101) as i64),
                intent: Intent::ALL[rng.next(4) as usize],
                persona_avatar_name: personas[rng.next(3) as usize].map(str::to_string),
                cluster_id: format!("c-{}", rng.next(6)),
                organic_opportunity_score: rng.next(10) as f64 * 10.0,
                paid_opportunity_score: -(rng.next(3) as f64),
                opportunity_value: rng.next(1000) as f64 / 7.0,
                metrics_source: "estimate".into(),
                source: [None, Some(KeywordSource::Crawl), Some(KeywordSource::Idea)]
                    [rng.next(3) as usize],
                serp_features: with_serp.then(|| {
                    SerpFeature::ALL
                        .into_iter()
                        .filter(|_| rng.next(4) == 0)
                        .collect()
                }),
                weak_spots: with_serp.then(|| {
                    (0..rng.next(3) as u32)
                        .map(|n| WeakSpot {
                            position: n + 1,
                            url: format!("https://www.reddit.com/r/coffee/{i}/{n}/"),
                            site: "reddit.com".into(),
                            kind: WeakSpotKind::Forum,
                        })
                        .collect()
                }),
                search_console: with_console.then(|| {
                    let impressions = rng.next(4) * 7;
                    SearchConsoleMetrics {
                        clicks: rng.next(30),
                        impressions,
                        position: if impressions == 0 {
                            0.0
                        } else {
                            1.0 + rng.next(50) as f64 / 2.0
                        },
                        previous_clicks: rng.next(40),
                        ..SearchConsoleMetrics::default()
                    }
                }),
                ..KeywordRecord::default()
            }
        })
        .collect();
    ResultsDataset {
        format: DATASET_FORMAT,
        job_id: JobId::new(),
        keywords,
        clusters: vec![],
        personas: vec![],
        topics: vec![],
    }
}

/// The contract's order: `None` last both ways, ties by keyword then id ascending.
fn reference_order(key: SortKey, a: &KeywordRecord, b: &KeywordRecord, desc: bool) -> Ordering {
    fn by<T: PartialOrd>(a: Option<T>, b: Option<T>, desc: bool) -> Ordering {
        match (a, b) {
            (Some(a), Some(b)) => {
                let order = a.partial_cmp(&b).unwrap();
                if desc {
                    order.reverse()
                } else {
                    order
                }
            }
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        }
    }
    let primary = match key {
        SortKey::Keyword => by(Some(&a.keyword), Some(&b.keyword), desc),
        SortKey::SearchVolume => by(a.search_volume, b.search_volume, desc),
        SortKey::Cpc => by(a.cpc, b.cpc, desc),
        SortKey::Competition => by(a.competition, b.competition, desc),
        SortKey::Difficulty => by(a.difficulty, b.difficulty, desc),
        SortKey::Intent => by(Some(a.intent.as_str()), Some(b.intent.as_str()), desc),
        SortKey::OrganicOpportunityScore => by(
            Some(a.organic_opportunity_score),
            Some(b.organic_opportunity_score),
            desc,
        ),
        SortKey::PaidOpportunityScore => by(
            Some(a.paid_opportunity_score),
            Some(b.paid_opportunity_score),
            desc,
        ),
        SortKey::OpportunityValue => by(Some(a.opportunity_value), Some(b.opportunity_value), desc),
        SortKey::Impressions => by(
            console(a).map(|c| c.impressions),
            console(b).map(|c| c.impressions),
            desc,
        ),
        SortKey::Clicks => by(
            console(a).map(|c| c.clicks),
            console(b).map(|c| c.clicks),
            desc,
        ),
        SortKey::Position => by(position(a), position(b), desc),
    };
    primary
        .then_with(|| a.keyword.cmp(&b.keyword))
        .then_with(|| a.id.cmp(&b.id))
}

fn console(keyword: &KeywordRecord) -> Option<&SearchConsoleMetrics> {
    keyword.search_console.as_ref()
}

/// A Search Console position, known only with impressions.
fn position(keyword: &KeywordRecord) -> Option<f64> {
    console(keyword)
        .filter(|c| c.impressions > 0)
        .map(|c| c.position)
}

/// The contract's Search Console rules, written out: striking distance is a position of 4 to
/// 20 with 10 impressions or more; decay is 30 % of the clicks lost from 20 or more.
fn console_admits(params: &QueryParams, keyword: &KeywordRecord) -> bool {
    let flag = |name: &str| params.value(name).map(|v| v == "true");
    let striking =
        |c: &SearchConsoleMetrics| c.impressions >= 10 && c.position >= 4.0 && c.position <= 20.0;
    let decaying = |c: &SearchConsoleMetrics| {
        c.previous_clicks >= 20 && c.clicks * 10 <= c.previous_clicks * 7
    };
    let wants = |wanted: Option<bool>, test: &dyn Fn(&SearchConsoleMetrics) -> bool| {
        wanted.is_none_or(|wanted| console(keyword).is_some_and(|c| test(c) == wanted))
    };
    wants(flag("strikingDistance"), &striking)
        && wants(flag("decaying"), &decaying)
        && params.value("minImpressions").is_none_or(|min| {
            console(keyword).is_some_and(|c| c.impressions >= min.parse().unwrap())
        })
        && params
            .value("maxPosition")
            .is_none_or(|max| position(keyword).is_some_and(|p| p <= max.parse().unwrap()))
}

fn admits(raw: &str, keyword: &KeywordRecord) -> bool {
    let params = QueryParams::parse(raw).unwrap();
    let value = |name: &str| params.value(name).map(|v| v.to_lowercase());
    let list =
        |name: &str| value(name).map(|v| v.split(',').map(str::to_string).collect::<Vec<_>>());
    let range = |min: &str, max: &str, of: Option<f64>| {
        let (min, max) = (value(min), value(max));
        if min.is_none() && max.is_none() {
            return true;
        }
        of.is_some_and(|v| {
            min.is_none_or(|m| v >= m.parse().unwrap())
                && max.is_none_or(|m| v <= m.parse().unwrap())
        })
    };
    console_admits(&params, keyword)
        && value("search").is_none_or(|s| keyword.keyword.to_lowercase().contains(&s))
        && list("intent").is_none_or(|i| i.contains(&keyword.intent.as_str().to_string()))
        && list("source").is_none_or(|s| {
            keyword
                .source
                .is_some_and(|source| s.contains(&source.as_str().to_string()))
        })
        && list("personaAvatarNames").is_none_or(|names| match &keyword.persona_avatar_name {
            Some(name) => names.contains(&name.to_lowercase()),
            None => names.iter().any(|n| n == crate::NO_PERSONA),
        })
        && list("serpFeature").is_none_or(|wanted| {
            keyword.serp_features.as_ref().is_some_and(|shown| {
                shown
                    .iter()
                    .any(|f| wanted.contains(&f.as_str().to_string()))
            })
        })
        && value("minWeakSpots").is_none_or(|min| {
            keyword
                .weak_spots
                .as_ref()
                .is_some_and(|spots| spots.len() >= min.parse().unwrap())
        })
        && range(
            "minVolume",
            "maxVolume",
            keyword.search_volume.map(|v| v as f64),
        )
        && range(
            "minDifficulty",
            "maxDifficulty",
            keyword.difficulty.map(|v| v as f64),
        )
        && range("minCpc", "maxCpc", keyword.cpc)
        && range(
            "minPaidOpportunityScore",
            "maxPaidOpportunityScore",
            Some(keyword.paid_opportunity_score),
        )
}

const QUERIES: [&str; 22] = [
    "",
    "sortBy=keyword&sortOrder=asc&limit=500",
    "sortBy=keyword&limit=37&offset=11",
    "sortBy=searchVolume&limit=500",
    "sortBy=searchVolume&sortOrder=asc&limit=500",
    "sortBy=cpc&minCpc=0.5&maxCpc=1.5&limit=500",
    "sortBy=intent&sortOrder=asc&intent=commercial,navigational&limit=500",
    "sortBy=difficulty&minDifficulty=20&offset=40&limit=30",
    "search=espresso&sortBy=paidOpportunityScore&limit=500",
    "search=kaffee%20cold&limit=500",
    "search=ee%0Ac&limit=500",
    "personaAvatarNames=__none__,d%C3%A9cid%C3%A9%20dana&sortBy=opportunityValue&limit=500",
    "serpFeature=people_also_ask,video&minWeakSpots=1&sortBy=competition&limit=500",
    "source=idea&minVolume=100&maxVolume=200&sortBy=organicOpportunityScore&sortOrder=asc&limit=500",
    "strikingDistance=true&sortBy=impressions&limit=500",
    "strikingDistance=false&sortBy=clicks&sortOrder=asc&limit=500",
    "decaying=true&sortBy=position&sortOrder=asc&limit=500",
    "decaying=false&minImpressions=7&sortBy=position&limit=500",
    "minImpressions=0&maxPosition=10.5&sortBy=impressions&sortOrder=asc&limit=500",
    "sortBy=impressions&limit=500",
    "sortBy=position&sortOrder=asc&limit=40&offset=20",
    "sortBy=clicks&search=coffee&limit=500",
];

#[test]
fn every_page_is_the_contracts_rules_applied_record_by_record() {
    let dataset = dataset();
    let engine = IndexedDataset::from_dataset(&dataset).unwrap();
    for raw in QUERIES {
        let query = KeywordQuery::parse(&QueryParams::parse(raw).unwrap()).unwrap();
        let mut expected: Vec<&KeywordRecord> =
            dataset.keywords.iter().filter(|k| admits(raw, k)).collect();
        expected.sort_by(|a, b| reference_order(query.sort, a, b, query.descending));
        let page = engine.query(&query);
        assert_eq!(page.total, expected.len(), "{raw}: total");
        let wanted: Vec<&str> = expected
            .iter()
            .skip(query.offset as usize)
            .take(query.limit as usize)
            .map(|k| k.id.as_str())
            .collect();
        let answered: Vec<&str> = page.keywords.iter().map(|k| k.id.as_str()).collect();
        assert_eq!(answered, wanted, "{raw}");
        assert!(page.keywords.iter().all(|k| dataset.keywords.contains(k)));
    }
}

#[test]
fn cluster_keywords_and_heads_follow_the_records() {
    let dataset = dataset();
    let engine = IndexedDataset::from_dataset(&dataset).unwrap();
    use kr_core::dataset::JobResults;
    let members: Vec<KeywordRecord> = dataset
        .keywords
        .iter()
        .filter(|k| k.cluster_id == "c-2")
        .cloned()
        .collect();
    assert_eq!(engine.cluster_keywords("c-2"), members);
    assert!(engine.cluster_keywords("c-99").is_empty());
    let heads = engine.cluster_heads(&["c-2", "c-99"], SortKey::SearchVolume, true, 3);
    let mut by_volume = members.clone();
    by_volume.sort_by(|a, b| reference_order(SortKey::SearchVolume, a, b, true));
    assert_eq!(heads[0], by_volume[..3]);
    assert!(heads[1].is_empty());
    assert_eq!(engine.estimated_count(), dataset.keywords.len());
}

/// A keyword with Search Console figures: `position` over the last 28 days with
/// `impressions`, and `previous` clicks before `clicks`.
fn with_console(
    id: &str,
    cluster: &str,
    position: f64,
    impressions: u64,
    clicks: u64,
    previous: u64,
) -> KeywordRecord {
    KeywordRecord {
        id: id.into(),
        keyword: id.into(),
        cluster_id: cluster.into(),
        metrics_source: "estimate".into(),
        search_console: Some(SearchConsoleMetrics {
            clicks,
            impressions,
            ctr: 0.0,
            position,
            previous_clicks: previous,
            ..SearchConsoleMetrics::default()
        }),
        ..KeywordRecord::default()
    }
}

fn boundaries() -> ResultsDataset {
    let keywords = vec![
        with_console("at-4", "c-a", 4.0, 10, 1, 1),
        with_console("at-20", "c-a", 20.0, 100, 5, 5),
        with_console("at-3.9", "c-a", 3.9, 100, 50, 50),
        with_console("at-20.1", "c-b", 20.1, 100, 0, 0),
        with_console("impressions-9", "c-b", 10.0, 9, 0, 0),
        with_console("no-impressions", "c-b", 0.0, 0, 0, 25),
        with_console("down-30-from-20", "c-b", 2.0, 300, 14, 20),
        with_console("down-25-from-20", "c-b", 2.0, 300, 15, 20),
        with_console("down-all-from-19", "c-b", 2.0, 300, 0, 19),
        KeywordRecord {
            id: "no-data".into(),
            keyword: "no-data".into(),
            cluster_id: "c-c".into(),
            metrics_source: "estimate".into(),
            ..KeywordRecord::default()
        },
    ];
    let cluster = |id: &str| ClusterRecord {
        id: id.into(),
        name: id.into(),
        ..ClusterRecord::default()
    };
    ResultsDataset {
        format: DATASET_FORMAT,
        job_id: JobId::new(),
        keywords,
        clusters: vec![cluster("c-a"), cluster("c-b"), cluster("c-c")],
        personas: vec![],
        topics: vec![],
    }
}

fn ids(engine: &IndexedDataset, raw: &str) -> Vec<String> {
    let query = KeywordQuery::parse(&QueryParams::parse(raw).unwrap()).unwrap();
    engine
        .query(&query)
        .keywords
        .into_iter()
        .map(|k| k.id)
        .collect()
}

fn refused(raw: &str) -> String {
    KeywordQuery::parse(&QueryParams::parse(raw).unwrap())
        .unwrap_err()
        .field
}

#[test]
fn striking_distance_is_positions_4_to_20_with_10_impressions() {
    let engine = IndexedDataset::from_dataset(&boundaries()).unwrap();
    assert_eq!(
        ids(
            &engine,
            "strikingDistance=true&sortBy=keyword&sortOrder=asc"
        ),
        ["at-20", "at-4"]
    );
    // `false`: with data and not in it; `no-data` never matches.
    assert_eq!(
        ids(
            &engine,
            "strikingDistance=FALSE&sortBy=keyword&sortOrder=asc"
        ),
        [
            "at-20.1",
            "at-3.9",
            "down-25-from-20",
            "down-30-from-20",
            "down-all-from-19",
            "impressions-9",
            "no-impressions"
        ]
    );
}

#[test]
fn decay_is_30_percent_lost_from_20_clicks() {
    let engine = IndexedDataset::from_dataset(&boundaries()).unwrap();
    // Exactly 30 % lost from 20 is decaying, 25 % is not, all lost from 19 is not; all lost
    // from 25 is, impressions or not.
    assert_eq!(
        ids(&engine, "decaying=true&sortBy=keyword&sortOrder=asc"),
        ["down-30-from-20", "no-impressions"]
    );
    let not = ids(&engine, "decaying=false&limit=500");
    assert_eq!(not.len(), 7);
    assert!(not.contains(&"down-25-from-20".to_string()));
    assert!(not.contains(&"down-all-from-19".to_string()));
    assert!(!not.contains(&"no-data".to_string()));
}

#[test]
fn impressions_and_position_bounds_need_search_console_data() {
    let engine = IndexedDataset::from_dataset(&boundaries()).unwrap();
    let sorted = |raw: &str| {
        let mut found = ids(&engine, raw);
        found.sort();
        found
    };
    assert_eq!(
        sorted("minImpressions=0").len(),
        9,
        "every keyword with data"
    );
    assert_eq!(
        sorted("minImpressions=10&maxImpressions=x&maxPosition=4"),
        [
            "at-3.9",
            "at-4",
            "down-25-from-20",
            "down-30-from-20",
            "down-all-from-19"
        ]
    );
    assert_eq!(
        sorted("minImpressions=100&maxPosition=20"),
        [
            "at-20",
            "at-3.9",
            "down-25-from-20",
            "down-30-from-20",
            "down-all-from-19"
        ]
    );
    // No impressions, no position: `maxPosition` never admits it.
    assert!(!sorted("maxPosition=1000").contains(&"no-impressions".to_string()));
}

#[test]
fn search_console_sorts_put_keywords_without_data_last_both_ways() {
    let engine = IndexedDataset::from_dataset(&boundaries()).unwrap();
    for order in ["asc", "desc"] {
        let by_impressions = ids(&engine, &format!("sortBy=impressions&sortOrder={order}"));
        assert_eq!(by_impressions.last().unwrap(), "no-data", "{order}");
        let by_position = ids(&engine, &format!("sortBy=position&sortOrder={order}"));
        assert_eq!(by_position[8..], ["no-data", "no-impressions"], "{order}");
    }
    let by_position = ids(&engine, "sortBy=position&sortOrder=asc");
    assert_eq!(
        by_position[..3],
        ["down-25-from-20", "down-30-from-20", "down-all-from-19"]
    );
    assert_eq!(by_position[3..5], ["at-3.9", "at-4"]);
    let by_clicks = ids(&engine, "sortBy=clicks");
    assert_eq!(by_clicks[0], "at-3.9");
}

#[test]
fn bad_search_console_values_are_refused_naming_the_parameter() {
    for (raw, field) in [
        ("strikingDistance=yes", "strikingDistance"),
        ("strikingDistance=", "strikingDistance"),
        ("decaying=1", "decaying"),
        ("minImpressions=-1", "minImpressions"),
        ("minImpressions=1.5", "minImpressions"),
        ("minImpressions=many", "minImpressions"),
        ("maxPosition=0.5", "maxPosition"),
        ("maxPosition=abc", "maxPosition"),
        ("maxPosition=NaN", "maxPosition"),
        ("sortBy=ctr", "sortBy"),
    ] {
        assert_eq!(refused(raw), field, "{raw}");
    }
}

#[test]
fn clusters_sum_their_keywords_figures() {
    let engine = IndexedDataset::from_dataset(&boundaries()).unwrap();
    let of = |id: &str| {
        engine
            .clusters
            .iter()
            .find(|c| c.id == id)
            .unwrap()
            .search_console
    };
    // (4 × 10 + 20 × 100 + 3.9 × 100) / 210
    assert_eq!(
        of("c-a"),
        Some(ClusterSearchConsole {
            clicks: 56,
            impressions: 210,
            position: 11.57,
        })
    );
    let b = of("c-b").unwrap();
    assert_eq!((b.clicks, b.impressions), (29, 1009));
    // Without impressions a keyword weighs nothing: (20.1 × 100 + 10 × 9 + 2 × 900) / 1009.
    assert_eq!(b.position, 3.87);
    assert_eq!(of("c-c"), None, "no keyword with data");
}
