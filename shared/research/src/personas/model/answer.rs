//! The model's answer, read strictly. It is text the model wrote after reading hostile crawled
//! pages: every field has a length limit and must be plain text (no markup, no links, no
//! control characters), the counts must be what was asked for, and every index must point at
//! a keyword sent and a persona given. Anything else rejects the whole answer (the caller
//! falls back to the deterministic personas); nothing is repaired.

use std::collections::HashSet;

use crate::personas::{
    extend_assignments, persona_capacity, Persona, PersonaInput, PersonaSet, MAX_PERSONAS,
    MIN_PERSONAS,
};
use serde::Deserialize;

pub const MAX_NAME_CHARS: usize = 40;
pub const MAX_TITLE_CHARS: usize = 100;
pub const MAX_DESCRIPTION_CHARS: usize = 700;
pub const MAX_ITEM_CHARS: usize = 160;
pub const MAX_ITEMS: usize = 5;
/// The longest answer read at all.
pub const MAX_ANSWER_CHARS: usize = 40_000;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Answer {
    personas: Vec<ModelPersona>,
    #[serde(default)]
    assignments: Vec<Assignment>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ModelPersona {
    name: String,
    title: String,
    description: String,
    goals: Vec<String>,
    pain_points: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Assignment {
    keyword: usize,
    persona: usize,
}

/// Why an answer was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn refuse<T>(why: impl Into<String>) -> Result<T, Refused> {
    Err(Refused(why.into()))
}

/// Plain text within `max` characters: no markup, links, braces or control characters.
pub(crate) fn plain(field: &str, text: &str, max: usize, min: usize) -> Result<String, Refused> {
    let text = text.trim();
    let count = text.chars().count();
    if count < min || count > max {
        return refuse(format!(
            "{field} has {count} characters, not {min} to {max}"
        ));
    }
    let lower = text.to_lowercase();
    let markup = text
        .chars()
        .any(|c| matches!(c, '<' | '>' | '{' | '}' | '`' | '\\') || c.is_control());
    if markup
        || ["http:", "https:", "www.", "javascript:", "data:"]
            .iter()
            .any(|l| lower.contains(l))
    {
        return refuse(format!("{field} is not plain text"));
    }
    Ok(text.to_string())
}

fn items(field: &str, list: &[String]) -> Result<Vec<String>, Refused> {
    if list.is_empty() || list.len() > MAX_ITEMS {
        return refuse(format!(
            "{field} has {} items, not 1 to {MAX_ITEMS}",
            list.len()
        ));
    }
    list.iter()
        .map(|i| plain(field, i, MAX_ITEM_CHARS, 3))
        .collect()
}

fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.to_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// The JSON object in `text` (the model may wrap it in a code fence).
pub(crate) fn json_part(text: &str) -> Option<&str> {
    let start = text.find('{')?;
    let end = text.rfind('}')?;
    (start < end).then(|| &text[start..=end])
}

/// The persona set of a model answer, for `input` whose keywords were sent as `sent`.
pub fn read(text: &str, input: &PersonaInput, sent: &[usize]) -> Result<PersonaSet, Refused> {
    if text.chars().count() > MAX_ANSWER_CHARS {
        return refuse("the answer is too long");
    }
    let json = json_part(text).ok_or_else(|| Refused("the answer holds no JSON object".into()))?;
    let answer: Answer = serde_json::from_str(json)
        .map_err(|e| Refused(format!("the answer is not the JSON asked for: {e}")))?;
    let count = answer.personas.len();
    if !(MIN_PERSONAS..=MAX_PERSONAS).contains(&count) {
        return refuse(format!(
            "{count} personas, not {MIN_PERSONAS} to {MAX_PERSONAS}"
        ));
    }
    let mut personas = Vec::with_capacity(count);
    let mut names = HashSet::new();
    let mut ids = HashSet::new();
    for persona in &answer.personas {
        let name = plain("name", &persona.name, MAX_NAME_CHARS, 2)?;
        let id = format!("p-{}", slug(&name));
        if id == "p-"
            || !names.insert(name.to_lowercase())
            || !ids.insert(id.clone())
            || name.starts_with("__")
        {
            return refuse(format!("the persona name {name:?} is empty or given twice"));
        }
        personas.push(Persona {
            id,
            avatar_name: name,
            title: plain("title", &persona.title, MAX_TITLE_CHARS, 3)?,
            description: plain(
                "description",
                &persona.description,
                MAX_DESCRIPTION_CHARS,
                40,
            )?,
            goals: items("goals", &persona.goals)?,
            pain_points: items("painPoints", &persona.pain_points)?,
            keyword_count: 0,
            top_keywords: Vec::new(),
        });
    }
    let mut assignments: Vec<Option<usize>> = vec![None; input.keywords.len()];
    for assignment in &answer.assignments {
        let Some(&index) = sent.get(assignment.keyword) else {
            return refuse(format!("keyword {} was not sent", assignment.keyword));
        };
        if assignment.persona >= count {
            return refuse(format!("persona {} does not exist", assignment.persona));
        }
        if assignments[index].replace(assignment.persona).is_some() {
            return refuse(format!("keyword {} is assigned twice", assignment.keyword));
        }
    }
    let capacity = persona_capacity(input.keywords.len());
    for (slot, persona) in personas.iter().enumerate() {
        let held = assignments.iter().filter(|a| **a == Some(slot)).count();
        if held > capacity {
            return refuse(format!(
                "{} holds {held} keywords, more than half",
                persona.avatar_name
            ));
        }
    }
    let mut set = PersonaSet {
        personas,
        assignments,
    };
    // The keywords not sent join the persona whose keywords share most words with them.
    let judged: HashSet<usize> = sent.iter().copied().collect();
    extend_assignments(&mut set, input, &judged);
    Ok(set)
}
