//! The response envelope every DataForSEO endpoint shares, and the one decision it supports:
//! did the (single) task succeed, and if not, what kind of failure is it.

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

use crate::lenient;
use crate::status::{classify, StatusClass, OK};

/// The status and charge that both the request and each task report.
#[derive(Debug, Deserialize)]
pub struct Reported {
    #[serde(default, deserialize_with = "lenient::opt_i64")]
    pub status_code: Option<i64>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub status_message: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub cost: Option<f64>,
}

#[derive(Debug, Deserialize)]
pub struct Envelope {
    #[serde(flatten)]
    pub reported: Reported,
    #[serde(default, deserialize_with = "lenient::list")]
    pub tasks: Vec<Task>,
}

#[derive(Debug, Deserialize)]
pub struct Task {
    /// The task's UUID: what a Standard-queue task is collected by.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub id: Option<String>,
    #[serde(flatten)]
    pub reported: Reported,
    #[serde(default)]
    pub result: Value,
}

/// Why a request, or its task, failed.
#[derive(Debug)]
pub struct Failure {
    pub class: StatusClass,
    pub code: i64,
    pub message: String,
}

impl Envelope {
    pub fn parse(body: &[u8]) -> Option<Envelope> {
        serde_json::from_slice(body).ok()
    }

    /// The charge of the request: the envelope's `cost`, else the sum of its tasks'.
    pub fn charged(&self) -> f64 {
        self.reported
            .cost
            .unwrap_or_else(|| self.tasks.iter().filter_map(|t| t.reported.cost).sum())
            .max(0.0)
    }

    /// What a response to one task says, after both status levels were read (the envelope
    /// can say 20000 while its task failed): the task's `result` array (empty for "no
    /// results"), or why it failed.
    pub fn outcome(self) -> Result<Vec<Value>, Failure> {
        match self.failure(true) {
            Some(failure) => Err(failure),
            None => Ok(self.into_results()),
        }
    }

    /// The first task's `result` array; empty when it has none ("no results").
    pub fn into_results(self) -> Vec<Value> {
        match self.tasks.into_iter().next().map(|task| task.result) {
            Some(Value::Array(results)) => results,
            _ => Vec::new(),
        }
    }

    /// Why the request failed, reading its first task too when `first_task` (a request of
    /// one task); `None` when it did not.
    pub fn failure(&self, first_task: bool) -> Option<Failure> {
        let envelope_code = self.reported.status_code.unwrap_or(OK);
        if classify(envelope_code) != StatusClass::Ok {
            return Some(failed(envelope_code, self.reported.status_message.clone()));
        }
        if !first_task {
            return None;
        }
        let Some(task) = self.tasks.first() else {
            return Some(failed(50_000, Some("The response held no task.".into())));
        };
        let code = task.reported.status_code.unwrap_or(OK);
        match classify(code) {
            StatusClass::Ok | StatusClass::NoResults => None,
            _ => Some(failed(code, task.reported.status_message.clone())),
        }
    }
}

fn failed(code: i64, message: Option<String>) -> Failure {
    Failure {
        class: classify(code),
        code,
        message: message.unwrap_or_else(|| format!("status {code}")),
    }
}

/// Decodes each result object, skipping any that does not fit.
pub fn decode_all<T: DeserializeOwned>(results: Vec<Value>) -> Vec<T> {
    results
        .into_iter()
        .filter_map(|r| serde_json::from_value(r).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(json: &str) -> Result<Vec<Value>, Failure> {
        Envelope::parse(json.as_bytes()).unwrap().outcome()
    }

    #[test]
    fn a_failed_task_inside_an_ok_envelope_is_a_failure() {
        let json = r#"{"status_code":20000,"cost":0.01,"tasks":[{"status_code":40501,
            "status_message":"Invalid Field: 'location_code'.","result":null}]}"#;
        match outcome(json) {
            Err(Failure { class, code, .. }) => {
                assert_eq!((class, code), (StatusClass::Rejected, 40501))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn no_results_is_an_empty_answer_and_cost_is_read() {
        let json =
            r#"{"status_code":20000,"cost":0.0023,"tasks":[{"status_code":40102,"result":null}]}"#;
        let envelope = Envelope::parse(json.as_bytes()).unwrap();
        assert_eq!(envelope.charged(), 0.0023);
        assert!(matches!(envelope.outcome(), Ok(r) if r.is_empty()));
    }

    #[test]
    fn envelope_errors_win_and_task_costs_add_up_without_a_total() {
        let json = r#"{"status_code":40202,"status_message":"Rate limit","tasks":[]}"#;
        assert!(matches!(
            outcome(json),
            Err(Failure {
                class: StatusClass::Retryable,
                ..
            })
        ));
        let json =
            r#"{"tasks":[{"status_code":20000,"cost":0.5,"result":[{"a":1}],"new_field":[]}]}"#;
        let envelope = Envelope::parse(json.as_bytes()).unwrap();
        assert_eq!(envelope.charged(), 0.5);
        assert!(matches!(envelope.outcome(), Ok(r) if r.len() == 1));
    }
}
