//! Site furniture found by structure, not by words: a heading the primary site repeats on
//! most of its pages is a block of the template ("Clinic Hours", "Customer Reviews", "Quick
//! Overview" in a sidebar or above the footer), not what one page offers. Its text is no
//! offering and no keyword, unless a page is about it: a title part, a link's text or a page
//! address names it (a services grid on every page whose cards link to their pages stays).
//! The links of a footer's fine print (its copyright line: "Impressum", "Mentions légales")
//! that no page links from anywhere else are furniture too, and so are the pages they alone
//! reach.

use std::collections::{HashMap, HashSet};

use crate::text::web_address::path_of;
use crate::text::Tokenizer;
use crate::{PageContent, SiteRole};

/// Pages at least that a heading must be on, and the share of the primary pages.
const MIN_PAGES: usize = 3;
const MIN_SHARE: f64 = 0.5;
/// Headings at least that one kind of page repeats together to show its template.
const MIN_BLOCK: usize = 3;

#[derive(Debug)]
pub(super) struct Furniture {
    /// The repeated headings and the fine print's own links, lowercase, each as its words.
    headings: Vec<Vec<String>>,
    /// The texts of links the primary site puts in its fine print (the footer's copyright
    /// line) on most pages and nowhere else ("impressum", "mentions légales", "privacy
    /// policy"), lowercase.
    fine_print_links: HashSet<String>,
    /// The sections of one kind of page ([`template_blocks`]), lowercase: held whole, for a
    /// heading that names an offering in a longer phrase ("Need Appliance Repair in
    /// Denver?") says nothing of its words.
    sections: HashSet<String>,
    tokenizer: Tokenizer,
}

impl Furniture {
    /// The repeated headings of the primary site; one that shares a distinctive word with
    /// the site's name (`name_words`, or its domain: "junk" of junkchief.com; none that
    /// `generic` says qualifies any trade) is the trade itself ("Handyman Services" of "AAA
    /// Handyman Services", "Junk Removal" of Junk Chief), never furniture.
    pub fn of_site(
        pages: &[PageContent],
        tokenizer: &Tokenizer,
        name_words: &[String],
        generic: impl Fn(&str) -> bool,
    ) -> Self {
        let primary: Vec<&PageContent> = pages
            .iter()
            .filter(|p| p.site == Some(SiteRole::Primary))
            .collect();
        // A heading's pages, over the site and within each folder: product pages under
        // `/motos/` share their template ("Características principales") even where they
        // are not half the site.
        let mut on_pages: HashMap<String, usize> = HashMap::new();
        let mut in_folder: HashMap<(&str, String), usize> = HashMap::new();
        let mut folder_pages: HashMap<&str, usize> = HashMap::new();
        // Each primary page's headings, read once for both counts and `template_blocks`.
        let page_headings: Vec<HashSet<String>> = primary
            .iter()
            .map(|page| {
                page.headings
                    .iter()
                    .map(|h| normal(tokenizer, h))
                    .filter(|h| !h.is_empty())
                    .collect()
            })
            .collect();
        for (page, headings) in primary.iter().zip(&page_headings) {
            let folder = folder(&page.url);
            if let Some(folder) = folder {
                *folder_pages.entry(folder).or_default() += 1;
            }
            for heading in headings.iter().cloned() {
                if let Some(folder) = folder {
                    *in_folder.entry((folder, heading.clone())).or_default() += 1;
                }
                *on_pages.entry(heading).or_default() += 1;
            }
        }
        let folder_templates: HashSet<String> = in_folder
            .into_iter()
            .filter(|((folder, _), pages)| {
                *pages >= MIN_PAGES && *pages as f64 >= folder_pages[folder] as f64 * MIN_SHARE
            })
            .map(|((_, heading), _)| heading)
            .collect();
        // What a page is about: its title's parts, the text of links to it, its address.
        let titled: HashSet<String> = primary
            .iter()
            .flat_map(|page| {
                page.title
                    .split(['|', '-', '–', '—', ':'])
                    .chain(page.anchors.iter().map(String::as_str))
                    .map(|text| normal(tokenizer, text))
            })
            .collect();
        let addresses: Vec<String> = primary.iter().map(|p| p.url.to_lowercase()).collect();
        let has_page = |heading: &str| {
            titled.contains(heading) || {
                let slug = heading.replace(' ', "-");
                addresses.iter().any(|url| url.contains(&slug))
            }
        };
        let least = MIN_PAGES.max((primary.len() as f64 * MIN_SHARE).ceil() as usize);
        let own = super::people::own_words(&primary, name_words);
        let not_own = |text: &String| {
            !text
                .split_whitespace()
                .any(|w| own.contains(w) && !generic(w))
        };
        let fine_print_links: HashSet<String> = fine_print_only_links(&primary, tokenizer)
            .into_iter()
            .filter(|(_, pages)| *pages >= least)
            .map(|(text, _)| text)
            .filter(not_own)
            .collect();
        let mut headings: Vec<Vec<String>> = on_pages
            .into_iter()
            .filter(|(heading, pages)| {
                (*pages >= least || folder_templates.contains(heading)) && !has_page(heading)
            })
            .map(|(heading, _)| heading)
            .filter(not_own)
            .chain(fine_print_links.iter().cloned())
            .map(|heading| heading.split_whitespace().map(str::to_string).collect())
            .collect();
        headings.sort();
        headings.dedup();
        let sections = template_blocks(&primary, &page_headings)
            .into_iter()
            .filter(|heading| !has_page(heading) && not_own(heading))
            .collect();
        Furniture {
            headings,
            sections,
            fine_print_links,
            tokenizer: *tokenizer,
        }
    }

