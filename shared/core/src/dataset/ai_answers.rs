//! What answer engines said when the job asked them its clusters' questions: one record per
//! engine and prompt, stored as one JSON document beside the job's dataset
//! ([`super::objects::ai_answers`]) and served by `GET /jobs/{id}/ai-visibility`.
//!
//! Sites are recognised two ways: *named* in the answer's text (the domain, its registrable
//! domain or the brand, case-insensitive, as whole words: `BrightBrew Coffee`,
//! `brightbrew-coffee.com`, but not `brightbrewing`), and *cited* (a cited address on the
//! site's registrable domain, subdomains included).

use serde::{Deserialize, Serialize};

use super::ai_overview::registrable_domain;
use crate::domain::{AiEngine, DomainName};

/// The layout of [`AiAnswersDocument`]; part of its object's name.
pub const AI_ANSWERS_FORMAT: u32 = 1;
/// An answer's text is kept up to this many characters: enough to read what the engine
/// said about the sites, and a bound on what a model can make the service store.
pub const MAX_ANSWER_CHARS: usize = 2000;
/// Cited addresses kept per answer, in the answer's order.
pub const MAX_CITED_URLS: usize = 20;
/// A cited address longer than this is no address worth keeping.
const MAX_URL_CHARS: usize = 2000;

/// One engine's answer to one of the job's questions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AiAnswer {
    pub engine: AiEngine,
    /// The question as sent (see `kr_research::ai_prompts`).
    pub prompt: String,
    /// The cluster the question was phrased from.
    pub cluster_id: String,
    /// The site's brand or domain is named in the text.
    pub mentions_site: bool,
    /// One of the cited addresses is on the site.
    pub cites_site: bool,
    /// The job's competitors (as the job lists them) named or cited, in the job's order.
    pub competitors: Vec<String>,
    /// The addresses the answer cites, in order, each once, at most [`MAX_CITED_URLS`].
    pub cited_urls: Vec<String>,
    /// The answer, at most [`MAX_ANSWER_CHARS`] characters. Model text: hostile, escaped
    /// wherever it is shown.
    pub text: String,
    /// Taken from the provider's cross-job cache (it cost this job nothing).
    pub cached: bool,
}

/// Every answer of a job, and what they cost together.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AiAnswersDocument {
    pub format: u32,
    pub answers: Vec<AiAnswer>,
    /// USD paid for them (cached answers cost nothing).
    pub cost_usd: f64,
}

/// The names a site goes by in an answer's text, and the registrable domain its cited pages
/// are on.
#[derive(Debug, Clone, PartialEq)]
pub struct SiteNames {
    /// The domain as the job lists it (what the answer records name competitors by).
    pub domain: String,
    /// Its registrable domain (`shop.acme.co.uk` → `acme.co.uk`).
    pub site: String,
    /// Lowercase: the domain, the registrable domain, the brand and, for a hyphenated brand,
    /// the brand with spaces (`brightbrew coffee`).
    terms: Vec<String>,
}

impl SiteNames {
    pub fn of(domain: &DomainName) -> Self {
        let listed = domain.as_str().to_ascii_lowercase();
        let site = registrable_domain(&listed);
        let brand = domain.brand().to_lowercase();
        let mut terms = vec![listed.clone(), site.clone(), brand.clone()];
        if brand.contains('-') {
            terms.push(brand.replace('-', " "));
        }
        terms.retain(|t| !t.is_empty());
        terms.dedup();
        Self {
            domain: listed,
            site,
            terms,
        }
    }

    /// The text names the site: one of its terms stands as whole words (no letter, digit or
    /// hyphen right before or after it), case-insensitive.
    pub fn named_in(&self, text: &str) -> bool {
        let text = text.to_lowercase();
        self.terms.iter().any(|term| contains_word(&text, term))
    }

    /// `url` is a page on the site (its registrable domain, subdomains included).
    pub fn hosts(&self, url: &str) -> bool {
        host_of(url).is_some_and(|host| registrable_domain(&host) == self.site)
    }
}

/// The host of an absolute web address, lowercase.
fn host_of(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url).ok()?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return None;
    }
    parsed.host_str().map(str::to_ascii_lowercase)
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '-'
}

/// `term` occurs in `text` with no word character on either side (both lowercase already).
fn contains_word(text: &str, term: &str) -> bool {
    text.match_indices(term).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + term.len()..].chars().next();
        // A domain ending a sentence ("… at acme.com.") is still a whole word.
        !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char)
    })
}

/// An engine's reply before it is read against the job's sites (kept as it came while other
/// answers of a queued engine are awaited).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EngineReply {
    pub text: String,
    /// Cited addresses in the answer's order (duplicates and non-web addresses allowed; they
    /// are dropped when read).
    pub cited_urls: Vec<String>,
}

