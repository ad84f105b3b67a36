//! Google Search Console as the domain sees it: a property (what Google calls a site) and the
//! access an account has to it.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::DomainName;

/// Longest property URL accepted, as Google's own limit for a URL-prefix property.
const MAX_PROPERTY_CHARS: usize = 2048;
const DOMAIN_PREFIX: &str = "sc-domain:";

/// A Search Console property, written as Google writes its `siteUrl`: a domain property
/// (`sc-domain:example.com`, every protocol and subdomain) or a URL-prefix property
/// (`https://www.example.com/`, with its trailing slash).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct PropertyUrl(String);

impl PropertyUrl {
    pub fn parse(raw: &str) -> Result<Self, String> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err("must not be empty".into());
        }
        if raw.chars().count() > MAX_PROPERTY_CHARS {
            return Err(format!("must be at most {MAX_PROPERTY_CHARS} characters"));
        }
        if let Some(domain) = raw.strip_prefix(DOMAIN_PREFIX) {
            let domain = DomainName::parse(domain)
                .map_err(|err| format!("names a domain property whose domain {err}"))?;
            return Ok(Self(format!("{DOMAIN_PREFIX}{domain}")));
        }
        let url = url::Url::parse(raw).map_err(|_| {
            "must be a Search Console property: sc-domain:example.com or https://www.example.com/"
                .to_string()
        })?;
        if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
            return Err("must be an http or https URL-prefix property, or sc-domain:…".into());
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err("must not hold a user or password".into());
        }
        if url.query().is_some() || url.fragment().is_some() || !raw.ends_with('/') {
            return Err("must be a URL prefix ending in /, without query or fragment".into());
        }
        Ok(Self(url.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether a page URL belongs to this property, as Search Console reports pages: a domain
    /// property covers its domain and every subdomain, a URL prefix what starts with it.
    pub fn covers(&self, page: &str) -> bool {
        match self.0.strip_prefix(DOMAIN_PREFIX) {
            Some(domain) => url::Url::parse(page)
                .ok()
                .and_then(|url| url.host_str().map(str::to_ascii_lowercase))
                .is_some_and(|host| host == domain || host.ends_with(&format!(".{domain}"))),
            None => page.starts_with(&self.0),
        }
    }
}

impl TryFrom<String> for PropertyUrl {
    type Error = String;

    fn try_from(raw: String) -> Result<Self, Self::Error> {
        Self::parse(&raw)
    }
}

impl From<PropertyUrl> for String {
    fn from(value: PropertyUrl) -> Self {
        value.0
    }
}

impl fmt::Display for PropertyUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What Google lets the connected account do with a property (`permissionLevel`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PermissionLevel {
    SiteOwner,
    SiteFullUser,
    SiteRestrictedUser,
    SiteUnverifiedUser,
}

string_enum! {
    PermissionLevel {
        SiteOwner => "siteOwner",
        SiteFullUser => "siteFullUser",
        SiteRestrictedUser => "siteRestrictedUser",
        SiteUnverifiedUser => "siteUnverifiedUser",
    }
    from_str(exact, |raw| format!("is not a Search Console permission level: {raw}"))
}

impl PermissionLevel {
    /// Whether the property's search data can be read: an unverified user sees none.
    pub fn reads_data(self) -> bool {
        self != Self::SiteUnverifiedUser
    }
}

/// A property the connected Google account can see.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchConsoleProperty {
    pub site_url: PropertyUrl,
    pub permission_level: PermissionLevel,
}

/// What a job's Search Console import came to (the Job resource's `searchConsole`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchConsoleImport {
    pub status: ImportStatus,
    /// Why it was skipped, in the owner's words; `null` when imported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Rows (query, page, day) read from Search Console.
    #[serde(default)]
    pub rows: u64,
    /// Distinct queries among them.
    #[serde(default)]
    pub queries: u64,
    /// The job's keywords that got Search Console figures.
    #[serde(default)]
    pub keywords: u64,
    /// Queries only Search Console knew, added to the job (`source: search_console`).
    #[serde(default)]
    pub added_keywords: u64,
    /// The window read, `YYYY-MM-DD`; `null` when nothing was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_date: Option<String>,
    /// The last day the property had data for (Search Console lags two or three days);
    /// `null` when it had none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_date: Option<String>,
}

impl SearchConsoleImport {
    /// Not imported, for `reason`; the job goes on without the data.
    pub fn skipped(reason: impl Into<String>) -> Self {
        Self {
            status: ImportStatus::Skipped,
            reason: Some(reason.into()),
            rows: 0,
            queries: 0,
            keywords: 0,
            added_keywords: 0,
            start_date: None,
            end_date: None,
        }
    }
}

/// Whether a job's Search Console data was imported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ImportStatus {
    /// Read (possibly no rows: the property has no data for the job's country).
    Imported,
    /// Not read: the grant lapsed, Google failed, the connection is gone; see `reason`.
    Skipped,
}

string_enum! {
    ImportStatus {
        Imported => "imported",
        Skipped => "skipped",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_are_written_as_google_writes_them() {
        assert_eq!(
            PropertyUrl::parse(" sc-domain:WWW.Example.com ")
                .unwrap()
                .as_str(),
            "sc-domain:example.com"
        );
        assert_eq!(
            PropertyUrl::parse("https://www.example.com/")
                .unwrap()
                .as_str(),
            "https://www.example.com/"
        );
        for bad in [
            "",
            "example.com",
            "https://www.example.com",
            "https://www.example.com/?a=1",
            "ftp://example.com/",
            "https://user:pw@example.com/",
            "sc-domain:",
            "sc-domain:127.0.0.1",
        ] {
            assert!(PropertyUrl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_domain_property_covers_its_subdomains_and_a_prefix_only_what_it_starts() {
        let domain = PropertyUrl::parse("sc-domain:example.com").unwrap();
        assert!(domain.covers("https://example.com/a"));
        assert!(domain.covers("http://shop.example.com/"));
        assert!(!domain.covers("https://notexample.com/"));
        let prefix = PropertyUrl::parse("https://www.example.com/blog/").unwrap();
        assert!(prefix.covers("https://www.example.com/blog/post"));
        assert!(!prefix.covers("https://www.example.com/shop"));
    }

    #[test]
    fn permission_levels_keep_googles_names() {
        for level in PermissionLevel::ALL {
            let json = serde_json::to_value(level).unwrap();
            assert_eq!(json, level.as_str());
            assert_eq!(level.as_str().parse::<PermissionLevel>().unwrap(), level);
        }
    }
}
