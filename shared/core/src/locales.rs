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

/// ISO 3166-1 alpha-2 to alpha-3 (lowercase, as Search Console's `country` dimension writes
/// it) for every country of `data/locations.json`.
const ALPHA3: [(&str, &str); 94] = [
    ("AL", "alb"),
    ("DZ", "dza"),
    ("AO", "ago"),
    ("AR", "arg"),
    ("AM", "arm"),
    ("AU", "aus"),
    ("AT", "aut"),
    ("AZ", "aze"),
    ("BH", "bhr"),
    ("BD", "bgd"),
    ("BE", "bel"),
    ("BO", "bol"),
    ("BA", "bih"),
    ("BR", "bra"),
    ("BG", "bgr"),
    ("BF", "bfa"),
    ("KH", "khm"),
    ("CM", "cmr"),
    ("CA", "can"),
    ("CL", "chl"),
    ("CO", "col"),
    ("CR", "cri"),
    ("CI", "civ"),
    ("HR", "hrv"),
    ("CY", "cyp"),
    ("CZ", "cze"),
    ("DK", "dnk"),
    ("EC", "ecu"),
    ("EG", "egy"),
    ("SV", "slv"),
    ("EE", "est"),
    ("FI", "fin"),
    ("FR", "fra"),
    ("DE", "deu"),
    ("GH", "gha"),
    ("GR", "grc"),
    ("GT", "gtm"),
    ("HK", "hkg"),
    ("HU", "hun"),
    ("IN", "ind"),
    ("ID", "idn"),
    ("IE", "irl"),
    ("IL", "isr"),
    ("IT", "ita"),
    ("JP", "jpn"),
    ("JO", "jor"),
    ("KZ", "kaz"),
    ("KE", "ken"),
    ("LV", "lva"),
    ("LT", "ltu"),
    ("MY", "mys"),
    ("MT", "mlt"),
    ("MX", "mex"),
    ("MD", "mda"),
    ("MC", "mco"),
    ("MA", "mar"),
    ("MM", "mmr"),
    ("NL", "nld"),
    ("NZ", "nzl"),
    ("NI", "nic"),
    ("NG", "nga"),
    ("MK", "mkd"),
    ("NO", "nor"),
    ("PK", "pak"),
    ("PA", "pan"),
    ("PY", "pry"),
    ("PE", "per"),
    ("PH", "phl"),
    ("PL", "pol"),
    ("PT", "prt"),
    ("RO", "rou"),
    ("SA", "sau"),
    ("SN", "sen"),
    ("RS", "srb"),
    ("SG", "sgp"),
    ("SK", "svk"),
    ("SI", "svn"),
    ("ZA", "zaf"),
    ("KR", "kor"),
    ("ES", "esp"),
    ("LK", "lka"),
    ("SE", "swe"),
    ("CH", "che"),
    ("TW", "twn"),
    ("TH", "tha"),
    ("TN", "tun"),
    ("TR", "tur"),
    ("UA", "ukr"),
    ("AE", "are"),
    ("GB", "gbr"),
    ("US", "usa"),
    ("UY", "ury"),
    ("VE", "ven"),
    ("VN", "vnm"),
];

/// The country of a location as Search Console filters by it (ISO 3166-1 alpha-3, lowercase:
/// 2840 → `usa`); `None` for a code that is no location.
pub fn search_console_country(location_code: u32) -> Option<&'static str> {
    let location = locations()
        .iter()
        .find(|location| location.location_code == location_code)?;
    ALPHA3
        .iter()
        .find(|(alpha2, _)| *alpha2 == location.country_iso_code)
        .map(|(_, alpha3)| *alpha3)
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
    fn every_location_has_its_search_console_country() {
        let mut seen = std::collections::HashSet::new();
        for location in locations() {
            let alpha3 = search_console_country(location.location_code)
                .unwrap_or_else(|| panic!("{} has no alpha-3 code", location.location_name));
            assert!(alpha3.len() == 3 && alpha3.bytes().all(|b| b.is_ascii_lowercase()));
            assert!(seen.insert(alpha3), "{alpha3} twice");
        }
        assert_eq!(seen.len(), ALPHA3.len());
        assert_eq!(search_console_country(2840), Some("usa"));
        assert_eq!(search_console_country(2826), Some("gbr"));
        assert_eq!(search_console_country(2276), Some("deu"));
        assert_eq!(search_console_country(1), None);
    }

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
