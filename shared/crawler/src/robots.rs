//! robots.txt as RFC 9309 defines it, plus the `Crawl-delay` and `Sitemap` extensions.
//!
//! Written here rather than taken from a crate: the maintained-looking candidates either
//! stopped in 2020–2022 with heavy dependency trees or drop `Crawl-delay`, and the rules are
//! short enough to implement and test exactly.

use std::time::Duration;

use url::Url;

/// The rules of one robots.txt that apply to one user agent.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Robots {
    rules: Vec<Rule>,
    crawl_delay: Option<Duration>,
    sitemaps: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
struct Rule {
    allow: bool,
    /// Percent-encoding normalised, so it compares byte for byte with normalised paths.
    pattern: Vec<u8>,
}

/// The groups being read: the user agents that head them, whether one of them is ours or `*`.
#[derive(Default)]
struct Group {
    ours: bool,
    any: bool,
    rules: Vec<Rule>,
    crawl_delay: Option<Duration>,
}

impl Robots {
    /// Parses robots.txt for the agent whose product token is `token` (lowercase). Rules of
    /// every group naming the token are combined; only when none does, the `*` groups apply.
    pub(crate) fn parse(text: &str, token: &str) -> Self {
        let mut groups: Vec<Group> = Vec::new();
        let mut sitemaps = Vec::new();
        // A run of user-agent lines heads one group; a rule line ends the run.
        let mut in_agent_run = false;
        for line in text.trim_start_matches('\u{feff}').split(['\n', '\r']) {
            let line = line.split('#').next().unwrap_or_default().trim();
            let Some((key, value)) = split_directive(line) else {
                continue;
            };
            match key.as_str() {
                "user-agent" | "useragent" | "user agent" => {
                    if !in_agent_run {
                        groups.push(Group::default());
                        in_agent_run = true;
                    }
                    let group = groups.last_mut().expect("pushed above");
                    let agent = value
                        .split(['/', ' '])
                        .next()
                        .unwrap_or_default()
                        .to_ascii_lowercase();
                    group.any |= agent == "*";
                    group.ours |= !token.is_empty() && agent == token;
                }
                "allow" | "disallow" => {
                    in_agent_run = false;
                    let Some(group) = groups.last_mut() else {
                        continue;
                    };
                    // An empty Disallow allows everything, which is the default anyway.
                    if !value.is_empty() {
                        group.rules.push(Rule {
                            allow: key == "allow",
                            pattern: normalise(value.as_bytes()),
                        });
                    }
                }
                "crawl-delay" => {
                    in_agent_run = false;
                    let Some(group) = groups.last_mut() else {
                        continue;
                    };
                    if let Some(delay) = value
                        .parse::<f64>()
                        .ok()
                        .filter(|s| s.is_finite() && *s >= 0.0)
                    {
                        group.crawl_delay = Some(Duration::from_secs_f64(delay.min(86_400.0)));
                    }
                }
                "sitemap" | "site-map" => sitemaps.push(value.to_owned()),
                _ => {}
            }
        }
        let ours: Vec<&Group> = groups.iter().filter(|g| g.ours).collect();
        let chosen = if ours.is_empty() {
            groups.iter().filter(|g| g.any).collect()
        } else {
            ours
        };
        Self {
            rules: chosen
                .iter()
                .flat_map(|g| g.rules.iter().cloned())
                .collect(),
            crawl_delay: chosen.iter().filter_map(|g| g.crawl_delay).max(),
            sitemaps,
        }
    }

    /// Rules that allow everything (robots.txt missing).
    pub(crate) fn allow_all() -> Self {
        Self::default()
    }

    /// Whether the URL may be fetched: the longest matching rule decides, Allow winning a tie;
    /// no matching rule allows.
    pub(crate) fn allows(&self, url: &Url) -> bool {
        if url.path() == "/robots.txt" {
            return true;
        }
        let mut target = url.path().as_bytes().to_vec();
        if let Some(query) = url.query() {
            target.push(b'?');
            target.extend_from_slice(query.as_bytes());
        }
        let target = normalise(&target);
        let mut best: Option<&Rule> = None;
        for rule in &self.rules {
            if !matches(&target, &rule.pattern) {
                continue;
            }
            best = match best {
                Some(current)
                    if current.pattern.len() > rule.pattern.len()
                        || (current.pattern.len() == rule.pattern.len() && current.allow) =>
                {
                    Some(current)
                }
                _ => Some(rule),
            };
        }
        best.is_none_or(|rule| rule.allow)
    }

    pub(crate) fn crawl_delay(&self) -> Option<Duration> {
        self.crawl_delay
    }

    /// `Sitemap:` values as written; they apply to every agent.
    pub(crate) fn sitemaps(&self) -> &[String] {
        &self.sitemaps
    }
}

/// `key: value` with the key lowercased. Some files leave out the colon (`Disallow /x`),
/// which major crawlers accept too.
fn split_directive(line: &str) -> Option<(String, String)> {
    if line.is_empty() {
        return None;
    }
    let (key, value) = line
        .split_once(':')
        .or_else(|| line.split_once(char::is_whitespace))?;
    Some((key.trim().to_ascii_lowercase(), value.trim().to_owned()))
}

