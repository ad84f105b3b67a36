//! Products a shop names by their design ("Autumn Fox") and files under a category ("Garden
//! Flags", from the product page's breadcrumb or JSON-LD `category`, `PageContent::categories`):
//! people search for the product with its category, "autumn fox garden flag".

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::discovery::Candidate;
use crate::personas::primary_pages;
use crate::text::{join_words, Language};
use crate::PageContent;

/// One-word offerings at least that share a second word for it to be their line's kind.
const MIN_LINE: usize = 2;

/// A one-word offering that the site also names with a word it shares with other one-word
/// offerings ("Aroma" and "Aroma Mix", "Gourmet" and "Gourmet Mix") is a design of that line:
/// people search "aroma mix", as they search "autumn fox garden flag". The longer name takes
/// the one word's place and prominence; the shorter is dropped.
pub(super) fn complete_lines(offerings: &mut Vec<(String, f64)>) {
    let single: HashSet<String> = offerings
        .iter()
        .filter(|(name, _)| !name.contains(' '))
        .map(|(name, _)| name.clone())
        .collect();
    // Each shared word, and whether it comes after (true) or before the design, with the
    // designs it joins; in order, so that a design of two lines always takes the same one.
    let mut lines: BTreeMap<(String, bool), Vec<String>> = BTreeMap::new();
    for (name, _) in offerings.iter() {
        if let Some((first, second)) = name.split_once(' ') {
            if second.contains(' ') {
                continue;
            }
            if single.contains(first) {
                lines
                    .entry((second.to_string(), true))
                    .or_default()
                    .push(first.to_string());
            } else if single.contains(second) {
                lines
                    .entry((first.to_string(), false))
                    .or_default()
                    .push(second.to_string());
            }
        }
    }
    let mut completed: HashMap<String, String> = HashMap::new();
    for ((kind, after), designs) in lines {
        if designs.len() < MIN_LINE {
            continue;
        }
        for design in designs {
            let name = if after {
                format!("{design} {kind}")
            } else {
                format!("{kind} {design}")
            };
            completed.entry(design).or_insert(name);
        }
    }
    if completed.is_empty() {
        return;
    }
    for (name, _) in offerings.iter_mut() {
        if let Some(longer) = completed.get(name.as_str()) {
            *name = longer.clone();
        }
    }
    let mut seen = HashSet::new();
    offerings.retain(|(name, _)| seen.insert(name.clone()));
}

/// The longest keyword a completion may make, as discovery's longest phrase.
const MAX_WORDS: usize = 5;

/// Each product page's product (its first heading, lowercase) and the category it is filed
/// under, the category's last word singular ("garden flag").
pub(super) struct Filed {
    by_product: HashMap<String, String>,
    /// The language names the kind before the design ("manteau huā long"), as it puts a
    /// phrase's noun first.
    category_first: bool,
}

impl Filed {
    /// The products of the primary `pages` filed under a category that is one of the site's
    /// `offerings` (lowercase; a breadcrumb's "Home" or a store-wide "Home & Garden" is
    /// none): the deepest such category of each product page, and, on a site that sells,
    /// each link under a category's heading on a collection page.
    pub fn of_site(pages: &[PageContent], offerings: &[String], language: &Language) -> Self {
        let singular = |category: &str| singular(category, language);
        let mut by_product = HashMap::new();
        // A shop's collection page lists its products under their category's heading; a
        // service site's grid reads the same way ("Asphalt Shingles" under "Roofing"), so
        // only a site that sells (product markup or a cart on a page) is read this way.
        if primary_pages(pages).iter().any(|page| page.sells) {
            for page in primary_pages(pages) {
                for link in &page.headed_links {
                    let category = link.heading.trim().to_lowercase();
                    let product = link.text.trim().to_lowercase();
                    if product != category && offerings.contains(&category) {
                        by_product
                            .entry(product)
                            .or_insert_with(|| singular(&category));
                    }
                }
            }
        }
        for page in primary_pages(pages) {
            let Some(heading) = page.headings.first().map(|h| h.trim().to_lowercase()) else {
                continue;
            };
            let category = page
                .categories
                .iter()
                .map(|c| c.trim().to_lowercase())
                .rfind(|c| *c != heading && offerings.contains(c));
            let Some(category) = category else {
                continue;
            };
            // "Manteau Oversize Cachemire Femme — Huā Long": the design is a part of the
            // heading as well as the whole.
            let parts = heading
                .split(['—', '–', '|'])
                .flat_map(|part| part.split(" - "))
                .map(str::trim)
                .filter(|part| !part.is_empty() && *part != heading)
                .map(str::to_string);
            for product in std::iter::once(heading.clone()).chain(parts) {
                by_product
                    .entry(product)
                    .or_insert_with(|| singular(&category));
            }
        }
        Filed {
            by_product,
            category_first: language.head_is_first(),
        }
    }

