use std::fmt;
use std::net::{IpAddr, Ipv4Addr};

use serde::{Deserialize, Serialize};

/// A public, registrable host name, normalised so that one site is one value: lowercase,
/// no scheme, path, port or trailing dot, no leading `www.`, IDN in punycode.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct DomainName(String);

const MAX_LENGTH: usize = 253;
const MAX_LABEL: usize = 63;

impl DomainName {
    pub fn parse(raw: &str) -> Result<Self, String> {
        // IDNA (UTS 46) maps these to a full stop; mapped first, so that every later step
        // (the trailing dot, `www.`, the label checks) sees one kind of dot.
        let lowered: String = raw
            .trim()
            .to_lowercase()
            .chars()
            .map(|c| match c {
                '\u{3002}' | '\u{FF0E}' | '\u{FF61}' => '.',
                other => other,
            })
            .collect();
        if lowered.is_empty() {
            return Err("must not be empty".into());
        }
        let without_scheme = match lowered.find("://") {
            Some(at) => &lowered[at + 3..],
            None => lowered.strip_prefix("//").unwrap_or(&lowered),
        };
        let host = without_scheme
            .split(['/', '?', '#'])
            .next()
            .unwrap_or_default();
        if host.contains('@') {
            return Err("must be a domain name, without user or password".into());
        }
        if host.starts_with('[') || host.parse::<IpAddr>().is_ok() {
            return Err("must be a domain name, not an IP address".into());
        }
        if host.contains(':') {
            return Err("must not include a port".into());
        }
        let host = host.strip_suffix('.').unwrap_or(host);
        let host = host.strip_prefix("www.").unwrap_or(host);
        if host.is_empty() {
            return Err("must be a domain name such as example.com".into());
        }
        let ascii =
            idna::domain_to_ascii(host).map_err(|_| "is not a valid domain name".to_string())?;
        Self::check_ascii(&ascii)?;
        Ok(Self(ascii))
    }

    fn check_ascii(host: &str) -> Result<(), String> {
        if host.parse::<Ipv4Addr>().is_ok()
            || host
                .split('.')
                .all(|label| label.bytes().all(|b| b.is_ascii_digit()))
        {
            return Err("must be a domain name, not an IP address".into());
        }
        if host == "localhost" || host.ends_with(".localhost") {
            return Err("must be a public domain name, not localhost".into());
        }
        if host.len() > MAX_LENGTH {
            return Err(format!("must be at most {MAX_LENGTH} characters"));
        }
        let labels: Vec<&str> = host.split('.').collect();
        for label in &labels {
            let valid = !label.is_empty()
                && label.len() <= MAX_LABEL
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
            if !valid {
                return Err("is not a valid domain name".into());
            }
        }
        if labels.len() < 2 {
            return Err("must be a full domain name such as example.com".into());
        }
        let known_suffix = psl::suffix(host.as_bytes()).is_some_and(|suffix| suffix.is_known());
        if !known_suffix {
            return Err("must end in a public suffix such as .com or .co.uk".into());
        }
        if psl::domain(host.as_bytes()).is_none() {
            return Err("is a public suffix, not a domain that can be registered".into());
        }
        Ok(())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for DomainName {
    type Error = String;

    fn try_from(raw: String) -> Result<Self, Self::Error> {
        Self::parse(&raw)
    }
}

impl From<DomainName> for String {
    fn from(domain: DomainName) -> Self {
        domain.0
    }
}

impl fmt::Display for DomainName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(raw: &str) -> String {
        DomainName::parse(raw)
            .unwrap_or_else(|e| panic!("{raw}: {e}"))
            .to_string()
    }

    #[test]
    fn variants_of_one_site_normalise_to_one_value() {
        for raw in [
            "example.com",
            " Example.COM ",
            "www.example.com",
            "https://www.example.com/path?q=1#top",
            "http://example.com.",
            "//example.com/",
            "HTTPS://WWW.EXAMPLE.COM",
            // IDNA's other full stops are dots too, wherever they are.
            "example.com\u{3002}",
            "www\u{3002}example\u{FF0E}com",
            "https://example\u{FF61}com/",
        ] {
            assert_eq!(ok(raw), "example.com", "{raw}");
        }
    }

    #[test]
    fn subdomains_and_multi_label_suffixes_are_kept() {
        assert_eq!(ok("blog.example.co.uk"), "blog.example.co.uk");
        assert_eq!(ok("shop.example.com.au"), "shop.example.com.au");
    }

    #[test]
    fn idn_becomes_punycode() {
        assert_eq!(ok("bücher.de"), "xn--bcher-kva.de");
        assert_eq!(ok("https://www.MÜNCHEN.de/"), "xn--mnchen-3ya.de");
    }

    #[test]
    fn non_public_or_malformed_hosts_are_refused() {
        for raw in [
            "",
            "localhost",
            "shop.localhost",
            "intranet",
            "192.168.1.10",
            "http://127.0.0.1/",
            "[::1]",
            "example.com:8080",
            "co.uk",
            "com",
            "example.invalidtld",
            "exa mple.com",
            "-example.com",
            "user:pw@example.com",
            "example..com",
        ] {
            assert!(DomainName::parse(raw).is_err(), "{raw:?} should be refused");
        }
    }
}

impl DomainName {
    /// The name people search for the site by: the label before the public suffix
    /// (`acme` for `shop.acme.co.uk`), for recognising navigational searches.
    pub fn brand(&self) -> String {
        let registrable = psl::domain_str(&self.0).unwrap_or(&self.0);
        registrable
            .split('.')
            .next()
            .unwrap_or(registrable)
            .to_string()
    }
}

#[cfg(test)]
mod brand_tests {
    use super::*;

    #[test]
    fn brand_is_the_registrable_label() {
        assert_eq!(
            DomainName::parse("shop.acme.co.uk").unwrap().brand(),
            "acme"
        );
        assert_eq!(
            DomainName::parse("acme-tools.com").unwrap().brand(),
            "acme-tools"
        );
    }
}
