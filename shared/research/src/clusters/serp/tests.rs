use super::*;

/// A keyword with a volume (also its lexical value) and its SERP as URL numbers on a few
/// sites, or none.
pub(super) fn item(keyword: &str, volume: f64, urls: Option<&[u32]>) -> SerpClusterInput {
    SerpClusterInput {
        keyword: keyword.to_string(),
        volume,
        lexical_value: volume,
        serp_urls: urls.map(|urls| {
            urls.iter()
                .map(|n| format!("https://site{}.example/page-{n}", n % 7))
                .collect()
        }),
    }
}

pub(super) fn named(
    clusters: &[Cluster],
    input: &[SerpClusterInput],
) -> Vec<(String, Vec<String>)> {
    clusters
        .iter()
        .map(|c| {
            let members = c.members.iter().map(|&m| input[m].keyword.clone());
            (c.name.clone(), members.collect())
        })
        .collect()
}

pub(super) fn assert_partition(clusters: &[Cluster], count: usize) {
    let mut seen = vec![0; count];
    for cluster in clusters {
        assert!(!cluster.members.is_empty());
        for &member in &cluster.members {
            seen[member] += 1;
        }
    }
    assert!(seen.iter().all(|&n| n == 1), "{seen:?}");
}

pub(super) fn with_overlap(overlap: usize) -> SerpClusterConfig {
    SerpClusterConfig {
        overlap,
        ..SerpClusterConfig::default()
    }
}

