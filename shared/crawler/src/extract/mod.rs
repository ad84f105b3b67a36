//! What the research engine reads from an HTML page, and the links the crawler follows.

mod breadcrumb;
mod jsonld;
mod map;
mod outline;
mod parse;
pub(crate) mod text;

use std::collections::HashSet;

use scraper::{ElementRef, Html, Selector};
use url::Url;

use kr_core::dataset::{HeadedLink, PageContent};

use crate::site::{crawlable, Site};
use text::{collapse_whitespace, main_text_blocks, plain_text};

pub use outline::{extract_outline, OutlinedPage};

/// A link found on a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutLink {
    /// Absolute, without fragment.
    pub url: Url,
    /// `rel="nofollow"`: the author asks crawlers not to follow it.
    pub nofollow: bool,
}

/// The extraction result of one page.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtractedPage {
    /// Everything but `site`, which the crawler fills in.
    pub content: PageContent,
    /// Every http(s) link on the page, absolute, each URL once, in document order.
    pub links: Vec<OutLink>,
    /// `<meta name="robots" content="nofollow">` (or `none`): no link on the page should be
    /// followed.
    pub nofollow: bool,
    /// The page's own scripts (`<script src>` on the same site), absolute, each once: where a
    /// site that loads its navigation with a script names the pages it loads.
    pub scripts: Vec<Url>,
}

/// Extracts a page fetched from `url` (the final URL, after redirects).
pub fn extract_page(html: &str, url: &Url) -> ExtractedPage {
    Document::parse(html, url).page()
}

/// A parsed page with the URL its relative links resolve against.
pub(crate) struct Document {
    pub(crate) html: Html,
    pub(crate) url: Url,
    pub(crate) base: Url,
}

fn selector(css: &str) -> Selector {
    Selector::parse(css).expect("selectors in this module are valid CSS")
}

/// Collects non-empty values once each, in first-seen order. A set beside the list keeps
/// this linear: hostile pages carry hundreds of thousands of links.
struct Unique<T> {
    items: Vec<T>,
    seen: HashSet<T>,
}

impl<T: Clone + Eq + std::hash::Hash> Unique<T> {
    fn new() -> Self {
        Self {
            items: Vec::new(),
            seen: HashSet::new(),
        }
    }

    fn push(&mut self, item: T) -> bool {
        let new = self.seen.insert(item.clone());
        if new {
            self.items.push(item);
        }
        new
    }
}

/// True for elements in the HTML namespace (an `<svg><title>` is not the page title).
fn is_html(element: ElementRef<'_>) -> bool {
    &*element.value().name.ns == "http://www.w3.org/1999/xhtml"
}

impl Document {
    pub(crate) fn parse(html: &str, url: &Url) -> Self {
        let html = parse::parse_document(html);
        let base = html
            .select(&selector("base[href]"))
            .next()
            .and_then(|base| url.join(base.attr("href")?.trim()).ok())
            .filter(|base| matches!(base.scheme(), "http" | "https"))
            .unwrap_or_else(|| url.clone());
        Self {
            html,
            url: url.clone(),
            base,
        }
    }

    /// Resolves an attribute value against the document base; only http(s) results count.
    pub(crate) fn resolve(&self, href: &str) -> Option<Url> {
        let href = href.trim();
        if href.is_empty() {
            return None;
        }
        self.base.join(href).ok().and_then(crawlable)
    }

    pub(crate) fn title(&self) -> Option<String> {
        self.html
            .select(&selector("title"))
            .find(|title| is_html(*title))
            .map(plain_text)
            .filter(|title| !title.is_empty())
    }