/// Percent-encodes bytes outside printable ASCII and uppercases existing escapes, so that
/// `/caf%c3%a9`, `/caf%C3%A9` and `/café` all compare equal.
fn normalise(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let b = raw[i];
        let escape = b == b'%'
            && raw.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && raw.get(i + 2).is_some_and(u8::is_ascii_hexdigit);
        if escape {
            out.extend_from_slice(&[
                b'%',
                raw[i + 1].to_ascii_uppercase(),
                raw[i + 2].to_ascii_uppercase(),
            ]);
            i += 3;
            continue;
        }
        if b <= b' ' || b >= 0x7f {
            out.extend_from_slice(format!("%{b:02X}").as_bytes());
        } else {
            out.push(b);
        }
        i += 1;
    }
    out
}

/// Pattern matching from the start of the path: `*` matches any run of bytes, a final `$`
/// anchors at the end. Tracks every prefix length the pattern so far can match, which keeps
/// it linear in the pattern times the path, without backtracking blow-ups.
fn matches(path: &[u8], pattern: &[u8]) -> bool {
    let mut positions = vec![0usize];
    for (index, &byte) in pattern.iter().enumerate() {
        if byte == b'$' && index + 1 == pattern.len() {
            return positions.contains(&path.len());
        }
        if byte == b'*' {
            let first = positions[0];
            positions = (first..=path.len()).collect();
            continue;
        }
        positions = positions
            .into_iter()
            .filter(|&p| path.get(p) == Some(&byte))
            .map(|p| p + 1)
            .collect();
        if positions.is_empty() {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allows(robots: &Robots, path: &str) -> bool {
        robots.allows(&Url::parse(&format!("https://shop.example{path}")).unwrap())
    }

    #[test]
    fn longest_match_wins_and_allow_wins_ties() {
        let robots = Robots::parse(
            "User-agent: *\nDisallow: /shop\nAllow: /shop/public\nDisallow: /a\nAllow: /a\n",
            "keywordresearchbot",
        );
        assert!(!allows(&robots, "/shop/cart"));
        assert!(allows(&robots, "/shop/public/item"));
        assert!(allows(&robots, "/a/b"));
        assert!(allows(&robots, "/other"));
        assert!(allows(&robots, "/robots.txt"));
    }

    #[test]
    fn our_group_replaces_the_star_group_and_groups_for_us_combine() {
        let text = "User-agent: *\nDisallow: /\n\nUser-agent: OtherBot\nUser-agent: KeywordResearchBot/2.0\nDisallow: /private\n\nUser-agent: keywordresearchbot\nDisallow: /tmp\nCrawl-delay: 2.5\n";
        let robots = Robots::parse(text, "keywordresearchbot");
        assert!(allows(&robots, "/"));
        assert!(!allows(&robots, "/private/x"));
        assert!(!allows(&robots, "/tmp"));
        assert_eq!(robots.crawl_delay(), Some(Duration::from_millis(2500)));
        let others = Robots::parse(text, "someonebot");
        assert!(!allows(&others, "/anything"));
        assert_eq!(others.crawl_delay(), None);
    }

    #[test]
    fn wildcards_and_end_anchors() {
        let robots = Robots::parse(
            "user-agent: *\ndisallow: /*.php$\ndisallow: /*?sessionid=\ndisallow: /fish*.html\nallow: /$\ndisallow: /\nallow: /open",
            "bot",
        );
        assert!(allows(&robots, "/"));
        assert!(!allows(&robots, "/index.php"));
        assert!(
            allows(&robots, "/openings.php?x=1"),
            "longer allow beats the .php rule"
        );
        assert!(!allows(&robots, "/cart?sessionid=1"));
        assert!(allows(&robots, "/open/fish.html"));
        assert!(!allows(&robots, "/other"));
    }

    #[test]
    fn percent_encoding_is_normalised() {
        let robots = Robots::parse("User-agent: *\nDisallow: /café\nDisallow: /a%2fb\n", "bot");
        assert!(!allows(&robots, "/caf%C3%A9/menu"));
        assert!(!allows(&robots, "/a%2Fb"));
        assert!(allows(&robots, "/a/b"));
    }

    #[test]
    fn odd_files_parse_without_surprises() {
        let text = "\u{feff}# comment\r\nSitemap: https://shop.example/s.xml\r\nDisallow: /before-any-group\r\nUser-agent: *\r\nDisallow /no-colon # trailing comment\r\nCrawl-delay: soon\r\nnonsense line\r\nDisallow:\r\n";
        let robots = Robots::parse(text, "bot");
        assert!(
            allows(&robots, "/before-any-group"),
            "rules outside a group are ignored"
        );
        assert!(!allows(&robots, "/no-colon"));
        assert_eq!(robots.crawl_delay(), None);
        assert_eq!(robots.sitemaps(), ["https://shop.example/s.xml"]);
        assert!(allows(&Robots::parse("", "bot"), "/x"));
        assert!(allows(&Robots::allow_all(), "/x"));
    }

    #[test]
    fn matching_is_not_exponential() {
        let pattern = format!("/{}x", "*a".repeat(200));
        let robots = Robots::parse(&format!("User-agent: *\nDisallow: {pattern}\n"), "bot");
        let path = format!("/{}", "a".repeat(5000));
        let started = std::time::Instant::now();
        assert!(allows(&robots, &path));
        assert!(started.elapsed() < Duration::from_secs(2));
    }
}
