//! What an SEO judges a job by, on a real job through the pipeline: the local roofing sample
//! site (Montclair, NJ) against a competitor in Newark, crawled on loopback, no data provider.
//! Each assertion is one of issue 11's complaints about such a job.

use kr_core::dataset::{Intent, KeywordRecord, ResultsDataset};
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

/// Issue 50 through the pipeline: a local business's offerings with the places it serves are
/// among its top 20 by opportunity value, as a local SEO lists them ("roof repair montclair"),
/// each estimated as a local buying query (a provider there is bought, as with "near me") and
/// never above its offering alone. The metrics stage reads the site's served places as
/// `research()` does.
#[tokio::test]
async fn a_local_roofers_top_20_holds_its_offerings_with_its_places() {
    let dataset = roofing_job().await;
    // The places the site serves (its towns and county), by their words.
    let places = ["montclair", "newark", "essex"];
    let place_words = ["montclair", "newark", "essex", "county", "nj"];
    // The offering of an "offering + place" keyword: its words without the place.
    let offering_of = |keyword: &str| -> Option<String> {
        let words: Vec<&str> = keyword.split_whitespace().collect();
        if !words.iter().any(|w| places.contains(w)) {
            return None;
        }
        let offering: Vec<&str> = words
            .iter()
            .copied()
            .filter(|w| !place_words.contains(w))
            .collect();
        let names = offering
            .iter()
            .any(|w| ROOFING.iter().any(|name| w.starts_with(name)));
        let branded = offering
            .iter()
            .any(|w| w.starts_with("ridgeline") || w.starts_with("ironclad"));
        (names && !branded).then(|| offering.join(" "))
    };
    let mut ranked: Vec<&KeywordRecord> = dataset.keywords.iter().collect();
    ranked.sort_by(|a, b| {
        b.opportunity_value
            .total_cmp(&a.opportunity_value)
            .then_with(|| a.keyword.cmp(&b.keyword))
    });
    let top: Vec<&str> = ranked.iter().take(20).map(|k| k.keyword.as_str()).collect();
    let local = top.iter().filter(|k| offering_of(k).is_some()).count();
    assert!(local >= 5, "{local} of the top 20 name a place: {top:?}");

    let by_keyword: std::collections::HashMap<&str, &KeywordRecord> = dataset
        .keywords
        .iter()
        .map(|k| (k.keyword.as_str(), k))
        .collect();
    let mut compared = 0;
    for keyword in &dataset.keywords {
        let Some(offering) = offering_of(&keyword.keyword) else {
            continue;
        };
        let Some(alone) = by_keyword.get(offering.as_str()) else {
            continue;
        };
        compared += 1;
        assert!(
            keyword.search_volume <= alone.search_volume,
            "{} {:?} above {offering} {:?}",
            keyword.keyword,
            keyword.search_volume,
            alone.search_volume
        );
        assert!(
            keyword.cpc > alone.cpc,
            "{} {:?} is bought more than {offering} {:?}",
            keyword.keyword,
            keyword.cpc,
            alone.cpc
        );
    }
    assert!(compared >= 5, "{compared} offerings with a place compared");
}

/// A sample site, with our labels: the words a keyword names its offerings or brand with.
struct Labelled {
    domain: &'static str,
    competitor: &'static str,
    /// A word of the keyword starts with one of these.
    names: &'static [&'static str],
}

const COFFEE: &[&str] = &[
    "coffee",
    "espresso",
    "bean",
    "roast",
    "brew",
    "decaf",
    "grinder",
    "latte",
    "cafe",
    "café",
    "press",
    "aeropress",
    "pour",
    "moka",
    "capsule",
    "blend",
    "barista",
    "cater",
    "wholesale",
    "subscription",
    "nitro",
    "pitcher",
    "milk",
    "arabica",
    "origin",
    "kettle",
    "filter",
    // The shops' own products and services, named on their pages.
    "gift",
    "burr",
    "guatemala",
    "antigua",
    "equipment",
    "machine",
    "kit",
];
const ROOFING: &[&str] = &[
    "financ", "roof", "gutter", "shingle", "siding", "skylight", "chimney", "flashing", "leak",
    "coating", "metal", "exterior", "seamless", "standing", "storm", "flat", "asphalt", "slate",
];

const SAMPLE_SITES: &[Labelled] = &[
    Labelled {
        domain: "brightbrew-coffee.com",
        competitor: "roastrivals.com",
        names: COFFEE,
    },
    Labelled {
        domain: "roastrivals.com",
        competitor: "brightbrew-coffee.com",
        names: COFFEE,
    },
    Labelled {
        domain: PRIMARY,
        competitor: COMPETITOR,
        names: ROOFING,
    },
    Labelled {
        domain: COMPETITOR,
        competitor: PRIMARY,
        names: ROOFING,
    },
    // A competitor from another trade contributes nothing.
    Labelled {
        domain: "brightbrew-coffee.com",
        competitor: PRIMARY,
        names: COFFEE,
    },
];

