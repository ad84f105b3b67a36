//! Discovery keeps phrases people search for (issue 11): no lone generic words, no
//! fragments, no boilerplate, and competitors' off-topic phrases rank low.

use super::*;
use crate::SiteRole;

fn page(site: SiteRole, url: &str, title: &str, headings: &[&str], body: &str) -> PageContent {
    PageContent {
        url: url.to_string(),
        site: Some(site),
        title: title.to_string(),
        headings: headings.iter().map(|h| h.to_string()).collect(),
        body_text: body.to_string(),
        ..PageContent::default()
    }
}

fn roofing_site() -> Vec<PageContent> {
    let primary = SiteRole::Primary;
    vec![
        page(
            primary,
            "https://www.summitroofing.com/",
            "Newark Roofing | Summit Roofing",
            &["Roof repair in Newark", "Final inspection"],
            "Please call us right away. We bring black shingles and final touches to every \
             roof. Roof repair, roof replacement and gutter cleaning for Newark homes. \
             Montclair roofing services too. Our yoga mat with retro print is a gift.",
        ),
        page(
            primary,
            "https://www.summitroofing.com/services/roof-replacement",
            "Roof replacement in Newark",
            &["Roof replacement", "Commercial roofing"],
            "Roof replacement with black asphalt shingles. Leave the leaves to us: gutter \
             cleaning every fall. Right after the final inspection we bring the warranty.",
        ),
        page(
            primary,
            "https://www.summitroofing.com/services/gutter-cleaning",
            "Gutter cleaning",
            &["Gutter cleaning in Montclair"],
            "Gutter cleaning and roof repair. Emergency roof repair near me? Call Summit.",
        ),
    ]
}

fn keywords(candidates: &[Candidate]) -> Vec<&str> {
    candidates.iter().map(|c| c.keyword.as_str()).collect()
}

#[test]
fn lone_generic_words_are_not_keywords() {
    let found = discover_all(&roofing_site(), &Language::english());
    let words = keywords(&found);
    for generic in ["black", "bring", "please", "right", "final", "call", "fall"] {
        assert!(!words.contains(&generic), "{generic} alone: {words:?}");
    }
    // A brand from the domain and a head noun several phrases share stay.
    assert!(words.contains(&"summit"), "{words:?}");
    // "roofing" and "roof" share a stem; the more frequent form shows.
    assert!(words.contains(&"roof"), "{words:?}");
    assert!(words.contains(&"roof repair"), "{words:?}");
    assert!(words.contains(&"newark roofing"), "{words:?}");
}

#[test]
fn fragments_and_function_word_shapes_are_not_keywords() {
    let found = discover_all(&roofing_site(), &Language::english());
    let words = keywords(&found);
    for fragment in [
        "mat with retro",
        "leave the leaves",
        "leaves to us",
        "black asphalt",
        "roof repair near",
        "call us",
        "bring the warranty",
    ] {
        assert!(!words.contains(&fragment), "{fragment}: {words:?}");
    }
    let function_words = [
        "the", "to", "us", "a", "and", "we", "our", "with", "in", "of",
    ];
    for keyword in &words {
        let parts: Vec<&str> = keyword.split(' ').collect();
        assert!(!function_words.contains(&parts[0]), "{keyword}");
        assert!(!function_words.contains(parts.last().unwrap()), "{keyword}");
    }
    assert!(words.contains(&"yoga mat with retro print"), "{words:?}");
    assert!(
        words.contains(&"emergency roof repair near me"),
        "{words:?}"
    );
    assert!(words.contains(&"gutter cleaning in montclair"), "{words:?}");
}

#[test]
fn cookie_banners_navigation_and_legal_text_are_not_keywords() {
    let mut pages = roofing_site();
    for page in &mut pages {
        page.anchors = ["Home", "About us", "Contact us", "Blog", "Shopping cart"]
            .iter()
            .map(|a| a.to_string())
            .collect();
        page.body_text.push_str(
            " We use cookies to improve your experience. Accept all cookies. Cookie \
             preferences. Manage cookies. Terms of service. All rights reserved. \
             Accessibility statement.",
        );
    }
    let found = discover_all(&pages, &Language::english());
    for candidate in &found {
        let keyword = candidate.keyword.as_str();
        assert!(!keyword.contains("cookie"), "{keyword}");
        assert!(
            ![
                "home",
                "about us",
                "contact us",
                "blog",
                "shopping cart",
                "terms of service",
                "accessibility statement",
                "experience",
            ]
            .contains(&keyword),
            "{keyword}"
        );
    }
}

#[test]
fn competitor_phrases_unrelated_to_the_primary_site_rank_low() {
    let mut pages = roofing_site();
    let competitor = SiteRole::Competitor(0);
    for (path, title) in [
        ("a", "Pizza delivery deals"),
        ("b", "Pizza delivery coupons"),
    ] {
        pages.push(page(
            competitor,
            &format!("https://rival.example/{path}"),
            title,
            &["Pizza delivery", "Pizza delivery tonight"],
            "Pizza delivery in Newark. Pizza delivery deals. Roof repair estimates.",
        ));
    }
    pages.push(page(
        competitor,
        "https://rival.example/roofs",
        "Roof repair estimates",
        &["Roof repair estimates"],
        "Free roof repair estimates in Newark.",
    ));
    let found = discover_all(&pages, &Language::english());
    let rank = |keyword: &str| {
        found
            .iter()
            .position(|c| c.keyword == keyword)
            .unwrap_or_else(|| panic!("{keyword} missing: {:?}", keywords(&found)))
    };
    let pizza = rank("pizza delivery");
    assert!(pizza > rank("roof repair"), "{:?}", keywords(&found));
    assert!(pizza > rank("gutter cleaning"), "{:?}", keywords(&found));
    assert!(pizza > rank("newark roofing"), "{:?}", keywords(&found));
    // A related content gap (its words are the primary site's) is not held back as much.
    assert!(
        rank("roof repair estimates") < pizza,
        "{:?}",
        keywords(&found)
    );
    assert!(found[rank("pizza delivery")].content_gap);
}
