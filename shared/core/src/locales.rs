//! The languages and locations a job may use, shipped as data (see `data/SOURCES.md`).

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Language {
    pub language_code: String,
    pub language_name: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Location {
    /// 2000 + the ISO 3166-1 numeric code of the country, as DataForSEO numbers them.
    pub location_code: u32,
    pub location_name: String,
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

/// A market by name ("English · United States"); a code without a name stays the code.
pub fn market_name(language_code: &str, location_code: u32) -> String {
    let language = languages()
        .iter()
        .find(|language| language.language_code == language_code)
        .map_or(language_code, |language| language.language_name.as_str());
    let location = locations()
        .iter()
        .find(|location| location.location_code == location_code)
        .map_or_else(
            || location_code.to_string(),
            |location| location.location_name.clone(),
        );
    format!("{language} · {location}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markets_are_named_and_unknown_codes_stay_codes() {
        assert_eq!(market_name("en", 2840), "English · United States");
        assert_eq!(market_name("xx", 1), "xx · 1");
    }

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
