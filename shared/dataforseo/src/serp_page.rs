//! What a job keeps of an advanced organic SERP: the organic URLs in rank order, the SERP
//! features on the page and the People Also Ask questions.

use kr_core::dataset::SerpFeature;
use kr_core::result_url::without_tracking;

use crate::model::SerpResult;

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
    }
}
