use serde::Serialize;

use crate::locales;

/// A language code from `GET /languages`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct LanguageCode(String);

impl LanguageCode {
    /// Matches case-insensitively and returns the code as the languages list writes it.
    pub fn parse(raw: &str) -> Result<Self, String> {
        locales::languages()
            .iter()
            .find(|language| language.language_code.eq_ignore_ascii_case(raw.trim()))
            .map(|language| Self(language.language_code.clone()))
            .ok_or_else(|| "must be a language_code from GET /api/v1/languages".to_string())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A location code from `GET /locations`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct LocationCode(u32);

impl LocationCode {
    pub fn parse(raw: i64) -> Result<Self, String> {
        locales::locations()
            .iter()
            .find(|location| i64::from(location.location_code) == raw)
            .map(|location| Self(location.location_code))
            .ok_or_else(|| "must be a location_code from GET /api/v1/locations".to_string())
    }

    pub fn get(self) -> u32 {
        self.0
    }
}
