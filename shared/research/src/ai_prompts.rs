//! The questions a job puts to AI answer engines (ChatGPT, Perplexity, ...), derived from its
//! clusters, never written by hand. The rule:
//!
//! 1. **Which clusters**: by opportunity value (USD a month), highest first; ties by search
//!    volume, then cluster id. Navigational clusters (searches for a site by its name) are
//!    left out: naming a brand in the question decides whether the answer names it. At most
//!    `limit` clusters (`KR_AI_ANSWERS_PROMPTS`, fewer when the budget allows fewer), one
//!    question each, each question once.
//! 2. **Whose question**: the persona most of the cluster's keywords are assigned to (ties: the
//!    persona listed first); none when no keyword has one.
//! 3. **The words** (English jobs): the persona's first goal as the asker's aim, then a
//!    question on the cluster's primary keyword by the cluster's dominant intent:
//!    informational "What should I know about {keyword}?", commercial "What are the best
//!    options for {keyword}?", transactional "Where can I get {keyword}?" ("Where can I
//!    {keyword}?" when it starts with a verb such as buy, order or book). A primary keyword
//!    already phrased as a question is asked as it is. So a persona "Find a trusted local
//!    provider of roofing" on the commercial cluster "roof repair" asks: "I want to find a
//!    trusted local provider of roofing. What are the best options for roof repair?". A goal
//!    that shares two words in a row with the question ("Shortlist the best options for
//!    coffee" before "What are the best options for ...") is left out: it says nothing the
//!    question does not, and reads as a stammer.
//! 4. **Other languages**: the primary keyword as it is, the way people type into an answer
//!    engine, since the templates are English; the engine answers in the keyword's language.
//!
//! A question is at most 500 characters (the API's limit); a goal that would make it longer
//! is left out.

use std::collections::{BTreeMap, HashSet};

use kr_core::dataset::{ClusterRecord, Intent, KeywordRecord, Persona};

use crate::text::Language;

/// The longest question the answer engines' API accepts.
pub const MAX_PROMPT_CHARS: usize = 500;

/// One question and the cluster it was phrased from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AiPrompt {
    pub cluster_id: String,
    pub prompt: String,
}

/// Words that open a question in English.
const QUESTION_WORDS: [&str; 17] = [
    "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "is", "are", "can",
    "could", "should", "do", "does", "will",
];

fn is_question(keyword: &str) -> bool {
    keyword.trim_end().ends_with('?')
        || keyword
            .split_whitespace()
            .next()
            .is_some_and(|first| QUESTION_WORDS.contains(&first.to_lowercase().as_str()))
}

/// Verbs a transactional keyword starts with when it is already an action.
const ACTION_VERBS: [&str; 7] = ["buy", "order", "book", "hire", "get", "purchase", "rent"];

