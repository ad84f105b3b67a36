use std::fmt;

use serde::{Deserialize, Serialize};

/// The account's subscription plan. Only `agency` includes API access.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Plan {
    Free,
    Pro,
    Agency,
}

impl Plan {
    pub fn can_create_api_keys(self) -> bool {
        matches!(self, Plan::Agency)
    }
}

string_enum! {
    Plan {
        Free => "free",
        Pro => "pro",
        Agency => "agency",
    }
    from_str(ignore_case, |raw| {
        let other = raw.trim().to_ascii_lowercase();
        format!("unknown plan {other:?}: expected free, pro or agency")
    })
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_agency_may_create_keys() {
        assert!(Plan::Agency.can_create_api_keys());
        assert!(!Plan::Pro.can_create_api_keys());
        assert!(!Plan::Free.can_create_api_keys());
    }

    #[test]
    fn parses_any_case() {
        assert_eq!("AGENCY".parse::<Plan>().unwrap(), Plan::Agency);
        assert!("gold".parse::<Plan>().is_err());
    }
}
