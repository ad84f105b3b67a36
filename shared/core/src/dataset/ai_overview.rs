//! Google's AI Overviews on a keyword's results page: whether one was shown, which sites it
//! cites, and per cluster and topic the share of them that cite the site and each competitor.
//! Sites are compared by registrable domain, so a subdomain counts as its site
//! (`blog.example.com` cites `example.com`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The cited pages a keyword record keeps, in the overview's order.
pub const MAX_AI_REFERENCES: usize = 10;
/// A reference title longer than this is cut: it is shown, never needed whole.
const MAX_TITLE_CHARS: usize = 300;

/// A keyword's AI Overview as its SERP showed it (`aiOverview`); `null` on a keyword without
/// a fetched SERP.
#[derive(
    Debug,
    Clone,
    Default,
    PartialEq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
#[serde(rename_all = "camelCase")]
pub struct AiOverview {
    /// The SERP showed an AI Overview; without one every other field is empty.
    pub present: bool,
    /// One of its references is on the job's site (registrable domain, subdomains included).
    pub cites_site: bool,
    /// The first such reference's address.
    pub cited_url: Option<String>,
    /// Every referenced registrable domain, in reference order, each once.
    pub cited_domains: Vec<String>,
    /// The job's competitors (as the job lists them) among `citedDomains`, in the job's order.
    pub cites_competitors: Vec<String>,
    /// The cited pages, in order, at most [`MAX_AI_REFERENCES`].
    pub references: Vec<AiReference>,
}

/// One page an AI Overview cites.
#[derive(
    Debug,
    Clone,
    Default,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
#[serde(rename_all = "camelCase")]
pub struct AiReference {
    pub url: String,
    /// The page's host as the SERP named it (else read from `url`), lowercase.
    pub domain: String,
    /// The title the overview showed for it; hostile text, escaped wherever it is shown.
    pub title: Option<String>,
}

/// The registrable domain of a host (`shop.example.co.uk` → `example.co.uk`): what one site
/// is when citations are compared.
pub fn registrable_domain(host: &str) -> String {
    let host = host.trim().trim_end_matches('.').to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    psl::domain_str(host).unwrap_or(host).to_string()
}

/// The host of an absolute address, lowercase; `None` when it has none.
fn host_of(url: &str) -> Option<String> {
    url::Url::parse(url)
        .ok()?
        .host_str()
        .map(|host| host.to_ascii_lowercase())
}

impl AiReference {
    /// A reference as a SERP gave it: `url` must be an absolute web address; `domain`
    /// (optional) is kept when given, else read from the address. `None` for a reference
    /// without a usable address.
    pub fn new(url: &str, domain: Option<&str>, title: Option<&str>) -> Option<Self> {
        let url = url.trim();
        let parsed = url::Url::parse(url).ok()?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return None;
        }
        let domain = domain
            .map(|d| d.trim().trim_end_matches('.').to_ascii_lowercase())
            .filter(|d| !d.is_empty())
            .or_else(|| host_of(url))?;
        let title = title
            .map(|t| t.trim().chars().take(MAX_TITLE_CHARS).collect::<String>())
            .filter(|t| !t.is_empty());
        Some(Self {
            url: url.to_string(),
            domain,
            title,
        })
    }

    /// The registrable domain it is on.
    pub fn site(&self) -> String {
        registrable_domain(&self.domain)
    }
}

impl AiOverview {
    /// The record of a keyword whose SERP was fetched: `shown` is the overview's references
    /// in order (`None` when the SERP showed no overview), `site` the job's domain and
    /// `competitors` the job's competitors as it lists them.
    pub fn from_serp<S: AsRef<str>>(
        shown: Option<&[AiReference]>,
        site: &str,
        competitors: &[S],
    ) -> Self {
        let Some(references) = shown else {
            return Self::default();
        };
        let own = registrable_domain(site);
        let mut cited_domains: Vec<String> = Vec::new();
        let mut cited_url = None;
        let mut kept: Vec<AiReference> = Vec::new();
        for reference in references {
            if kept.iter().any(|k| k.url == reference.url) {
                continue;
            }
            let domain = reference.site();
            if cited_url.is_none() && domain == own {
                cited_url = Some(reference.url.clone());
            }
            if !cited_domains.contains(&domain) {
                cited_domains.push(domain);
            }
            if kept.len() < MAX_AI_REFERENCES {
                kept.push(reference.clone());
            }
        }
        let cites_competitors = competitors
            .iter()
            .map(AsRef::as_ref)
            .filter(|c| cited_domains.contains(&registrable_domain(c)))
            .map(str::to_string)
            .collect();
        Self {
            present: true,
            cites_site: cited_url.is_some(),
            cited_url,
            cited_domains,
            cites_competitors,
            references: kept,
        }
    }

