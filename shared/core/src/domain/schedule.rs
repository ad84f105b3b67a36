//! A schedule: a job request run again every week or every month at a set hour (UTC), each run
//! a normal job of the owner's. The slots (the times a run is due) are computed here only.

use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Utc, Weekday};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{JobId, ScheduleId, UserId};
use crate::validation::FieldError;

/// The last day of the month a monthly schedule may name: every month has it.
pub const MAX_DAY_OF_MONTH: u32 = 28;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Cadence {
    Weekly,
    Monthly,
}

/// When runs are due: a weekday (ISO 8601, 1 = Monday … 7 = Sunday) or a day of the month
/// (1 to 28), at a whole hour UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Recurrence {
    pub cadence: Cadence,
    /// Weekly: 1–7; monthly: 1–28.
    pub day: u32,
    pub hour_utc: u32,
}

fn whole_number(
    body: &Map<String, Value>,
    name: &str,
    low: u32,
    high: u32,
) -> Result<Option<u32>, FieldError> {
    match body.get(name).filter(|value| !value.is_null()) {
        None => Ok(None),
        // JSON Schema counts 6.0 as the integer 6, and so do we.
        Some(value) => value
            .as_f64()
            .filter(|n| n.fract() == 0.0 && (f64::from(low)..=f64::from(high)).contains(n))
            .map(|n| Some(n as u32))
            .ok_or_else(|| {
                FieldError::new(name, format!("must be an integer from {low} to {high}"))
            }),
    }
}

impl Recurrence {
    /// `cadence`, `dayOfWeek` (weekly) or `dayOfMonth` (monthly), and `hourUtc` from a
    /// request body; every problem at once.
    pub fn parse(body: &Map<String, Value>) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        let cadence = match body.get("cadence").filter(|value| !value.is_null()) {
            None => Err("is required: weekly or monthly"),
            Some(Value::String(raw)) if raw == "weekly" => Ok(Cadence::Weekly),
            Some(Value::String(raw)) if raw == "monthly" => Ok(Cadence::Monthly),
            Some(_) => Err("must be weekly or monthly"),
        }
        .map_err(|message| errors.push(FieldError::new("cadence", message)))
        .ok();
        let mut number = |name: &str, low: u32, high: u32| {
            whole_number(body, name, low, high)
                .map_err(|error| errors.push(error))
                .ok()
                .flatten()
        };
        let day_of_week = number("dayOfWeek", 1, 7);
        let day_of_month = number("dayOfMonth", 1, MAX_DAY_OF_MONTH);
        let hour_utc = number("hourUtc", 0, 23);
        let day = match cadence {
            Some(Cadence::Weekly) => day_of_week.or_else(|| {
                if body.get("dayOfWeek").is_none_or(Value::is_null) {
                    errors.push(FieldError::new(
                        "dayOfWeek",
                        "is required for a weekly schedule: 1 (Monday) to 7 (Sunday)",
                    ));
                }
                None
            }),
            Some(Cadence::Monthly) => day_of_month.or_else(|| {
                if body.get("dayOfMonth").is_none_or(Value::is_null) {
                    errors.push(FieldError::new(
                        "dayOfMonth",
                        "is required for a monthly schedule: 1 to 28",
                    ));
                }
                None
            }),
            None => None,
        };
        if hour_utc.is_none() && body.get("hourUtc").is_none_or(Value::is_null) {
            errors.push(FieldError::new("hourUtc", "is required: 0 to 23"));
        }
        match (cadence, day, hour_utc) {
            (Some(cadence), Some(day), Some(hour_utc)) if errors.is_empty() => Ok(Self {
                cadence,
                day,
                hour_utc,
            }),
            _ => Err(errors),
        }
    }

    fn at(&self, date: NaiveDate) -> DateTime<Utc> {
        Utc.from_utc_datetime(
            &date
                .and_hms_opt(self.hour_utc, 0, 0)
                .expect("an hour of 0–23"),
        )
    }

    /// The first slot strictly after `after`.
    pub fn next_after(&self, after: DateTime<Utc>) -> DateTime<Utc> {
        let today = after.date_naive();
        match self.cadence {
            Cadence::Weekly => {
                let weekday = Weekday::try_from(self.day as u8 - 1).expect("a weekday of 1–7");
                (0..=7)
                    .map(|ahead| today + Duration::days(ahead))
                    .filter(|date| date.weekday() == weekday)
                    .map(|date| self.at(date))
                    .find(|slot| *slot > after)
                    .expect("a weekday comes round within 8 days")
            }
            Cadence::Monthly => {
                let this_month = today
                    .with_day(self.day)
                    .expect("day 1–28 is in every month");
                let slot = self.at(this_month);
                if slot > after {
                    return slot;
                }
                let next_month = this_month
                    .checked_add_months(chrono::Months::new(1))
                    .expect("a date within range");
                self.at(next_month)
            }
        }
    }
}