fn starts_with_a_verb(keyword: &str) -> bool {
    keyword
        .split_whitespace()
        .next()
        .is_some_and(|first| ACTION_VERBS.contains(&first.to_lowercase().as_str()))
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Whether `a` and `b` have two words in a row in common (case and punctuation aside).
fn shares_a_word_pair(a: &str, b: &str) -> bool {
    let pairs = |text: &str| -> HashSet<(String, String)> {
        let words: Vec<String> = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        words
            .windows(2)
            .map(|pair| (pair[0].clone(), pair[1].clone()))
            .collect()
    };
    !pairs(a).is_disjoint(&pairs(b))
}

/// The question on `keyword` (see the module's rule, steps 3 and 4).
pub fn phrase(keyword: &str, intent: Intent, goal: Option<&str>, language: &Language) -> String {
    let keyword = keyword.split_whitespace().collect::<Vec<_>>().join(" ");
    if language.code() != "en" {
        return keyword.chars().take(MAX_PROMPT_CHARS).collect();
    }
    let question = if is_question(&keyword) {
        let asked = capitalised(keyword.trim_end_matches('?').trim_end());
        format!("{asked}?")
    } else {
        match intent {
            Intent::Commercial => format!("What are the best options for {keyword}?"),
            // "buy coffee beans" asks "Where can I buy coffee beans?".
            Intent::Transactional if starts_with_a_verb(&keyword) => {
                format!("Where can I {}?", lowercase_first(&keyword))
            }
            Intent::Transactional => format!("Where can I get {keyword}?"),
            Intent::Informational | Intent::Navigational => {
                format!("What should I know about {keyword}?")
            }
        }
    };
    let aim = goal
        .map(|goal| goal.split_whitespace().collect::<Vec<_>>().join(" "))
        .map(|goal| lowercase_first(goal.trim_end_matches(['.', '!', ';', ':'])))
        .filter(|goal| !goal.is_empty())
        .filter(|goal| !shares_a_word_pair(goal, &question))
        .map(|goal| format!("I want to {goal}. {question}"))
        .filter(|prompt| prompt.chars().count() <= MAX_PROMPT_CHARS);
    aim.unwrap_or(question)
        .chars()
        .take(MAX_PROMPT_CHARS)
        .collect()
}

/// The job's questions: at most `limit`, best cluster first (see the module's rule).
pub fn ai_prompts(
    clusters: &[ClusterRecord],
    keywords: &[KeywordRecord],
    personas: &[Persona],
    language: &Language,
    limit: usize,
) -> Vec<AiPrompt> {
    let mut ranked: Vec<&ClusterRecord> = clusters
        .iter()
        .filter(|c| {
            c.dominant_intent != Intent::Navigational && !c.primary_keyword.trim().is_empty()
        })
        .collect();
    ranked.sort_by(|a, b| {
        b.opportunity_value
            .total_cmp(&a.opportunity_value)
            .then(b.total_search_volume.cmp(&a.total_search_volume))
            .then(a.id.cmp(&b.id))
    });
    // Per cluster, how many of its keywords each persona has.
    let mut assigned: BTreeMap<&str, BTreeMap<&str, usize>> = BTreeMap::new();
    for keyword in keywords {
        if let Some(name) = keyword.persona_avatar_name.as_deref() {
            *assigned
                .entry(keyword.cluster_id.as_str())
                .or_default()
                .entry(name)
                .or_default() += 1;
        }
    }
    let persona_of = |cluster: &str| -> Option<&Persona> {
        let counts = assigned.get(cluster)?;
        let most = counts.values().copied().max()?;
        personas
            .iter()
            .find(|p| counts.get(p.avatar_name.as_str()) == Some(&most))
    };
    let mut seen = HashSet::new();
    let mut prompts = Vec::new();
    for cluster in ranked {
        if prompts.len() >= limit {
            break;
        }
        let goal = persona_of(&cluster.id).and_then(|p| p.goals.first().map(String::as_str));
        let prompt = phrase(
            &cluster.primary_keyword,
            cluster.dominant_intent,
            goal,
            language,
        );
        if seen.insert(prompt.to_lowercase()) {
            prompts.push(AiPrompt {
                cluster_id: cluster.id.clone(),
                prompt,
            });
        }
    }
    prompts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn en() -> Language {
        Language::english()
    }

    #[test]
    fn the_question_follows_the_intent_and_the_personas_goal() {
        assert_eq!(
            phrase("roof repair", Intent::Commercial, Some("Find a trusted local provider of roofing."), &en()),
            "I want to find a trusted local provider of roofing. What are the best options for roof repair?"
        );
        // A goal repeating the question's words is left out.
        assert_eq!(
            phrase(
                "cold brew maker",
                Intent::Commercial,
                Some("Shortlist the best options for coffee."),
                &en()
            ),
            "What are the best options for cold brew maker?"
        );
        assert_eq!(
            phrase("cold  brew ratio", Intent::Informational, None, &en()),
            "What should I know about cold brew ratio?"
        );
        assert_eq!(
            phrase("buy coffee beans", Intent::Transactional, Some("  "), &en()),
            "Where can I buy coffee beans?"
        );
        assert_eq!(
            phrase(
                "how long to steep cold brew",
                Intent::Informational,
                None,
                &en()
            ),
            "How long to steep cold brew?"
        );
        assert_eq!(
            phrase(
                "is cold brew stronger?",
                Intent::Commercial,
                Some("Save money"),
                &en()
            ),
            "I want to save money. Is cold brew stronger?"
        );
        // Other languages: the keyword as people type it.
        assert_eq!(
            phrase(
                "kaltbrüh kaffee",
                Intent::Commercial,
                Some("Sparen"),
                &Language::new("de")
            ),
            "kaltbrüh kaffee"
        );
        // A goal that would pass the limit is left out; the question never passes it.
        let long_goal = "g".repeat(480);
        assert_eq!(
            phrase("tea", Intent::Informational, Some(&long_goal), &en()),
            "What should I know about tea?"
        );
        assert!(
            phrase(&"k ".repeat(400), Intent::Commercial, None, &en())
                .chars()
                .count()
                <= MAX_PROMPT_CHARS
        );
    }

    fn cluster(id: &str, keyword: &str, value: f64, volume: i64, intent: Intent) -> ClusterRecord {
        let mut cluster: ClusterRecord = serde_json::from_value(serde_json::json!({
            "id": id, "name": keyword, "primaryKeyword": keyword, "keywordCount": 1,
            "totalSearchVolume": volume, "avgDifficulty": null, "avgCpc": null,
            "dominantIntent": "informational", "organicOpportunityScore": 0.0,
            "paidOpportunityScore": 0.0, "opportunityValue": value
        }))
        .unwrap();
        cluster.dominant_intent = intent;
        cluster
    }

    fn keyword(cluster: &str, persona: Option<&str>) -> KeywordRecord {
        KeywordRecord {
            cluster_id: cluster.into(),
            persona_avatar_name: persona.map(Into::into),
            ..KeywordRecord::default()
        }
    }

    fn persona(name: &str, goal: &str) -> Persona {
        Persona {
            id: format!("p-{name}"),
            avatar_name: name.into(),
            title: String::new(),
            description: String::new(),
            goals: vec![goal.into()],
            pain_points: vec![],
            keyword_count: 0,
            top_keywords: vec![],
        }
    }

    #[test]
    fn the_most_valuable_clusters_are_asked_once_each_in_their_main_personas_words() {
        let clusters = [
            cluster("c-1", "cold brew", 10.0, 100, Intent::Informational),
            cluster("c-2", "brightbrew coffee", 99.0, 900, Intent::Navigational),
            cluster("c-3", "espresso machine", 50.0, 10, Intent::Commercial),
            cluster("c-4", "Cold Brew", 10.0, 100, Intent::Informational),
            cluster("c-5", "french press", 10.0, 300, Intent::Transactional),
            cluster("c-6", "  ", 500.0, 1, Intent::Commercial),
        ];
        let keywords = [
            keyword("c-3", Some("Ana")),
            keyword("c-3", Some("Ben")),
            keyword("c-3", Some("Ben")),
            keyword("c-1", None),
        ];
        let personas = [
            persona("Ana", "Learn the basics"),
            persona("Ben", "Buy once, buy well"),
        ];
        let prompts = ai_prompts(&clusters, &keywords, &personas, &en(), 3);
        let asked: Vec<(&str, &str)> = prompts
            .iter()
            .map(|p| (p.cluster_id.as_str(), p.prompt.as_str()))
            .collect();
        assert_eq!(
            asked,
            [
                (
                    "c-3",
                    "I want to buy once, buy well. What are the best options for espresso machine?"
                ),
                ("c-5", "Where can I get french press?"),
                ("c-1", "What should I know about cold brew?"),
            ]
        );
        // The same question phrased twice is asked once; a limit of 0 asks nothing.
        let all = ai_prompts(&clusters, &keywords, &personas, &en(), 10);
        assert_eq!(all.len(), 3);
        assert!(ai_prompts(&clusters, &keywords, &personas, &en(), 0).is_empty());
    }
}
