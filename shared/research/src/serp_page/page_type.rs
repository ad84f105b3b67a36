//! What kind of page a search result is, read from its address alone: the results page says
//! what a query wants by the pages Google ranks for it (guides for a question, shops for a
//! purchase, contractors and directories for a local service).
//!
//! In order, the first rule that holds:
//!
//! | rule | page type |
//! |---|---|
//! | a forum, Q&A site or user blog (the weak-spot sites) | forum |
//! | a social network | social |
//! | a marketplace: its search or category pages / any other page | category / product |
//! | a directory of local businesses (Yelp, Mapquest, Angi…) | local service |
//! | a reference or learning site (Wikipedia, YouTube, SlideShare…), a government's or university's | guide |
//! | no path, or only a language ("/", "/en/", "/index.html") | home |
//! | a path segment naming the page's kind (`/products/x`, `/collections/`, `/blog/`, `/service-areas/`, `/best-…`, `/…-calculator`) | that kind |
//! | a US state in the path (`/concrete-sealing-ann-arbor-mi/`) | local service |
//! | anything else | other |

pub use kr_core::dataset::PageType;
use kr_core::dataset::WeakSpotKind;

use super::weak_site;
use crate::intent::places::AMBIGUOUS_CODES;
use crate::text::us_states::{US_STATES, US_STATE_CODES};
use crate::text::web_address::{belongs, host_of, path_of};

/// The kind of page `url` is, by the rules in the module documentation.
pub fn page_type(url: &str) -> PageType {
    if let Some((_, kind)) = weak_site(url) {
        return if kind == WeakSpotKind::Social {
            PageType::Social
        } else {
            PageType::Forum
        };
    }
    let host = host_of(url);
    let path = path_of(url).to_ascii_lowercase();
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if MARKETPLACES.iter().any(|site| belongs(host, site)) {
        let searching = segments.iter().any(|s| MARKETPLACE_LISTINGS.contains(s));
        return if searching || segments.is_empty() {
            PageType::Category
        } else {
            PageType::Product
        };
    }
    if DIRECTORIES.iter().any(|site| belongs(host, site)) {
        return PageType::LocalService;
    }
    if REFERENCE_SITES.iter().any(|site| belongs(host, site)) || is_public_body(host) {
        return PageType::Guide;
    }
    if is_front_page(&segments) {
        return PageType::Home;
    }
    from_path(&segments)
}

/// A government's or university's site ("irs.gov", "ox.ac.uk", "mit.edu"): it informs.
fn is_public_body(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let labels: Vec<&str> = host.rsplit('.').take(2).collect();
    labels
        .iter()
        .any(|label| matches!(*label, "gov" | "edu" | "mil" | "ac"))
        && host.contains('.')
}

/// "/", "/en/", "/index.html", "/en-us/home".
fn is_front_page(segments: &[&str]) -> bool {
    let is_language = |s: &&str| {
        let parts: Vec<&str> = s.split(['-', '_']).collect();
        parts.len() <= 2 && parts.iter().all(|p| p.len() == 2)
    };
    let is_index = |s: &&str| {
        let stem = s.split('.').next().unwrap_or("");
        matches!(stem, "index" | "home" | "default")
    };
    match segments {
        [] => true,
        [only] => is_language(only) || is_index(only),
        [language, index] => is_language(language) && is_index(index),
        _ => false,
    }
}

