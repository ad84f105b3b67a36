//! Schema-only mirrors of `kr_core::dataset`'s results page types (SERP features, weak
//! spots, page types), served as they are.
//!
//! GUARDED BY THE DRIFT TEST (`src/drift.rs`): it serialises real core values and checks the
//! JSON against these schemas. A field or variant added to a core type goes here too, with
//! its doc comment word for word (it is the OpenAPI description) and its serde attributes.
//! `Serialize` is derived only so those serde attributes, which the schema derive reads, can
//! be written; nothing serialises a mirror.

use serde::Serialize;
use utoipa::ToSchema;

/// A SERP feature, as DataForSEO names the item type on an advanced results page.
#[derive(Serialize, ToSchema)]
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

/// A top-10 organic result from a site where anyone posts: an easy page to outrank.
#[derive(Serialize, ToSchema)]
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

#[derive(Serialize, ToSchema)]
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

/// What kind of page a search result is, read from its address (`kr_research::serp_page`).
#[derive(Serialize, ToSchema)]
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
