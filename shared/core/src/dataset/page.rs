use serde::{Deserialize, Serialize};

/// Which of the job's sites a page belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind", content = "index")]
pub enum SiteRole {
    Primary,
    /// Index into the job's competitor domains, in request order.
    Competitor(usize),
}

/// What the crawler keeps of one HTML page: the text that carries keywords, by where it
/// appears, because where a phrase appears says how much it matters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageContent {
    pub url: String,
    pub site: Option<SiteRole>,
    pub title: String,
    pub meta_description: String,
    /// h1 to h6, in document order.
    pub headings: Vec<String>,
    /// Main text without navigation, header, footer and aside boilerplate.
    pub body_text: String,
    /// Texts of links to pages of the same site.
    pub anchors: Vec<String>,
    /// Those of [`Self::anchors`] linked only from the page's fine print, the copyright line
    /// of its footer (legal notice, privacy, cookies: "Impressum", "Mentions légales"), never
    /// from its navigation or body.
    #[serde(default)]
    pub fine_print_anchors: Vec<String>,
    pub image_alts: Vec<String>,
    /// `name` of JSON-LD Product, Service, Organization (and similar) entities.
    pub json_ld_names: Vec<String>,
    /// The places JSON-LD says the business is in or serves: each address's
    /// `addressLocality` and each `areaServed` by name ("Manassas", "Northern Virginia").
    /// Empty in a crawl kept before it was read.
    #[serde(default)]
    pub json_ld_places: Vec<String>,
    /// The addresses of the Google maps the page embeds ("Kalve 62, 9185 Wachtebeke", "Via
    /// Colfelice, Roma"): where the business is. Empty in a crawl kept before it was read.
    #[serde(default)]
    pub map_addresses: Vec<String>,
    /// The `lang` attribute of `<html>`, if any.
    pub lang: Option<String>,
    /// What the page files its products under, in document order: each JSON-LD Product's
    /// `category` (a "Home > Garden > Flags" path read as its parts) and the names of a
    /// BreadcrumbList's items; without them, the steps of an HTML breadcrumb ("Accueil /
    /// Manteaux / Hua Long"). A shop names a product by its design ("Autumn Fox") and its
    /// category once ("Garden Flags"). Empty in a crawl kept before it was read.
    #[serde(default)]
    pub categories: Vec<String>,
    /// Links to pages of the same site under a heading of this page, with that heading (the
    /// nearest above the link): a collection page's products under their category.
    #[serde(default)]
    pub headed_links: Vec<HeadedLink>,
    /// The page is a shop's: product or offer markup, or a shopping cart (the crawler's
    /// `has_shop_markup`). A shop's collection page files its products under its headings.
    #[serde(default)]
    pub sells: bool,
}

/// A link's text and the heading nearest above it ("Autumn Fox" under "Garden Flags").
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HeadedLink {
    pub heading: String,
    pub text: String,
}
