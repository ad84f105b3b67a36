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
fn close_variants_group_around_the_most_valuable_keyword() {
    let input = items(&[
        ("running shoe", 50.0),
        ("running shoes", 100.0),
        ("best running shoes", 30.0),
        ("shoes for running", 20.0),
        ("runningshoes", 1.0),
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
            "shoes for running",
            "runningshoes"
        ]
    );
    // A material, a use or a size is a subtopic with pages of its own.
    assert_eq!(named[1].1, vec!["yoga mats"]);
    assert_eq!(clusters.len(), 5, "{named:?}");
    assert_eq!(clusters[0].id, "c-running-shoes");
    assert_eq!(clusters[0].primary_keyword, "running shoes");
}

#[test]
fn one_shared_head_term_is_not_enough() {
    let input = items(&[
        ("sump pump", 1000.0),
        ("zoeller sump pump", 300.0),
        ("sump pump alarm", 200.0),
        ("sump pump battery backup", 100.0),
        ("crm software", 10.0),
        ("accounting software", 9.0),
    ]);
    let clusters = cluster(&input, &ClusterConfig::default());
    assert_eq!(clusters.len(), input.len());
}

#[test]
fn different_places_are_different_queries() {
    let input = items(&[
        ("newark roofing", 90.0),
        ("montclair roofing services", 80.0),
        ("roofing", 500.0),
        ("roof repair nj", 70.0),
        ("roof repair newark nj", 60.0),
        ("roof repair montclair nj", 50.0),
        ("roof repair in newark", 40.0),
        ("newark roof repair", 30.0),
    ]);
    let clusters = cluster(&input, &ClusterConfig::default());
    let named = named(&clusters, &input);
    let together = |a: &str, b: &str| {
        named
            .iter()
            .any(|(_, m)| m.iter().any(|k| k == a) && m.iter().any(|k| k == b))
    };
    assert!(
        !together("newark roofing", "montclair roofing services"),
        "{named:?}"
    );
    assert!(!together("newark roofing", "roofing"));
    assert!(
        !together("roof repair newark nj", "roof repair montclair nj"),
        "{named:?}"
    );
    assert!(!together("roof repair nj", "roof repair newark nj"));
    // The same place in other words is the same query.
    assert!(
        together("roof repair in newark", "newark roof repair"),
        "{named:?}"
    );
}

#[test]
fn intent_modifiers_split_generic_ones_do_not() {
    let input = items(&[
        ("submersible sump pump", 500.0),
        ("best submersible sump pump", 300.0),
        ("top submersible sump pumps", 200.0),
        ("buy submersible sump pump", 100.0),
        ("submersible sump pump price", 90.0),
        ("how to install submersible sump pump", 80.0),
        ("submersible sump pump reviews", 70.0),
    ]);
    let clusters = cluster(&input, &ClusterConfig::default());
    let named = named(&clusters, &input);
    assert_eq!(
        named[0].1,
        vec![
            "submersible sump pump",
            "best submersible sump pump",
            "top submersible sump pumps"
        ]
    );
    assert_eq!(clusters.len(), 5, "{named:?}");
}

#[test]
fn a_hub_of_three_words_takes_one_more_specific_word() {
    let input = items(&[
        ("trail running shoes", 10.0),
        ("trail running jackets", 9.0),
        ("waterproof trail running shoes", 3.0),
        ("trail running shoes store near me", 1.0),
    ]);
    let clusters = cluster(&input, &ClusterConfig::default());
    assert_partition(&clusters, input.len());
    let named = named(&clusters, &input);
    assert_eq!(
        named[0].1,
        vec!["trail running shoes", "waterproof trail running shoes"]
    );
    assert_eq!(named.len(), 3, "{named:?}");
    // A stricter threshold asks for longer keywords before one may extend another.
    let strict = ClusterConfig {
        threshold: 0.8,
        ..ClusterConfig::default()
    };
    assert_eq!(cluster(&input, &strict).len(), 4);
}

