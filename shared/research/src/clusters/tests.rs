use super::*;

fn items(keywords: &[(&str, f64)]) -> Vec<ClusterInput> {
    keywords
        .iter()
        .map(|&(keyword, value)| ClusterInput {
            keyword: keyword.to_string(),
            value,
        })
        .collect()
}

fn named(clusters: &[Cluster], input: &[ClusterInput]) -> Vec<(String, Vec<String>)> {
    clusters
        .iter()
        .map(|c| {
            (
                c.name.clone(),
                c.members
                    .iter()
                    .map(|&m| input[m].keyword.clone())
                    .collect(),
            )
        })
        .collect()
}

fn assert_partition(clusters: &[Cluster], count: usize) {
    let mut seen = vec![0; count];
    for cluster in clusters {
        assert!(!cluster.members.is_empty());
        for &member in &cluster.members {
            seen[member] += 1;
        }
    }
    assert!(seen.iter().all(|&n| n == 1), "{seen:?}");
}

#[test]
fn groups_by_shared_stems_with_the_most_valuable_keyword_as_hub() {
    let input = items(&[
        ("running shoe", 50.0),
        ("running shoes", 100.0),
        ("best running shoes", 30.0),
        ("waterproof trail running shoes for women", 5.0),
        ("yoga mats", 80.0),
        ("cork yoga mat", 20.0),
        ("tent", 10.0),
    ]);
    let clusters = cluster(&input, &ClusterConfig::default());
    assert_partition(&clusters, input.len());
    let named = named(&clusters, &input);
    assert_eq!(named[0].0, "running shoes");
    assert_eq!(
        named[0].1,
        vec![
            "running shoes",
            "running shoe",
            "best running shoes",
            "waterproof trail running shoes for women"
        ]
    );
    assert_eq!(named[1].0, "yoga mats");
    assert_eq!(named[1].1, vec!["yoga mats", "cork yoga mat"]);
    assert_eq!(named[2], ("tent".to_string(), vec!["tent".to_string()]));
    assert_eq!(clusters[0].id, "c-running-shoes");
    assert_eq!(clusters[0].primary_keyword, "running shoes");
}

#[test]
fn different_modifiers_of_one_head_stay_apart_below_the_threshold() {
    let input = items(&[("crm software", 10.0), ("accounting software", 9.0)]);
    let clusters = cluster(&input, &ClusterConfig::default());
    assert_eq!(clusters.len(), 2);
    let loose = ClusterConfig {
        threshold: 0.3,
        ..ClusterConfig::default()
    };
    assert_eq!(cluster(&input, &loose).len(), 1);
}

#[test]
fn overlap_needs_a_shared_head() {
    let input = items(&[
        ("trail running shoes", 10.0),
        ("trail running jackets", 9.0),
        ("trail running shoes store near me", 1.0),
        ("waterproof light bags", 8.0),
        ("waterproof light poles", 7.0),
    ]);
    let clusters = cluster(&input, &ClusterConfig::default());
    assert_partition(&clusters, input.len());
    let named = named(&clusters, &input);
    assert_eq!(
        named[0].1,
        vec!["trail running shoes", "trail running shoes store near me"]
    );
    assert_eq!(named.len(), 4, "{named:?}");
}

#[test]
fn heads_come_first_in_romance_languages() {
    let config = ClusterConfig {
        language: Language::new("fr"),
        threshold: 0.5,
    };
    let input = items(&[
        ("chaussures de course", 10.0),
        ("chaussures de course légères pour femmes", 1.0),
    ]);
    assert_eq!(cluster(&input, &config).len(), 1);
}

#[test]
fn is_deterministic_whatever_the_input_order() {
    let keywords = [
        ("seo tools", 40.0),
        ("free seo tools", 10.0),
        ("seo audit", 30.0),
        ("seo audit checklist", 5.0),
        ("keyword research", 25.0),
        ("keyword research tool", 20.0),
        ("tool", 20.0),
    ];
    let forward = items(&keywords);
    let mut reversed_keywords = keywords;
    reversed_keywords.reverse();
    let backward = items(&reversed_keywords);
    let a = named(&cluster(&forward, &ClusterConfig::default()), &forward);
    let b = named(&cluster(&backward, &ClusterConfig::default()), &backward);
    assert_eq!(a, b);
    for _ in 0..3 {
        assert_eq!(
            cluster(&forward, &ClusterConfig::default()),
            cluster(&forward, &ClusterConfig::default())
        );
    }
}

#[test]
fn ids_are_unique_and_stable() {
    let input = items(&[
        ("e-bike", 3.0),
        ("e bike", 2.0),
        ("關鍵字", 1.0),
        ("研究", 0.5),
        ("", 0.1),
    ]);
    let clusters = cluster(&input, &ClusterConfig::default());
    assert_partition(&clusters, input.len());
    let ids: Vec<&str> = clusters.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids,
        vec![
            "c-e-bike",
            "c-e-bike-2",
            "c-cluster",
            "c-cluster-2",
            "c-cluster-3"
        ]
    );
}

#[test]
fn every_item_lands_in_exactly_one_cluster_at_scale() {
    let heads = ["shoes", "boots", "socks", "tents", "mats", "bags", "poles"];
    let modifiers = [
        "trail",
        "running",
        "cheap",
        "best",
        "women",
        "kids",
        "waterproof",
        "light",
    ];
    let mut keywords = Vec::new();
    for (h, head) in heads.iter().enumerate() {
        for (i, a) in modifiers.iter().enumerate() {
            for (j, b) in modifiers.iter().enumerate() {
                if i < j {
                    keywords.push((format!("{a} {b} {head}"), (h * 100 + i * 10 + j) as f64));
                }
            }
            keywords.push((format!("{a} {head}"), (h * 100 + i) as f64 + 0.5));
        }
    }
    let input: Vec<ClusterInput> = keywords
        .into_iter()
        .map(|(keyword, value)| ClusterInput { keyword, value })
        .collect();
    let clusters = cluster(&input, &ClusterConfig::default());
    assert_partition(&clusters, input.len());
    for c in &clusters {
        let head = input[c.members[0]]
            .keyword
            .split(' ')
            .next_back()
            .unwrap()
            .to_string();
        for &m in &c.members {
            assert!(
                input[m].keyword.ends_with(&head),
                "{} in {}",
                input[m].keyword,
                c.name
            );
        }
    }
}

#[test]
fn nan_values_and_empty_input() {
    assert!(cluster(&[], &ClusterConfig::default()).is_empty());
    let input = items(&[("alpha", f64::NAN), ("beta", 1.0)]);
    let clusters = cluster(&input, &ClusterConfig::default());
    assert_eq!(clusters[0].name, "beta");
    assert_partition(&clusters, 2);
}
