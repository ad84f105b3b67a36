use super::*;
use crate::SiteRole;

fn page(site: SiteRole, title: &str, body: &str) -> PageContent {
    PageContent {
        url: format!("https://example.com/{}", title.replace(' ', "-")),
        site: Some(site),
        title: title.to_string(),
        body_text: body.to_string(),
        ..PageContent::default()
    }
}

fn find<'a>(candidates: &'a [Candidate], keyword: &str) -> &'a Candidate {
    candidates
        .iter()
        .find(|c| c.keyword == keyword)
        .unwrap_or_else(|| panic!("{keyword} missing from {:?}", keywords(candidates)))
}

fn keywords(candidates: &[Candidate]) -> Vec<&str> {
    candidates.iter().map(|c| c.keyword.as_str()).collect()
}

#[test]
fn merges_case_plural_and_stem_variants_under_the_most_frequent_form() {
    let pages = vec![
        page(
            SiteRole::Primary,
            "Running Shoes",
            "Running shoes for trails.",
        ),
        page(
            SiteRole::Primary,
            "Guide",
            "How to pick a running shoe. Running shoes last.",
        ),
    ];
    let candidates = discover_all(&pages, &Language::english());
    let variants: Vec<&Candidate> = candidates
        .iter()
        .filter(|c| c.word_count == 2 && c.keyword.starts_with("running shoe"))
        .collect();
    assert_eq!(variants.len(), 1, "{:?}", keywords(&candidates));
    assert_eq!(variants[0].keyword, "running shoes");
    assert_eq!(variants[0].primary_occurrences, 4);
    assert_eq!(variants[0].page_count, 2);
}

#[test]
fn marks_content_gaps_and_site_coverage() {
    let pages = vec![
        page(SiteRole::Primary, "Trail shoes", "Trail shoes for mud."),
        page(SiteRole::Competitor(0), "Trail shoes", "Waterproof boots."),
        page(
            SiteRole::Competitor(1),
            "Waterproof boots",
            "Waterproof boots and trail shoes.",
        ),
    ];
    let candidates = discover_all(&pages, &Language::english());
    let boots = find(&candidates, "waterproof boots");
    assert!(boots.content_gap && !boots.in_primary);
    assert_eq!(boots.competitor_sites, 2);
    assert_eq!(boots.site_count, 2);
    assert!((boots.site_share - 2.0 / 3.0).abs() < 1e-9);
    let shoes = find(&candidates, "trail shoes");
    assert!(shoes.in_primary && !shoes.content_gap);
    assert_eq!(shoes.competitor_sites, 2);
    assert_eq!(shoes.primary_occurrences, 2);
    assert_eq!(shoes.competitor_occurrences, 2);
    let mud = find(&candidates, "trail shoes for mud");
    assert!(mud.in_primary && !mud.content_gap && mud.competitor_sites == 0);
}

#[test]
fn pages_without_a_role_count_as_the_primary_site() {
    let mut unlabelled = page(SiteRole::Primary, "Trail shoes", "");
    unlabelled.site = None;
    let candidates = discover_all(&[unlabelled], &Language::english());
    assert!(find(&candidates, "trail shoes").in_primary);
}

#[test]
fn title_outweighs_body() {
    let pages = vec![
        page(SiteRole::Primary, "Alpine tents", "Summer sleeping bags."),
        page(SiteRole::Primary, "Other", "Nothing here."),
    ];
    let candidates = discover_all(&pages, &Language::english());
    assert!(
        find(&candidates, "alpine tents").score > find(&candidates, "summer sleeping bags").score
    );
    assert_eq!(find(&candidates, "alpine tents").prominence.title, 1);
    assert_eq!(find(&candidates, "summer sleeping bags").prominence.body, 1);
}

#[test]
fn boilerplate_on_every_page_ranks_below_specific_phrases() {
    let mut pages = Vec::new();
    for topic in [
        "alpine tents",
        "sleeping bags",
        "trekking poles",
        "camping stoves",
        "headlamps",
    ] {
        pages.push(page(
            SiteRole::Primary,
            topic,
            &format!("Free shipping worldwide. Our {topic} range."),
        ));
    }
    pages[0].body_text.push_str(" Privacy policy.");
    let candidates = discover_all(&pages, &Language::english());
    let shipping = find(&candidates, "free shipping worldwide");
    assert_eq!(shipping.page_count, 5);
    assert!(find(&candidates, "trekking poles").score > shipping.score * 3.0);
    assert!(candidates.iter().all(|c| c.keyword != "privacy policy"));
}

#[test]
fn candidates_respect_stop_words_numbers_and_punctuation() {
    let pages = vec![page(
        SiteRole::Primary,
        "The best tents of 2024",
        "Tents, stoves and lamps. 2024",
    )];
    let candidates = discover_all(&pages, &Language::english());
    for candidate in &candidates {
        let words: Vec<&str> = candidate.keyword.split(' ').collect();
        assert!(
            !["the", "of", "and"].contains(&words[0]),
            "{}",
            candidate.keyword
        );
        assert!(
            !["the", "of", "and"].contains(words.last().unwrap()),
            "{}",
            candidate.keyword
        );
        assert!(candidate.word_count <= 5);
    }
    assert!(candidates.iter().all(|c| c.keyword != "2024"));
    assert!(candidates.iter().any(|c| c.keyword == "best tents of 2024"));
    // A comma ends a phrase.
    assert!(candidates.iter().all(|c| c.keyword != "tents stoves"));
}