    /// Cites at least one of the job's competitors.
    pub fn cites_a_competitor(&self) -> bool {
        !self.cites_competitors.is_empty()
    }
}

/// Of a cluster's (or topic's) keywords with an AI Overview, the share citing the site and
/// each competitor (`aiShareOfVoice`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AiShareOfVoice {
    /// Its keywords with an AI Overview.
    pub overviews: u32,
    /// The share (0 to 1, 3 decimals) of those overviews citing the site.
    pub site: f64,
    /// The same share per competitor of the job, every one listed (0 when never cited).
    pub competitors: BTreeMap<String, f64>,
}

impl AiShareOfVoice {
    /// Whether AI Overviews on its keywords cite a competitor and none cites the site: the
    /// citation is there to earn (`earnCitation`).
    pub fn earns_citation(&self) -> bool {
        self.overviews > 0 && self.site == 0.0 && self.competitors.values().any(|s| *s > 0.0)
    }
}

/// Counts overviews one keyword at a time, then gives the shares ([`AiShareOfVoice`]).
#[derive(Debug, Clone, Default)]
pub struct AiShareTally {
    overviews: u32,
    site: u32,
    /// Per competitor, in the order [`AiShareTally::finish`] is given them.
    competitors: Vec<u32>,
}

/// `part` of `whole` as a share, 3 decimals.
fn share(part: u32, whole: u32) -> f64 {
    (part as f64 / whole as f64 * 1000.0).round() / 1000.0
}

impl AiShareTally {
    /// One keyword with an overview: whether it cites the site, and which competitors (their
    /// places in the list later given to [`AiShareTally::finish`]).
    pub fn add(&mut self, cites_site: bool, competitors: impl IntoIterator<Item = usize>) {
        self.overviews += 1;
        self.site += u32::from(cites_site);
        for at in competitors {
            if self.competitors.len() <= at {
                self.competitors.resize(at + 1, 0);
            }
            self.competitors[at] += 1;
        }
    }

    /// One keyword's record: counted when it shows an overview, its competitors found in
    /// `competitors` (the job's) by registrable domain.
    pub fn add_overview<S: AsRef<str>>(&mut self, overview: &AiOverview, competitors: &[S]) {
        if !overview.present {
            return;
        }
        let cited = competitors.iter().enumerate().filter(|(_, c)| {
            let wanted = registrable_domain(c.as_ref());
            overview
                .cites_competitors
                .iter()
                .any(|k| registrable_domain(k) == wanted)
        });
        self.add(overview.cites_site, cited.map(|(at, _)| at));
    }

    /// Adds another tally's counts (a topic's: its clusters').
    pub fn merge(&mut self, other: &AiShareTally) {
        self.overviews += other.overviews;
        self.site += other.site;
        if self.competitors.len() < other.competitors.len() {
            self.competitors.resize(other.competitors.len(), 0);
        }
        for (mine, theirs) in self.competitors.iter_mut().zip(&other.competitors) {
            *mine += theirs;
        }
    }