#[test]
fn shared_results_group_different_words_around_the_highest_volume() {
    let input = vec![
        item(
            "sneakers for running",
            40.0,
            Some(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
        ),
        item(
            "running shoes",
            900.0,
            Some(&[1, 2, 3, 11, 12, 13, 14, 15, 16, 17]),
        ),
        item(
            "jogging trainers",
            40.0,
            Some(&[3, 2, 1, 20, 21, 22, 23, 24, 25, 26]),
        ),
        item(
            "apple pie recipe",
            500.0,
            Some(&[30, 31, 32, 33, 34, 35, 36, 37, 38, 39]),
        ),
        item(
            "easy apple pie",
            80.0,
            Some(&[30, 31, 32, 33, 40, 41, 42, 43, 44, 45]),
        ),
    ];
    let clusters = cluster_by_serp(&input, &SerpClusterConfig::default());
    assert_partition(&clusters, input.len());
    assert_eq!(
        named(&clusters, &input),
        vec![
            (
                "running shoes".to_string(),
                vec![
                    "running shoes".to_string(),
                    "sneakers for running".to_string(),
                    "jogging trainers".to_string()
                ]
            ),
            (
                "apple pie recipe".to_string(),
                vec!["apple pie recipe".to_string(), "easy apple pie".to_string()]
            ),
        ]
    );
    assert_eq!(clusters[0].id, "c-running-shoes");
    assert_eq!(clusters[0].primary_keyword, "running shoes");
}

#[test]
fn two_shared_results_are_not_enough_three_are() {
    let two = [
        item(
            "crm software",
            100.0,
            Some(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
        ),
        item(
            "sales pipeline tool",
            50.0,
            Some(&[1, 2, 13, 14, 15, 16, 17, 18, 19, 20]),
        ),
    ];
    assert_eq!(cluster_by_serp(&two, &with_overlap(3)).len(), 2);
    assert_eq!(cluster_by_serp(&two, &with_overlap(2)).len(), 1);
    let three = [
        two[0].clone(),
        item(
            "sales pipeline tool",
            50.0,
            Some(&[1, 2, 3, 14, 15, 16, 17, 18, 19, 20]),
        ),
    ];
    assert_eq!(cluster_by_serp(&three, &with_overlap(3)).len(), 1);
    assert_eq!(cluster_by_serp(&three, &with_overlap(4)).len(), 2);
}

#[test]
fn spokes_join_the_hub_not_each_other() {
    let input = [
        item("alpha", 30.0, Some(&[1, 2, 3, 4, 5, 6])),
        item("beta", 20.0, Some(&[4, 5, 6, 7, 8, 9])),
        item("gamma", 10.0, Some(&[7, 8, 9, 10, 11, 12])),
    ];
    let clusters = cluster_by_serp(&input, &SerpClusterConfig::default());
    let named = named(&clusters, &input);
    assert_eq!(named[0].1, vec!["alpha", "beta"]);
    assert_eq!(named[1].1, vec!["gamma"]);
}

#[test]
fn serp_singletons_stay_alone_and_keywords_without_a_serp_fall_back_to_words() {
    let input = vec![
        item("trail shoes", 300.0, Some(&[1, 2, 3, 4, 5])),
        item("trail running shoes", 200.0, Some(&[1, 2, 3, 6, 7])),
        // A SERP of its own, no URL in common: alone, although its words match others.
        item("yoga mats", 150.0, Some(&[40, 41, 42, 43, 44])),
        item("camping stoves", 20.0, None),
        // Too short a SERP to reach the overlap: grouped by its words.
        item("best camping stove", 90.0, Some(&[50, 51])),
        item("tent", 10.0, Some(&[])),
    ];
    let clusters = cluster_by_serp(&input, &SerpClusterConfig::default());
    assert_partition(&clusters, input.len());
    assert_eq!(
        named(&clusters, &input),
        vec![
            (
                "trail shoes".to_string(),
                vec!["trail shoes".to_string(), "trail running shoes".to_string()]
            ),
            ("yoga mats".to_string(), vec!["yoga mats".to_string()]),
            (
                "best camping stove".to_string(),
                vec![
                    "best camping stove".to_string(),
                    "camping stoves".to_string()
                ]
            ),
            ("tent".to_string(), vec!["tent".to_string()]),
        ]
    );
    let methods: Vec<ClusterMethod> = clusters.iter().map(|c| c.method).collect();
    use ClusterMethod::{Lexical, Serp};
    assert_eq!(methods, vec![Serp, Serp, Lexical, Lexical]);
}

#[test]
fn close_variants_without_a_serp_join_the_serp_cluster_of_their_variant() {
    let input = vec![
        item("trail shoes", 300.0, Some(&[1, 2, 3, 4, 5])),
        item("trail running shoes", 200.0, Some(&[1, 2, 3, 6, 7])),
        // Past the budget: word order, plural, a spelling without spaces. They join the
        // cluster of the keyword they are variants of, after the hub by volume.
        item("shoes trail", 250.0, None),
        item("trail running shoe", 20.0, None),
        item("trailshoes", 10.0, None),
        // One more word is another query, even beside a SERP cluster.
        item("trail shoes for women", 100.0, None),
        // A SERP singleton takes its variants too, those with too short a SERP included.
        item("yoga mats", 150.0, Some(&[40, 41, 42, 43, 44])),
        item("yoga mat", 20.0, None),
        item("best yoga mat", 90.0, Some(&[40, 41])),
        // SERPs that differ keep variants apart; a variant without one joins the higher volume.
        item("pizza oven", 500.0, Some(&[60, 61, 62, 63])),
        item("pizza ovens", 80.0, Some(&[70, 71, 72, 73])),
        item("oven for pizza", 5.0, None),
    ];
    let clusters = cluster_by_serp(&input, &SerpClusterConfig::default());
    assert_partition(&clusters, input.len());
    let strings = |list: &[&str]| list.iter().map(|k| k.to_string()).collect::<Vec<_>>();
    assert_eq!(
        named(&clusters, &input),
        vec![
            (
                "pizza oven".to_string(),
                strings(&["pizza oven", "oven for pizza"])
            ),
            (
                "trail shoes".to_string(),
                strings(&[
                    "trail shoes",
                    "shoes trail",
                    "trail running shoes",
                    "trail running shoe",
                    "trailshoes"
                ])
            ),
            (
                "yoga mats".to_string(),
                strings(&["yoga mats", "best yoga mat", "yoga mat"])
            ),
            ("pizza ovens".to_string(), strings(&["pizza ovens"])),
            (
                "trail shoes for women".to_string(),
                strings(&["trail shoes for women"])
            ),
        ]
    );
    assert!(clusters[..4]
        .iter()
        .all(|c| c.method == ClusterMethod::Serp));
    // Shared URLs are those of the members with a SERP: both trail keywords have 1, 2 and 3,
    // whatever the three variants without results.
    let urls = |list: &[u32]| {
        list.iter()
            .map(|n| format!("https://site{}.example/page-{n}", n % 7))
            .collect::<Vec<_>>()
    };
    assert_eq!(clusters[1].shared_urls, urls(&[1, 2, 3]));
}

#[test]
fn volume_ties_are_taken_in_input_order() {
    let input = [
        item("zebra rug", 50.0, Some(&[1, 2, 3, 4])),
        item("alpha rug", 50.0, Some(&[1, 2, 3, 5])),
    ];
    let clusters = cluster_by_serp(&input, &SerpClusterConfig::default());
    assert_eq!(clusters[0].name, "zebra rug");
    assert_eq!(clusters[0].members, vec![0, 1]);
}

#[test]
fn names_never_start_with_punctuation() {
    let input = [
        item(".75 hp sump pump", 900.0, Some(&[1, 2, 3, 4])),
        item("3/4 hp sump pump", 100.0, Some(&[1, 2, 3, 5])),
        item("...", 50.0, Some(&[9, 8, 7])),
    ];
    let clusters = cluster_by_serp(&input, &SerpClusterConfig::default());
    assert_eq!(clusters[0].primary_keyword, ".75 hp sump pump");
    assert_eq!(clusters[0].name, "3/4 hp sump pump");
    assert_eq!(clusters[1].name, "...");
}

#[test]
fn ids_are_unique_across_serp_and_lexical_clusters() {
    let long = "electric bicycle with removable battery and pedal assist";
    let input = [
        item("e-bike", 50.0, Some(&[1, 2, 3])),
        item("electric bicycle", 40.0, Some(&[1, 2, 3])),
        item("e-bike!", 20.0, Some(&[7, 8, 9])),
        item("e bike", 10.0, Some(&[7, 8, 9])),
        item(&format!("{long} for commuting"), 5.0, Some(&[11, 12, 13])),
        // No variant of a SERP keyword, but a slug of the same first 48 characters.
        item(&format!("{long} for kids"), 1.0, None),
    ];
    let clusters = cluster_by_serp(&input, &SerpClusterConfig::default());
    assert_partition(&clusters, input.len());
    let ids: Vec<&str> = clusters.iter().map(|c| c.id.as_str()).collect();
    let slug = "c-electric-bicycle-with-removable-battery-and-peda";
    assert_eq!(
        ids,
        vec!["c-e-bike", "c-e-bike-2", slug, &format!("{slug}-2")]
    );
    assert_eq!(clusters[3].method, ClusterMethod::Lexical);
}

#[test]
fn urls_are_compared_without_scheme_www_fragment_or_trailing_slash() {
    for (raw, expected) in [
        ("https://www.Example.COM/Shoes/#top", "example.com/Shoes"),
        ("http://example.com/Shoes", "example.com/Shoes"),
        ("//example.com/shoes/?size=9#x", "example.com/shoes?size=9"),
        ("https://example.com/", "example.com"),
        ("https://example.com?q=a://b", "example.com?q=a://b"),
        ("  example.com/a/b//  ", "example.com/a/b"),
        ("https://wwwx.example.com/", "wwwx.example.com"),
        ("#only", ""),
        (
            "https://shop.com/p/1?srsltid=AfmBOop&size=9&utm_source=x",
            "shop.com/p/1?size=9",
        ),
        ("https://shop.com/p/1/?srsltid=AfmBOoq", "shop.com/p/1"),
    ] {
        assert_eq!(normalize_url(raw), expected, "{raw}");
    }
    let serp = |urls: &[&str]| Some(urls.iter().map(|u| u.to_string()).collect());
    let input = [
        SerpClusterInput {
            serp_urls: serp(&["https://a.com/x", "https://b.com/", "http://c.com/y#z"]),
            ..item("first", 2.0, None)
        },
        SerpClusterInput {
            serp_urls: serp(&["http://www.A.com/x/", "https://b.com", "c.com/y"]),
            ..item("second", 1.0, None)
        },
    ];
    assert_eq!(
        cluster_by_serp(&input, &SerpClusterConfig::default()).len(),
        1
    );
}

#[test]
fn a_shop_page_is_one_url_whatever_tracking_google_adds() {
    let serp = |tag: &str| {
        Some(
            ["a.com/yarn", "b.com/twister", "c.com/winder"]
                .iter()
                .map(|page| format!("https://{page}?srsltid={tag}&utm_source=serp"))
                .collect(),
        )
    };
    let input = [
        SerpClusterInput {
            serp_urls: serp("AfmBOop"),
            ..item("yarn twister", 2.0, None)
        },
        SerpClusterInput {
            serp_urls: serp("AfmBOoq"),
            ..item("twister for yarn", 1.0, None)
        },
    ];
    let clusters = cluster_by_serp(&input, &SerpClusterConfig::default());
    assert_eq!(clusters.len(), 1);
    assert_eq!(clusters[0].shared_urls[0], "https://a.com/yarn");
}

#[test]
fn only_the_top_ten_results_count() {
    let input = [
        item(
            "first",
            2.0,
            Some(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]),
        ),
        item("second", 1.0, Some(&[11, 12, 13])),
    ];
    assert_eq!(
        cluster_by_serp(&input, &SerpClusterConfig::default()).len(),
        2
    );
}

#[test]
fn empty_input_and_nan_volumes() {
    assert!(cluster_by_serp(&[], &SerpClusterConfig::default()).is_empty());
    let input = [
        item("alpha", f64::NAN, Some(&[1, 2, 3])),
        item("beta", 1.0, Some(&[1, 2, 3])),
    ];
    let clusters = cluster_by_serp(&input, &SerpClusterConfig::default());
    assert_eq!(clusters.len(), 1);
    assert_eq!(clusters[0].name, "beta");
}