    /// The `content` of the first `<meta>` whose `name` or `property` is one of `keys`
    /// (compared case-insensitively), trimmed and non-empty.
    pub(crate) fn meta(&self, keys: &[&str]) -> Option<String> {
        self.html
            .select(&selector("meta[content]"))
            .find_map(|meta| {
                let named = [meta.attr("property"), meta.attr("name")]
                    .into_iter()
                    .flatten()
                    .any(|key| keys.iter().any(|k| k.eq_ignore_ascii_case(key.trim())));
                if !named {
                    return None;
                }
                Some(collapse_whitespace(meta.attr("content")?)).filter(|c| !c.is_empty())
            })
    }

    pub(crate) fn page(&self) -> ExtractedPage {
        let site = self.url.host_str().map(Site::from_host);
        let mut content = PageContent {
            url: self.url.to_string(),
            site: None,
            title: self.title().unwrap_or_default(),
            meta_description: self.meta(&["description"]).unwrap_or_default(),
            lang: self
                .html
                .root_element()
                .attr("lang")
                .map(str::trim)
                .filter(|lang| !lang.is_empty())
                .map(str::to_owned),
            ..PageContent::default()
        };
        for heading in self.html.select(&selector("h1, h2, h3, h4, h5, h6")) {
            let text = plain_text(heading);
            if !text.is_empty() {
                content.headings.push(text);
            }
        }
        content.body_text = self.main_text();
        let mut alts = Unique::new();
        for image in self.html.select(&selector("img[alt]")) {
            let alt = collapse_whitespace(image.attr("alt").unwrap_or_default());
            if !alt.is_empty() {
                alts.push(alt);
            }
        }
        content.image_alts = alts.items;
        for script in self.html.select(&selector("script[type]")) {
            let kind = script.attr("type").unwrap_or_default();
            let kind = kind.split(';').next().unwrap_or_default().trim();
            if kind.eq_ignore_ascii_case("application/ld+json") {
                let text = script.text().collect::<String>();
                if let Some(value) = jsonld::parse(&text) {
                    jsonld::collect_names(&value, &mut content.json_ld_names);
                    jsonld::collect_categories(&value, &mut content.categories);
                    jsonld::collect_places(&value, &mut content.json_ld_places);
                    content.sells |= jsonld::offers_for_sale(&value);
                }
            }
        }

        content.map_addresses = map::addresses(&self.html);
        // JSON-LD says where the page is filed when it says so; otherwise its breadcrumb.
        if content.categories.is_empty() {
            content.categories = breadcrumb::steps(&self.html);
        }
        let mut anchors = Unique::new();
        let copyright = copyright_blocks(&self.html);
        let mut in_fine_print = Unique::new();
        let mut elsewhere: HashSet<String> = HashSet::new();
        let mut link_urls = Unique::new();
        let mut links: Vec<OutLink> = Vec::new();
        for anchor in self.html.select(&selector("a[href], area[href]")) {
            let Some(url) = self.resolve(anchor.attr("href").unwrap_or_default()) else {
                continue;
            };
            if site.as_ref().is_some_and(|site| site.contains(&url)) {
                let text = anchor_text(anchor);
                if !text.is_empty() {
                    if in_the_fine_print(anchor, &copyright) {
                        in_fine_print.push(text.clone());
                    } else {
                        elsewhere.insert(text.clone());
                    }
                    anchors.push(text);
                }
            }
            if link_urls.push(url.clone()) {
                let nofollow = anchor.attr("rel").is_some_and(|rel| {
                    rel.split_ascii_whitespace()
                        .any(|r| r.eq_ignore_ascii_case("nofollow"))
                });
                links.push(OutLink { url, nofollow });
            }
        }
        content.anchors = anchors.items;
        content.fine_print_anchors = in_fine_print
            .items
            .into_iter()
            .filter(|text| !elsewhere.contains(text))
            .collect();
        content.headed_links = self.headed_links(site.as_ref());
        content.sells |= self.has_shop_markup();
        let nofollow = self.meta(&["robots"]).is_some_and(|robots| {
            robots
                .split(',')
                .map(str::trim)
                .any(|d| d.eq_ignore_ascii_case("nofollow") || d.eq_ignore_ascii_case("none"))
        });
        let mut scripts: Vec<Url> = Vec::new();
        for script in self.html.select(&selector("script[src]")) {
            let own = self
                .resolve(script.attr("src").unwrap_or_default())
                .filter(|url| site.as_ref().is_some_and(|site| site.contains(url)));
            if let Some(url) = own.filter(|url| !scripts.contains(url)) {
                scripts.push(url);
            }
        }
        ExtractedPage {
            content,
            links,
            nofollow,
            scripts,
        }
    }