    /// The candidate with its category after it, when it is a filed product that does not
    /// name its category already ("autumn fox" → "autumn fox garden flag").
    pub fn complete(&self, candidate: &Candidate) -> Option<Candidate> {
        let keyword = self.completed(&candidate.keyword)?;
        Some(Candidate {
            word_count: keyword.split_whitespace().count(),
            keyword,
            ..candidate.clone()
        })
    }

    /// `product` (lowercase) with its category after it, as [`Filed::complete`].
    pub fn completed(&self, product: &str) -> Option<String> {
        let category = self.by_product.get(product)?;
        // A product that names its category's kind already ("metal roofs" under "roofing")
        // is no design name: a word of it and of the category begin alike.
        let named = product.split_whitespace().any(|word| {
            category
                .split_whitespace()
                .any(|c| common_prefix(word, c) >= 4 || word == c)
        });
        let (first, second) = if self.category_first {
            (category.as_str(), product)
        } else {
            (product, category.as_str())
        };
        let words: Vec<&str> = first
            .split_whitespace()
            .chain(second.split_whitespace())
            .collect();
        (!named && words.len() <= MAX_WORDS).then(|| join_words(&words))
    }
}

/// A French, Spanish or Portuguese plural's singular: "manteaux" → "manteau", "flores" →
/// "flor", "luces" → "luz", "cestas" → "cesta"; a word not ending in s or x stays.
fn romance_singular(word: &str, french: bool) -> String {
    if french {
        if let Some(stem) = word.strip_suffix("eaux") {
            return format!("{stem}eau");
        }
    }
    if !french {
        if let Some(stem) = word.strip_suffix("ces") {
            return format!("{stem}z");
        }
        if let Some(stem) = word.strip_suffix("es") {
            if stem.ends_with(|c: char| !"aeiouáéíóú".contains(c)) && stem.chars().count() > 2
            {
                return stem.to_string();
            }
        }
    }
    match word.strip_suffix('s') {
        Some(stem) if stem.chars().count() > 2 && !stem.ends_with('s') => stem.to_string(),
        _ => word.to_string(),
    }
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

/// `phrase` with its noun singular: in English its last word ("garden flags" → "garden
/// flag", "party supplies" → "party supply", "gift boxes" → "gift box"; a word ending in "ss"
/// stays: "glass"); in French, Spanish and Portuguese its first ("manteaux" → "manteau",
/// "flores de temporada" → "flor de temporada"). Other languages' plurals are left as written.
fn singular(phrase: &str, language: &Language) -> String {
    let mut words: Vec<String> = phrase.split_whitespace().map(str::to_string).collect();
    match language.code() {
        "en" => {}
        "fr" | "es" | "pt" => {
            if let Some(first) = words.first_mut() {
                *first = romance_singular(first, language.code() == "fr");
            }
            return words.join(" ");
        }
        _ => return phrase.to_string(),
    }
    if let Some(last) = words.last_mut() {
        let one = if let Some(stem) = last.strip_suffix("ies") {
            format!("{stem}y")
        } else if ["ches", "shes", "xes", "sses"]
            .iter()
            .any(|e| last.ends_with(e))
        {
            last[..last.len() - 2].to_string()
        } else if last.ends_with('s') && !last.ends_with("ss") && last.len() > 3 {
            last[..last.len() - 1].to_string()
        } else {
            last.clone()
        };
        *last = one;
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::{complete_lines, singular};
    use crate::offline::offline_keywords;
    use crate::text::Language;
    use crate::{PageContent, SiteRole};

    #[test]
    fn a_design_of_a_line_is_named_with_its_kind() {
        let mut offerings: Vec<(String, f64)> = [
            ("aroma", 3.0),
            ("gourmet", 3.0),
            ("microgreens", 3.0),
            ("aroma mix", 1.0),
            ("gourmet mix", 1.0),
            ("microgreens kaufen", 1.0),
        ]
        .iter()
        .map(|(name, score)| (name.to_string(), *score))
        .collect();
        complete_lines(&mut offerings);
        let names: Vec<&str> = offerings.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "aroma mix",
                "gourmet mix",
                "microgreens",
                "microgreens kaufen"
            ]
        );
        assert_eq!(offerings[0].1, 3.0, "the design's prominence");
    }

    fn shop(
        url: &str,
        title: &str,
        headings: &[&str],
        categories: &[&str],
        body: &str,
    ) -> PageContent {
        PageContent {
            url: format!("https://foxfinchflags.test{url}"),
            site: Some(SiteRole::Primary),
            title: title.to_string(),
            headings: headings.iter().map(|h| h.to_string()).collect(),
            categories: categories.iter().map(|c| c.to_string()).collect(),
            body_text: body.to_string(),
            ..PageContent::default()
        }
    }

    #[test]
    fn a_product_named_by_its_design_is_searched_with_its_category() {
        let product = |url: &str, name: &str| {
            shop(
                url,
                &format!("{name} | Fox & Finch Flags"),
                &[name],
                &["Home", "Garden Flags", name],
                "A double-sided garden flag, printed on weatherproof polyester.",
            )
        };
        let pages = vec![
            shop(
                "/",
                "Fox & Finch Flags | Garden Flags and House Flags",
                &["Garden Flags", "House Flags"],
                &[],
                "Shop our garden flags and house flags, printed on both sides.",
            ),
            shop(
                "/collections/garden-flags",
                "Garden Flags | Fox & Finch Flags",
                &["Garden Flags", "Autumn Fox", "Winter Owl"],
                &["Home", "Garden Flags"],
                "Garden flags for every season, printed on both sides.",
            ),
            product("/products/autumn-fox", "Autumn Fox"),
            product("/products/winter-owl", "Winter Owl"),
        ];
        let keywords: Vec<String> = offline_keywords(&pages, &Language::english(), 100)
            .into_iter()
            .map(|c| c.keyword)
            .collect();
        for wanted in ["autumn fox garden flag", "winter owl garden flag"] {
            assert!(
                keywords.iter().any(|k| k == wanted),
                "{wanted}: {keywords:?}"
            );
        }
        // Ideas follow the shop's pattern: the design with its category, never alone.
        assert!(
            keywords.iter().any(|k| k == "buy winter owl garden flag"),
            "{keywords:?}"
        );
        assert!(
            !keywords.iter().any(|k| k == "autumn fox"
                || k == "buy winter owl"
                || k == "garden flags garden flag"),
            "{keywords:?}"
        );
    }

    #[test]
    fn a_shops_collection_files_its_products_and_a_service_grid_does_not() {
        let collection = |sells: bool| PageContent {
            url: "https://foxfinchflags.test/collections/garden-flags".into(),
            site: Some(SiteRole::Primary),
            headings: vec!["Garden Flags".into()],
            headed_links: vec![
                kr_core::dataset::HeadedLink {
                    heading: "Garden Flags".into(),
                    text: "Autumn Fox".into(),
                },
                kr_core::dataset::HeadedLink {
                    heading: "Seasonal".into(),
                    text: "Winter Owl".into(),
                },
            ],
            sells,
            ..PageContent::default()
        };
        let offerings = ["garden flags".to_string()];
        let english = Language::english();
        let shop = super::Filed::of_site(&[collection(true)], &offerings, &english);
        assert_eq!(
            shop.completed("autumn fox").as_deref(),
            Some("autumn fox garden flag")
        );
        assert_eq!(shop.completed("winter owl"), None, "not under an offering");
        let services = super::Filed::of_site(&[collection(false)], &offerings, &english);
        assert_eq!(services.completed("autumn fox"), None);
    }

    #[test]
    fn a_category_reads_as_one_of_its_products() {
        let en = |phrase| singular(phrase, &Language::english());
        assert_eq!(en("garden flags"), "garden flag");
        assert_eq!(en("party supplies"), "party supply");
        assert_eq!(en("gift boxes"), "gift box");
        assert_eq!(en("stained glass"), "stained glass");
        assert_eq!(en("bus"), "bus");
        let fr = |phrase| singular(phrase, &Language::new("fr"));
        assert_eq!(fr("manteaux"), "manteau");
        assert_eq!(fr("écharpes en laine"), "écharpe en laine");
        let es = |phrase| singular(phrase, &Language::new("es"));
        assert_eq!(es("flores de temporada"), "flor de temporada");
        assert_eq!(es("luces"), "luz");
        assert_eq!(es("cestas"), "cesta");
        assert_eq!(
            singular("gartenfahnen", &Language::new("de")),
            "gartenfahnen"
        );
    }

    #[test]
    fn a_design_after_its_kind_in_the_heading_is_filed_and_named_kind_first_in_french() {
        let page = PageContent {
            url: "https://maude.test/hua-long.html".into(),
            site: Some(SiteRole::Primary),
            headings: vec!["Manteau Oversize Cachemire Femme — Huā Long".into()],
            categories: vec!["Accueil".into(), "Manteaux".into(), "Hua Long".into()],
            ..PageContent::default()
        };
        let filed = super::Filed::of_site(&[page], &["manteaux".to_string()], &Language::new("fr"));
        assert_eq!(
            filed.completed("huā long").as_deref(),
            Some("manteau huā long")
        );
        assert_eq!(
            filed.completed("manteau oversize cachemire femme"),
            None,
            "names its kind"
        );
    }

    #[test]
    fn a_product_naming_its_kind_is_left_alone() {
        let page = PageContent {
            url: "https://roofer.test/metal-roofs".into(),
            site: Some(SiteRole::Primary),
            headings: vec!["Metal Roofs".into(), "Autumn Fox".into()],
            categories: vec!["Home".into(), "Roofing".into(), "Metal Roofs".into()],
            ..PageContent::default()
        };
        let filed = super::Filed::of_site(&[page], &["roofing".to_string()], &Language::english());
        assert_eq!(filed.completed("metal roofs"), None);
        assert_eq!(
            filed.completed("autumn fox"),
            None,
            "not this page's product"
        );
    }
}