    /// Whether `page` is one the site reaches only through its fine print (its legal notice,
    /// privacy or cookie policy): its title or first heading is such a link's text. The
    /// front page never is.
    pub fn is_fine_print_page(&self, page: &PageContent) -> bool {
        let tokenizer = &self.tokenizer;
        if self.fine_print_links.is_empty() || is_front_page(&page.url) {
            return false;
        }
        page.title
            .split(['|', '-', '–', '—', ':'])
            .chain(page.headings.first().map(String::as_str))
            .map(|text| normal(tokenizer, text))
            .any(|text| self.fine_print_links.contains(&text))
    }

    /// `words` (lowercase) are a repeated heading or a run of one's words ("clinic hours" of
    /// "Clinic Hours & Location"), or a section of one kind of page.
    pub fn holds(&self, words: &[String]) -> bool {
        !words.is_empty()
            && (self.sections.contains(&words.join(" ")) || self.is_repeated_heading(words))
    }

    fn is_repeated_heading(&self, words: &[String]) -> bool {
        self.headings.iter().any(|heading| {
            heading
                .windows(words.len())
                .any(|run| run.iter().zip(words).all(|(a, b)| a == b))
        })
    }
}

/// Headings that come as one block on the same pages, at least [`MIN_PAGES`] of them and at
/// least [`MIN_BLOCK`] headings: the sections of one kind of page ("Ingrédients", "Poids net",
/// "Conseils d'utilisation" on each product page), wherever its pages sit and however few of
/// the site they are; and the headings of two or more of those pages alone; none that
/// another page names.
fn template_blocks(primary: &[&PageContent], page_headings: &[HashSet<String>]) -> HashSet<String> {
    let mut pages_of: HashMap<&String, Vec<usize>> = HashMap::new();
    for (index, headings) in page_headings.iter().enumerate() {
        for heading in headings {
            pages_of.entry(heading).or_default().push(index);
        }
    }
    let mut by_pages: HashMap<&[usize], usize> = HashMap::new();
    for pages in pages_of.values().filter(|pages| pages.len() >= MIN_PAGES) {
        *by_pages.entry(pages).or_default() += 1;
    }
    // The whole site's template (a footer's "Services", "Company", "Service Area") is read
    // by its share of the pages instead: two pages of it are no kind of page.
    let of_a_kind = |pages: &[usize]| (pages.len() as f64) < primary.len() as f64 * MIN_SHARE;
    let templates: Vec<HashSet<usize>> = by_pages
        .into_iter()
        .filter(|(pages, headings)| *headings >= MIN_BLOCK && of_a_kind(pages))
        .map(|(pages, _)| pages.iter().copied().collect())
        .collect();
    if templates.is_empty() {
        return HashSet::new();
    }
    // Each heading on two or more pages with the templates that hold all its pages (in no
    // particular order: a heading two templates hold is read against each of them).
    let sections: Vec<(&String, Vec<&HashSet<usize>>)> = pages_of
        .iter()
        .filter(|(_, pages)| pages.len() >= 2)
        .map(|(heading, pages)| {
            let holding = templates
                .iter()
                .filter(|template| pages.iter().all(|page| template.contains(page)))
                .collect();
            (*heading, holding)
        })
        .filter(|(_, holding): &(&String, Vec<_>)| !holding.is_empty())
        .collect();
    if sections.is_empty() {
        return HashSet::new();
    }
    // What each page names (its title, headings and links), as bare words spaced at both ends
    // to find a phrase as whole words.
    let named: Vec<String> = primary
        .iter()
        .map(|page| {
            let texts = std::iter::once(&page.title)
                .chain(&page.headings)
                .chain(&page.anchors)
                .map(|text| bare_words(text));
            format!(" {} ", texts.collect::<Vec<_>>().join(" | "))
        })
        .collect();
    // A section that one of those pages leaves out ("Origine & Tradition" missing on one
    // product) is still the template's. A heading that the rest of the site names too
    // ("Refrigerator Repair" on each town's page and on the front page) is what the site
    // does, not a section of one kind of page.
    sections
        .into_iter()
        .filter(|(heading, holding)| {
            let phrase = format!(" {} ", bare_words(heading));
            holding.iter().any(|template| {
                named
                    .iter()
                    .enumerate()
                    .all(|(page, named)| template.contains(&page) || !named.contains(&phrase))
            })
        })
        .map(|(heading, _)| heading.clone())
        .collect()
}

