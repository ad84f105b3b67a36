//! The page's query string: read once, passed to the same query engine as the API, and
//! rewritten for links (sorting, paging, filtering) so every view has a shareable URL.

use kr_core::query_params::QueryParams;
use kr_core::validation::FieldError;

/// Filters whose value is a comma list; a form's checkboxes send them once per value.
const LISTS: [&str; 2] = ["intent", "personaAvatarNames"];

#[derive(Debug, Clone, Default)]
pub struct Params {
    pairs: Vec<(String, String)>,
}

impl Params {
    /// Empty values are dropped (an empty form field means "no filter") and repeated list
    /// parameters are joined, so a form submits what the API would accept.
    pub fn parse(raw: &str) -> Self {
        let decoded: Vec<(String, String)> = serde_urlencoded::from_str(raw).unwrap_or_default();
        let mut pairs: Vec<(String, String)> = Vec::new();
        for (name, value) in decoded {
            let value = value.trim().to_string();
            if value.is_empty() {
                continue;
            }
            match pairs.iter_mut().find(|(known, _)| *known == name) {
                Some((_, joined)) if LISTS.contains(&name.as_str()) => {
                    joined.push(',');
                    joined.push_str(&value);
                }
                Some((_, last)) => *last = value,
                None => pairs.push((name, value)),
            }
        }
        Self { pairs }
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(known, _)| known == name)
            .map(|(_, value)| value.as_str())
    }

    /// The values of a list parameter.
    pub fn list(&self, name: &str) -> Vec<String> {
        self.get(name)
            .map(|raw| {
                raw.split(',')
                    .map(|item| item.trim().to_string())
                    .filter(|item| !item.is_empty())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// For the query engine, which refuses what the API refuses.
    pub fn query(&self) -> Result<QueryParams, FieldError> {
        QueryParams::parse(&serde_urlencoded::to_string(&self.pairs).unwrap_or_default())
    }

    /// These parameters with some set (`Some`) or removed (`None`), as a URL on `path`.
    pub fn link(&self, path: &str, changes: &[(&str, Option<&str>)]) -> String {
        let mut pairs = self.pairs.clone();
        for (name, value) in changes {
            pairs.retain(|(known, _)| known != name);
            if let Some(value) = value {
                pairs.push((name.to_string(), value.to_string()));
            }
        }
        let query = serde_urlencoded::to_string(&pairs).unwrap_or_default();
        if query.is_empty() {
            path.to_string()
        } else {
            format!("{path}?{query}")
        }
    }
}

/// `value` encoded for a link's query string.
pub fn urlencode(value: &str) -> String {
    serde_urlencoded::to_string([("", value)])
        .map(|pair| pair.trim_start_matches('=').to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkbox_lists_are_joined_and_empty_fields_dropped() {
        let params = Params::parse(
            "tab=keywords&intent=commercial&intent=transactional&minVolume=&search=+",
        );
        assert_eq!(params.get("intent"), Some("commercial,transactional"));
        assert_eq!(params.get("minVolume"), None);
        assert_eq!(params.get("search"), None);
        assert!(params.query().is_ok());
    }

    #[test]
    fn links_change_only_what_they_name() {
        let params = Params::parse("tab=keywords&sortBy=cpc&offset=50");
        assert_eq!(
            params.link("/jobs/1", &[("sortBy", Some("volume")), ("offset", None)]),
            "/jobs/1?tab=keywords&sortBy=volume"
        );
    }
}