fn brand(domain: &str) -> &str {
    domain.split(['-', '.']).next().unwrap_or(domain)
}

/// Each sample site's pages, crawled once on loopback without the politeness delay (nothing
/// to be polite to here), by domain.
async fn sample_pages() -> std::collections::HashMap<&'static str, Vec<kr_crawler::PageContent>> {
    use kr_tests::sites::{fixtures_root, resolve_spec, serve_sites};
    let address = serve_sites("127.0.0.1:0".parse().unwrap(), fixtures_root())
        .await
        .expect("the sample sites are served");
    let resolve = resolve_spec(address);
    let config = kr_crawler::CrawlConfig::from_vars(|name| match name {
        "KR_CRAWL_RESOLVE" => Some(resolve.clone()),
        "KR_CRAWL_DELAY_MS" => Some("1".to_string()),
        _ => None,
    })
    .expect("a crawl configuration");
    let crawler = kr_crawler::Crawler::new(config).expect("a crawler");
    let mut pages = std::collections::HashMap::new();
    for domain in SAMPLE_SITES.iter().flat_map(|s| [s.domain, s.competitor]) {
        if !pages.contains_key(domain) {
            let crawl = crawler
                .crawl_site(domain, kr_crawler::SiteRole::Primary, 100, &|_| {})
                .await
                .expect("the sample site is crawled");
            pages.insert(domain, crawl.pages);
        }
    }
    pages
}

fn offline_research(
    pages: &std::collections::HashMap<&'static str, Vec<kr_crawler::PageContent>>,
    site: &Labelled,
) -> kr_research::research::ResearchOutput {
    let with_role = |domain: &str, role: kr_crawler::SiteRole| {
        pages[domain].iter().cloned().map(move |mut page| {
            page.site = Some(role);
            page
        })
    };
    let pages: Vec<_> = with_role(site.domain, kr_crawler::SiteRole::Primary)
        .chain(with_role(
            site.competitor,
            kr_crawler::SiteRole::Competitor(0),
        ))
        .collect();
    let input = kr_research::research::ResearchInput {
        brand_terms: vec![brand(site.domain).to_string(), site.domain.to_string()],
        primary_domain: Some(site.domain.to_string()),
        competitor_domains: vec![site.competitor.to_string()],
        ..Default::default()
    };
    kr_research::research::research(&pages, &input)
}

/// Issue 23 on every sample site: without a provider, every keyword names what the site offers
/// (or its brand), ideas are made from its offerings, estimates are honest and persona titles
/// are whole phrases.
#[tokio::test]
async fn offline_keywords_name_what_every_sample_site_offers() {
    let pages = sample_pages().await;
    for site in SAMPLE_SITES {
        let output = offline_research(&pages, site);
        let keywords = &output.keywords;
        let names = |keyword: &str| {
            keyword.split_whitespace().any(|word| {
                word.starts_with(brand(site.domain))
                    || site.names.iter().any(|name| word.starts_with(name))
            })
        };
        let unnamed: Vec<&str> = keywords
            .iter()
            .map(|k| k.keyword.as_str())
            .filter(|k| !names(k))
            .collect();
        assert!(
            unnamed.is_empty(),
            "{} against {}: keywords that name nothing it offers: {unnamed:?}",
            site.domain,
            site.competitor
        );
        assert!(
            keywords
                .iter()
                .any(|k| k.source == Some(kr_core::dataset::KeywordSource::Idea)),
            "{}: ideas",
            site.domain
        );
        let volume = |text: &str| {
            keywords
                .iter()
                .find(|k| k.keyword == text)
                .and_then(|k| k.search_volume)
        };
        for keyword in keywords {
            let own = keyword.search_volume.expect("an estimate");
            assert!(own <= 1900, "{}: {own}", keyword.keyword);
            let words: Vec<&str> = keyword.keyword.split(' ').collect();
            for len in 1..words.len() {
                for start in 0..=words.len() - len {
                    let head = words[start..start + len].join(" ");
                    if let Some(head_volume) = volume(&head) {
                        assert!(
                            own <= head_volume,
                            "{} ({own}) above {head} ({head_volume})",
                            keyword.keyword
                        );
                    }
                }
            }
        }
        for persona in &output.personas {
            let last = persona.title.rsplit(' ').next().unwrap_or_default();
            assert!(
                names(&persona.title.to_lowercase())
                    && !(last.len() > 5 && last.ends_with("ed") && !last.ends_with("eed"))
                    && !["licensed", "insured", "residential", "commercial", "local"]
                        .contains(&last),
                "{}: persona title {:?}",
                site.domain,
                persona.title
            );
        }
    }
}
