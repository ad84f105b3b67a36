use super::*;

fn keyword(keyword: &str, intent: Intent, value: f64) -> PersonaKeyword {
    PersonaKeyword {
        keyword: keyword.to_string(),
        intent,
        value,
    }
}

fn input(code: &str, keywords: Vec<PersonaKeyword>) -> PersonaInput {
    PersonaInput {
        language: Language::new(code),
        keywords,
        site: SiteProfile::default(),
    }
}

fn avatar(set: &PersonaSet, index: usize) -> Option<&str> {
    set.assignments[index].map(|p| set.personas[p].avatar_name.as_str())
}

#[test]
fn sorts_keywords_by_modifier_then_intent() {
    use Intent::*;
    let set = generate_personas(&input(
        "en",
        vec![
            keyword("plumber near me", Transactional, 5.0),
            keyword("cheap plumber", Transactional, 4.0),
            keyword("plumbing company for business", Commercial, 3.0),
            keyword("how to fix a leaking tap", Informational, 2.0),
            keyword("best plumbers", Commercial, 1.0),
            keyword("book a plumber online", Transactional, 1.0),
            keyword("acme plumbing login", Navigational, 1.0),
        ],
    ));
    assert_eq!(set.personas.len(), 6, "seven kinds, at most six personas");
    assert_eq!(avatar(&set, 0), Some("Local Lena"));
    assert_eq!(avatar(&set, 1), Some("Budget-conscious Bea"));
    assert_eq!(avatar(&set, 2), Some("Professional Pat"));
    assert_eq!(avatar(&set, 3), Some("Curious Casey"));
    assert_eq!(avatar(&set, 4), Some("Comparing Cam"));
    assert_eq!(avatar(&set, 5), Some("Decisive Dana"));
    // Loyal Lou came last in the tie-break order and was cut; no intent persona fits.
    assert_eq!(avatar(&set, 6), None);
}

#[test]
fn at_least_three_personas_even_without_keywords() {
    let set = generate_personas(&input("en", vec![]));
    let names: Vec<&str> = set
        .personas
        .iter()
        .map(|p| p.avatar_name.as_str())
        .collect();
    assert_eq!(
        names,
        vec!["Curious Casey", "Comparing Cam", "Decisive Dana"]
    );
    assert!(set
        .personas
        .iter()
        .all(|p| p.keyword_count == 0 && p.top_keywords.is_empty()));
    assert!(set.personas[0].description.contains("what the site offers"));
}

#[test]
fn counts_and_top_keywords_follow_value() {
    let keywords: Vec<PersonaKeyword> = (0..15)
        .map(|i| keyword(&format!("guide {i}"), Intent::Informational, i as f64))
        .collect();
    let set = generate_personas(&input("en", keywords));
    let researcher = &set.personas[0];
    assert_eq!(researcher.avatar_name, "Curious Casey");
    // At most half of the job's keywords, the most valuable ones; the rest fit no other.
    assert_eq!(researcher.keyword_count, 7);
    assert_eq!(researcher.top_keywords.len(), 7);
    assert_eq!(researcher.top_keywords[0], "guide 14");
    assert!(researcher.description.contains("guide 14"));
    assert!(researcher.goals.iter().any(|g| g.contains("guide 14")));
    assert!(set.assignments[..8].iter().all(Option::is_none));
    assert_eq!(set.personas.len(), 3);
    let total: usize = set.personas.iter().map(|p| p.keyword_count).sum();
    assert_eq!(
        total,
        set.assignments.iter().filter(|a| a.is_some()).count()
    );
}

#[test]
fn recognises_modifiers_in_other_languages() {
    use Intent::*;
    let cases = [
        ("de", "zahnarzt in der nähe", "Local Lena"),
        ("de", "günstige laufschuhe", "Budget-conscious Bea"),
        ("fr", "logiciel crm pour entreprise", "Professional Pat"),
        ("es", "guitarra para principiantes", "Beginner Ben"),
        ("it", "idraulico vicino a me", "Local Lena"),
        ("pt-BR", "tênis barato", "Budget-conscious Bea"),
        ("nl", "zakelijke energie", "Professional Pat"),
    ];
    for (code, text, expected) in cases {
        let set = generate_personas(&input(code, vec![keyword(text, Informational, 1.0)]));
        assert_eq!(avatar(&set, 0), Some(expected), "{code}: {text}");
    }
}

#[test]
fn is_deterministic_and_ids_are_unique() {
    use Intent::*;
    let keywords = vec![
        keyword("crm for teams", Commercial, 2.0),
        keyword("crm pricing", Transactional, 2.0),
        keyword("what is a crm", Informational, 2.0),
    ];
    let first = generate_personas(&input("en", keywords.clone()));
    assert_eq!(generate_personas(&input("en", keywords)), first);
    let mut ids: Vec<&str> = first.personas.iter().map(|p| p.id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), first.personas.len());
}

#[test]
fn works_through_the_trait_object() {
    let generator: Box<dyn PersonaGenerator> = Box::new(OfflinePersonaGenerator);
    let set = generator.generate(&input(
        "xx",
        vec![keyword("alpha", Intent::Commercial, 1.0)],
    ));
    assert_eq!(avatar(&set, 0), Some("Comparing Cam"));
}

#[test]
fn serialises_camel_case() {
    let set = generate_personas(&input("en", vec![]));
    let json = serde_json::to_value(&set.personas[0]).unwrap();
    for field in [
        "id",
        "avatarName",
        "title",
        "description",
        "goals",
        "painPoints",
        "keywordCount",
        "topKeywords",
    ] {
        assert!(json.get(field).is_some(), "{field}");
    }
}
