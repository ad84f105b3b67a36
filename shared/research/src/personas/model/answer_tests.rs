use crate::intent::Intent;
use crate::personas::{PersonaInput, PersonaKeyword, SiteProfile};
use crate::text::Language;
use serde_json::json;

use super::answer::read;

fn input(count: usize) -> PersonaInput {
    PersonaInput {
        language: Language::english(),
        keywords: (0..count)
            .map(|i| PersonaKeyword {
                keyword: format!("roof repair {i}"),
                intent: Intent::Commercial,
                value: i as f64,
            })
            .collect(),
        site: SiteProfile::default(),
    }
}

fn persona(name: &str) -> serde_json::Value {
    json!({
        "name": name,
        "title": "Homeowner in Newark",
        "description": "Lena owns a house in Newark and needs roof repair before the winter storms arrive.",
        "goals": ["Fix the leak quickly"],
        "painPoints": ["Roofers who never call back"]
    })
}

fn answer(personas: Vec<serde_json::Value>, assignments: serde_json::Value) -> String {
    json!({"personas": personas, "assignments": assignments}).to_string()
}

fn three() -> Vec<serde_json::Value> {
    vec![
        persona("Local Lena"),
        persona("Curious Casey"),
        persona("Budget Bea"),
    ]
}

#[test]
fn reads_a_valid_answer_in_a_code_fence() {
    let input = input(6);
    let sent = vec![5, 4, 3, 2, 1, 0];
    let text = format!(
        "```json\n{}\n```",
        answer(
            three(),
            json!([{"keyword": 0, "persona": 0}, {"keyword": 1, "persona": 2}])
        )
    );
    let set = read(&text, &input, &sent).unwrap();
    assert_eq!(set.personas.len(), 3);
    assert_eq!(set.personas[0].id, "p-local-lena");
    assert_eq!(set.assignments[5], Some(0));
    assert_eq!(set.assignments[4], Some(2));
    assert_eq!(set.assignments[0], None);
    assert_eq!(set.personas[0].keyword_count, 1);
    assert_eq!(set.personas[0].top_keywords, vec!["roof repair 5"]);
}

#[test]
fn refuses_markup_links_and_overlong_text() {
    let input = input(4);
    let sent = vec![0, 1, 2, 3];
    for hostile in [
        "<script>alert(1)</script>",
        "Lena <b>",
        "Visit https://evil.test",
        "Lena{{x}}",
        &"L".repeat(41),
    ] {
        let mut personas = three();
        personas[1] = persona(hostile);
        assert!(
            read(&answer(personas, json!([])), &input, &sent).is_err(),
            "{hostile}"
        );
    }
}

#[test]
fn refuses_wrong_counts_bad_indexes_and_crowded_personas() {
    let input = input(4);
    let sent = vec![0, 1, 2, 3];
    let seven: Vec<_> = (0..7).map(|i| persona(&format!("Person {i}"))).collect();
    let cases = [
        answer(seven, json!([])),
        answer(three()[..2].to_vec(), json!([])),
        answer(three(), json!([{"keyword": 9, "persona": 0}])),
        answer(three(), json!([{"keyword": 0, "persona": 3}])),
        answer(
            three(),
            json!([{"keyword": 0, "persona": 0}, {"keyword": 0, "persona": 1}]),
        ),
        answer(
            three(),
            json!([{"keyword": 0, "persona": 0}, {"keyword": 1, "persona": 0}, {"keyword": 2, "persona": 0}]),
        ),
        answer(
            vec![persona("Lena"), persona("lena"), persona("Bea")],
            json!([]),
        ),
        "no json here".to_string(),
        json!({"personas": three(), "extra": 1}).to_string(),
    ];
    for case in cases {
        assert!(read(&case, &input, &sent).is_err(), "{case}");
    }
}