/// The page type a path names, read segment by segment (a section like `/products/` names
/// what is under it; the last segment, the page's own slug, may name itself).
fn from_path(segments: &[&str]) -> PageType {
    let Some((slug, sections)) = segments.split_last() else {
        return PageType::Other;
    };
    let stem = slug.split('.').next().unwrap_or(slug);
    let words: Vec<&str> = stem
        .split(['-', '_', '+'])
        .filter(|w| !w.is_empty())
        .collect();
    if words.iter().any(|w| TOOL_WORDS.contains(w)) {
        return PageType::Tool;
    }
    let starts_with = |prefixes: &[&[&str]]| prefixes.iter().any(|p| words.starts_with(p));
    if starts_with(LIST_STARTS) || words.iter().any(|w| LIST_WORDS.contains(w)) {
        return PageType::List;
    }
    if starts_with(GUIDE_STARTS) || words.iter().any(|w| GUIDE_WORDS.contains(w)) {
        return PageType::Guide;
    }
    for section in sections.iter().rev() {
        if let Some(kind) = section_type(section) {
            return kind;
        }
    }
    let in_a_state = segments
        .iter()
        .flat_map(|segment| segment.split(['-', '_', '.']))
        .any(is_state);
    if in_a_state {
        return PageType::LocalService;
    }
    // A listing page named for its section ("/products.php", "/collections").
    match section_type(stem) {
        Some(PageType::Product) => PageType::Category,
        Some(kind) => kind,
        None => PageType::Other,
    }
}

/// A state's name or unambiguous postal code ("michigan", "mi"; not "in" or "me").
fn is_state(word: &str) -> bool {
    US_STATES.contains(&word)
        || (US_STATE_CODES.contains(&word) && !AMBIGUOUS_CODES.contains(&word))
}

fn section_type(section: &str) -> Option<PageType> {
    SECTIONS
        .iter()
        .find(|(names, _)| names.contains(&section))
        .map(|(_, kind)| *kind)
}

const SECTIONS: [(&[&str], PageType); 5] = [
    (
        &[
            "product",
            "products",
            "p",
            "dp",
            "item",
            "items",
            "proddetail",
            "product-detail",
            "productinfo",
            "sku",
            "buy",
        ],
        PageType::Product,
    ),
    (
        &[
            "collections",
            "collection",
            "category",
            "categories",
            "shop",
            "store",
            "catalog",
            "catalogue",
            "c",
        ],
        PageType::Category,
    ),
    (
        &[
            "blog",
            "blogs",
            "news",
            "article",
            "articles",
            "guide",
            "guides",
            "learn",
            "wiki",
            "resources",
            "knowledge",
            "faq",
            "faqs",
            "help",
            "tutorial",
            "tutorials",
            "insights",
            "library",
            "academy",
            "magazine",
            "post",
            "posts",
            "slideshow",
            "questions",
        ],
        PageType::Guide,
    ),
    (
        &[
            "service-areas",
            "service-area",
            "areas-we-serve",
            "locations",
            "location",
            "services",
            "service",
            "near-me",
        ],
        PageType::LocalService,
    ),
    (
        &["reviews", "review", "compare", "comparison", "top", "best"],
        PageType::List,
    ),
];

const LIST_STARTS: &[&[&str]] = &[&["best"], &["top"]];
const LIST_WORDS: [&str; 6] = [
    "vs",
    "versus",
    "alternatives",
    "reviews",
    "comparison",
    "compare",
];
const GUIDE_STARTS: &[&[&str]] = &[
    &["what"],
    &["how"],
    &["why"],
    &["when"],
    &["guide"],
    &["understanding"],
    &["introduction"],
];
const GUIDE_WORDS: [&str; 6] = [
    "guide",
    "explained",
    "meaning",
    "definition",
    "tutorial",
    "tips",
];
const TOOL_WORDS: [&str; 5] = [
    "calculator",
    "generator",
    "converter",
    "checker",
    "estimator",
];

/// Marketplaces: many sellers' products on one site.
const MARKETPLACES: [&str; 20] = [
    "amazon.com",
    "amazon.in",
    "amazon.co.uk",
    "amazon.de",
    "ebay.com",
    "etsy.com",
    "walmart.com",
    "alibaba.com",
    "aliexpress.com",
    "indiamart.com",
    "tradeindia.com",
    "made-in-china.com",
    "flipkart.com",
    "target.com",
    "bestbuy.com",
    "homedepot.com",
    "lowes.com",
    "wayfair.com",
    "globalsources.com",
    "globallinker.com",
];