/// Lowercase words and nothing else, one space apart: the cheap reading that compares a
/// heading with the text of every page.
fn bare_words(text: &str) -> String {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The texts of links that the pages put only in their fine print, each with the number of
/// pages doing so; a text any page links from elsewhere is left out.
fn fine_print_only_links(
    primary: &[&PageContent],
    tokenizer: &Tokenizer,
) -> HashMap<String, usize> {
    let elsewhere: HashSet<String> = primary
        .iter()
        .flat_map(|page| {
            page.anchors
                .iter()
                .filter(|text| !page.fine_print_anchors.contains(text))
                .map(|text| normal(tokenizer, text))
        })
        .collect();
    let mut on_pages: HashMap<String, usize> = HashMap::new();
    for page in primary {
        let texts: HashSet<String> = page
            .fine_print_anchors
            .iter()
            .map(|t| normal(tokenizer, t))
            .collect();
        for text in texts {
            if !text.is_empty() && !elsewhere.contains(&text) {
                *on_pages.entry(text).or_default() += 1;
            }
        }
    }
    on_pages
}

/// The site's front page: its root, or the root's index file.
pub(super) fn is_front_page(url: &str) -> bool {
    let path = path_of(url);
    matches!(
        path.strip_prefix('/').unwrap_or(path),
        "" | "index.html" | "index.htm" | "index.php"
    )
}

/// The first folder of a page's address ("motos" of `/motos/honda-cb-125-f.html`), when the
/// page sits in one.
fn folder(url: &str) -> Option<&str> {
    let (folder, rest) = path_of(url).strip_prefix('/')?.split_once('/')?;
    (!folder.is_empty() && !rest.is_empty()).then_some(folder)
}

/// Lowercase words as the offerings and phrases are read ("conseils d' utilisation"),
/// punctuation dropped.
fn normal(tokenizer: &Tokenizer, text: &str) -> String {
    tokenizer.words(text).join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Language;

    fn english() -> Tokenizer {
        Tokenizer::new(&Language::english())
    }

    fn page(url: &str, title: &str, headings: &[&str]) -> PageContent {
        PageContent {
            url: format!("https://vet.example{url}"),
            site: Some(SiteRole::Primary),
            title: title.into(),
            headings: headings.iter().map(|h| h.to_string()).collect(),
            ..PageContent::default()
        }
    }

    #[test]
    fn pages_reached_only_through_the_fine_print_are_furniture() {
        let with_fine_print = |url: &str, title: &str, heading: &str| PageContent {
            anchors: vec![
                "Leistungen".into(),
                "Impressum".into(),
                "Datenschutz".into(),
            ],
            fine_print_anchors: vec!["Impressum".into(), "Datenschutz".into()],
            ..page(url, title, &[heading])
        };
        let pages = [
            with_fine_print("/", "Metzgerei Hinderer | Impressum", "Frischfleisch"),
            with_fine_print("/leistungen", "Leistungen", "Partyservice"),
            with_fine_print("/impressum", "Impressum", "Angaben gemäß § 5 TMG"),
            with_fine_print("/datenschutz", "Datenschutz | Metzgerei", "Datenschutz"),
        ];
        let furniture = Furniture::of_site(&pages, &english(), &[], |_| false);
        let fine_print: Vec<bool> = pages
            .iter()
            .map(|p| furniture.is_fine_print_page(p))
            .collect();
        assert_eq!(
            fine_print,
            [false, false, true, true],
            "the front page never is"
        );
        assert!(furniture.holds(&words("impressum")));
        assert!(!furniture.holds(&words("partyservice")));
        // A link the body or navigation also carries is no footer link.
        let mut linked = pages.clone();
        linked[1].fine_print_anchors.clear();
        let furniture = Furniture::of_site(&linked, &english(), &[], |_| false);
        assert!(!furniture.is_fine_print_page(&linked[2]));
        assert!(!furniture.holds(&words("impressum")));
    }

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn a_heading_on_most_pages_is_furniture_unless_a_title_names_it() {
        let pages = [
            page(
                "/",
                "Vet Clinic | Home",
                &[
                    "Pet Vaccinations",
                    "Clinic Hours",
                    "Dental Care",
                    "Customer Reviews",
                ],
            ),
            page(
                "/vaccinations",
                "Pet Vaccinations | Vet Clinic",
                &["Pet Vaccinations", "Clinic Hours", "Customer Reviews"],
            ),
            page(
                "/dental",
                "Dental Care | Vet Clinic",
                &[
                    "Dental Care",
                    "Clinic Hours",
                    "Customer Reviews",
                    "Pet Vaccinations",
                ],
            ),
            page(
                "/surgery",
                "Pet Surgery | Vet Clinic",
                &["Pet Surgery", "Clinic Hours:"],
            ),
        ];
        let furniture = Furniture::of_site(&pages, &english(), &[], |_| false);
        assert!(furniture.holds(&words("clinic hours")));
        assert!(furniture.holds(&words("customer reviews")));
        assert!(!furniture.holds(&words("pet vaccinations")));
        assert!(!furniture.holds(&words("dental care")));
        assert!(!furniture.holds(&words("pet surgery")));
        // On most pages, but a page's address names it.
        let mut pages = pages.to_vec();
        for page in &mut pages {
            page.headings.push("Pet Grooming".into());
        }
        pages.push(page("/pet-grooming", "Grooming | Vet Clinic", &[]));
        assert!(
            !Furniture::of_site(&pages, &english(), &[], |_| false).holds(&words("pet grooming"))
        );
    }

    #[test]
    fn a_heading_naming_the_trade_of_the_site_is_no_furniture() {
        let pages: Vec<PageContent> = ["/", "/a", "/b"]
            .iter()
            .map(|url| {
                page(
                    url,
                    "AAA Handyman",
                    &["Handyman Services", "Customer Reviews"],
                )
            })
            .collect();
        let name = words("aaa handyman services");
        let furniture = Furniture::of_site(&pages, &english(), &name, |w| w == "services");
        assert!(!furniture.holds(&words("handyman services")));
        assert!(furniture.holds(&words("customer reviews")));
    }

    #[test]
    fn a_heading_on_most_pages_of_a_folder_is_furniture() {
        let mut pages = vec![
            page("/", "Motos Arretxe", &["Motos nuevas", "Taller"]),
            page("/taller", "Taller", &["Taller"]),
            page("/reservas", "Reservas", &["Reservas"]),
            page("/contacto", "Contacto", &["Contacto"]),
        ];
        for model in [
            "honda-cb-125-f",
            "honda-forza-350",
            "sym-symphony",
            "honda-pcx",
        ] {
            let url = format!("/motos/{model}.html");
            pages.push(page(&url, model, &[model, "Características principales"]));
        }
        pages.push(page("/motos/index.html", "Motos", &["Motos nuevas"]));
        let furniture = Furniture::of_site(&pages, &english(), &[], |_| false);
        assert!(furniture.holds(&words("características principales")));
        assert!(!furniture.holds(&words("honda-forza-350")));
    }

    #[test]
    fn a_small_site_shows_no_template() {
        let pages = [
            page("/", "Bakery", &["Opening Hours"]),
            page("/cakes", "Cakes | Bakery", &["Opening Hours"]),
        ];
        assert!(
            !Furniture::of_site(&pages, &english(), &[], |_| false).holds(&words("opening hours"))
        );
    }

    #[test]
    fn the_sections_of_one_kind_of_page_are_furniture_however_few_its_pages() {
        let mut pages = vec![
            page("/", "Fleur de sel", &["Nos produits", "Actualités"]),
            page("/contact", "Contact", &["Contact"]),
            page("/a-propos", "À propos", &["Notre histoire", "Thym sauvage"]),
            page("/recettes", "Recettes", &["Conclusion"]),
            page("/recolte", "Récolte", &["Conclusion"]),
            page("/herbes", "Herbes", &["Conclusion"]),
            page("/mentions", "Mentions", &["Hébergement"]),
        ];
        for (product, more) in [
            ("thym", Some("Origine & Tradition")),
            ("romarin", None),
            ("herbes-sauvages", Some("Origine & Tradition")),
        ] {
            let mut headings = vec!["Ingrédients", "Poids net", "Conseils d’utilisation"];
            headings.extend(more);
            pages.push(page(&format!("/{product}"), product, &headings));
        }
        let furniture = Furniture::of_site(&pages, &english(), &[], |_| false);
        assert!(furniture.holds(&words("ingrédients")));
        assert!(furniture.holds(&words("poids net")));
        assert!(
            furniture.holds(&words("origine tradition")),
            "two of the product pages"
        );
        assert!(!furniture.holds(&words("tradition")), "held whole");
        assert!(
            !furniture.holds(&words("conclusion")),
            "three articles with one heading in common are no kind of page"
        );
        assert!(!furniture.holds(&words("thym sauvage")));
        // A section another page names is what the site does.
        pages[0].anchors.push("Poids net".into());
        let furniture = Furniture::of_site(&pages, &english(), &[], |_| false);
        assert!(!furniture.holds(&words("poids net")));
        assert!(furniture.holds(&words("ingrédients")));
    }
}
