//! The local roofing company: personas from who the site serves.

use super::*;
use crate::{PageContent, SiteRole};

fn page(url: &str, title: &str, headings: &[&str], body: &str) -> PageContent {
    PageContent {
        url: format!("https://summit-roofing.test{url}"),
        site: Some(SiteRole::Primary),
        title: title.to_string(),
        headings: headings.iter().map(|h| h.to_string()).collect(),
        body_text: body.to_string(),
        ..PageContent::default()
    }
}

pub(crate) fn roofing_pages() -> Vec<PageContent> {
    vec![
        page(
            "/",
            "Summit Roofing | Roof Repair & Roof Replacement in Newark, NJ",
            &[
                "Roof Repair and Roof Replacement in Newark",
                "Why Choose Us",
            ],
            "Family-owned roofers serving homeowners in Newark, Montclair, Bloomfield and \
             Orange. We repair leaks, replace roofs and install gutters on your house. Affordable \
             prices and a free estimate. Please call us right away; bring your questions.",
        ),
        page(
            "/roof-repair",
            "Emergency Roof Repair Newark | Summit Roofing",
            &["Emergency Roof Repair", "How Much Does Roof Repair Cost?"],
            "Storm damage or a leak? Our crews reach homes in Newark and Montclair the same day. \
             Every homeowner gets a written quote.",
        ),
        page(
            "/gutters",
            "Gutter Installation in Montclair & Newark | Summit Roofing",
            &["Gutter Installation", "Seamless Gutters"],
            "Seamless gutters in black, white or bronze. Leave the leaves to us: gutter guards \
             keep them out. We also fit a mat with retro shingle looks.",
        ),
        page(
            "/commercial",
            "Commercial Roofing | Summit Roofing",
            &["Commercial Roofing for Businesses", "Flat Roof Replacement"],
            "Flat roofs for offices, warehouses and retail buildings across Essex County.",
        ),
    ]
}

fn keyword(keyword: &str, intent: Intent, value: f64) -> PersonaKeyword {
    PersonaKeyword {
        keyword: keyword.to_string(),
        intent,
        value,
    }
}

/// The job: a few real searches among many generic words and fragments, most of
/// them classified informational.
fn roofing_keywords() -> Vec<PersonaKeyword> {
    use Intent::*;
    let mut keywords = vec![
        keyword("newark roofing", Informational, 60.0),
        keyword("montclair roofing services", Informational, 55.0),
        keyword("roof repair newark nj", Commercial, 50.0),
        keyword("orange and nearby", Informational, 49.0),
        keyword("roofers near me", Transactional, 48.0),
        keyword("roof replacement cost", Commercial, 45.0),
        keyword("cheap roof repair", Commercial, 44.0),
        keyword("commercial roofing", Commercial, 40.0),
        keyword("flat roof replacement for business", Commercial, 39.0),
        keyword("how to fix a leaking roof", Informational, 38.0),
        keyword("signs you need a new roof", Informational, 37.0),
        keyword("best roofing contractors", Commercial, 36.0),
        keyword("asphalt vs metal roof", Commercial, 35.0),
        keyword("emergency roof repair", Transactional, 34.0),
        keyword("gutter installation", Transactional, 33.0),
        keyword("seamless gutters", Informational, 32.0),
        keyword("summit roofing reviews", Navigational, 31.0),
    ];
    for (i, word) in [
        "black",
        "bring",
        "please",
        "right",
        "final",
        "mat with retro",
        "leave the leaves",
        "white",
        "bronze",
        "storm",
        "crews",
        "same day",
        "family owned",
        "written",
    ]
    .iter()
    .cycle()
    .take(485 - keywords.len() + 2)
    .enumerate()
    {
        keywords.push(keyword(&format!("{word} {}", i / 14), Informational, 1.0));
    }
    keywords
}

fn roofing_input() -> PersonaInput {
    PersonaInput {
        language: Language::english(),
        keywords: roofing_keywords(),
        site: SiteProfile::from_pages(&roofing_pages(), &Language::english()),
    }
}

