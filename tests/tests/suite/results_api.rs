//! The results function against the emulator: every keyword filter, bound and sort, paging
//! that covers every keyword once, clusters, personas, references, and access.

use std::collections::HashSet;
use std::sync::Arc;

use axum::Router;
use kr_aws::dynamo::DynamoStore;
use kr_aws::s3::S3ObjectStore;
use kr_core::dataset::{
    objects, KeywordSource, Reference, ResultsDataset, SerpFeature, DATASET_FORMAT,
};
use kr_core::domain::Job;
use kr_core::domain::{JobId, JobStatus};
use kr_core::store::{put_json, ArtifactStore, User};
use kr_research::intent::Intent;
use kr_research::personas::Persona;
use kr_research::research::{ClusterRecord, KeywordRecord};
use kr_results::{router, ResultsState};
use kr_tests::harness::{self, Call};
use serde_json::{json, Value};

fn keyword(i: usize, text: &str) -> KeywordRecord {
    let intents = [
        Intent::Informational,
        Intent::Commercial,
        Intent::Transactional,
        Intent::Navigational,
    ];
    KeywordRecord {
        id: format!("k-{i}"),
        keyword: text.to_string(),
        search_volume: (!i.is_multiple_of(7)).then_some((i as i64 * 37) % 1000),
        cpc: (!i.is_multiple_of(5)).then_some(((i * 13) % 40) as f64 / 10.0),
        competition: (!i.is_multiple_of(6)).then_some(((i * 7) % 10) as f64 / 10.0),
        difficulty: (!i.is_multiple_of(4)).then_some((i as i64 * 11) % 101),
        intent: intents[i % 4],
        secondary_intents: Vec::new(),
        persona_avatar_name: match i % 3 {
            0 => None,
            1 => Some("Curious Casey".into()),
            _ => Some("Decisive Dana".into()),
        },
        cluster_id: format!("c-{}", i % 4),
        cluster_name: format!("cluster {}", i % 4),
        organic_opportunity_score: ((i * 17) % 100) as f64,
        paid_opportunity_score: ((i * 29) % 100) as f64,
        opportunity_value: ((i * 31) % 500) as f64,
        monthly_searches: vec![],
        metrics_source: "estimate".into(),
        rankings: vec![],
        content_gap: i.is_multiple_of(2),
        source: Some(if i.is_multiple_of(3) {
            KeywordSource::Imported
        } else {
            KeywordSource::Crawl
        }),
        topic_id: None,
        ..serp_page(i)
    }
}

/// Every fifth keyword has no SERP (null fields); the others cycle through features and have
/// `i % 3` weak spots.
fn serp_page(i: usize) -> KeywordRecord {
    if i.is_multiple_of(5) {
        return KeywordRecord::default();
    }
    let features = match i % 4 {
        0 => vec![],
        1 => vec![SerpFeature::PeopleAlsoAsk],
        2 => vec![SerpFeature::LocalPack, SerpFeature::Video],
        _ => vec![SerpFeature::AiOverview, SerpFeature::PeopleAlsoAsk],
    };
    let questions = if features.contains(&SerpFeature::PeopleAlsoAsk) {
        vec![format!("What is coffee topic {i}?")]
    } else {
        vec![]
    };
    KeywordRecord {
        serp_features: Some(features),
        people_also_ask: Some(questions),
        weak_spots: Some(harness::reddit_weak_spots(i, i % 3)),
        ..KeywordRecord::default()
    }
}