/// What became of one slot of a schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScheduledRun {
    /// The slot the run was due at.
    pub slot: DateTime<Utc>,
    /// The job it started; `None` when the run was skipped.
    pub job_id: Option<JobId>,
    /// Why the run was skipped (no runs left, domain allowance used up).
    pub skipped: Option<String>,
}

/// A stored schedule. `request` is the body of `POST /jobs` it runs, as validated when the
/// schedule was made (and validated again at each run).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Schedule {
    pub id: ScheduleId,
    pub owner: UserId,
    pub request: Map<String, Value>,
    pub recurrence: Recurrence,
    pub paused: bool,
    /// The slot of the next run (kept while paused: resuming computes it anew).
    pub next_run_at: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
    pub last_run: Option<ScheduledRun>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn at(text: &str) -> DateTime<Utc> {
        text.parse().unwrap()
    }

    fn recurrence(body: Value) -> Result<Recurrence, Vec<FieldError>> {
        Recurrence::parse(body.as_object().unwrap())
    }

    #[test]
    fn weekly_slots_fall_on_the_weekday_and_hour_strictly_after() {
        // 2026-11-27 is a Friday.
        let friday_9 =
            recurrence(json!({"cadence": "weekly", "dayOfWeek": 5, "hourUtc": 9})).unwrap();
        assert_eq!(
            friday_9.next_after(at("2026-11-27T08:59:59Z")),
            at("2026-11-27T09:00:00Z")
        );
        assert_eq!(
            friday_9.next_after(at("2026-11-27T09:00:00Z")),
            at("2026-12-04T09:00:00Z")
        );
        let monday_0 =
            recurrence(json!({"cadence": "weekly", "dayOfWeek": 1, "hourUtc": 0})).unwrap();
        assert_eq!(
            monday_0.next_after(at("2026-11-27T12:00:00Z")),
            at("2026-11-30T00:00:00Z")
        );
    }

    #[test]
    fn monthly_slots_roll_into_the_next_month_and_year() {
        let the_28th =
            recurrence(json!({"cadence": "monthly", "dayOfMonth": 28, "hourUtc": 23})).unwrap();
        assert_eq!(
            the_28th.next_after(at("2026-02-01T00:00:00Z")),
            at("2026-02-28T23:00:00Z")
        );
        assert_eq!(
            the_28th.next_after(at("2026-12-28T23:00:00Z")),
            at("2027-01-28T23:00:00Z")
        );
        let first =
            recurrence(json!({"cadence": "monthly", "dayOfMonth": 1, "hourUtc": 6})).unwrap();
        assert_eq!(
            first.next_after(at("2026-11-27T00:00:00Z")),
            at("2026-12-01T06:00:00Z")
        );
    }

    #[test]
    fn every_bad_field_is_named_at_once() {
        let fields = |body: Value| -> Vec<String> {
            recurrence(body)
                .unwrap_err()
                .into_iter()
                .map(|e| e.field)
                .collect()
        };
        assert_eq!(fields(json!({})), ["cadence", "hourUtc"]);
        assert_eq!(
            fields(json!({"cadence": "weekly", "hourUtc": 9})),
            ["dayOfWeek"]
        );
        assert_eq!(
            fields(json!({"cadence": "monthly", "dayOfMonth": 31, "hourUtc": 24})),
            ["dayOfMonth", "hourUtc"]
        );
        assert_eq!(
            fields(json!({"cadence": "daily", "dayOfWeek": 0, "hourUtc": "9"})),
            ["cadence", "dayOfWeek", "hourUtc"]
        );
    }
}
