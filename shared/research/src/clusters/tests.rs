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
fn one_more_specific_word_is_another_query() {
    let input = items(&[
        ("trail running shoes", 10.0),
        ("trail running jackets", 9.0),
        ("waterproof trail running shoes", 3.0),
        ("waterproof trail running shoes for women", 2.0),
        ("trail running shoes store near me", 1.0),
    ]);
    let clusters = cluster(&input, &ClusterConfig::default());
    assert_eq!(
        clusters.len(),
        input.len(),
        "{:?}",
        named(&clusters, &input)
    );
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

/// Whether two keywords of `input` share a cluster.
fn together(clusters: &[Cluster], input: &[ClusterInput], a: &str, b: &str) -> bool {
    let of = |k: &str| {
        let i = input.iter().position(|x| x.keyword == k).unwrap();
        clusters
            .iter()
            .position(|c| c.members.contains(&i))
            .unwrap()
    };
    of(a) == of(b)
}

#[test]
fn sharing_water_never_groups_sump_pump_keywords() {
    // Issue 22: a 514-keyword cluster held these three because they share "water".
    let input = items(&[
        ("sump pump", 5000.0),
        ("sump pump water", 900.0),
        ("water sump pump", 800.0),
        ("add water to sump pump", 300.0),
        ("best sump pump for dirty water", 200.0),
        ("best sump pump water alarm", 100.0),
        ("water powered sump pump", 90.0),
        ("sump pump water alarm", 80.0),
        ("water in sump pump pit", 70.0),
    ]);
    let clusters = cluster(&input, &ClusterConfig::default());
    assert_partition(&clusters, input.len());
    let apart = [
        "sump pump",
        "sump pump water",
        "add water to sump pump",
        "best sump pump for dirty water",
        "best sump pump water alarm",
        "water powered sump pump",
        "water in sump pump pit",
    ];
    for (x, a) in apart.iter().enumerate() {
        for b in &apart[x + 1..] {
            assert!(
                !together(&clusters, &input, a, b),
                "{a} / {b}: {:?}",
                named(&clusters, &input)
            );
        }
    }
    // The same query in other words still groups: order, and "best".
    assert!(together(
        &clusters,
        &input,
        "sump pump water",
        "water sump pump"
    ));
    assert!(together(
        &clusters,
        &input,
        "sump pump water alarm",
        "best sump pump water alarm"
    ));
    assert_eq!(clusters.len(), 7, "{:?}", named(&clusters, &input));
}

#[test]
fn the_same_query_in_other_words_groups() {
    let input = items(&[
        // Word order.
        ("car accident lawyer", 900.0),
        ("accident car lawyer", 10.0),
        // Plural and singular.
        ("car accident lawyers", 300.0),
        // Stop words.
        ("lawyer for a car accident", 50.0),
        // Spelling without spaces.
        ("sump pump", 800.0),
        ("sumppump", 20.0),
        ("sump-pumps", 15.0),
        // A state code after a town ("in lansing" elsewhere shows "lansing" is one).
        ("asphalt paving in lansing", 70.0),
        ("lansing asphalt paving", 60.0),
        ("asphalt paving lansing mi", 40.0),
        // ... or after a large city.
        ("chicago roofing", 30.0),
        ("roofing chicago il", 25.0),
        // ... or after a word that never ends a keyword without a place.
        ("grand rapids asphalt companies", 22.0),
        ("asphalt companies grand rapids mi", 21.0),
    ]);
    let clusters = cluster(&input, &ClusterConfig::default());
    assert_partition(&clusters, input.len());
    let named = named(&clusters, &input);
    assert_eq!(
        named[0],
        (
            "car accident lawyer".to_string(),
            vec![
                "car accident lawyer".to_string(),
                "car accident lawyers".to_string(),
                "lawyer for a car accident".to_string(),
                "accident car lawyer".to_string(),
            ]
        )
    );
    for (a, b) in [
        ("sump pump", "sumppump"),
        ("sump pump", "sump-pumps"),
        ("asphalt paving in lansing", "lansing asphalt paving"),
        ("asphalt paving in lansing", "asphalt paving lansing mi"),
        ("chicago roofing", "roofing chicago il"),
        (
            "grand rapids asphalt companies",
            "asphalt companies grand rapids mi",
        ),
    ] {
        assert!(together(&clusters, &input, a, b), "{a} / {b}: {named:?}");
    }
    assert_eq!(clusters.len(), 5, "{named:?}");
}

#[test]
fn a_state_after_anything_but_a_town_is_a_place_of_its_own() {
    let input = items(&[
        ("roof repair", 100.0),
        ("roof repair nj", 90.0),
        ("roof repair in newark", 80.0),
        ("roof repair newark nj", 70.0),
        // "pump" follows "in" once, but ends more keywords: no town.
        ("water in sump pump", 60.0),
        ("sump pump", 59.0),
        ("sump pump nj", 58.0),
        ("michigan asphalt", 50.0),
        ("asphalt michigan", 40.0),
        // A stop word before a state is no town.
        ("moving", 30.0),
        ("moving to michigan", 20.0),
        // A route between places ends with a town, not against one.
        ("lansing asphalt", 15.0),
        ("asphalt lansing mi", 14.0),
        ("chelsea mi to lansing", 13.0),
    ]);
    let clusters = cluster(&input, &ClusterConfig::default());
    assert!(!together(
        &clusters,
        &input,
        "roof repair",
        "roof repair nj"
    ));
    assert!(together(
        &clusters,
        &input,
        "roof repair in newark",
        "roof repair newark nj"
    ));
    // A state alone is a place, in any order.
    assert!(together(
        &clusters,
        &input,
        "michigan asphalt",
        "asphalt michigan"
    ));
    assert!(!together(&clusters, &input, "sump pump", "sump pump nj"));
    assert!(!together(&clusters, &input, "moving", "moving to michigan"));
    assert!(together(
        &clusters,
        &input,
        "lansing asphalt",
        "asphalt lansing mi"
    ));
    assert_eq!(clusters.len(), 11, "{:?}", named(&clusters, &input));
}

#[test]
fn one_shared_word_never_groups() {
    let heads = ["lawyer", "pump", "shoes", "tools", "prompts", "loans"];
    let words = ["water", "best", "car", "cheap", "online", "2024"];
    let mut keywords = Vec::new();
    for head in heads {
        for word in words {
            keywords.push((format!("{word} {head}"), 1.0));
        }
    }
    let input: Vec<ClusterInput> = keywords
        .into_iter()
        .map(|(keyword, value)| ClusterInput { keyword, value })
        .collect();
    let clusters = cluster(&input, &ClusterConfig::default());
    assert_partition(&clusters, input.len());
    for c in &clusters {
        let last = |m: usize| input[m].keyword.rsplit(' ').next().unwrap().to_string();
        let first = |m: usize| input[m].keyword.split(' ').next().unwrap().to_string();
        for &m in &c.members {
            // Same head, and the other word generic ("best", "online", a year) if it differs.
            assert_eq!(last(m), last(c.members[0]), "{}", c.name);
            assert!(
                first(m) == first(c.members[0])
                    || ["best", "online", "2024"].contains(&first(m).as_str()),
                "{} in {}",
                input[m].keyword,
                c.name
            );
        }
    }
    // "water pump" and "water shoes" share "water" only.
    assert!(!together(&clusters, &input, "water pump", "water shoes"));
}

#[test]
fn names_are_a_member_as_typed() {
    let input = items(&[
        ("Accident Car Lawyer", 10.0),
        ("car accident lawyer", 900.0),
        ("lawyers car accident", 5.0),
    ]);
    for input in [input.clone(), input.into_iter().rev().collect()] {
        let clusters = cluster(&input, &ClusterConfig::default());
        assert_eq!(clusters.len(), 1);
        assert_eq!(clusters[0].name, "car accident lawyer");
        assert_eq!(clusters[0].primary_keyword, "car accident lawyer");
        assert_eq!(clusters[0].id, "c-car-accident-lawyer");
    }
}

#[test]
fn a_machine_is_named_by_what_it_does() {
    let input = items(&[
        ("yarn twisting machine", 50.0),
        ("yarn twister", 40.0),
        ("yarn twister machines", 30.0),
        ("yarn winding machine", 20.0),
        ("yarn winder", 10.0),
        // Twisting without a machine is the process, not the machine.
        ("yarn twisting", 5.0),
        ("paper machine", 4.0),
        ("paper", 3.0),
    ]);
    let clusters = cluster(&input, &ClusterConfig::default());
    let named = named(&clusters, &input);
    assert!(together(
        &clusters,
        &input,
        "yarn twisting machine",
        "yarn twister"
    ));
    assert!(together(
        &clusters,
        &input,
        "yarn twister",
        "yarn twister machines"
    ));
    assert!(together(
        &clusters,
        &input,
        "yarn winding machine",
        "yarn winder"
    ));
    assert!(!together(
        &clusters,
        &input,
        "yarn twisting",
        "yarn twister"
    ));
    assert_eq!(clusters.len(), 5, "{named:?}");
}