fn dataset(job: JobId) -> ResultsDataset {
    let mut keywords: Vec<KeywordRecord> = (0..120)
        .map(|i| keyword(i, &format!("coffee topic {i}")))
        .collect();
    keywords.push(keyword(120, "Straße café Grinder"));
    keywords.push(keyword(121, "=HYPERLINK(\"evil\")"));
    keywords.push(keyword(122, "beans, \"fresh\"\nroasted"));
    // Identical sort values and keywords: only the id breaks the tie.
    let mut twin = keyword(123, "twin keyword");
    twin.organic_opportunity_score = 50.0;
    let mut other_twin = twin.clone();
    other_twin.id = "k-124".into();
    keywords.push(twin);
    keywords.push(other_twin);
    let clusters = (0..4)
        .map(|c| ClusterRecord {
            id: format!("c-{c}"),
            name: format!("cluster {c}"),
            primary_keyword: format!("coffee topic {c}"),
            keyword_count: keywords
                .iter()
                .filter(|k| k.cluster_id == format!("c-{c}"))
                .count(),
            total_search_volume: (c as i64 + 1) * 1000,
            avg_difficulty: (c != 3).then_some(c as f64 * 10.0),
            avg_cpc: Some(1.0),
            dominant_intent: Intent::Informational,
            organic_opportunity_score: c as f64,
            paid_opportunity_score: 1.0,
            opportunity_value: 10.0 * c as f64,
            ..ClusterRecord::default()
        })
        .collect();
    let persona = |name: &str| Persona {
        id: format!("p-{name}"),
        avatar_name: name.into(),
        title: "t".into(),
        description: "d".into(),
        goals: vec!["g".into()],
        pain_points: vec!["p".into()],
        keyword_count: 1,
        top_keywords: vec!["coffee topic 1".into()],
    };
    ResultsDataset {
        format: DATASET_FORMAT,
        job_id: job,
        keywords,
        clusters,
        personas: vec![persona("Curious Casey"), persona("Decisive Dana")],
        topics: Vec::new(),
    }
}

struct Fixture {
    app: Router,
    export: Router,
    store: Arc<DynamoStore>,
    owner: User,
    key: String,
    job: Job,
}

async fn stored_job(store: &DynamoStore, owner: &User, status: JobStatus) -> Job {
    let job = harness::job_record(owner.id, status, "example.com", &["rival.com"]);
    store.import_jobs(std::slice::from_ref(&job)).await.unwrap();
    job
}

async fn fixture(demo: bool) -> Fixture {
    let store = harness::store().await;
    let (owner, key) = harness::new_user_with_key(&store).await;
    let mut config = harness::config();
    config.demo_user_id = demo.then(|| owner.id.as_uuid());
    let clients = harness::clients().await;
    let results = S3ObjectStore::new(
        clients.s3.clone(),
        harness::resources().results_bucket.clone(),
    );
    let job = stored_job(&store, &owner, JobStatus::Completed).await;
    let data = dataset(job.id);
    let mut csv = Vec::new();
    kr_core::dataset::export::write_csv(&data, &mut csv).unwrap();
    results
        .put_artifact(job.id, &objects::export(), csv)
        .await
        .unwrap();
    // As the pipeline stores it; `a_job_stored_as_json_only_reads_the_same` has the older form.
    kr_core::store::put_dataset(&results, &data).await.unwrap();
    let references = vec![Some(Reference {
        url: "https://example.com/".into(),
        title: Some("Example".into()),
        description: None,
        image_url: None,
        link: None,
    })];
    put_json(&results, job.id, objects::REFERENCES, &references)
        .await
        .unwrap();
    let export = kr_export::router(
        kr_export::ExportState::from_config(config.clone(), harness::resources()).await,
    );
    let app = router(ResultsState::from_config(config, harness::resources()).await);
    Fixture {
        app,
        export,
        store,
        owner,
        key: key.expose().to_string(),
        job,
    }
}

impl Fixture {
    async fn keywords(&self, query: &str) -> Value {
        let reply = Call::get(&format!("/api/v1/jobs/{}/keywords{query}", self.job.id))
            .api_key(&self.key)
            .send(&self.app)
            .await;
        assert_eq!(reply.status, 200, "{query}: {}", reply.text);
        reply.json
    }

    async fn bad(&self, query: &str) -> Vec<String> {
        let reply = Call::get(&format!("/api/v1/jobs/{}/keywords{query}", self.job.id))
            .api_key(&self.key)
            .send(&self.app)
            .await
            .expect(400);
        reply.invalid_fields()
    }
}

