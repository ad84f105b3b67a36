//! What a job keeps of an advanced organic SERP: the organic URLs in rank order, the SERP
//! features on the page, the People Also Ask questions and the pages an AI Overview cites.

use kr_core::dataset::{AiReference, SerpFeature};
use kr_core::result_url::without_tracking;

use crate::model::{AiOverviewReference, SerpItem, SerpResult};

/// Questions kept per SERP; Google shows four before the user expands the box.
const MAX_QUESTIONS: usize = 12;
/// A longer "question" is no question a user typed; it is cut there.
const MAX_QUESTION_CHARS: usize = 300;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct SerpReading {
    /// The top `depth` organic results, in rank order, without click trackers.
    pub organic_urls: Vec<String>,
    /// In [`SerpFeature::ALL`] order, each once.
    pub features: Vec<SerpFeature>,
    pub questions: Vec<String>,
    /// The pages the AI Overview cites, in order, each once (its own `references`, then those
    /// of its parts not already listed); `None` when the page showed no AI Overview.
    pub ai_overview: Option<Vec<AiReference>>,
}

/// References kept per overview: far more than an overview shows.
const MAX_REFERENCES: usize = 40;

/// The cited pages of an `ai_overview` item; a reference without a web address is skipped.
fn overview_references(item: &SerpItem) -> Vec<AiReference> {
    let nested = item.items.iter().flat_map(|element| &element.references);
    let mut kept: Vec<AiReference> = Vec::new();
    for reference in item.references.iter().chain(nested) {
        let AiOverviewReference {
            domain, url, title, ..
        } = reference;
        let Some(found) = url
            .as_deref()
            .and_then(|url| AiReference::new(url, domain.as_deref(), title.as_deref()))
        else {
            continue;
        };
        if kept.len() < MAX_REFERENCES && !kept.iter().any(|k| k.url == found.url) {
            kept.push(found);
        }
    }
    kept
}

/// The feature an advanced item type shows, as DataForSEO names item types.
fn feature_of(item_type: &str) -> Option<SerpFeature> {
    Some(match item_type {
        "ai_overview" => SerpFeature::AiOverview,
        "featured_snippet" => SerpFeature::FeaturedSnippet,
        "people_also_ask" => SerpFeature::PeopleAlsoAsk,
        "local_pack" | "map" => SerpFeature::LocalPack,
        "shopping" | "popular_products" => SerpFeature::Shopping,
        "video" | "short_videos" => SerpFeature::Video,
        "images" => SerpFeature::Images,
        "top_stories" => SerpFeature::TopStories,
        "knowledge_graph" => SerpFeature::KnowledgeGraph,
        _ => return None,
    })
}

