//! Failures the mock plays on purpose, read from a rules file (`faults.json`): a task that
//! fails, a whole request that fails, a bare HTTP error, or a request carried out whose answer
//! is lost on the way, for the first N matching requests or for all of them.

use std::path::Path;

use anyhow::{Context, Result};
use serde::Deserialize;
use serde_json::Value;

#[derive(Debug, Clone, Default, Deserialize)]
struct When {
    target: Option<String>,
    keyword: Option<String>,
    location_code: Option<i64>,
}

#[derive(Debug, Clone, Deserialize)]
struct Answer {
    task_status: Option<i64>,
    envelope_status: Option<i64>,
    http_status: Option<u16>,
    message: Option<String>,
    /// Whether the failed task is still billed (as `40101` is).
    #[serde(default)]
    charge: bool,
    /// The request is carried out (a `task_post`'s tasks queued and billed), then the
    /// connection drops before the answer is whole: a client cannot tell what happened.
    #[serde(default)]
    answer_lost: bool,
}

#[derive(Debug, Clone, Deserialize)]
struct Rule {
    name: String,
    path: String,
    #[serde(default)]
    when: When,
    times: Option<u32>,
    answer: Answer,
}

#[derive(Debug, Deserialize)]
struct RulesFile {
    rules: Vec<Rule>,
}

/// What a rule makes the mock answer instead of the data.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Fault {
    Task {
        status: i64,
        message: String,
        charge: bool,
    },
    Envelope {
        status: i64,
        message: String,
    },
    Http(u16),
    /// Carried out, answer lost (`answer_lost`).
    AnswerLost,
}

#[derive(Debug, Default)]
pub(crate) struct Faults {
    rules: Vec<Rule>,
    hits: Vec<u32>,
}

fn same(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

impl When {
    fn matches(&self, task: &Value) -> bool {
        let target_ok = self
            .target
            .as_deref()
            .is_none_or(|t| task["target"].as_str().is_some_and(|v| same(v, t)));
        let keyword_ok = self.keyword.as_deref().is_none_or(|k| {
            task["keyword"].as_str().is_some_and(|v| same(v, k))
                || task["keywords"]
                    .as_array()
                    .is_some_and(|list| list.iter().any(|v| v.as_str().is_some_and(|v| same(v, k))))
        });
        let location_ok = self
            .location_code
            .is_none_or(|code| task["location_code"].as_i64() == Some(code));
        target_ok && keyword_ok && location_ok
    }
}

impl Faults {
    pub fn none() -> Self {
        Self::default()
    }

    pub fn load(path: &Path) -> Result<Self> {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let file: RulesFile =
            serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
        for rule in &file.rules {
            let a = &rule.answer;
            let kinds = [
                a.task_status.is_some(),
                a.envelope_status.is_some(),
                a.http_status.is_some(),
                a.answer_lost,
            ];
            anyhow::ensure!(
                kinds.iter().filter(|k| **k).count() == 1,
                "fault rule {:?}: exactly one of task_status, envelope_status, http_status, answer_lost",
                rule.name
            );
        }
        let hits = vec![0; file.rules.len()];
        Ok(Faults {
            rules: file.rules,
            hits,
        })
    }

    /// Forget how often each rule has struck, so `times` counts from zero again.
    pub fn rearm(&mut self) {
        self.hits.iter_mut().for_each(|h| *h = 0);
    }

    /// The first rule that applies to this task, counted as struck.
    pub fn strike(&mut self, path: &str, task: &Value) -> Option<Fault> {
        let index = self.rules.iter().enumerate().position(|(i, rule)| {
            rule.path == path
                && rule.when.matches(task)
                && rule.times.is_none_or(|limit| self.hits[i] < limit)
        })?;
        self.hits[index] += 1;
        let answer = &self.rules[index].answer;
        let message = answer.message.clone().unwrap_or_default();
        Some(if let Some(status) = answer.task_status {
            Fault::Task {
                status,
                message,
                charge: answer.charge,
            }
        } else if answer.answer_lost {
            Fault::AnswerLost
        } else if let Some(status) = answer.envelope_status {
            Fault::Envelope { status, message }
        } else {
            Fault::Http(answer.http_status.unwrap_or(500))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_rule_strikes_as_often_as_it_says_and_only_where_it_matches() {
        let dir = std::env::temp_dir().join(format!("faults-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("f.json");
        std::fs::write(
            &file,
            r#"{"rules": [{"name": "once", "path": "/p", "when": {"keyword": "Cold Brew"},
                "times": 1, "answer": {"task_status": 40202, "message": "m"}}]}"#,
        )
        .unwrap();
        let mut faults = Faults::load(&file).unwrap();
        let other = json!({"keywords": ["espresso"]});
        let task = json!({"keywords": ["espresso", "cold brew"]});
        assert_eq!(faults.strike("/p", &other), None);
        assert_eq!(faults.strike("/q", &task), None);
        assert!(matches!(
            faults.strike("/p", &task),
            Some(Fault::Task { status: 40202, .. })
        ));
        assert_eq!(faults.strike("/p", &task), None);
        faults.rearm();
        assert!(faults.strike("/p", &task).is_some());
    }
}