fn ids(page: &Value) -> Vec<String> {
    page["keywords"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["id"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn defaults_and_the_record_shape() {
    let f = fixture(false).await;
    let page = f.keywords("").await;
    assert_eq!(
        (
            page["total"].as_u64(),
            page["limit"].as_u64(),
            page["offset"].as_u64()
        ),
        (Some(125), Some(50), Some(0))
    );
    let first = &page["keywords"][0];
    for field in [
        "id",
        "keyword",
        "searchVolume",
        "cpc",
        "competition",
        "difficulty",
        "intent",
        "personaAvatarName",
        "clusterId",
        "clusterName",
        "organicOpportunityScore",
        "paidOpportunityScore",
        "opportunityValue",
        "monthlySearches",
        "metricsSource",
        "rankings",
        "serpFeatures",
        "peopleAlsoAsk",
        "weakSpots",
    ] {
        assert!(first.get(field).is_some(), "{field} present: {first}");
    }
    // Without a SERP the three are null; with one, lists.
    let all = f.keywords("?limit=500").await;
    let by_id = |id: &str| {
        all["keywords"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["id"] == id)
            .unwrap()
            .clone()
    };
    let without = by_id("k-10");
    for field in ["serpFeatures", "peopleAlsoAsk", "weakSpots"] {
        assert!(without[field].is_null(), "{field}: {without}");
    }
    let with = by_id("k-11");
    assert_eq!(
        with["serpFeatures"],
        json!(["ai_overview", "people_also_ask"])
    );
    assert_eq!(with["peopleAlsoAsk"], json!(["What is coffee topic 11?"]));
    assert_eq!(
        with["weakSpots"],
        json!([
            {"position": 2, "url": "https://www.reddit.com/r/coffee/comments/11/0/", "site": "reddit.com", "kind": "forum"},
            {"position": 5, "url": "https://www.reddit.com/r/coffee/comments/11/1/", "site": "reddit.com", "kind": "forum"}
        ])
    );
    let scores: Vec<f64> = page["keywords"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["organicOpportunityScore"].as_f64().unwrap())
        .collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "default sort is organicOpportunityScore desc"
    );
}

/// The keyword's SERP shows one of `wanted`; never without a SERP.
fn shows(keyword: &KeywordRecord, wanted: &[SerpFeature]) -> bool {
    keyword
        .serp_features
        .as_ref()
        .is_some_and(|shown| shown.iter().any(|f| wanted.contains(f)))
}

#[tokio::test]
async fn each_filter_alone_and_combined() {
    let f = fixture(false).await;
    let data = dataset(f.job.id).keywords;
    let expect =
        |pred: &dyn Fn(&KeywordRecord) -> bool| data.iter().filter(|k| pred(k)).count() as u64;
    let cases: Vec<(&str, u64)> = vec![
        ("?search=COFFEE%20TOPIC%201", expect(&|k| k.keyword.contains("coffee topic 1"))),
        ("?search=stra%C3%9Fe", 1),
        ("?search=CAF%C3%89", 1),
        ("?intent=commercial,Transactional", expect(&|k| matches!(k.intent, Intent::Commercial | Intent::Transactional))),
        ("?source=imported", expect(&|k| k.source == Some(KeywordSource::Imported))),
        ("?source=Crawl,%20idea", expect(&|k| k.source == Some(KeywordSource::Crawl))),
        ("?minVolume=100&maxVolume=500", expect(&|k| k.search_volume.is_some_and(|v| (100..=500).contains(&v)))),
        ("?minDifficulty=50", expect(&|k| k.difficulty.is_some_and(|v| v >= 50))),
        ("?maxDifficulty=0", expect(&|k| k.difficulty == Some(0))),
        ("?minCpc=1.5&maxCpc=2", expect(&|k| k.cpc.is_some_and(|v| (1.5..=2.0).contains(&v)))),
        ("?minCompetition=0.5", expect(&|k| k.competition.is_some_and(|v| v >= 0.5))),
        ("?minOrganicOpportunityScore=90", expect(&|k| k.organic_opportunity_score >= 90.0)),
        ("?maxPaidOpportunityScore=10", expect(&|k| k.paid_opportunity_score <= 10.0)),
        ("?minOpportunityValue=400", expect(&|k| k.opportunity_value >= 400.0)),
        ("?personaAvatarNames=curious%20casey", expect(&|k| k.persona_avatar_name.as_deref() == Some("Curious Casey"))),
        ("?personaAvatarNames=__none__", expect(&|k| k.persona_avatar_name.is_none())),
        ("?serpFeature=people_also_ask", expect(&|k| shows(k, &[SerpFeature::PeopleAlsoAsk]))),
        ("?serpFeature=Local_Pack,%20ai_overview", expect(&|k| shows(k, &[SerpFeature::LocalPack, SerpFeature::AiOverview]))),
        ("?minWeakSpots=0", expect(&|k| k.weak_spots.is_some())),
        ("?minWeakSpots=2", expect(&|k| k.weak_spots.as_ref().is_some_and(|w| w.len() >= 2))),
        ("?minWeakSpots=1&serpFeature=video", expect(&|k| shows(k, &[SerpFeature::Video]) && k.weak_spots.as_ref().is_some_and(|w| !w.is_empty()))),
        ("?personaAvatarNames=__none__,Decisive%20Dana", expect(&|k| k.persona_avatar_name.as_deref() != Some("Curious Casey"))),
        (
            "?intent=informational&minVolume=1&personaAvatarNames=Curious%20Casey&minCompetition=0.1",
            expect(&|k| {
                k.intent == Intent::Informational
                    && k.search_volume.is_some_and(|v| v >= 1)
                    && k.persona_avatar_name.as_deref() == Some("Curious Casey")
                    && k.competition.is_some_and(|c| c >= 0.1)
            }),
        ),
    ];
    for (query, expected) in cases {
        assert_eq!(
            f.keywords(query).await["total"].as_u64(),
            Some(expected),
            "{query}"
        );
    }
}

#[tokio::test]
async fn every_sort_key_in_both_directions_puts_nulls_last() {
    let f = fixture(false).await;
    for key in [
        "keyword",
        "searchVolume",
        "volume",
        "cpc",
        "competition",
        "difficulty",
        "intent",
        "organicOpportunityScore",
        "paidOpportunityScore",
        "opportunityValue",
    ] {
        for order in ["asc", "desc"] {
            let page = f
                .keywords(&format!("?sortBy={key}&sortOrder={order}&limit=500"))
                .await;
            let field = if key == "volume" { "searchVolume" } else { key };
            let values: Vec<&Value> = page["keywords"]
                .as_array()
                .unwrap()
                .iter()
                .map(|k| &k[field])
                .collect();
            assert_eq!(values.len(), 125);
            let first_null = values
                .iter()
                .position(|v| v.is_null())
                .unwrap_or(values.len());
            assert!(
                values[first_null..].iter().all(|v| v.is_null()),
                "{key} {order}: nulls last"
            );
            let present = &values[..first_null];
            let ordered = present.windows(2).all(|w| {
                let cmp = match (w[0].as_f64(), w[1].as_f64()) {
                    (Some(a), Some(b)) => a.partial_cmp(&b).unwrap(),
                    _ => w[0].as_str().unwrap().cmp(w[1].as_str().unwrap()),
                };
                if order == "asc" {
                    cmp.is_le()
                } else {
                    cmp.is_ge()
                }
            });
            assert!(ordered, "{key} {order}");
        }
    }
    let ties = f
        .keywords("?search=twin&sortBy=organicOpportunityScore")
        .await;
    assert_eq!(
        ids(&ties),
        ["k-123", "k-124"],
        "ties break by keyword then id"
    );
}

#[tokio::test]
async fn pages_cover_every_keyword_exactly_once() {
    let f = fixture(false).await;
    for (query, limit) in [
        ("sortBy=keyword&sortOrder=asc", 7),
        ("sortBy=searchVolume", 13),
        ("sortBy=cpc&sortOrder=asc", 50),
        ("intent=commercial&sortBy=difficulty", 3),
    ] {
        let total = f.keywords(&format!("?{query}&limit=1")).await["total"]
            .as_u64()
            .unwrap() as usize;
        let mut seen = Vec::new();
        let mut offset = 0;
        while offset < total + limit {
            let page = f
                .keywords(&format!("?{query}&limit={limit}&offset={offset}"))
                .await;
            seen.extend(ids(&page));
            offset += limit;
        }
        let unique: HashSet<&String> = seen.iter().collect();
        assert_eq!((seen.len(), unique.len()), (total, total), "{query}");
    }
}

/// Jobs completed before the stored binary form have only the JSON dataset: they answer every
/// page exactly as a job stored the new way does.
#[tokio::test]
async fn a_job_stored_as_json_only_reads_the_same() {
    let f = fixture(false).await;
    let clients = harness::clients().await;
    let bucket = harness::resources().results_bucket;
    let old = stored_job(&f.store, &f.owner, JobStatus::Completed).await;
    let results = S3ObjectStore::new(clients.s3.clone(), bucket.clone());
    put_json(&results, old.id, &objects::json_dataset(), &dataset(old.id))
        .await
        .unwrap();
    let stored = clients
        .s3
        .list_objects_v2()
        .bucket(&bucket)
        .prefix(format!("jobs/{}/", old.id))
        .send()
        .await
        .unwrap();
    let names: Vec<&str> = stored.contents().iter().filter_map(|o| o.key()).collect();
    assert_eq!(names.len(), 1, "{names:?}");
    for query in [
        "",
        "?sortBy=keyword&sortOrder=asc&limit=500",
        "?search=espresso&sortBy=cpc",
        "?intent=commercial&minVolume=100&sortBy=searchVolume&offset=1&limit=3",
        "?serpFeature=people_also_ask&minWeakSpots=1",
    ] {
        let reply =
            |job: JobId| Call::get(&format!("/api/v1/jobs/{job}/keywords{query}")).api_key(&f.key);
        let new = reply(f.job.id).send(&f.app).await;
        let before = reply(old.id).send(&f.app).await;
        assert_eq!((new.status, before.status), (200, 200), "{query}");
        assert_eq!(new.json, before.json, "{query}");
    }
}

#[tokio::test]
async fn every_bad_parameter_is_named() {
    let f = fixture(false).await;
    for (query, field) in [
        ("?limit=0", "limit"),
        ("?limit=501", "limit"),
        ("?limit=abc", "limit"),
        ("?offset=-1", "offset"),
        ("?intent=shopping", "intent"),
        ("?source=upload", "source"),
        ("?minVolume=-1", "minVolume"),
        ("?minVolume=1.5", "minVolume"),
        ("?maxVolume=x", "maxVolume"),
        ("?minDifficulty=101", "minDifficulty"),
        ("?maxDifficulty=-3", "maxDifficulty"),
        ("?minCpc=-0.1", "minCpc"),
        ("?maxCpc=NaN", "maxCpc"),
        ("?minCompetition=1.1", "minCompetition"),
        (
            "?minOrganicOpportunityScore=-1",
            "minOrganicOpportunityScore",
        ),
        ("?maxPaidOpportunityScore=abc", "maxPaidOpportunityScore"),
        ("?minOpportunityValue=-5", "minOpportunityValue"),
        ("?minVolume=500&maxVolume=100", "minVolume"),
        ("?minCpc=3&maxCpc=1", "minCpc"),
        ("?sortBy=popularity", "sortBy"),
        ("?sortOrder=up", "sortOrder"),
        ("?serpFeature=snippet", "serpFeature"),
        ("?serpFeature=people_also_ask,reviews", "serpFeature"),
        ("?minWeakSpots=11", "minWeakSpots"),
        ("?minWeakSpots=-1", "minWeakSpots"),
        ("?minWeakSpots=one", "minWeakSpots"),
        ("?strikingDistance=yes", "strikingDistance"),
        ("?strikingDistance=", "strikingDistance"),
        ("?decaying=1", "decaying"),
        ("?minImpressions=-1", "minImpressions"),
        ("?minImpressions=2.5", "minImpressions"),
        ("?maxPosition=0.9", "maxPosition"),
        ("?maxPosition=first", "maxPosition"),
        ("?sortBy=ctr", "sortBy"),
    ] {
        assert_eq!(f.bad(query).await, [field], "{query}");
    }
}

#[tokio::test]
async fn clusters_cluster_keywords_personas_and_references() {
    let f = fixture(false).await;
    let base = format!("/api/v1/jobs/{}", f.job.id);
    let clusters = Call::get(&format!("{base}/clusters"))
        .api_key(&f.key)
        .send(&f.app)
        .await
        .expect(200);
    assert_eq!(clusters.json["total"], 4);
    assert_eq!(
        clusters.json["clusters"][0]["id"], "c-3",
        "default: totalSearchVolume desc"
    );
    let by_difficulty = Call::get(&format!(
        "{base}/clusters?sortBy=avgDifficulty&sortOrder=asc&limit=2&offset=1"
    ))
    .api_key(&f.key)
    .send(&f.app)
    .await
    .expect(200);
    assert_eq!(by_difficulty.json["clusters"][0]["id"], "c-1");
    Call::get(&format!("{base}/clusters?sortBy=size"))
        .api_key(&f.key)
        .send(&f.app)
        .await
        .expect(400);
    let members = Call::get(&format!("{base}/clusters/c-2/keywords?limit=500"))
        .api_key(&f.key)
        .send(&f.app)
        .await
        .expect(200);
    assert!(members.json["keywords"]
        .as_array()
        .unwrap()
        .iter()
        .all(|k| k["clusterId"] == "c-2"));
    assert_eq!(
        members.json["total"].as_u64(),
        Some(
            dataset(f.job.id)
                .keywords
                .iter()
                .filter(|k| k.cluster_id == "c-2")
                .count() as u64
        )
    );
    Call::get(&format!("{base}/clusters/c-9/keywords"))
        .api_key(&f.key)
        .send(&f.app)
        .await
        .expect(404);
    Call::get(&format!("{base}/clusters/c-2/keywords?minCpc=-1"))
        .api_key(&f.key)
        .send(&f.app)
        .await
        .expect(400);
    let personas = Call::get(&format!("{base}/personas"))
        .api_key(&f.key)
        .send(&f.app)
        .await
        .expect(200);
    assert_eq!(personas.json["personas"][0]["avatarName"], "Curious Casey");
    let references = Call::get(&format!("{base}/references"))
        .api_key(&f.key)
        .send(&f.app)
        .await
        .expect(200);
    assert_eq!(
        references.json["references"],
        json!([{"url": "https://example.com/", "title": "Example", "description": null, "imageUrl": null, "link": null}, null])
    );
}

#[tokio::test]
async fn before_completion_lists_are_empty_and_references_available() {
    let f = fixture(false).await;
    let running = stored_job(&f.store, &f.owner, JobStatus::Running).await;
    let base = format!("/api/v1/jobs/{}", running.id);
    for path in [
        "keywords",
        "clusters",
        "topics",
        "personas",
        "clusters/c-1/keywords",
    ] {
        let reply = Call::get(&format!("{base}/{path}"))
            .api_key(&f.key)
            .send(&f.app)
            .await
            .expect(200);
        let list = reply
            .json
            .as_object()
            .unwrap()
            .values()
            .find(|v| v.is_array())
            .unwrap();
        assert_eq!(list, &json!([]), "{path}");
        if path != "personas" {
            assert_eq!(reply.json["total"], 0, "{path}");
        }
    }
    let references = Call::get(&format!("{base}/references"))
        .api_key(&f.key)
        .send(&f.app)
        .await
        .expect(200);
    assert_eq!(references.json["references"], json!([null, null]));
}

#[tokio::test]
async fn access_matrix_for_every_results_endpoint() {
    let private = fixture(false).await;
    let demo = fixture(true).await;
    let (_, other) = harness::new_user_with_key(&private.store).await;
    let other = other.expose().to_string();
    let invalid = "kr_invalidinvalidinvalidinvalidinvalidinvalid";
    for path in [
        "keywords",
        "clusters",
        "clusters/c-1/keywords",
        "topics",
        "personas",
        "references",
    ] {
        let private_path = format!("/api/v1/jobs/{}/{path}", private.job.id);
        Call::get(&private_path)
            .api_key(&private.key)
            .send(&private.app)
            .await
            .expect(200);
        for call in [
            Call::get(&private_path),
            Call::get(&private_path).api_key(&other),
            Call::get(&private_path).api_key(invalid),
        ] {
            assert_eq!(
                call.send(&private.app).await.expect(404).code(),
                "not_found",
                "{path}"
            );
        }
        let demo_path = format!("/api/v1/jobs/{}/{path}", demo.job.id);
        for call in [
            Call::get(&demo_path),
            Call::get(&demo_path).api_key(&other),
            Call::get(&demo_path).bearer(invalid),
            Call::get(&demo_path).api_key(&demo.key),
        ] {
            call.send(&demo.app).await.expect(200);
        }
    }
    Call::get("/api/v1/jobs/not-a-uuid/keywords")
        .send(&private.app)
        .await
        .expect(404);
}

#[tokio::test]
async fn the_csv_export_matches_the_keywords_endpoint_field_by_field() {
    let f = fixture(false).await;
    let reply = Call::get(&format!("/api/v1/jobs/{}/export-keywords", f.job.id))
        .api_key(&f.key)
        .send(&f.export)
        .await
        .expect(200);
    assert_eq!(
        reply.header("content-type"),
        Some("text/csv; charset=utf-8")
    );
    let day = chrono::Utc::now().format("%Y-%m-%d");
    assert_eq!(
        reply.header("content-disposition"),
        Some(format!("attachment; filename=\"keywords-example.com-{day}.csv\"").as_str())
    );
    let mut reader = csv::Reader::from_reader(reply.text.as_bytes());
    assert_eq!(
        reader.headers().unwrap().iter().collect::<Vec<_>>(),
        kr_core::dataset::export::COLUMNS
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let api = f.keywords("?limit=500").await;
    let api: Vec<&Value> = api["keywords"].as_array().unwrap().iter().collect();
    assert_eq!(rows.len(), api.len(), "every keyword, once");
    let cell = |value: &Value| match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    for row in &rows {
        let text = row[0]
            .strip_prefix('\'')
            .filter(|t| t.starts_with('='))
            .unwrap_or(&row[0]);
        let keyword = api
            .iter()
            .find(|k| k["keyword"] == text)
            .unwrap_or_else(|| panic!("{text:?} in the API"));
        for (column, field) in [
            (1, "clusterName"),
            (2, "clusterId"),
            (3, "searchVolume"),
            (4, "cpc"),
            (5, "competition"),
            (6, "difficulty"),
            (7, "intent"),
            (8, "personaAvatarName"),
            (9, "organicOpportunityScore"),
            (10, "paidOpportunityScore"),
            (11, "opportunityValue"),
            (12, "metricsSource"),
        ] {
            let expected = cell(&keyword[field]);
            let got = &row[column];
            let numbers_equal = got
                .parse::<f64>()
                .ok()
                .zip(expected.parse::<f64>().ok())
                .is_some_and(|(a, b)| a == b);
            assert!(
                got == expected || numbers_equal,
                "{text} {field}: csv {got:?} api {expected:?}"
            );
        }
    }
    // The SERP columns: names joined by "; ", questions by " | ", the weak spots counted;
    // empty without a SERP.
    for row in &rows {
        let keyword = api
            .iter()
            .find(|k| k["keyword"] == row[0].strip_prefix('\'').unwrap_or(&row[0]))
            .unwrap();
        let joined = |field: &str, separator: &str| {
            keyword[field].as_array().map_or(String::new(), |items| {
                let items: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
                items.join(separator)
            })
        };
        assert_eq!(row[16], joined("serpFeatures", "; "), "{}", &row[0]);
        assert_eq!(row[17], joined("peopleAlsoAsk", " | "), "{}", &row[0]);
        let spots = keyword["weakSpots"]
            .as_array()
            .map_or(String::new(), |spots| spots.len().to_string());
        assert_eq!(row[18], spots, "{}", &row[0]);
    }
    let guarded = rows.iter().find(|r| r[0].contains("HYPERLINK")).unwrap();
    assert!(
        guarded[0].starts_with("'="),
        "formula guarded: {:?}",
        &guarded[0]
    );
    assert!(
        rows.iter().any(|r| &r[0] == "beans, \"fresh\"\nroasted"),
        "quotes, commas and newlines survive"
    );
}

#[tokio::test]
async fn the_export_waits_for_completion_and_follows_the_access_rules() {
    let f = fixture(false).await;
    let running = stored_job(&f.store, &f.owner, JobStatus::Running).await;
    let reply = Call::get(&format!("/api/v1/jobs/{}/export-keywords", running.id))
        .api_key(&f.key)
        .send(&f.export)
        .await
        .expect(409);
    assert_eq!(reply.code(), "job_not_ready");
    let path = format!("/api/v1/jobs/{}/export-keywords", f.job.id);
    let (_, other) = harness::new_user_with_key(&f.store).await;
    Call::get(&path).send(&f.export).await.expect(404);
    Call::get(&path)
        .api_key(other.expose())
        .send(&f.export)
        .await
        .expect(404);
    let demo = fixture(true).await;
    Call::get(&format!("/api/v1/jobs/{}/export-keywords", demo.job.id))
        .send(&demo.export)
        .await
        .expect(200);
}
