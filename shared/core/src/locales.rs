//! The languages and locations a job may use, shipped as data (see `data/SOURCES.md`).

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Language {
    #[schema(example = "en")]
    pub language_code: String,
    #[schema(example = "English")]
    pub language_name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Location {
    /// 2000 + the ISO 3166-1 numeric code of the country, as DataForSEO numbers them.
    #[schema(example = 2840)]
    pub location_code: u32,
    #[schema(example = "United States")]
    pub location_name: String,
    #[schema(example = "US")]
    pub country_iso_code: String,
}

pub fn languages() -> &'static [Language] {
    static LANGUAGES: OnceLock<Vec<Language>> = OnceLock::new();
    LANGUAGES.get_or_init(|| {
        serde_json::from_str(include_str!("../data/languages.json"))
            .expect("data/languages.json is valid")
    })
}

pub fn locations() -> &'static [Location] {
    static LOCATIONS: OnceLock<Vec<Location>> = OnceLock::new();
    LOCATIONS.get_or_init(|| {
        serde_json::from_str(include_str!("../data/locations.json"))
            .expect("data/locations.json is valid")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn united_states_is_listed_with_its_dataforseo_code() {
        let us = locations()
            .iter()
            .find(|l| l.country_iso_code == "US")
            .unwrap();
        assert_eq!(us.location_code, 2840);
        assert_eq!(us.location_name, "United States");
    }

    #[test]
    fn location_codes_are_unique_and_follow_the_iso_rule() {
        let mut codes: Vec<u32> = locations().iter().map(|l| l.location_code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), locations().len());
        assert!(codes.iter().all(|code| (2004..=2894).contains(code)));
    }

    #[test]
    fn english_is_a_language() {
        assert!(languages().iter().any(|l| l.language_code == "en"));
    }
}
