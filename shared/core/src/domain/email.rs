use std::fmt;

use serde::Serialize;

/// An e-mail address, trimmed and lowercased so that one mailbox is one account.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Result<Self, String> {
        let email = raw.trim().to_lowercase();
        if email.len() > 254 {
            return Err("must be at most 254 characters".into());
        }
        let Some((local, domain)) = email.split_once('@') else {
            return Err("must be an e-mail address".into());
        };
        let domain_ok = domain.contains('.')
            && !domain.starts_with('.')
            && !domain.ends_with('.')
            && !domain.contains("..");
        if local.is_empty() || domain.contains('@') || !domain_ok {
            return Err("must be an e-mail address".into());
        }
        if email.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err("must not contain spaces".into());
        }
        Ok(Self(email))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_case_and_space() {
        assert_eq!(
            Email::parse("  Ana@Example.COM ").unwrap().as_str(),
            "ana@example.com"
        );
    }

    #[test]
    fn refuses_non_addresses() {
        for bad in [
            "",
            "ana",
            "ana@",
            "@example.com",
            "ana@example",
            "a b@example.com",
            "a@@example.com",
        ] {
            assert!(Email::parse(bad).is_err(), "{bad}");
        }
    }
}