fn persona_of<'a>(set: &'a PersonaSet, input: &PersonaInput, keyword: &str) -> Option<&'a str> {
    let index = input.keywords.iter().position(|k| k.keyword == keyword)?;
    set.assignments[index].map(|p| set.personas[p].avatar_name.as_str())
}

#[test]
fn profile_reads_who_the_roofer_serves() {
    let profile = SiteProfile::from_pages(&roofing_pages(), &Language::english());
    assert_eq!(profile.name.as_deref(), Some("Summit Roofing"));
    assert!(profile.homeowners);
    assert_eq!(profile.places[0], "Newark");
    for town in ["Montclair", "Bloomfield", "Orange"] {
        assert!(
            profile.places.iter().any(|p| p == town),
            "{town}: {profile:?}"
        );
    }
    assert!(!profile.places.iter().any(|p| p == "NJ" || p == "Storm"));
    assert_eq!(profile.offerings[0], "roof repair", "{profile:?}");
    for offering in [
        "roof replacement",
        "gutter installation",
        "commercial roofing",
    ] {
        assert!(
            profile.offerings.iter().any(|o| o == offering),
            "{offering}: {profile:?}"
        );
    }
    assert_eq!(profile.price_level, PriceLevel::Standard);
}

#[test]
fn no_persona_holds_more_than_half_and_generic_words_have_none() {
    let input = roofing_input();
    let set = generate_personas(&input);
    assert!(
        (3..=6).contains(&set.personas.len()),
        "{}",
        set.personas.len()
    );
    for persona in &set.personas {
        assert!(
            persona.keyword_count * 2 <= input.keywords.len(),
            "{} holds {} of {}",
            persona.avatar_name,
            persona.keyword_count,
            input.keywords.len()
        );
    }
    for generic in [
        "black 0",
        "please 0",
        "mat with retro 0",
        "leave the leaves 1",
    ] {
        assert_eq!(persona_of(&set, &input, generic), None, "{generic}");
    }
}

#[test]
fn local_service_searches_go_to_the_local_persona() {
    let input = roofing_input();
    let set = generate_personas(&input);
    for local in [
        "newark roofing",
        "montclair roofing services",
        "roof repair newark nj",
        "roofers near me",
    ] {
        assert_eq!(
            persona_of(&set, &input, local),
            Some("Local Lena"),
            "{local}"
        );
    }
    assert_eq!(
        persona_of(&set, &input, "cheap roof repair"),
        Some("Budget-conscious Bea")
    );
    assert_eq!(
        persona_of(&set, &input, "flat roof replacement for business"),
        Some("Professional Pat")
    );
    assert_eq!(
        persona_of(&set, &input, "how to fix a leaking roof"),
        Some("Curious Casey")
    );
}

#[test]
fn descriptions_name_offerings_and_places_in_whole_sentences() {
    let set = generate_personas(&roofing_input());
    let local = set
        .personas
        .iter()
        .find(|p| p.avatar_name == "Local Lena")
        .expect("a local persona");
    assert!(
        local.description.contains("Newark"),
        "{}",
        local.description
    );
    assert!(local.description.contains("roof"), "{}", local.description);
    assert!(local.title.contains("Newark"), "{}", local.title);
    for persona in &set.personas {
        let text = &persona.description;
        let first = persona.avatar_name.rsplit(' ').next().unwrap();
        assert!(text.starts_with(first), "{text}");
        assert!(text.ends_with('.'), "{text}");
        assert!(
            text.matches(". ").count() >= 1,
            "two sentences at least: {text}"
        );
        assert!(!text.contains("orange and nearby"), "{text}");
        assert!(!text.contains("needs roofing contractor"), "{text}");
        assert!(!text.to_lowercase().starts_with("wants"), "{text}");
        assert!(
            ["roof", "gutter"].iter().any(|o| text.contains(o)),
            "names an offering: {text}"
        );
    }
}
