//! The SSRF guard. URLs are checked before a request (scheme, port, literal IPs, which the
//! HTTP client connects to without asking a resolver) and names are checked when they are
//! resolved, at connect time, so what is checked is exactly what is connected to: a DNS answer
//! cannot change between the check and the connection.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use url::{Host, Url};

use kr_core::address::is_public_ip;

/// Why a URL or a name was not fetched.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Refusal {
    #[error("only http and https URLs are fetched")]
    Scheme,
    #[error("the URL has no host")]
    NoHost,
    #[error("URLs with credentials are not fetched")]
    Credentials,
    #[error("port {0} is not fetched; only 80 and 443 are")]
    Port(u16),
    #[error("{0} is a private or reserved address")]
    PrivateAddress(IpAddr),
    #[error("{0} resolves only to private or reserved addresses")]
    PrivateName(String),
}

impl Refusal {
    /// True when the refusal is about where the URL points, as opposed to its form.
    pub(crate) fn is_address(&self) -> bool {
        matches!(self, Refusal::PrivateAddress(_) | Refusal::PrivateName(_))
    }
}

/// Decides which URLs and addresses the crawler may connect to.
#[derive(Debug, Default)]
pub(crate) struct AddressPolicy {
    overrides: HashMap<String, SocketAddr>,
}

impl AddressPolicy {
    pub(crate) fn new(overrides: &[(String, SocketAddr)]) -> Self {
        Self {
            overrides: overrides
                .iter()
                .map(|(host, addr)| (normalise_name(host), *addr))
                .collect(),
        }
    }

    fn override_for(&self, host: &str) -> Option<SocketAddr> {
        self.overrides.get(&normalise_name(host)).copied()
    }

    /// Whether `url` names a host mapped by `KR_CRAWL_RESOLVE`: a stand-in on this machine.
    pub(crate) fn is_stand_in(&self, url: &Url) -> bool {
        matches!(url.host(), Some(Host::Domain(name)) if self.override_for(name).is_some())
    }

    /// Checks what can be checked before connecting. Names are checked again when resolved.
    pub(crate) fn check_url(&self, url: &Url) -> Result<(), Refusal> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(Refusal::Scheme);
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(Refusal::Credentials);
        }
        let port = url.port_or_known_default().unwrap_or(0);
        match url.host().ok_or(Refusal::NoHost)? {
            Host::Domain(name) => {
                if let Some(target) = self.override_for(name) {
                    // The connection goes to the override's port when the URL names none, so
                    // another explicit port would reach something the override did not name.
                    return match url.port() {
                        None => Ok(()),
                        Some(port) if port == target.port() => Ok(()),
                        Some(port) => Err(Refusal::Port(port)),
                    };
                }
            }
            Host::Ipv4(ip) => check_ip(IpAddr::V4(ip))?,
            Host::Ipv6(ip) => check_ip(IpAddr::V6(ip))?,
        }
        if port != 80 && port != 443 {
            return Err(Refusal::Port(port));
        }
        Ok(())
    }

    /// Resolves a host name to the addresses the crawler may connect to: the override address
    /// for an overridden name, otherwise the public addresses DNS gives (non-public ones are
    /// dropped; none left is a refusal).
    pub(crate) async fn resolve(&self, name: &str) -> Result<Vec<SocketAddr>, ResolveError> {
        if let Some(target) = self.override_for(name) {
            return Ok(vec![target]);
        }
        // RFC 6761: resolvers answer names under `.invalid` negatively without asking DNS.
        let bare = normalise_name(name);
        if bare == "invalid" || bare.ends_with(".invalid") {
            return Err(ResolveError::Lookup(std::io::ErrorKind::NotFound.into()));
        }
        // Port 0 tells the HTTP client to use the URL's port or the scheme's default.
        let answers = tokio::net::lookup_host((name, 0))
            .await
            .map_err(ResolveError::Lookup)?;
        let public: Vec<SocketAddr> = answers.filter(|addr| is_public_ip(addr.ip())).collect();
        if public.is_empty() {
            return Err(ResolveError::Refused(Refusal::PrivateName(name.to_owned())));
        }
        Ok(public)
    }
}

fn check_ip(ip: IpAddr) -> Result<(), Refusal> {
    if is_public_ip(ip) {
        Ok(())
    } else {
        Err(Refusal::PrivateAddress(ip))
    }
}