#[test]
fn names_never_start_with_punctuation() {
    let input = items(&[
        (".75 hp sump pump", 900.0),
        ("75 hp sump pump", 10.0),
        (".5 sump pump", 800.0),
        ("sump pump", 100.0),
    ]);
    let clusters = cluster(&input, &ClusterConfig::default());
    let names: Vec<&str> = clusters.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, vec!["75 hp sump pump", "5 sump pump", "sump pump"]);
    assert_eq!(clusters[0].primary_keyword, ".75 hp sump pump");
    assert!(clusters
        .iter()
        .all(|c| c.name.starts_with(char::is_alphanumeric)));
}

#[test]
fn word_order_and_stop_words_in_romance_languages() {
    let config = ClusterConfig {
        language: Language::new("fr"),
        threshold: 0.5,
    };
    let input = items(&[
        ("chaussures de course", 10.0),
        ("chaussure course", 5.0),
        ("chaussures de course légères pour femmes", 1.0),
    ]);
    assert_eq!(cluster(&input, &config).len(), 2);
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
        ("e-bike!", 2.0),
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

#[test]
fn a_year_or_a_word_of_praise_is_a_close_variant() {
    let input = items(&[
        ("ai tools", 100.0),
        ("ai tools 2024", 50.0),
        ("latest ai tools 2025", 40.0),
        ("ai marketing tools", 30.0),
        ("chatgpt prompts", 20.0),
        ("crazy chatgpt prompts", 10.0),
        ("the ultimate chatgpt prompts", 5.0),
        ("chatgpt prompts for sales", 4.0),
    ]);
    let clusters = cluster(&input, &ClusterConfig::default());
    assert_partition(&clusters, input.len());
    let named = named(&clusters, &input);
    assert_eq!(
        named[0].1,
        vec!["ai tools", "ai tools 2024", "latest ai tools 2025"]
    );
    assert_eq!(
        named[2].1,
        vec![
            "chatgpt prompts",
            "crazy chatgpt prompts",
            "the ultimate chatgpt prompts"
        ],
        "{named:?}"
    );
    assert_eq!(clusters.len(), 4, "{named:?}");
}

#[test]
fn a_keyword_left_alone_joins_the_cluster_of_its_core_less_one_word() {
    let input = items(&[
        ("trail running shoes", 10.0),
        ("waterproof trail running shoes", 9.0),
        ("waterproof trail running shoes for women", 3.0),
        ("buy waterproof trail running shoes", 2.0),
        ("waterproof trail running shoes nj", 1.0),
    ]);
    let clusters = cluster(&input, &ClusterConfig::default());
    assert_partition(&clusters, input.len());
    let named = named(&clusters, &input);
    assert_eq!(
        named[0].1,
        vec![
            "trail running shoes",
            "waterproof trail running shoes",
            "waterproof trail running shoes for women"
        ]
    );
    // An intent modifier or a place still makes another query.
    assert_eq!(clusters.len(), 3, "{named:?}");
}

#[test]
fn how_many_asks_another_question() {
    let input = items(&[
        ("how do i get payday loans", 10.0),
        ("how many payday loans can i get", 5.0),
    ]);
    let clusters = cluster(&input, &ClusterConfig::default());
    assert_eq!(clusters.len(), 2, "{:?}", named(&clusters, &input));
}

#[test]
fn who_makes_or_sells_a_product_is_a_close_variant() {
    let input = items(&[
        ("cpp film manufacturer", 10.0),
        ("cpp film suppliers", 9.0),
        ("cpp film factory", 8.0),
        ("buy cpp film", 7.0),
    ]);
    let clusters = cluster(&input, &ClusterConfig::default());
    let named = named(&clusters, &input);
    assert_eq!(
        named[0].1,
        vec![
            "cpp film manufacturer",
            "cpp film suppliers",
            "cpp film factory"
        ]
    );
    assert_eq!(clusters.len(), 2, "{named:?}");
}

#[test]
fn a_state_code_after_a_marked_town_is_the_same_place() {
    let inputs = items(&[
        ("roofing in newark nj", 300.0),
        ("roofing in newark", 200.0),
        ("roofing in montclair", 100.0),
    ]);
    let clusters = cluster(&inputs, &ClusterConfig::default());
    let of = |i: usize| {
        clusters
            .iter()
            .position(|c| c.members.contains(&i))
            .unwrap()
    };
    assert_eq!(of(0), of(1));
    assert_ne!(of(0), of(2));
}