#[test]
fn output_is_sorted_deterministic_and_truncated() {
    let pages = vec![
        page(
            SiteRole::Primary,
            "Zebra mats",
            "Yoga mats, cork blocks, straps.",
        ),
        page(
            SiteRole::Competitor(0),
            "Yoga mats",
            "Cork blocks and bolsters.",
        ),
    ];
    let config = DiscoveryConfig::new(Language::english(), 3);
    let first = discover(&pages, &config);
    assert_eq!(first.len(), 3);
    for _ in 0..5 {
        assert_eq!(discover(&pages, &config), first);
    }
    let all = discover_all(&pages, &Language::english());
    assert_eq!(&all[..3], &first[..]);
    for pair in all.windows(2) {
        assert!(
            pair[0].score > pair[1].score
                || (pair[0].score == pair[1].score && pair[0].keyword < pair[1].keyword)
        );
    }
}

#[test]
fn max_keywords_is_clamped() {
    assert_eq!(
        DiscoveryConfig::new(Language::english(), 0).keyword_limit(),
        1
    );
    assert_eq!(
        DiscoveryConfig::new(Language::english(), 50_000).keyword_limit(),
        20_000
    );
    assert_eq!(DiscoveryConfig::default().keyword_limit(), 500);
    let pages = vec![page(SiteRole::Primary, "Yoga mats", "Cork blocks.")];
    assert_eq!(
        discover(&pages, &DiscoveryConfig::new(Language::english(), 0)).len(),
        1
    );
}

#[test]
fn works_in_other_languages() {
    let pages = vec![
        page(
            SiteRole::Primary,
            "Chaussures de randonnée",
            "Les chaussures de randonnée légères.",
        ),
        page(
            SiteRole::Competitor(0),
            "Chaussure de randonnée",
            "Bâtons de marche.",
        ),
    ];
    let candidates = discover_all(&pages, &Language::new("fr-FR"));
    let shoes = find(&candidates, "chaussures de randonnée");
    assert_eq!(shoes.site_count, 2);
    assert!(candidates.iter().all(|c| !c.keyword.starts_with("les ")));

    let chinese = vec![page(SiteRole::Primary, "关键词研究", "")];
    let candidates = discover_all(&chinese, &Language::new("zh-CN"));
    assert!(
        candidates.iter().any(|c| c.keyword == "关键词"),
        "{:?}",
        keywords(&candidates)
    );
}

#[test]
fn empty_input_gives_no_candidates() {
    assert!(discover(&[], &DiscoveryConfig::default()).is_empty());
    assert!(discover(&[PageContent::default()], &DiscoveryConfig::default()).is_empty());
}

#[test]
fn lone_search_modifiers_are_not_keywords() {
    let page = PageContent {
        url: "https://shop.example/".into(),
        site: Some(crate::SiteRole::Primary),
        title: "Best espresso grinder vs burr grinder: buy the best".into(),
        headings: vec!["Best espresso grinder".into(), "Buy now".into()],
        body_text: "The best grinder. Compare best picks vs others. Buy a grinder today.".into(),
        ..PageContent::default()
    };
    let found = discover(&[page], &DiscoveryConfig::new(Language::english(), 100));
    let words: Vec<&str> = found.iter().map(|c| c.keyword.as_str()).collect();
    for modifier in ["best", "vs", "buy"] {
        assert!(!words.contains(&modifier), "{modifier} alone: {words:?}");
    }
    assert!(words.iter().any(|w| w.contains("grinder")), "{words:?}");
}

#[test]
fn words_of_two_blocks_never_make_one_phrase() {
    // The crawler puts each block (a list item, a paragraph) on a line of its own.
    let pages = vec![
        page(
            SiteRole::Primary,
            "Services",
            "Gutter Cleaning\nRoof Repair",
        ),
        page(
            SiteRole::Primary,
            "Roofing",
            "Roof Repair\nGutter Cleaning\nRoof repair and gutter cleaning for homes.",
        ),
    ];
    let candidates = discover_all(&pages, &Language::english());
    let found = keywords(&candidates);
    for across in ["gutter cleaning roof repair", "roof repair gutter cleaning"] {
        assert!(!found.contains(&across), "{across}: {found:?}");
    }
    find(&candidates, "roof repair");
    find(&candidates, "gutter cleaning");
}

#[test]
fn a_phrase_that_always_runs_on_into_an_object_is_a_clause_not_a_query() {
    let pages = vec![
        page(
            SiteRole::Primary,
            "Dental fillings",
            "When bacteria cause cavities, fillings remove the decay. Partials prevent your \
             teeth from shifting. Dental fillings restore teeth.",
        ),
        page(
            SiteRole::Primary,
            "Partial dentures",
            "Partial dentures replace missing teeth. Dental fillings last for years.",
        ),
    ];
    let candidates = discover_all(&pages, &Language::english());
    let found = keywords(&candidates);
    for clause in ["fillings remove", "partials prevent"] {
        assert!(!found.contains(&clause), "{clause}: {found:?}");
    }
    find(&candidates, "dental fillings");
}