impl AiAnswer {
    /// Reads `reply` against the job's site and competitors.
    pub fn read(
        engine: AiEngine,
        prompt: &str,
        cluster_id: &str,
        reply: &EngineReply,
        site: &SiteNames,
        competitors: &[SiteNames],
        cached: bool,
    ) -> Self {
        let mut cited_urls: Vec<String> = Vec::new();
        for url in &reply.cited_urls {
            let url = url.trim();
            if url.chars().count() <= MAX_URL_CHARS
                && host_of(url).is_some()
                && !cited_urls.iter().any(|kept| kept == url)
                && cited_urls.len() < MAX_CITED_URLS
            {
                cited_urls.push(url.to_string());
            }
        }
        // Read over the whole text, before it is cut.
        let named_or_cited = |names: &SiteNames| {
            names.named_in(&reply.text) || cited_urls.iter().any(|u| names.hosts(u))
        };
        Self {
            engine,
            prompt: prompt.to_string(),
            cluster_id: cluster_id.to_string(),
            mentions_site: site.named_in(&reply.text),
            cites_site: cited_urls.iter().any(|url| site.hosts(url)),
            competitors: competitors
                .iter()
                .filter(|c| named_or_cited(c))
                .map(|c| c.domain.clone())
                .collect(),
            text: reply.text.trim().chars().take(MAX_ANSWER_CHARS).collect(),
            cited_urls,
            cached,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(domain: &str) -> SiteNames {
        SiteNames::of(&DomainName::parse(domain).unwrap())
    }

    #[test]
    fn a_site_is_named_by_domain_or_brand_as_whole_words_in_any_case() {
        let site = names("brightbrew-coffee.com");
        for text in [
            "Try BrightBrew Coffee for cold brew.",
            "See brightbrew-coffee.com.",
            "Order at https://shop.brightbrew-coffee.com/beans",
            "(Brightbrew-Coffee) sells beans",
        ] {
            assert!(site.named_in(text), "{text}");
        }
        for text in [
            "brightbrewcoffee is not it",
            "brightbrew-coffee-shop is another",
            "a brightbrew coffeehouse",
            "nothing here",
        ] {
            assert!(!site.named_in(text), "{text}");
        }
        let short = names("acme.co.uk");
        assert!(short.named_in("ACME makes anvils"));
        assert!(!short.named_in("acmeco makes anvils"));
    }

    #[test]
    fn citations_count_on_the_registrable_domain_with_subdomains() {
        let site = names("example.co.uk");
        assert!(site.hosts("https://blog.example.co.uk/post"));
        assert!(site.hosts("http://EXAMPLE.co.uk"));
        assert!(!site.hosts("https://example.com/"));
        assert!(!site.hosts("https://notexample.co.uk/"));
        assert!(!site.hosts("ftp://example.co.uk/file"));
        assert!(!site.hosts("example.co.uk/no-scheme"));
    }

    #[test]
    fn an_answer_records_the_site_and_competitors_named_or_cited_in_the_jobs_order() {
        let site = names("brightbrew-coffee.com");
        let competitors = [names("roastrivals.com"), names("kettleandcrema.com")];
        let reply = EngineReply {
            text: format!(
                "Kettle & Crema and roastrivals.com both ship. {}",
                "x".repeat(3000)
            ),
            cited_urls: vec![
                "https://www.brightbrew-coffee.com/cold-brew".into(),
                "https://www.brightbrew-coffee.com/cold-brew".into(),
                "javascript:alert(1)".into(),
                "https://kettleandcrema.com/guide".into(),
            ],
        };
        let answer = AiAnswer::read(
            AiEngine::Perplexity,
            "What is cold brew?",
            "c-1",
            &reply,
            &site,
            &competitors,
            false,
        );
        assert!(!answer.mentions_site && answer.cites_site);
        assert_eq!(
            answer.competitors,
            ["roastrivals.com", "kettleandcrema.com"]
        );
        assert_eq!(
            answer.cited_urls,
            [
                "https://www.brightbrew-coffee.com/cold-brew",
                "https://kettleandcrema.com/guide"
            ]
        );
        assert_eq!(answer.text.chars().count(), MAX_ANSWER_CHARS);
        let json = serde_json::to_value(&answer).unwrap();
        for field in [
            "engine",
            "prompt",
            "clusterId",
            "mentionsSite",
            "citesSite",
            "competitors",
            "citedUrls",
            "text",
            "cached",
        ] {
            assert!(json.get(field).is_some(), "{field}");
        }
        assert_eq!(json["engine"], "perplexity");
    }
}