    /// The shares, each of `competitors` listed; `None` without an overview.
    pub fn finish<S: AsRef<str>>(&self, competitors: &[S]) -> Option<AiShareOfVoice> {
        (self.overviews > 0).then(|| AiShareOfVoice {
            overviews: self.overviews,
            site: share(self.site, self.overviews),
            competitors: competitors
                .iter()
                .enumerate()
                .map(|(at, c)| {
                    let cited = self.competitors.get(at).copied().unwrap_or(0);
                    (c.as_ref().to_string(), share(cited, self.overviews))
                })
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(url: &str) -> AiReference {
        AiReference::new(url, None, Some("A page")).unwrap()
    }

    #[test]
    fn registrable_domains_fold_subdomains_and_www() {
        assert_eq!(registrable_domain("blog.Example.com."), "example.com");
        assert_eq!(
            registrable_domain("www.shop.example.co.uk"),
            "example.co.uk"
        );
        assert_eq!(registrable_domain("example.com"), "example.com");
        assert_eq!(registrable_domain("intranet"), "intranet");
    }

    #[test]
    fn a_shown_overview_names_the_site_its_subdomains_and_the_competitors_cited() {
        let shown = [
            reference("https://www.wikipedia.org/wiki/Coffee"),
            reference("https://blog.brightbrew-coffee.com/cold-brew"),
            reference("https://www.wikipedia.org/wiki/Coffee"),
            reference("https://shop.roastery.co.uk/beans"),
            reference("https://brightbrew-coffee.com/"),
        ];
        let competitors = ["beanhub.com", "roastery.co.uk"];
        let overview = AiOverview::from_serp(Some(&shown), "brightbrew-coffee.com", &competitors);
        assert!(overview.present && overview.cites_site);
        assert_eq!(
            overview.cited_url.as_deref(),
            Some("https://blog.brightbrew-coffee.com/cold-brew")
        );
        assert_eq!(
            overview.cited_domains,
            ["wikipedia.org", "brightbrew-coffee.com", "roastery.co.uk"]
        );
        assert_eq!(overview.cites_competitors, ["roastery.co.uk"]);
        assert_eq!(overview.references.len(), 4, "the repeated page once");
        assert_eq!(overview.references[1].domain, "blog.brightbrew-coffee.com");
    }

    #[test]
    fn no_overview_is_present_false_with_nothing_cited_and_lookalikes_do_not_match() {
        let none = AiOverview::from_serp(None, "example.com", &["rival.com"]);
        assert_eq!(none, AiOverview::default());
        assert!(!none.present);
        let lookalike = [
            reference("https://notexample.com/"),
            reference("https://example.com.evil.net/"),
        ];
        let overview = AiOverview::from_serp(Some(&lookalike), "example.com", &["rival.com"]);
        assert!(overview.present && !overview.cites_site && overview.cited_url.is_none());
        assert!(!overview.cites_a_competitor());
    }

    #[test]
    fn at_most_ten_references_are_kept_but_every_domain_is_named() {
        let shown: Vec<AiReference> = (0..14)
            .map(|n| reference(&format!("https://site{n}.com/")))
            .collect();
        let overview = AiOverview::from_serp(Some(&shown), "site13.com", &["site12.com"]);
        assert_eq!(overview.references.len(), MAX_AI_REFERENCES);
        assert_eq!(overview.cited_domains.len(), 14);
        assert!(overview.cites_site);
        assert_eq!(overview.cites_competitors, ["site12.com"]);
    }

    #[test]
    fn references_without_a_web_address_are_none() {
        assert!(AiReference::new("javascript:alert(1)", None, None).is_none());
        assert!(AiReference::new("/relative", Some("a.com"), None).is_none());
        let kept = AiReference::new(" https://A.com/x ", Some(" "), Some("  ")).unwrap();
        assert_eq!((kept.domain.as_str(), kept.title), ("a.com", None));
    }

    #[test]
    fn share_of_voice_counts_overviews_and_lists_every_competitor() {
        let competitors = ["rival.com", "other.com"];
        let mut tally = AiShareTally::default();
        assert_eq!(tally.finish(&competitors), None);
        let cite = |urls: &[&str]| {
            let refs: Vec<AiReference> = urls.iter().map(|u| reference(u)).collect();
            AiOverview::from_serp(Some(&refs), "site.com", &competitors)
        };
        tally.add_overview(&cite(&["https://rival.com/a"]), &competitors);
        tally.add_overview(
            &cite(&["https://www.site.com/", "https://rival.com/b"]),
            &competitors,
        );
        tally.add_overview(&cite(&["https://news.org/"]), &competitors);
        tally.add_overview(
            &AiOverview::from_serp(None, "site.com", &competitors),
            &competitors,
        );
        let shares = tally.finish(&competitors).unwrap();
        assert_eq!(shares.overviews, 3);
        assert_eq!(shares.site, 0.333);
        assert_eq!(shares.competitors["rival.com"], 0.667);
        assert_eq!(shares.competitors["other.com"], 0.0);
        assert!(!shares.earns_citation(), "one overview cites the site");
    }

    #[test]
    fn a_citation_is_to_earn_when_competitors_are_cited_and_the_site_never() {
        let competitors = ["rival.com"];
        let mut tally = AiShareTally::default();
        tally.add(false, [0]);
        tally.add(false, []);
        assert!(tally.finish(&competitors).unwrap().earns_citation());
        let mut nobody = AiShareTally::default();
        nobody.add(false, []);
        assert!(!nobody.finish(&competitors).unwrap().earns_citation());
        let mut cited = AiShareTally::default();
        cited.add(true, []);
        nobody.merge(&tally);
        nobody.merge(&cited);
        let topic = nobody.finish(&competitors).unwrap();
        assert_eq!((topic.overviews, topic.site), (4, 0.25));
        assert_eq!(topic.competitors["rival.com"], 0.25);
        assert!(!topic.earns_citation());
    }
}
