//! AI Overviews in the results engine: the `aiOverview` keyword filter, the clusters' and
//! topics' `aiShareOfVoice` and `earnCitation` computed on load, and the `aiShare` sorts.

use kr_core::dataset::{
    AiOverview, AiReference, ClusterRecord, KeywordRecord, ResultsDataset, TopicRecord,
    DATASET_FORMAT,
};
use kr_core::domain::JobId;
use kr_core::query_params::QueryParams;

use crate::{ClusterQuery, IndexedDataset, KeywordQuery, TopicQuery};

const SITE: &str = "brightbrew-coffee.com";
const COMPETITORS: [&str; 2] = ["beanhub.com", "roastery.co.uk"];

/// A keyword of `cluster` whose SERP cited `urls` (`None`: no SERP; `Some([])`: a SERP
/// without an overview is `absent`, so the overview is given as `Some(Some(urls))`).
fn keyword(id: &str, cluster: &str, serp: Option<Option<&[&str]>>) -> KeywordRecord {
    let overview = serp.map(|shown| {
        let references: Option<Vec<AiReference>> = shown.map(|urls| {
            urls.iter()
                .map(|url| AiReference::new(url, None, None).unwrap())
                .collect()
        });
        AiOverview::from_serp(references.as_deref(), SITE, &COMPETITORS)
    });
    KeywordRecord {
        id: id.into(),
        keyword: format!("keyword {id}"),
        cluster_id: cluster.into(),
        ai_overview: overview,
        ..KeywordRecord::default()
    }
}

fn cluster(id: &str, topic: &str) -> ClusterRecord {
    ClusterRecord {
        id: id.into(),
        name: id.into(),
        topic_id: Some(topic.into()),
        ..ClusterRecord::default()
    }
}

fn topic(id: &str) -> TopicRecord {
    TopicRecord {
        id: id.into(),
        name: id.into(),
        ..TopicRecord::default()
    }
}

fn dataset() -> ResultsDataset {
    let site = "https://blog.brightbrew-coffee.com/cold-brew";
    let beanhub = "https://www.beanhub.com/guide";
    let news = "https://news.example.org/";
    ResultsDataset {
        format: DATASET_FORMAT,
        job_id: JobId::new(),
        keywords: vec![
            // c-cited: one of two overviews cites the site.
            keyword("k-1", "c-cited", Some(Some(&[site, beanhub]))),
            keyword("k-2", "c-cited", Some(Some(&[news]))),
            keyword("k-3", "c-cited", Some(None)),
            // c-earn: the competitor is cited, the site never.
            keyword("k-4", "c-earn", Some(Some(&[beanhub]))),
            keyword("k-5", "c-earn", Some(Some(&[news]))),
            keyword("k-6", "c-earn", None),
            // c-none: SERPs without overviews, and no SERP.
            keyword("k-7", "c-none", Some(None)),
            keyword("k-8", "c-none", None),
        ],
        clusters: vec![
            cluster("c-cited", "t-coffee"),
            cluster("c-earn", "t-coffee"),
            cluster("c-none", "t-other"),
        ],
        personas: vec![],
        topics: vec![topic("t-coffee"), topic("t-other")],
    }
}

fn engine() -> IndexedDataset {
    let competitors: Vec<String> = COMPETITORS.iter().map(|c| c.to_string()).collect();
    IndexedDataset::for_job(
        kr_core::dataset::stored::DatasetBytes::from_dataset(&dataset()).unwrap(),
        &competitors,
    )
}

fn params(raw: &str) -> QueryParams {
    QueryParams::parse(raw).unwrap()
}

fn ids(engine: &IndexedDataset, raw: &str) -> Vec<String> {
    let query = KeywordQuery::parse(&params(&format!("{raw}&sortBy=keyword&sortOrder=asc")));
    let mut found: Vec<String> = engine
        .query(&query.unwrap())
        .keywords
        .into_iter()
        .map(|k| k.id)
        .collect();
    found.sort();
    found
}

