//! What an SEO judges a job by, on a real job through the pipeline: the local roofing sample
//! site (Montclair, NJ) against a competitor in Newark, crawled on loopback, no data provider.
//! Each assertion is one of issue 11's complaints about such a job.

use kr_core::dataset::{Intent, ResultsDataset};
use kr_tests::pipeline_rig::rig;

const PRIMARY: &str = "ridgeline-roofing.com";
const COMPETITOR: &str = "ironclad-roofers.com";
/// Words that are no keyword on their own, from the issue and the sample's own copy.
const GENERIC_WORDS: &[&str] = &[
    "black", "bring", "please", "right", "final", "orange", "tan", "accept", "cookies", "tips",
    "colors",
];
const FUNCTION_WORDS: &[&str] = &[
    "a", "an", "the", "and", "or", "of", "with", "to", "for", "in", "on", "at", "by", "from",
    "your", "our", "we", "you",
];

async fn roofing_job() -> ResultsDataset {
    let rig = rig(None, &[]).await;
    let job = rig.start(PRIMARY, &[COMPETITOR]).await;
    rig.complete(job.id).await;
    rig.dataset(job.id).await
}

#[tokio::test]
async fn a_local_roofing_job_gives_keywords_clusters_and_personas_an_seo_would_keep() {
    let dataset = roofing_job().await;
    let keywords = &dataset.keywords;
    assert!(keywords.len() >= 100, "{} keywords", keywords.len());

    // Discovery: phrases people search for, no lone generic words, no fragments.
    for keyword in keywords {
        let words: Vec<&str> = keyword.keyword.split_whitespace().collect();
        assert!(
            !(words.len() == 1 && GENERIC_WORDS.contains(&words[0])),
            "a lone generic word: {}",
            keyword.keyword
        );
        for edge in [words.first(), words.last()].into_iter().flatten() {
            assert!(
                !FUNCTION_WORDS.contains(edge),
                "a fragment: {}",
                keyword.keyword
            );
        }
    }
    let top: Vec<&str> = keywords
        .iter()
        .take(30)
        .map(|k| k.keyword.as_str())
        .collect();
    assert!(
        top.iter().filter(|k| k.contains("roof")).count() >= 10,
        "the top keywords are about roofing: {top:?}"
    );

    // Intent: local service queries are never informational (with a brand, navigational; with
    // a learning word, "newark roofing tips", not a service query).
    let local: Vec<_> = keywords
        .iter()
        .filter(|k| {
            let text = k.keyword.to_lowercase();
            let learning = ["tips", "how", "guide", "what", "why", "ideas"]
                .iter()
                .any(|word| text.split_whitespace().any(|w| w == *word));
            !learning
                && !text.contains("ridgeline")
                && !text.contains("ironclad")
                && (text.contains("newark") || text.contains("montclair"))
                && (text.contains("roofing") || text.contains("roofer") || text.contains("repair"))
        })
        .collect();
    assert!(!local.is_empty(), "local service queries are found");
    for keyword in &local {
        assert!(
            matches!(keyword.intent, Intent::Commercial | Intent::Transactional),
            "{}: {:?}",
            keyword.keyword,
            keyword.intent
        );
    }

    // Clusters: no giant cluster, names are real keywords.
    let largest = dataset
        .clusters
        .iter()
        .map(|c| c.keyword_count)
        .max()
        .unwrap();
    assert!(
        largest * 20 <= keywords.len(),
        "largest cluster holds {largest} of {}",
        keywords.len()
    );
    for cluster in &dataset.clusters {
        assert!(
            cluster.name.starts_with(|c: char| c.is_alphanumeric()),
            "cluster name {:?}",
            cluster.name
        );
        assert!(
            keywords.iter().any(|k| k.keyword == cluster.name),
            "cluster name {:?} is a keyword",
            cluster.name
        );
    }

    // Personas: 3 to 6, none over half, each names the real offerings and places.
    let personas = &dataset.personas;
    assert!(
        (3..=6).contains(&personas.len()),
        "{} personas",
        personas.len()
    );
    for persona in personas {
        assert!(
            persona.keyword_count * 2 <= keywords.len(),
            "{} holds {} of {}",
            persona.avatar_name,
            persona.keyword_count,
            keywords.len()
        );
        let text = &persona.description;
        assert!(text.contains("roof"), "{}: {text}", persona.avatar_name);
        assert!(
            ["Montclair", "Newark", "Essex"]
                .iter()
                .any(|p| text.contains(p)),
            "{} names a place: {text}",
            persona.avatar_name
        );
        assert!(
            !text.contains("orange")
                && !text.contains("nearby close by")
                && !text.contains("needs roofing contractor"),
            "{text}"
        );
    }
    let without = keywords
        .iter()
        .filter(|k| k.persona_avatar_name.is_none())
        .count();
    assert!(without > 0, "keywords that fit no persona have none");
}