/// Path segments of a marketplace's search and category pages (`/s`, `/rug-yarn/s`).
const MARKETPLACE_LISTINGS: [&str; 10] = [
    "s",
    "b",
    "search",
    "sch",
    "impcat",
    "manufacturers",
    "suppliers",
    "category",
    "c",
    "browse",
];

/// Directories of local businesses.
const DIRECTORIES: [&str; 12] = [
    "yelp.com",
    "mapquest.com",
    "yellowpages.com",
    "bbb.org",
    "angi.com",
    "angieslist.com",
    "homeadvisor.com",
    "thumbtack.com",
    "houzz.com",
    "porch.com",
    "justdial.com",
    "sulekha.com",
];

/// Reference and learning sites: what ranks there explains.
const REFERENCE_SITES: [&str; 8] = [
    "wikipedia.org",
    "britannica.com",
    "youtube.com",
    "slideshare.net",
    "investopedia.com",
    "merriam-webster.com",
    "dictionary.com",
    "scribd.com",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_reads_its_pages() {
        let cases = [
            ("https://www.bartsasphalt.com/", PageType::Home),
            ("https://acme.com/en/", PageType::Home),
            ("https://acme.com/index.html", PageType::Home),
            (
                "https://www.reddit.com/r/AnnArbor/comments/1/x/",
                PageType::Forum,
            ),
            ("https://www.facebook.com/BartsAsphalt/", PageType::Social),
            (
                "https://www.amazon.com/rug-yarn/s?k=rug+yarn",
                PageType::Category,
            ),
            ("https://www.amazon.com/s?k=rug+yarn", PageType::Category),
            (
                "https://dir.indiamart.com/impcat/carpet-yarn.html",
                PageType::Category,
            ),
            (
                "https://www.alibaba.com/product-detail/TFO_1.html",
                PageType::Product,
            ),
            (
                "https://www.yelp.com/biz/barts-asphalt-jackson",
                PageType::LocalService,
            ),
            ("https://en.wikipedia.org/wiki/Yarn", PageType::Guide),
            ("https://www.irs.gov/", PageType::Guide),
            ("https://www.ox.ac.uk/admissions", PageType::Guide),
            (
                "https://acme.com/products/merach-waist-twister",
                PageType::Product,
            ),
            ("https://acme.com/products.php", PageType::Category),
            (
                "https://woolery.com/collections/rug-weaving-yarns",
                PageType::Category,
            ),
            (
                "https://acme.com/blog/article/What-Is-Carpet-Yarn",
                PageType::Guide,
            ),
            (
                "https://www.rifatextile.com/what-is-a-tfo-machine.html",
                PageType::Guide,
            ),
            (
                "https://acme.com/service-areas/sealcoating-ann-arbor-mi/",
                PageType::LocalService,
            ),
            ("https://acme.com/best-web-hosting", PageType::List),
            ("https://acme.com/vanguard-vs-fidelity", PageType::List),
            ("https://acme.com/tools/mortgage-calculator", PageType::Tool),
            (
                "https://www.tfotwister.com/tfo-twisting-machine.html",
                PageType::Other,
            ),
            (
                "https://acme.com/ann-arbor/concrete-sealing-ann-arbor-mi/",
                PageType::LocalService,
            ),
            (
                "https://acme.com/lansing-michigan-paving",
                PageType::LocalService,
            ),
            ("https://acme.com/log-in-me", PageType::Other),
        ];
        for (url, expected) in cases {
            assert_eq!(page_type(url), expected, "{url}");
        }
    }

    #[test]
    fn lookalike_hosts_are_not_the_listed_sites() {
        assert_eq!(page_type("https://notamazon.com/"), PageType::Home);
        assert_eq!(page_type("https://myyelp.com/biz/x"), PageType::Other);
    }
}