    /// Whether the page is a shop's: product markup (microdata `Product`, Open Graph `og:type`
    /// product; offers and prices alone say nothing, as services have them too) or a
    /// shopping cart, which shop software
    /// names in its markup whatever the page's language (a class, id, name, address or data
    /// attribute with a word such as `cart`, `basket` or `checkout`: "add-to-cart",
    /// "snipcart-add-item", "/warenkorb").
    fn has_shop_markup(&self) -> bool {
        let product_markup = self
            .html
            .select(&selector("[itemtype*='schema.org/Product']"))
            .next()
            .is_some();
        let og_product = self
            .meta(&["og:type"])
            .is_some_and(|kind| kind.to_ascii_lowercase().starts_with("product"));
        product_markup || og_product || self.html.select(&selector("*")).any(names_a_cart)
    }

    /// Each link to a page of the same site with the heading it sits under, in document
    /// order, once per heading and text: the nearest heading above it that is not its own
    /// text (a product card's "Autumn Fox" heading and link sit under "Garden Flags"). A
    /// heading inside a link is the link's text, no section; links above the first heading
    /// (the site's header and navigation) have none and are left out.
    fn headed_links(&self, site: Option<&Site>) -> Vec<HeadedLink> {
        // The open sections: each heading's level and text, outermost first.
        let mut open: Vec<(u8, String)> = Vec::new();
        let mut found: Vec<HeadedLink> = Vec::new();
        for element in self
            .html
            .select(&selector("h1, h2, h3, h4, h5, h6, a[href]"))
        {
            let name = element.value().name();
            if name != "a" {
                let in_link = element
                    .ancestors()
                    .filter_map(ElementRef::wrap)
                    .any(|a| a.value().name() == "a");
                let text = plain_text(element);
                if in_link || text.is_empty() {
                    continue;
                }
                let level = name.as_bytes()[1];
                open.retain(|(l, _)| *l < level);
                open.push((level, text));
                continue;
            }
            // A link holding a heading is a card of that level: it closes the sibling card
            // above it ("Autumn Fox" heading a card, then a linked "Winter Owl" card).
            if let Some(inner) = element.select(&selector("h1, h2, h3, h4, h5, h6")).next() {
                let level = inner.value().name().as_bytes()[1];
                open.retain(|(l, _)| *l < level);
            }
            let text = anchor_text(element);
            let Some((_, heading)) = open.iter().rev().find(|(_, h)| *h != text) else {
                continue;
            };
            let internal = self
                .resolve(element.attr("href").unwrap_or_default())
                .is_some_and(|url| site.is_some_and(|site| site.contains(&url)));
            let link = HeadedLink {
                heading: heading.clone(),
                text,
            };
            if internal && !link.text.is_empty() && !found.contains(&link) {
                found.push(link);
            }
        }
        found
    }

    /// The page's main text: `<main>` when present, else its `<article>`s, else `<body>`,
    /// always without navigation, site header and footer, asides, scripts and forms.
    fn main_text(&self) -> String {
        let mut blocks = Vec::new();
        let main = self.html.select(&selector("main, [role=main]")).next();
        if let Some(main) = main {
            main_text_blocks(main, &mut blocks);
        } else {
            let articles: Vec<ElementRef<'_>> = self
                .html
                .select(&selector("article"))
                // Nested articles (comments) are already part of their outer article.
                .filter(|article| {
                    !article
                        .ancestors()
                        .filter_map(ElementRef::wrap)
                        .any(|a| a.value().name() == "article")
                })
                .collect();
            if articles.is_empty() {
                main_text_blocks(self.html.root_element(), &mut blocks);
            } else {
                articles
                    .into_iter()
                    .for_each(|article| main_text_blocks(article, &mut blocks));
            }
        }
        blocks.join("\n")
    }
}

