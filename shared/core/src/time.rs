//! Timestamps as the contract writes them: RFC 3339, UTC, whole seconds, `Z`.

use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serializer;

pub fn format(at: &DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

pub fn serialize<S: Serializer>(at: &DateTime<Utc>, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&format(at))
}

pub mod option {
    use super::*;

    pub fn serialize<S: Serializer>(
        at: &Option<DateTime<Utc>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match at {
            Some(at) => serializer.serialize_str(&format(at)),
            None => serializer.serialize_none(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_seconds_with_z() {
        let at = DateTime::parse_from_rfc3339("2026-11-22T06:41:17.987654+00:00")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(format(&at), "2026-11-22T06:41:17Z");
    }
}
