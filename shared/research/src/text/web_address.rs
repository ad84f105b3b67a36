//! The parts of a result URL the research compares, read without a URL parser: this runs for
//! every result of every SERP of a job.

/// Whether `host` (any case, with or without "www.") is `domain` (bare) or one of its
/// subdomains, without allocating: this runs for every ranking and result URL of a job.
pub(crate) fn belongs(host: &str, domain: &str) -> bool {
    let host = host.trim_end_matches('.');
    let host = match host.get(..4) {
        Some(prefix) if prefix.eq_ignore_ascii_case("www.") => &host[4..],
        _ => host,
    };
    if host.len() < domain.len() {
        return false;
    }
    let (rest, tail) = host.split_at(host.len() - domain.len());
    tail.eq_ignore_ascii_case(domain) && (rest.is_empty() || rest.ends_with('.'))
}

/// The host of a result URL, as written.
pub(crate) fn host_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let host = &rest[..end];
    // No user info or port in the comparison.
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    host.split_once(':').map_or(host, |(h, _)| h)
}

/// The path of a result URL, without query or fragment ("" for none).
pub(crate) fn path_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    let path = rest
        .find(['/', '?', '#'])
        .map_or("", |start| &rest[start..]);
    if !path.starts_with('/') {
        return "";
    }
    path.split(['?', '#']).next().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subdomains_belong_and_lookalikes_do_not() {
        assert!(belongs("acme.com", "acme.com"));
        assert!(belongs("WWW.Acme.com", "acme.com"));
        assert!(belongs("blog.acme.com.", "acme.com"));
        assert!(!belongs("notacme.com", "acme.com"));
        assert!(!belongs("com", "acme.com"));
        assert_eq!(host_of("https://WWW.Acme.com:8443/x?y"), "WWW.Acme.com");
        assert_eq!(host_of("//user@acme.com/"), "acme.com");
        assert_eq!(path_of("https://acme.com/a/b?c=/d#e"), "/a/b");
        assert_eq!(path_of("https://acme.com?q=/x"), "");
        assert_eq!(path_of("https://acme.com"), "");
    }
}