#[test]
fn the_filter_answers_each_value_and_any_of_a_list() {
    let engine = engine();
    assert_eq!(
        ids(&engine, "aiOverview=present"),
        ["k-1", "k-2", "k-4", "k-5"]
    );
    assert_eq!(ids(&engine, "aiOverview=absent"), ["k-3", "k-7"]);
    assert_eq!(ids(&engine, "aiOverview=cites_site"), ["k-1"]);
    assert_eq!(ids(&engine, "aiOverview=cites_competitor"), ["k-1", "k-4"]);
    assert_eq!(
        ids(&engine, "aiOverview=CITES_SITE, absent,"),
        ["k-1", "k-3", "k-7"]
    );
    // Keywords without a SERP (k-6, k-8) match no value.
    assert_eq!(ids(&engine, "aiOverview=present,absent").len(), 6);
}

#[test]
fn the_filter_applies_within_a_cluster() {
    let engine = engine();
    let query = KeywordQuery::parse(&params("aiOverview=cites_competitor"))
        .unwrap()
        .in_cluster("c-earn");
    let found: Vec<String> = engine
        .query(&query)
        .keywords
        .into_iter()
        .map(|k| k.id)
        .collect();
    assert_eq!(found, ["k-4"]);
}

#[test]
fn an_unknown_value_is_refused_naming_the_field() {
    for raw in [
        "aiOverview=cited",
        "aiOverview=present,maybe",
        "aiOverview=null",
    ] {
        let refused = KeywordQuery::parse(&params(raw)).unwrap_err();
        assert_eq!(refused.field, "aiOverview", "{raw}");
    }
}

#[test]
fn clusters_and_topics_carry_the_share_of_voice_and_the_citation_to_earn() {
    let engine = engine();
    let of = |id: &str| engine.clusters.iter().find(|c| c.id == id).unwrap().clone();
    let cited = of("c-cited");
    let share = cited.ai_share_of_voice.unwrap();
    assert_eq!((share.overviews, share.site), (2, 0.5));
    assert_eq!(share.competitors["beanhub.com"], 0.5);
    assert_eq!(
        share.competitors["roastery.co.uk"], 0.0,
        "every competitor listed"
    );
    assert!(!cited.earn_citation);
    let earn = of("c-earn");
    assert_eq!(earn.ai_share_of_voice.as_ref().unwrap().site, 0.0);
    assert!(earn.earn_citation);
    let none = of("c-none");
    assert_eq!((none.ai_share_of_voice, none.earn_citation), (None, false));

    let coffee = engine.topics.iter().find(|t| t.id == "t-coffee").unwrap();
    let share = coffee.ai_share_of_voice.as_ref().unwrap();
    assert_eq!((share.overviews, share.site), (4, 0.25));
    assert_eq!(share.competitors["beanhub.com"], 0.5);
    let other = engine.topics.iter().find(|t| t.id == "t-other").unwrap();
    assert_eq!(other.ai_share_of_voice, None);
}

#[test]
fn read_without_its_job_the_share_lists_the_competitors_cited() {
    let engine = IndexedDataset::from_dataset(&dataset()).unwrap();
    let cluster = engine.clusters.iter().find(|c| c.id == "c-cited").unwrap();
    let share = cluster.ai_share_of_voice.as_ref().unwrap();
    assert_eq!(
        share.competitors.keys().collect::<Vec<_>>(),
        ["beanhub.com"]
    );
}

#[test]
fn ai_share_sorts_put_clusters_and_topics_without_overviews_last_both_ways() {
    let engine = engine();
    for (order, expected) in [
        ("desc", ["c-cited", "c-earn", "c-none"]),
        ("asc", ["c-earn", "c-cited", "c-none"]),
    ] {
        let query = ClusterQuery::parse(&params(&format!("sortBy=aiShare&sortOrder={order}")));
        let (page, _) = query.unwrap().page(&engine).unwrap();
        let found: Vec<&str> = page.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(found, expected, "{order}");
    }
    for order in ["asc", "desc"] {
        let query = TopicQuery::parse(&params(&format!("sortBy=aiShare&sortOrder={order}")));
        let (page, _) = query.unwrap().page(&engine.topics);
        let found: Vec<&str> = page.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(found, ["t-coffee", "t-other"], "{order}");
    }
}
