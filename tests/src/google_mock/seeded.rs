//! The Search Console properties the signed-in account sees, and the queries each one has data
//! for: real page URLs of the sample sites in `tests/fixtures/sites/`, queries of the site's
//! trade drawn from its pages' topics (some the pages never mention: those only Search Console
//! knows), each planted as one kind. What each kind means is checked against the generated data
//! in `facts.rs`, which is what `/__mock/facts` publishes.

/// What a query is planted to be, over the last 28 days of data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Average position at most 3, with clicks.
    Healthy,
    /// Average position 4 to 20 with at least 10 impressions.
    Striking,
    /// Clicks down by at least 30 % against the 28 days before (at least 20 then).
    Decaying,
    /// Two or more pages with impressions; the first listed gets the most clicks.
    Cannibalized,
    /// Past position 20, a few impressions a day.
    Ordinary,
}

use Kind::{Cannibalized as C, Decaying as D, Healthy as H, Ordinary as O, Striking as S};

/// One query: its text, kind, the site paths that rank for it, and whether it also has a few
/// impressions from the United Kingdom (`gbr`; everything has `usa`).
pub type Planted = (&'static str, Kind, &'static [&'static str], bool);

pub struct SeededSite {
    pub site_url: &'static str,
    pub permission_level: &'static str,
    /// The fixture folder under `tests/fixtures/sites/`, and the origin its pages live at.
    pub folder: &'static str,
    pub origin: &'static str,
    pub queries: &'static [Planted],
}

/// The big property of the import benchmark (generated row by row, see `generate.rs`).
pub const BIG_SITE_URL: &str = "sc-domain:big-property.com";

pub const SITES: [SeededSite; 3] = [
    SeededSite {
        site_url: "sc-domain:brightbrew-coffee.com",
        permission_level: "siteOwner",
        folder: "brightbrew-coffee.com",
        origin: "https://brightbrew-coffee.com",
        queries: BRIGHTBREW,
    },
    SeededSite {
        site_url: "https://ridgeline-roofing.com/",
        permission_level: "siteFullUser",
        folder: "ridgeline-roofing.com",
        origin: "https://ridgeline-roofing.com",
        queries: RIDGELINE,
    },
    SeededSite {
        site_url: "https://ironclad-roofers.com/",
        permission_level: "siteRestrictedUser",
        folder: "ironclad-roofers.com",
        origin: "https://ironclad-roofers.com",
        queries: IRONCLAD,
    },
];

#[rustfmt::skip]
const BRIGHTBREW: &[Planted] = &[
    ("brightbrew coffee", H, &["/"], true),
    ("brightbrew coffee portland", H, &["/"], false),
    ("rose city espresso blend", H, &["/shop/beans/rose-city-espresso-blend.html"], false),
    ("brightbrew barista training", H, &["/services/barista-training.html"], false),
    ("brightbrew coffee subscription", H, &["/shop/subscriptions/"], false),
    ("cold brew recipe", S, &["/blog/cold-brew-recipe.html"], true),
    ("cold brew concentrate", S, &["/blog/cold-brew-recipe.html"], false),
    ("how to brew pour over coffee", S, &["/blog/how-to-brew-pour-over-coffee.html"], true),
    ("pour over coffee ratio", S, &["/blog/how-to-brew-pour-over-coffee.html"], false),
    ("french press vs aeropress", S, &["/blog/french-press-vs-aeropress.html"], true),
    ("best coffee grinder for beginners", S, &["/blog/best-coffee-grinder-for-beginners.html"], false),
    ("burr vs blade grinder", S, &["/blog/best-coffee-grinder-for-beginners.html"], false),
    ("light vs dark roast", S, &["/blog/light-vs-dark-roast.html"], false),
    ("swiss water process decaf", S, &["/shop/beans/swiss-water-decaf.html"], false),
    ("ethiopia yirgacheffe coffee", S, &["/shop/beans/ethiopia-yirgacheffe.html"], false),
    ("guatemala antigua coffee", S, &["/shop/beans/guatemala-antigua.html"], false),
    ("gooseneck kettle", S, &["/shop/equipment/gooseneck-kettle.html"], false),
    ("conical burr grinder", S, &["/shop/equipment/conical-burr-grinder.html"], false),
    ("pour over starter kit", S, &["/shop/equipment/pour-over-starter-kit.html"], false),
    ("coffee gift box", S, &["/shop/gifts/coffee-lovers-gift-box.html"], false),
    ("wholesale coffee roaster", S, &["/services/wholesale.html"], false),
    ("office coffee service portland", S, &["/services/office-coffee-catering.html"], false),
    ("barista classes portland", S, &["/services/barista-training.html"], false),
    ("espresso classes", S, &["/services/barista-training.html"], false),
    ("french press coffee ratio", D, &["/blog/french-press-vs-aeropress.html"], false),
    ("aeropress recipe", D, &["/blog/french-press-vs-aeropress.html"], true),
    ("coffee subscription", D, &["/shop/subscriptions/"], false),
    ("single origin coffee beans", D, &["/shop/beans/"], false),
    ("home espresso machine", D, &["/shop/equipment/home-espresso-machine.html"], false),
    ("espresso machine maintenance", C, &["/services/espresso-machine-maintenance.html", "/blog/espresso-machine-maintenance.html"], false),
    ("best coffee subscription", C, &["/blog/coffee-subscription-buying-guide.html", "/shop/subscriptions/"], false),
    ("how to descale an espresso machine", C, &["/blog/espresso-machine-maintenance.html", "/services/espresso-machine-maintenance.html"], false),
    ("decaf coffee", C, &["/shop/beans/swiss-water-decaf.html", "/blog/decaf-coffee-explained.html"], false),
    ("coffee brewing equipment", C, &["/shop/equipment/", "/shop/", "/shop/equipment/pour-over-starter-kit.html"], false),
    ("nitro cold brew at home", O, &["/blog/cold-brew-recipe.html"], false),
    ("moka pot coffee", O, &["/blog/french-press-vs-aeropress.html"], true),
    ("chemex vs v60", O, &["/blog/how-to-brew-pour-over-coffee.html"], false),
    ("latte art for beginners", O, &["/services/barista-training.html"], false),
    ("iced coffee vs cold brew", O, &["/blog/cold-brew-recipe.html"], false),
    ("how much caffeine in espresso", O, &["/blog/light-vs-dark-roast.html"], false),
    ("espresso grind size", O, &["/blog/best-coffee-grinder-for-beginners.html"], false),
    ("coffee catering for events", O, &["/services/office-coffee-catering.html"], false),
    ("vietnamese iced coffee recipe", O, &["/blog/cold-brew-recipe.html"], false),
    ("coffee roasters in portland oregon", O, &["/about.html"], false),
    ("best decaf coffee brands", O, &["/blog/decaf-coffee-explained.html"], false),
    ("what is a cortado", O, &["/faq.html"], false),
    ("coffee shop division street portland", O, &["/contact.html"], false),
    ("how long does coffee stay fresh", O, &["/faq.html"], false),
    ("colombian coffee beans", O, &["/shop/beans/colombia-huila.html"], false),
    ("coffee gifts for dad", O, &["/shop/gifts/"], false),
    ("wholesale coffee beans for restaurants", O, &["/services/wholesale.html"], false),
    ("oat milk latte", O, &["/"], false),
    ("coffee tasting notes chart", O, &["/blog/light-vs-dark-roast.html"], false),
    ("water temperature for pour over", O, &["/shop/equipment/gooseneck-kettle.html"], false),
];

#[rustfmt::skip]
const RIDGELINE: &[Planted] = &[
    ("ridgeline roofing", H, &["/"], false),
    ("ridgeline roofing montclair", H, &["/"], false),
    ("montclair roofers", H, &["/areas/montclair-nj.html"], false),
    ("roof repair montclair nj", H, &["/services/roof-repair.html"], false),
    ("roof replacement nj", S, &["/services/roof-replacement.html"], false),
    ("new roof cost nj", S, &["/services/roof-replacement.html"], false),
    ("emergency roof repair", S, &["/services/emergency-roof-repair.html"], true),
    ("roof tarping", S, &["/services/emergency-roof-repair.html"], false),
    ("storm damage roof repair", S, &["/services/emergency-roof-repair.html"], false),
    ("flat roof repair newark", S, &["/services/flat-roof-commercial-roofing.html"], false),
    ("commercial roofing essex county", S, &["/services/flat-roof-commercial-roofing.html"], false),
    ("seamless gutters", S, &["/services/gutters.html"], false),
    ("gutter guards", S, &["/services/gutters.html"], true),
    ("skylight installation", S, &["/services/skylight-installation.html"], false),
    ("skylight leak repair", S, &["/services/skylight-installation.html"], false),
    ("roof inspection nj", S, &["/services/roof-inspection.html"], false),
    ("architectural shingles", S, &["/services/asphalt-shingle-roofing.html"], true),
    ("how long does a shingle roof last", S, &["/blog/how-long-does-asphalt-shingle-roof-last-nj.html"], false),
    ("signs you need a new roof", S, &["/blog/signs-you-need-a-roof-replacement.html"], false),
    ("roof leak repair", D, &["/services/roof-repair.html"], false),
    ("asphalt shingle roofing", D, &["/services/asphalt-shingle-roofing.html"], false),
    ("gutter cleaning tips", D, &["/blog/fall-gutter-cleaning-tips.html"], true),
    ("free roof inspection", D, &["/services/roof-inspection.html"], false),
    ("roof replacement montclair nj", C, &["/services/roof-replacement.html", "/areas/montclair-nj.html"], false),
    ("newark roofing contractor", C, &["/areas/newark-nj.html", "/services/flat-roof-commercial-roofing.html"], false),
    ("roof repair cost", C, &["/services/roof-repair.html", "/faq.html"], false),
    ("3 tab vs architectural shingles", C, &["/services/asphalt-shingle-roofing.html", "/blog/how-long-does-asphalt-shingle-roof-last-nj.html"], false),
    ("slate roof repair", O, &["/areas/montclair-nj.html"], false),
    ("ice dam removal", O, &["/blog/fall-gutter-cleaning-tips.html"], false),
    ("roof financing nj", O, &["/faq.html"], false),
    ("does homeowners insurance cover roof replacement", O, &["/faq.html"], false),
    ("roofing permit montclair", O, &["/areas/montclair-nj.html"], false),
    ("chimney flashing repair", O, &["/services/roof-repair.html"], false),
    ("attic ventilation", O, &["/blog/signs-you-need-a-roof-replacement.html"], false),
    ("cedar shake roof", O, &["/services/roof-replacement.html"], false),
    ("metal roof cost nj", O, &["/services/roof-replacement.html"], false),
    ("epdm rubber roof", O, &["/services/flat-roof-commercial-roofing.html"], false),
    ("soffit and fascia repair", O, &["/services/"], false),
    ("gutter downspout extension", O, &["/services/gutters.html"], false),
    ("roof moss removal", O, &["/services/roof-inspection.html"], true),
    ("best roofers near me", O, &["/"], false),
    ("roofing companies in bloomfield nj", O, &["/areas/"], false),
    ("hail damage roof", O, &["/services/emergency-roof-repair.html"], false),
    ("velux skylight replacement", O, &["/services/skylight-installation.html"], false),
];

#[rustfmt::skip]
const IRONCLAD: &[Planted] = &[
    ("ironclad roofers", H, &["/"], false),
    ("ironclad roofers newark", H, &["/"], false),
    ("affordable roofers newark nj", H, &["/"], false),
    ("cheap roof repair newark", S, &["/residential-roofing.html"], false),
    ("roof replacement newark nj", S, &["/residential-roofing.html"], false),
    ("metal roofing newark nj", S, &["/metal-roofing.html"], false),
    ("standing seam metal roof", S, &["/metal-roofing.html"], true),
    ("silicone roof coating", S, &["/roof-coating.html"], false),
    ("flat roof coating", S, &["/roof-coating.html"], false),
    ("vinyl siding installation", S, &["/siding.html"], false),
    ("commercial roofing contractor newark", S, &["/commercial-roofing.html"], false),
    ("metal roof vs shingles", S, &["/blog/metal-roof-vs-shingles.html"], true),
    ("free roofing quote", S, &["/contact.html"], false),
    ("emergency roof leak repair", D, &["/residential-roofing.html"], false),
    ("siding repair newark", D, &["/siding.html"], false),
    ("empanada recipe", D, &["/blog/ironbound-food-drive-2025.html"], true),
    ("metal roof cost", C, &["/metal-roofing.html", "/blog/metal-roof-vs-shingles.html"], false),
    ("flat roof repair newark nj", C, &["/commercial-roofing.html", "/roof-coating.html", "/residential-roofing.html"], false),
    ("roof repair newark", C, &["/residential-roofing.html", "/"], false),
    ("are metal roofs noisy in rain", O, &["/blog/metal-roof-vs-shingles.html"], false),
    ("elastomeric roof coating", O, &["/roof-coating.html"], false),
    ("hardie board siding cost", O, &["/siding.html"], false),
    ("roofers in elizabeth nj", O, &["/"], false),
    ("tpo roofing", O, &["/commercial-roofing.html"], false),
    ("roof leak during heavy rain", O, &["/residential-roofing.html"], false),
    ("ironbound food drive", O, &["/blog/ironbound-food-drive-2025.html"], false),
    ("beef empanadas", O, &["/blog/ironbound-food-drive-2025.html"], true),
    ("how to paint a metal roof", O, &["/metal-roofing.html"], false),
    ("aluminum siding vs vinyl", O, &["/siding.html"], false),
    ("roof shingles blown off", O, &["/residential-roofing.html"], false),
    ("commercial roof maintenance plan", O, &["/commercial-roofing.html"], false),
    ("insulated siding", O, &["/siding.html"], false),
    ("roofing near me", O, &["/"], false),
    ("metal roofing colors", O, &["/metal-roofing.html"], false),
    ("gutter installation newark", O, &["/"], false),
    ("roof coating cost per square foot", O, &["/roof-coating.html"], false),
    ("ironclad roofers reviews", O, &["/"], false),
    ("newark nj roof permit", O, &["/contact.html"], false),
    ("residential roofing contractor", O, &["/residential-roofing.html"], false),
    ("flat roof leak repair", O, &["/roof-coating.html"], false),
    ("roofing tips newark", O, &["/blog/"], false),
];

/// The fixture file a site path is served from (`/` and `/shop/` are their `index.html`).
pub fn fixture_file(path: &str) -> String {
    let relative = path.trim_start_matches('/');
    if relative.is_empty() || relative.ends_with('/') {
        format!("{relative}index.html")
    } else {
        relative.to_owned()
    }
}

/// A page's text as a search engine reads it: no tags, lower case, words separated by one
/// space (`&amp;` and other entities become spaces too).
pub fn page_words(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut in_tag = false;
    let mut in_entity = false;
    for ch in html.chars() {
        match ch {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                text.push(' ');
            }
            '&' if !in_tag => in_entity = true,
            ';' if in_entity => {
                in_entity = false;
                text.push(' ');
            }
            _ if in_tag || in_entity => {}
            c if c.is_alphanumeric() => text.extend(c.to_lowercase()),
            _ => text.push(' '),
        }
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    format!(" {} ", words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sites::fixtures_root;

    #[test]
    fn google_seeded_pages_are_real_fixture_pages_and_queries_are_unique() {
        for site in &SITES {
            assert!(
                (40..=120).contains(&site.queries.len()),
                "{}",
                site.site_url
            );
            let mut seen = std::collections::BTreeSet::new();
            for (query, kind, pages, _) in site.queries {
                assert!(seen.insert(*query), "{query} twice");
                assert_eq!(*query, query.to_lowercase());
                assert_eq!(*kind == C, pages.len() > 1, "{query}");
                for path in *pages {
                    let file = fixtures_root().join(site.folder).join(fixture_file(path));
                    assert!(file.is_file(), "{} has no {}", site.folder, file.display());
                }
            }
        }
    }

    #[test]
    fn google_page_words_strip_markup_and_entities() {
        let words = page_words("<title>Coffee &amp; Tea</title><p>Cold-Brew <b>recipe</b></p>");
        assert_eq!(words, " coffee tea cold brew recipe ");
    }
}