/// What a link says: its text, else its accessible name, else the alt text of its image.
fn anchor_text(anchor: ElementRef<'_>) -> String {
    let text = plain_text(anchor);
    if !text.is_empty() {
        return text;
    }
    for attribute in ["aria-label", "title"] {
        if let Some(label) = anchor
            .attr(attribute)
            .map(collapse_whitespace)
            .filter(|l| !l.is_empty())
        {
            return label;
        }
    }
    anchor
        .select(&selector("img[alt]"))
        .filter_map(|image| image.attr("alt").map(collapse_whitespace))
        .find(|alt| !alt.is_empty())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;

/// Words shop software names its cart with, in its markup.
const CART_WORDS: [&str; 8] = [
    "cart",
    "basket",
    "checkout",
    "warenkorb",
    "panier",
    "carrito",
    "carrello",
    "winkelwagen",
];

/// Whether an attribute of `element` that names things in markup (class, id, name, an
/// address, a data attribute) has a cart word among its words ("snipcart" and "minicart"
/// count as carts).
fn names_a_cart(element: ElementRef<'_>) -> bool {
    element.value().attrs().any(|(name, value)| {
        let named = matches!(name, "class" | "id" | "name" | "href" | "action")
            || name.starts_with("data-");
        named
            && value
                .split(|c: char| !c.is_ascii_alphanumeric())
                .map(str::to_ascii_lowercase)
                .any(|word| {
                    CART_WORDS.contains(&word.as_str())
                        || (word.len() > 4 && word.ends_with("cart"))
                })
    })
}

/// Links in a copyright block at most: the fine print under a page ("© 2025 … · Impressum ·
/// Datenschutz") holds a few, a footer's columns of services many.
const FINE_PRINT_LINKS: usize = 6;

/// Every element holding a copyright notice ("©", "copyright") in its text: found once per
/// page, so that each footer link asks only its own ancestors.
fn copyright_blocks(html: &Html) -> HashSet<ego_tree::NodeId> {
    let mut blocks = HashSet::new();
    for node in html.tree.nodes() {
        let scraper::Node::Text(text) = node.value() else {
            continue;
        };
        if text.contains('©') || text.to_ascii_lowercase().contains("copyright") {
            blocks.extend(node.ancestors().map(|ancestor| ancestor.id()));
        }
    }
    blocks
}

/// Whether `element` is in the page's fine print: inside its footer (a `<footer>`, role
/// `contentinfo`, or an element whose id or class names a footer, as templates name it
/// whatever the page's language), in the smallest block holding it and a copyright notice
/// ("©", one of `copyright` blocks), when that block holds few links. A footer's columns of
/// services are not.
fn in_the_fine_print(element: ElementRef<'_>, copyright: &HashSet<ego_tree::NodeId>) -> bool {
    let mut ancestors = element.ancestors().filter_map(ElementRef::wrap);
    let in_footer = ancestors.clone().any(|ancestor| {
        let value = ancestor.value();
        value.name() == "footer"
            || value.attr("role") == Some("contentinfo")
            || ["id", "class"].iter().any(|name| {
                value.attr(name).is_some_and(|names| {
                    names
                        .split(|c: char| !c.is_ascii_alphanumeric())
                        .any(|word| word.eq_ignore_ascii_case("footer"))
                })
            })
    });
    if !in_footer {
        return false;
    }
    let Some(block) = ancestors.find(|ancestor| copyright.contains(&ancestor.id())) else {
        return false;
    };
    block.select(&selector("a[href]")).count() <= FINE_PRINT_LINKS
}