fn normalise_name(host: &str) -> String {
    host.trim_end_matches('.').to_ascii_lowercase()
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum ResolveError {
    #[error("the name could not be resolved: {0}")]
    Lookup(std::io::Error),
    #[error(transparent)]
    Refused(Refusal),
}

/// The HTTP client's resolver: every name it connects to goes through [`AddressPolicy::resolve`].
pub(crate) struct GuardedResolver(pub(crate) Arc<AddressPolicy>);

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let policy = Arc::clone(&self.0);
        let name = name.as_str().to_owned();
        Box::pin(async move {
            let addrs = policy.resolve(&name).await?;
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}

/// Finds the resolver's error among the causes of an HTTP client error.
fn resolve_error_in<'a>(error: &'a (dyn std::error::Error + 'static)) -> Option<&'a ResolveError> {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(current) = cause {
        if let Some(resolve_error) = current.downcast_ref::<ResolveError>() {
            return Some(resolve_error);
        }
        cause = current.source();
    }
    None
}

/// The resolver's refusal behind an HTTP client error, if that is what stopped it.
pub(crate) fn refusal_in(error: &(dyn std::error::Error + 'static)) -> Option<Refusal> {
    match resolve_error_in(error) {
        Some(ResolveError::Refused(refusal)) => Some(refusal.clone()),
        _ => None,
    }
}

/// Whether an HTTP client error comes from a host name that does not resolve.
pub(crate) fn resolve_failed(error: &(dyn std::error::Error + 'static)) -> bool {
    matches!(resolve_error_in(error), Some(ResolveError::Lookup(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> AddressPolicy {
        AddressPolicy::new(&[("shop.test".into(), "127.0.0.1:8080".parse().unwrap())])
    }

    fn check(url: &str) -> Result<(), Refusal> {
        policy().check_url(&Url::parse(url).unwrap())
    }

    #[test]
    fn only_hosts_mapped_by_the_resolve_setting_are_stand_ins() {
        // The crawler reads an https address over plain http only for these.
        let is = |url: &str| policy().is_stand_in(&Url::parse(url).unwrap());
        assert!(is("https://shop.test/guide"));
        assert!(is("https://SHOP.test./guide"));
        assert!(!is("https://www.shop.test/guide"));
        assert!(!is("https://example.com/"));
        assert!(!is("https://127.0.0.1/"));
    }

    #[test]
    fn literal_ips_are_checked_before_connecting() {
        assert_eq!(
            check("http://127.0.0.1/"),
            Err(Refusal::PrivateAddress("127.0.0.1".parse().unwrap()))
        );
        // WHATWG URL parsing turns these spellings into 127.0.0.1 too.
        assert!(check("http://2130706433/").is_err());
        assert!(check("http://0x7f.1/").is_err());
        assert!(check("http://[::ffff:127.0.0.1]/").is_err());
        assert!(check("http://[::1]:443/").is_err());
        assert!(check("http://169.254.169.254/latest/meta-data").is_err());
        assert_eq!(check("https://8.8.8.8/"), Ok(()));
    }

    #[test]
    fn only_web_ports_and_schemes_are_allowed() {
        assert_eq!(check("https://example.com/"), Ok(()));
        assert_eq!(check("http://example.com:443/"), Ok(()));
        assert_eq!(check("http://example.com:8080/"), Err(Refusal::Port(8080)));
        assert_eq!(check("ftp://example.com/"), Err(Refusal::Scheme));
        assert_eq!(check("file:///etc/passwd"), Err(Refusal::Scheme));
        assert_eq!(
            check("http://user:pw@example.com/"),
            Err(Refusal::Credentials)
        );
    }

    #[test]
    fn overridden_hosts_use_only_their_override_port() {
        assert_eq!(check("http://shop.test/"), Ok(()));
        assert_eq!(check("http://SHOP.test:8080/"), Ok(()));
        assert_eq!(check("http://shop.test:22/"), Err(Refusal::Port(22)));
    }

    #[tokio::test]
    async fn overrides_resolve_without_dns_and_loopback_names_are_refused() {
        let policy = policy();
        assert_eq!(
            policy.resolve("shop.test.").await.unwrap(),
            vec!["127.0.0.1:8080".parse::<SocketAddr>().unwrap()]
        );
        match policy.resolve("localhost").await {
            Err(ResolveError::Refused(Refusal::PrivateName(name))) => assert_eq!(name, "localhost"),
            other => panic!("localhost must be refused, got {other:?}"),
        }
        assert!(matches!(
            policy.resolve("shop.INVALID.").await,
            Err(ResolveError::Lookup(_))
        ));
    }
}
