//! What a job with a keyword data provider offers it from the crawl ([`relevant_crawl`]): the
//! same phrases the offline selection keeps, never the site's legal or footer furniture.

use super::*;
use crate::{PageContent, SiteRole};
use kr_core::dataset::KeywordSource;

fn roofer(url: &str, title: &str, headings: &[&str], body: &str) -> PageContent {
    PageContent {
        url: format!("https://abroofing.test{url}"),
        site: Some(SiteRole::Primary),
        title: title.to_string(),
        headings: headings.iter().map(|h| h.to_string()).collect(),
        body_text: body.to_string(),
        ..PageContent::default()
    }
}

/// A roofer whose name has an ampersand, with a terms page, a privacy notice and reviews.
fn pages() -> Vec<PageContent> {
    vec![
        roofer(
            "/",
            "A&B Roofing | Roof Repair and Roof Replacement in Dayton, OH",
            &["Why homeowners choose A&B Roofing", "Customer Reviews"],
            "Why homeowners choose A&B Roofing: roof repair and roof replacement in Dayton. \
             Read customer reviews. Customer reviews from homeowners in Dayton.",
        ),
        roofer(
            "/roof-repair",
            "Roof Repair Dayton | A&B Roofing",
            &["Roof Repair", "Customer Reviews"],
            "Roof repair after storm damage. Leak repair and roof repair the same day. \
             Customer reviews of our roof repair.",
        ),
        roofer(
            "/roof-replacement",
            "Roof Replacement | A&B Roofing",
            &["Roof Replacement", "Asphalt Shingles"],
            "Roof replacement with asphalt shingles. Roof replacement for homes in Dayton.",
        ),
        roofer(
            "/terms",
            "Terms | A&B Roofing",
            &[
                "Acceptance of Terms",
                "Legal Basis",
                "Limitation of Liability",
            ],
            "Acceptance of terms. By using this website you accept these terms. Legal basis \
             of processing. The legal basis for processing is consent. Limitation of \
             liability. Governing law.",
        ),
        roofer(
            "/privacy",
            "Privacy Notice | A&B Roofing",
            &["Legal Basis", "Data Controller", "Your Rights"],
            "The legal basis of processing personal data. The data controller is A&B Roofing. \
             Legal basis: legitimate interest. Your rights as a data subject.",
        ),
    ]
}

fn texts(found: &[Candidate]) -> Vec<&str> {
    found.iter().map(|c| c.keyword.as_str()).collect()
}

const FURNITURE: [&str; 6] = [
    "legal basis",
    "acceptance of terms",
    "customer reviews",
    "limitation of liability",
    "data controller",
    "governing law",
];

#[test]
fn a_provider_is_offered_no_legal_or_footer_phrase_of_the_crawl() {
    let language = Language::english();
    let raw = discover_all(&pages(), &language);
    let raw = texts(&raw);
    // The crawl has them, and they are shaped like queries: only relevance drops them.
    for phrase in ["legal basis", "acceptance of terms", "customer reviews"] {
        assert!(raw.contains(&phrase), "{phrase}: {raw:?}");
    }
    let offered = relevant_crawl(&pages(), &language, 200);
    let texts = texts(&offered);
    for phrase in FURNITURE {
        assert!(
            !texts.iter().any(|t| t.contains(phrase)),
            "{phrase}: {texts:?}"
        );
    }
    for query in ["roof repair", "roof replacement", "roof repair dayton"] {
        assert!(texts.contains(&query), "{query}: {texts:?}");
    }
}

#[test]
fn the_provider_s_list_is_the_offline_list_without_its_ideas() {
    let language = Language::english();
    let offered = relevant_crawl(&pages(), &language, 200);
    assert!(offered.iter().all(|c| c.source == KeywordSource::Crawl));
    let offline: Vec<Candidate> = offline_keywords(&pages(), &language, 200)
        .into_iter()
        .filter(|c| c.source == KeywordSource::Crawl)
        .collect();
    assert_eq!(texts(&offered), texts(&offline));
    // Best first, and the limit holds.
    assert!(offered.windows(2).all(|w| w[0].score >= w[1].score));
    assert_eq!(relevant_crawl(&pages(), &language, 2).len(), 2);
}

#[test]
fn a_name_with_an_ampersand_stays_whole() {
    let language = Language::english();
    let raw = discover_all(&pages(), &language);
    let raw = texts(&raw);
    assert!(raw.contains(&"a&b roofing"), "{raw:?}");
    assert!(
        !raw.iter()
            .any(|t| t.ends_with(" a") || t.starts_with("b ") || *t == "b roofing"),
        "{raw:?}"
    );
    let offered = relevant_crawl(&pages(), &language, 200);
    let offered = texts(&offered);
    assert!(offered.contains(&"a&b roofing"), "{offered:?}");
}
