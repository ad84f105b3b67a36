//! The engine's answers against the contract's rules applied record by record: every filter,
//! sort and page of a seeded dataset with unknown values, ties, non-ASCII text and SERPs.

use std::cmp::Ordering;

use kr_core::dataset::{
    Intent, KeywordRecord, KeywordSource, ResultsDataset, SerpFeature, WeakSpot, WeakSpotKind,
    DATASET_FORMAT,
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
    };
    primary
        .then_with(|| a.keyword.cmp(&b.keyword))
        .then_with(|| a.id.cmp(&b.id))
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
    value("search").is_none_or(|s| keyword.keyword.to_lowercase().contains(&s))
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

const QUERIES: [&str; 14] = [
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