pub fn read_serp(serp: SerpResult, depth: usize) -> SerpReading {
    let mut features = Vec::new();
    let mut questions: Vec<String> = Vec::new();
    let mut organic = Vec::new();
    let mut ai_overview: Option<Vec<AiReference>> = None;
    for item in serp.items {
        let item_type = item.item_type.as_deref().unwrap_or("organic");
        if item_type == "organic" {
            if !item.links.is_empty() {
                features.push(SerpFeature::Sitelinks);
            }
            if let (Some(position), Some(url)) = (item.rank_group.or(item.rank_absolute), item.url)
            {
                organic.push((position, without_tracking(&url)));
            }
            continue;
        }
        let Some(feature) = feature_of(item_type) else {
            continue;
        };
        features.push(feature);
        if feature == SerpFeature::AiOverview {
            let references = overview_references(&item);
            let known = ai_overview.get_or_insert_with(Vec::new);
            for reference in references {
                if !known.iter().any(|k| k.url == reference.url) {
                    known.push(reference);
                }
            }
        }
        if feature == SerpFeature::PeopleAlsoAsk {
            for element in item.items {
                let Some(title) = element.title else { continue };
                let question: String = title.trim().chars().take(MAX_QUESTION_CHARS).collect();
                if !question.is_empty()
                    && questions.len() < MAX_QUESTIONS
                    && !questions.iter().any(|q| q.eq_ignore_ascii_case(&question))
                {
                    questions.push(question);
                }
            }
        }
    }
    // `SerpFeature`'s order is its declaration's, which `ALL` lists.
    features.sort_unstable();
    features.dedup();
    organic.sort_by_key(|(position, _)| *position);
    SerpReading {
        organic_urls: organic
            .into_iter()
            .take(depth)
            .map(|(_, url)| url)
            .collect(),
        features,
        questions,
        ai_overview,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_questions_and_organic_order_from_an_advanced_answer() {
        let serp: SerpResult = serde_json::from_value(serde_json::json!({
            "keyword": "cold brew",
            "items": [
                {"type": "people_also_ask", "rank_group": 1, "rank_absolute": 3, "items": [
                    {"type": "people_also_ask_element", "title": " Is cold brew stronger? "},
                    {"type": "people_also_ask_element", "title": "is cold brew stronger?"},
                    {"type": "people_also_ask_element"},
                    "not an element"
                ]},
                {"type": "organic", "rank_group": 2, "url": "https://b.com/?srsltid=AfmBOop", "links": null},
                {"type": "organic", "rank_group": 1, "url": "https://a.com/",
                 "links": [{"type": "link_element", "title": "Shop", "url": "https://a.com/shop"}]},
                {"type": "video", "items": [{"type": "video_element", "title": "How to"}]},
                {"type": "featured_snippet", "url": "https://a.com/"},
                {"type": "related_searches", "items": ["cold brew ratio"]},
                {"type": "paid", "rank_group": 1, "url": "https://ad.com/"},
                {"type": "people_also_ask", "items": []}
            ]
        }))
        .unwrap();
        let reading = read_serp(serp, 10);
        assert_eq!(reading.organic_urls, ["https://a.com/", "https://b.com/"]);
        assert_eq!(
            reading.features,
            [
                SerpFeature::FeaturedSnippet,
                SerpFeature::PeopleAlsoAsk,
                SerpFeature::Video,
                SerpFeature::Sitelinks
            ]
        );
        assert_eq!(reading.questions, ["Is cold brew stronger?"]);
    }

    #[test]
    fn a_regular_answer_reads_as_organic_results_without_features() {
        let serp: SerpResult = serde_json::from_value(serde_json::json!({
            "items": [{"type": "organic", "rank_group": 1, "url": "https://a.com/"}]
        }))
        .unwrap();
        let reading = read_serp(serp, 10);
        assert_eq!(reading.organic_urls, ["https://a.com/"]);
        assert!(reading.features.is_empty() && reading.questions.is_empty());
        assert_eq!(reading.ai_overview, None);
    }

    /// An `ai_overview` item as DataForSEO documents it: `references` of type
    /// `ai_overview_reference` (source, domain, url, title, text) on the item and on its
    /// `ai_overview_element` parts.
    #[test]
    fn an_ai_overview_keeps_its_references_and_its_parts_in_order_each_once() {
        let serp: SerpResult = serde_json::from_value(serde_json::json!({
            "items": [
                {"type": "ai_overview", "rank_group": 1, "rank_absolute": 1,
                 "asynchronous_ai_overview": false, "markdown": "Cold brew is…",
                 "items": [
                    {"type": "ai_overview_element", "title": "Strength", "text": "…",
                     "references": [
                        {"type": "ai_overview_reference", "source": "Bean Hub",
                         "domain": "www.beanhub.com", "url": "https://www.beanhub.com/cold-brew",
                         "title": "Cold brew <b>guide</b>", "text": "Steep for 12 hours."},
                        {"type": "ai_overview_reference", "source": "Blog",
                         "domain": "blog.brightbrew-coffee.com",
                         "url": "https://blog.brightbrew-coffee.com/ratio", "title": null}
                     ]},
                    {"type": "ai_overview_element", "references": "not a list"},
                    42
                 ],
                 "references": [
                    {"type": "ai_overview_reference", "source": "Wikipedia",
                     "domain": "en.wikipedia.org", "url": "https://en.wikipedia.org/wiki/Cold_brew",
                     "title": "Cold brew coffee", "text": "…"},
                    {"type": "ai_overview_reference", "domain": "x.com", "url": 7},
                    {"type": "ai_overview_reference", "url": "javascript:alert(1)"},
                    "not a reference",
                    {"type": "ai_overview_reference", "url": "https://www.beanhub.com/cold-brew"}
                 ]},
                {"type": "organic", "rank_group": 1, "url": "https://a.com/"}
            ]
        }))
        .unwrap();
        let reading = read_serp(serp, 10);
        assert_eq!(reading.organic_urls, ["https://a.com/"]);
        assert_eq!(reading.features, [SerpFeature::AiOverview]);
        let references = reading.ai_overview.unwrap();
        let urls: Vec<&str> = references.iter().map(|r| r.url.as_str()).collect();
        assert_eq!(
            urls,
            [
                "https://en.wikipedia.org/wiki/Cold_brew",
                "https://www.beanhub.com/cold-brew",
                "https://blog.brightbrew-coffee.com/ratio"
            ]
        );
        assert_eq!(references[1].domain, "www.beanhub.com");
        assert_eq!(references[0].title.as_deref(), Some("Cold brew coffee"));
        assert_eq!(references[2].title, None);
    }

    #[test]
    fn an_ai_overview_without_references_is_still_shown() {
        let serp: SerpResult = serde_json::from_value(serde_json::json!({
            "items": [{"type": "ai_overview", "references": null, "items": null}]
        }))
        .unwrap();
        assert_eq!(read_serp(serp, 10).ai_overview, Some(vec![]));
    }
}
