//! What a keyword's first results page looks like beyond its links: the SERP features Google
//! shows on it, the People Also Ask questions, and the top results from forums, Q&A and social
//! sites ("weak spots": pages a dedicated page can outrank, LowFruits' term).

use serde::{Deserialize, Serialize};

/// A SERP feature, as DataForSEO names the item type on an advanced results page.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum SerpFeature {
    AiOverview,
    FeaturedSnippet,
    PeopleAlsoAsk,
    LocalPack,
    Shopping,
    Video,
    Images,
    TopStories,
    KnowledgeGraph,
    /// Links to a site's sections under its organic result.
    Sitelinks,
}

impl SerpFeature {
    /// The name SEO tools show.
    pub fn label(self) -> &'static str {
        match self {
            Self::AiOverview => "AI Overview",
            Self::FeaturedSnippet => "Featured snippet",
            Self::PeopleAlsoAsk => "People Also Ask",
            Self::LocalPack => "Local pack",
            Self::Shopping => "Shopping results",
            Self::Video => "Videos",
            Self::Images => "Images",
            Self::TopStories => "Top stories",
            Self::KnowledgeGraph => "Knowledge panel",
            Self::Sitelinks => "Sitelinks",
        }
    }
}

string_enum! {
    SerpFeature {
        AiOverview => "ai_overview",
        FeaturedSnippet => "featured_snippet",
        PeopleAlsoAsk => "people_also_ask",
        LocalPack => "local_pack",
        Shopping => "shopping",
        Video => "video",
        Images => "images",
        TopStories => "top_stories",
        KnowledgeGraph => "knowledge_graph",
        Sitelinks => "sitelinks",
    }
    from_str(ignore_case, |raw| {
        let names: Vec<&str> = SerpFeature::ALL.iter().map(|f| f.as_str()).collect();
        format!("{raw:?} is not one of {}", names.join(", "))
    })
}

/// A top-10 organic result from a site where anyone posts: an easy page to outrank.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
#[serde(rename_all = "camelCase")]
pub struct WeakSpot {
    /// Organic position, from 1.
    pub position: u32,
    pub url: String,
    /// The site, as listed in the README's weak-spot sites (`reddit.com`), or the host for a
    /// forum found by its address (`forum.example.com`).
    pub site: String,
    pub kind: WeakSpotKind,
}

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum WeakSpotKind {
    /// A discussion forum or community board.
    Forum,
    /// A question-and-answer site.
    QuestionsAndAnswers,
    /// A social network.
    Social,
    /// A free publishing or blog platform.
    UserBlog,
}

impl WeakSpotKind {
    pub fn label(self) -> &'static str {
        match self {
            Self::Forum => "forum",
            Self::QuestionsAndAnswers => "Q&A site",
            Self::Social => "social network",
            Self::UserBlog => "user blog",
        }
    }
}

/// What kind of page a search result is, read from its address (`kr_research::serp_page`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PageType {
    /// A site's front page.
    Home,
    /// An article, how-to, definition, video or reference page.
    Guide,
    /// A list or comparison of options ("best …", "… vs …", reviews).
    List,
    /// One product for sale.
    Product,
    /// A shop's category or a marketplace's search page: many products for sale.
    Category,
    /// A service page of a business, or a directory of local businesses.
    LocalService,
    /// A calculator, generator or other tool.
    Tool,
    Forum,
    Social,
    Other,
}

impl PageType {
    pub fn as_str(self) -> &'static str {
        match self {
            PageType::Home => "home",
            PageType::Guide => "guide",
            PageType::List => "list",
            PageType::Product => "product",
            PageType::Category => "category",
            PageType::LocalService => "local_service",
            PageType::Tool => "tool",
            PageType::Forum => "forum",
            PageType::Social => "social",
            PageType::Other => "other",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_refused() {
        // Readers sort features by `Ord` to get `ALL`'s order.
        assert!(SerpFeature::ALL.windows(2).all(|pair| pair[0] < pair[1]));
        for feature in SerpFeature::ALL {
            assert_eq!(feature.as_str().parse::<SerpFeature>(), Ok(feature));
            let json = serde_json::to_string(&feature).unwrap();
            assert_eq!(json, format!("\"{}\"", feature.as_str()));
        }
        assert_eq!(
            " Local_Pack ".parse::<SerpFeature>(),
            Ok(SerpFeature::LocalPack)
        );
        let refused = "snippet".parse::<SerpFeature>().unwrap_err();
        assert!(refused.contains("ai_overview"), "{refused}");
    }
}
