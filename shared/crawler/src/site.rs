//! What belongs to one site: `<domain>` and `www.<domain>`, over http or https.

use url::Url;

use crate::error::CrawlError;

/// The host with a leading `www.` removed: the name shared by both spellings of a site.
pub(crate) fn site_key(host: &str) -> &str {
    match host.strip_prefix("www.") {
        // `www.com` is a domain of its own, not the www spelling of `com`.
        Some(rest) if rest.contains('.') => rest,
        _ => host,
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Site {
    /// The host without `www.`, in the form URLs carry it (lowercase, punycode).
    apex: String,
}

impl Site {
    /// A site from the domain a job names. Accepts what the API stores (a bare lowercase
    /// host) and is lenient about case, a trailing dot and a leading `www.`.
    pub(crate) fn from_domain(domain: &str) -> Result<Self, CrawlError> {
        let trimmed = domain.trim().trim_end_matches('.');
        let invalid = || CrawlError::InvalidDomain {
            domain: domain.trim().to_owned(),
        };
        if trimmed.is_empty()
            || trimmed.contains(['/', ':', '@', '?', '#', '\\'])
            || trimmed.contains(char::is_whitespace)
        {
            return Err(invalid());
        }
        let url = Url::parse(&format!("http://{trimmed}/")).map_err(|_| invalid())?;
        let host = url.host_str().ok_or_else(invalid)?;
        Ok(Self::from_host(host))
    }

    pub(crate) fn from_host(host: &str) -> Self {
        Self {
            apex: site_key(&host.to_ascii_lowercase()).to_owned(),
        }
    }

    /// The name to show in messages and to build the home page URL from.
    pub(crate) fn apex(&self) -> &str {
        &self.apex
    }

    pub(crate) fn contains_host(&self, host: &str) -> bool {
        site_key(host) == self.apex
    }

    pub(crate) fn contains(&self, url: &Url) -> bool {
        matches!(url.scheme(), "http" | "https")
            && url.host_str().is_some_and(|host| self.contains_host(host))
    }

    /// One key per page of the site, whichever spelling and scheme reached it, so a page is
    /// fetched once. The query is kept because it often selects different content.
    pub(crate) fn page_key(&self, url: &Url) -> String {
        let host = url.host_str().map(site_key).unwrap_or_default();
        let port = url.port().map(|p| format!(":{p}")).unwrap_or_default();
        let query = url
            .query()
            .filter(|q| !q.is_empty())
            .map(|q| format!("?{q}"))
            .unwrap_or_default();
        format!("{host}{port}{}{query}", url.path())
    }
}

/// File extensions that are never HTML pages: skipped without a request.
const NON_HTML_EXTENSIONS: &[&str] = &[
    "7z", "aac", "apk", "atom", "avi", "avif", "bin", "bmp", "bz2", "css", "csv", "dmg", "doc",
    "docx", "eot", "epub", "exe", "flac", "gif", "gz", "heic", "ico", "iso", "jar", "jpeg", "jpg",
    "js", "json", "m4a", "m4v", "mjs", "mkv", "mov", "mp3", "mp4", "mpeg", "mpg", "msi", "odp",
    "ods", "odt", "ogg", "ogv", "otf", "pdf", "png", "ppt", "pptx", "psd", "rar", "rss", "rtf",
    "svg", "swf", "tar", "tgz", "tif", "tiff", "ttf", "txt", "wasm", "wav", "webm", "webp", "wmv",
    "woff", "woff2", "xls", "xlsx", "xml", "xz", "zip",
];

/// Whether the URL's last path segment has an extension of a known non-HTML file type.
pub(crate) fn is_non_html_path(url: &Url) -> bool {
    let last = url.path().rsplit('/').next().unwrap_or_default();
    match last.rsplit_once('.') {
        Some((_, extension)) => {
            NON_HTML_EXTENSIONS.contains(&extension.to_ascii_lowercase().as_str())
        }
        None => false,
    }
}

/// The crawlable form of a link: http(s) only, without the fragment (it names a place in the
/// same page, not another page).
pub(crate) fn crawlable(mut url: Url) -> Option<Url> {
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    url.set_fragment(None);
    Some(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap()
    }

    #[test]
    fn www_and_apex_are_one_site() {
        let site = Site::from_domain("WWW.Shop.Example.").unwrap();
        assert_eq!(site.apex(), "shop.example");
        assert!(site.contains(&url("https://www.shop.example/a")));
        assert!(site.contains(&url("http://shop.example/b")));
        assert!(!site.contains(&url("https://blog.shop.example/")));
        assert!(!site.contains(&url("https://shop.example.evil.test/")));
        assert!(!site.contains(&url("mailto:info@shop.example")));
        assert_eq!(
            site.page_key(&url("https://www.shop.example/a?x=1")),
            site.page_key(&url("http://shop.example/a?x=1"))
        );
        assert_ne!(
            site.page_key(&url("https://shop.example/a?x=1")),
            site.page_key(&url("https://shop.example/a?x=2"))
        );
        assert_eq!(
            site.page_key(&url("https://shop.example")),
            site.page_key(&url("https://shop.example/?"))
        );
        assert_eq!(Site::from_domain("www.com").unwrap().apex(), "www.com");
    }

    #[test]
    fn domains_are_validated_and_punycoded() {
        assert_eq!(
            Site::from_domain("bücher.example").unwrap().apex(),
            "xn--bcher-kva.example"
        );
        for bad in [
            "",
            "shop.example/path",
            "shop.example:8080",
            "user@shop.example",
            "a b.example",
        ] {
            assert!(Site::from_domain(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn recognises_non_html_files_and_drops_fragments() {
        assert!(is_non_html_path(&url("https://a.example/files/Report.PDF")));
        assert!(is_non_html_path(&url("https://a.example/img/logo.png?v=2")));
        assert!(!is_non_html_path(&url("https://a.example/products/widget")));
        assert!(!is_non_html_path(&url("https://a.example/page.html")));
        assert!(!is_non_html_path(&url("https://a.example/v1.2/")));
        assert_eq!(
            crawlable(url("https://a.example/p#top")).unwrap().as_str(),
            "https://a.example/p"
        );
        assert!(crawlable(url("javascript:alert(1)")).is_none());
    }
}
