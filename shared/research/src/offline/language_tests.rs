//! Issue 50: a keyword is a noun phrase (no clause of the site's copy) and never holds the
//! name of a person the site names.

use super::*;
use crate::{PageContent, SiteRole};

fn gutters(url: &str, title: &str, headings: &[&str], body: &str) -> PageContent {
    PageContent {
        url: format!("https://clearflow-gutters.test{url}"),
        site: Some(SiteRole::Primary),
        title: title.to_string(),
        headings: headings.iter().map(|h| h.to_string()).collect(),
        body_text: body.to_string(),
        ..PageContent::default()
    }
}

/// A gutter company whose copy says what its gutters do, and whose founder signs its pages.
fn keywords() -> Vec<String> {
    let pages = vec![
        gutters(
            "/",
            "Gutter Cleaning & Gutter Repair | Clearflow Gutters",
            &["Gutter Cleaning", "Gutter Repair", "Meet Ron Okafor"],
            "Our founder Ron Okafor cleans every gutter himself. A clean gutter drains \
             quickly. Gutters overflowing? Gutter cleaning and gutter repair for every home. \
             Ron Okafor trained our crews.",
        ),
        gutters(
            "/gutter-repair",
            "Gutter Repair | Clearflow Gutters",
            &["Gutter Repair", "Gutter Guards"],
            "Gutters overflowing after a storm need gutter repair. Ron Okafor inspects the \
             gutter and the downspout. A repaired gutter drains quickly. Gutter guards keep \
             leaves out.",
        ),
        gutters(
            "/gutter-cleaning",
            "Gutter Cleaning | Clearflow Gutters",
            &["Gutter Cleaning", "Downspout Cleaning"],
            "Gutters overflowing with leaves need gutter cleaning. Downspout cleaning too. \
             Ron Okafor trained every cleaner. A clean gutter drains quickly.",
        ),
    ];
    offline_keywords(&pages, &Language::english(), 200)
        .into_iter()
        .map(|c| c.keyword)
        .collect()
}

#[test]
fn no_clause_of_the_copy_is_a_keyword() {
    let found = keywords();
    assert!(found.iter().any(|k| k == "gutter repair"), "{found:?}");
    for clause in [
        "gutters overflowing",
        "gutter drains",
        "gutter drains quickly",
    ] {
        assert!(!found.iter().any(|k| k == clause), "{clause}: {found:?}");
    }
}

#[test]
fn no_keyword_holds_a_person_s_name() {
    let found = keywords();
    assert!(found.iter().any(|k| k == "gutter cleaning"), "{found:?}");
    for keyword in &found {
        assert!(
            !keyword.contains("ron") && !keyword.contains("okafor"),
            "{keyword}: {found:?}"
        );
    }
}

/// A Spanish dealer's site with a French version: a Spanish job reads the Spanish pages only;
/// a site that declares no page in the job's language is read whole.
#[test]
fn pages_in_another_language_than_the_jobs_are_not_read_when_the_site_has_the_jobs() {
    let page = |url: &str, lang: &str, heading: &str, body: &str| PageContent {
        url: format!("https://motos.test{url}"),
        site: Some(SiteRole::Primary),
        title: heading.to_string(),
        headings: vec![heading.to_string()],
        body_text: body.to_string(),
        lang: Some(lang.to_string()),
        ..PageContent::default()
    };
    let pages = vec![
        page(
            "/",
            "es",
            "Taller de motos",
            "Reparación de motos y scooters. Taller de motos.",
        ),
        page(
            "/fr/",
            "fr",
            "Atelier moto",
            "Réparation de motos et scooters. Atelier moto.",
        ),
    ];
    let spanish = Language::new("es");
    let skipped = other_language_pages(&pages, &spanish);
    assert!(!skipped(&pages[0]));
    assert!(skipped(&pages[1]));
    // Declared English everywhere, researched in German: read whole.
    let english_template = vec![page("/", "en", "Metzgerei", "Frischfleisch.")];
    let german = Language::new("de");
    let skipped = other_language_pages(&english_template, &german);
    assert!(!skipped(&english_template[0]));
    // "zxx" names no language.
    let none = vec![
        page("/", "es", "Taller", "Motos."),
        page("/x", "zxx", "Taller", "Motos."),
    ];
    let skipped = other_language_pages(&none, &spanish);
    assert!(!skipped(&none[1]));
}

#[test]
fn whom_an_offering_is_for_is_no_topic_of_its_own() {
    let shop = |url: &str, title: &str, headings: &[&str], body: &str| PageContent {
        url: format!("https://luzfolder.test{url}"),
        ..gutters(url, title, headings, body)
    };
    let mut pages = vec![shop(
        "/",
        "Carpetas LED para inmobiliarias | Luzfolder",
        &[
            "Carpetas LED para inmobiliarias",
            "Carpetas retroiluminadas",
        ],
        "Carpetas LED para inmobiliarias de toda España. Carpetas retroiluminadas a medida.",
    )];
    pages.extend(["Madrid", "Valencia", "Sevilla"].into_iter().map(|town| {
        shop(
            &format!("/{}", town.to_lowercase()),
            &format!("Carpetas LED para inmobiliarias en {town} | Luzfolder"),
            &[&format!("Inmobiliarias en {town}")],
            &format!("Instalamos carpetas LED para inmobiliarias en {town}."),
        )
    }));
    let found: Vec<String> = offline_keywords(&pages, &Language::new("es"), 200)
        .into_iter()
        .map(|c| c.keyword)
        .collect();
    assert!(
        found.iter().any(|k| k.starts_with("carpetas led")),
        "{found:?}"
    );
    for audience in [
        "inmobiliarias en madrid",
        "inmobiliarias madrid",
        "inmobiliarias",
    ] {
        assert!(
            !found.iter().any(|k| k == audience),
            "{audience}: {found:?}"
        );
    }
}
