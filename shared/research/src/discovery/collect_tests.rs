//! Tests of the phrase collection.

use super::*;
use crate::text::Language;

fn phrases_of(text: &str) -> Vec<String> {
    let analyzer = Analyzer::new(&Language::english());
    let mut vocabulary = Vocabulary::new(&analyzer);
    let ids: Vec<u32> = analyzer
        .tokenizer()
        .words(text)
        .iter()
        .map(|w| vocabulary.intern(w))
        .collect();
    let mut out = Vec::new();
    for_each_phrase(&ids, &vocabulary, |_, surface, _, len| {
        let words: Vec<&str> = surface[..len]
            .iter()
            .map(|&id| vocabulary.words[id as usize].text.as_str())
            .collect();
        out.push(words.join(" "));
    });
    out
}

#[test]
fn phrases_do_not_start_or_end_with_stop_words() {
    assert_eq!(
        phrases_of("the best of shoes"),
        vec!["best of shoes", "shoes"]
    );
}

#[test]
fn near_me_may_end_a_phrase() {
    let phrases = phrases_of("plumber near me");
    assert!(
        phrases.contains(&"plumber near me".to_string()),
        "{phrases:?}"
    );
    assert!(!phrases.contains(&"near me".to_string()));
    assert!(!phrases.contains(&"plumber me".to_string()));
}

#[test]
fn numbers_alone_are_not_phrases() {
    assert_eq!(phrases_of("2024 models"), vec!["2024 models", "models"]);
}

#[test]
fn phrases_have_at_most_five_words() {
    let phrases = phrases_of("alpha beta gamma delta epsilon zeta");
    assert!(phrases.iter().all(|p| p.split(' ').count() <= 5));
    assert!(phrases.contains(&"beta gamma delta epsilon zeta".to_string()));
    assert!(!phrases.iter().any(|p| p.split(' ').count() == 6));
}

#[test]
fn counts_pages_sites_and_fields() {
    let analyzer = Analyzer::new(&Language::english());
    let pages = vec![
        PageContent {
            title: "Trail shoes".into(),
            body_text: "Trail shoes. More trail shoes.".into(),
            site: Some(SiteRole::Primary),
            ..PageContent::default()
        },
        PageContent {
            headings: vec!["Trail shoe".into()],
            site: Some(SiteRole::Competitor(1)),
            ..PageContent::default()
        },
    ];
    let collection = collect(&pages, &analyzer);
    assert_eq!(collection.pages_per_site, vec![1, 0, 1]);
    let trail_shoes = collection
        .phrases
        .iter()
        .find(|p| p.len == 2)
        .expect("the two-word phrase");
    assert_eq!(trail_shoes.pages, 2);
    assert_eq!(trail_shoes.fields[Field::Title.index()], 1);
    assert_eq!(trail_shoes.fields[Field::Body.index()], 2);
    assert_eq!(trail_shoes.fields[Field::Headings.index()], 1);
    assert_eq!(trail_shoes.surfaces.len(), 2);
    let sites: Vec<usize> = trail_shoes.sites.iter().map(|s| s.site).collect();
    assert_eq!(sites, vec![0, 2]);
    let primary_tf = 5.0 + 1.0 + 2f64.ln();
    assert!((trail_shoes.sites[0].weighted_tf - primary_tf).abs() < 1e-9);
}

#[test]
fn query_shape_rules_for_weak_and_linking_words() {
    // Page copy may end a phrase only where it is a noun that heads real queries.
    assert_eq!(phrases_of("find the right plan"), vec!["plan"]);
    assert!(phrases_of("human rights").contains(&"human rights".to_string()));
    // A search modifier may lead; a verb may not.
    assert!(phrases_of("best coffee grinder").contains(&"best coffee grinder".to_string()));
    assert!(!phrases_of("bring coffee")
        .iter()
        .any(|p| p.starts_with("bring")));
    // One linking word inside, never an article or a pronoun.
    assert!(phrases_of("shoes for women").contains(&"shoes for women".to_string()));
    assert!(!phrases_of("leave the leaves").contains(&"leave the leaves".to_string()));
    assert!(!phrases_of("coffee for you to brew")
        .iter()
        .any(|p| p.contains(" for ") && p.contains(" to ")));
}
