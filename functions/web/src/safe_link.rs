//! The guard on links built from crawled data: every link and image whose URL comes from a
//! crawled page goes through [`safe_http_url`] (or [`external_link`], which uses it).

use maud::{html, Markup};

/// The URL, trimmed, if it is an absolute `http` or `https` URL with a host; `None` otherwise.
///
/// Every link and image built from crawled pages goes through this: the pages are written by
/// whoever owns them, and a `javascript:` or `data:` URL in an `href` runs in our origin. Only a
/// positive match on the scheme passes, so the many spellings browsers accept for dangerous
/// schemes (mixed case, embedded tabs and newlines, leading control characters) all fail.
pub fn safe_http_url(url: &str) -> Option<&str> {
    let url = url.trim();
    if url.chars().any(is_unsafe_in_url) {
        return None;
    }
    let (scheme, rest) = url.split_once(':')?;
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return None;
    }
    // Browsers also read `https:host` and `https:///host` as `https://host`; requiring exactly the
    // canonical form keeps our reading of the host the same as theirs.
    let after_slashes = rest.strip_prefix("//")?;
    let authority_end = after_slashes
        .find(['/', '?', '#'])
        .unwrap_or(after_slashes.len());
    is_valid_authority(&after_slashes[..authority_end]).then_some(url)
}

/// `content` linking to `url` in a new tab when [`safe_http_url`] passes it, else `content` as
/// plain text. The page is someone else's: no `window.opener` for it, no referrer, and no
/// endorsement of it for search engines.
pub fn external_link(url: &str, content: impl maud::Render) -> Markup {
    html! {
        @match safe_http_url(url) {
            Some(href) => a href=(href) rel="noopener noreferrer nofollow" target="_blank" { (content) },
            None => (content),
        }
    }
}

/// A URL as link text: without its scheme, which every crawled page shares.
pub fn url_text(url: &str) -> &str {
    let url = url.trim();
    ["https://", "http://"]
        .into_iter()
        .find_map(|scheme| {
            url.get(..scheme.len())
                .filter(|head| head.eq_ignore_ascii_case(scheme))
                .map(|_| &url[scheme.len()..])
        })
        .unwrap_or(url)
}

/// Browsers strip tabs and newlines anywhere in a URL and control characters at its ends, which
/// is how `java\nscript:` slips past naive filters; the invisible and bidirectional formatting
/// characters disguise where a link goes; the rest never appear unencoded in a real URL and
/// parsers disagree about backslashes.
fn is_unsafe_in_url(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(c, '\\' | '<' | '>' | '"' | '`')
        || matches!(c, '\u{00AD}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}')
        || matches!(c, '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// Credentials in a link (`https://bank.example@evil.example`) only serve to disguise its host,
/// so an authority with `@` is refused rather than parsed.
fn is_valid_authority(authority: &str) -> bool {
    if authority.contains('@') {
        return false;
    }
    match split_host_port(authority) {
        Some((host, port)) => is_valid_host(host) && is_valid_port(port),
        None => false,
    }
}

fn split_host_port(authority: &str) -> Option<(&str, &str)> {
    if authority.starts_with('[') {
        let end = authority.find(']')? + 1;
        let (host, rest) = authority.split_at(end);
        return match rest {
            "" => Some((host, "")),
            _ => Some((host, rest.strip_prefix(':')?)),
        };
    }
    Some(authority.split_once(':').unwrap_or((authority, "")))
}

fn is_valid_host(host: &str) -> bool {
    if let Some(address) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        return address.contains(':')
            && address
                .chars()
                .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.');
    }
    // Unicode letters are allowed for internationalised domain names.
    host.chars().any(char::is_alphanumeric)
        && host
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '.' | '_'))
}

/// An empty port (`http://host:/`) is valid and means the default.
fn is_valid_port(port: &str) -> bool {
    port.is_empty() || (port.bytes().all(|b| b.is_ascii_digit()) && port.parse::<u16>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_http_url_passes_absolute_web_urls() {
        let cases = [
            ("https://ok.example/x?y=1", "https://ok.example/x?y=1"),
            ("http://ok.example", "http://ok.example"),
            ("HTTPS://OK.EXAMPLE/Path", "HTTPS://OK.EXAMPLE/Path"),
            ("  https://ok.example/  ", "https://ok.example/"),
            ("https://ok.example:8443/a#b", "https://ok.example:8443/a#b"),
            ("http://ok.example:/", "http://ok.example:/"),
            ("https://[2001:db8::1]:8080/", "https://[2001:db8::1]:8080/"),
            ("https://münchen.example/", "https://münchen.example/"),
            ("https://ok.example?q=a:b", "https://ok.example?q=a:b"),
            ("https://ok.example/a@b", "https://ok.example/a@b"),
        ];
        for (input, expected) in cases {
            assert_eq!(safe_http_url(input), Some(expected), "{input:?}");
        }
    }

    #[test]
    fn safe_http_url_refuses_hostile_and_odd_urls() {
        let hostile = [
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            " javascript:alert(1)",
            "\njavascript:alert(1)",
            "\u{0}javascript:alert(1)",
            "java\tscript:alert(1)",
            "java\nscript:alert(1)",
            "javascript://ok.example/%0aalert(1)",
            "vbscript:msgbox(1)",
            "data:image/png;base64,iVBORw0KGgo=",
            "data:text/html,<script>alert(1)</script>",
            "file:///etc/passwd",
            "ftp://ok.example/",
            "//evil.com",
            "/relative/path",
            "relative/path",
            "?q=1",
            "#top",
            "",
            "   ",
            "https:",
            "https://",
            "https:///evil.com",
            "https:evil.com",
            "https:/evil.com",
            "https:\\\\evil.com",
            "https://\\evil.com",
            "https://ok.example@evil.com/",
            "https://user:pw@ok.example/",
            "https://ok.example:99999/",
            "https://ok.example:80a/",
            "https://ok.example/a b",
            "https://ok.example/\"onmouseover=alert(1)",
            "https://ok.example/<script>",
            "https://ok.example/\u{202E}gpj.exe",
            "https://ok\u{200B}.example/",
            "https://.../",
            "https://[not-ipv6]/",
            "https://ok.example\r\n/",
            "https://ok.example/a\u{7}b",
            "https://ok.example/\u{0}",
            "https://ok.example/\u{85}x",
            "http\u{0}://ok.example/",
        ];
        for input in hostile {
            assert_eq!(safe_http_url(input), None, "{input:?}");
        }
    }

    #[test]
    fn external_links_only_for_web_urls() {
        let link = external_link("https://ok.example/a", "ok").into_string();
        assert_eq!(
            link,
            r#"<a href="https://ok.example/a" rel="noopener noreferrer nofollow" target="_blank">ok</a>"#
        );
        let text = external_link("javascript:alert(1)", "javascript:alert(1)").into_string();
        assert_eq!(text, "javascript:alert(1)");
        assert_eq!(url_text("HTTPS://ok.example/a"), "ok.example/a");
        assert_eq!(url_text("javascript:alert(1)"), "javascript:alert(1)");
        assert_eq!(url_text("http:"), "http:");
    }
}
