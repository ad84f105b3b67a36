//! Page matching on hand-made pages: titles, headings, addresses, site-wide parts, places.

use super::*;

fn page(url: &str, title: &str, h1: &str) -> PageOutline {
    PageOutline {
        url: url.to_string(),
        title: title.to_string(),
        h1: h1.to_string(),
    }
}

#[test]
fn a_page_titled_for_the_cluster_matches_it_and_the_site_name_in_the_title_does_not_count() {
    let pages = [
        page(
            "https://acme.test/drain-cleaning",
            "Drain Cleaning | Acme Plumbing",
            "Drain cleaning",
        ),
        page(
            "https://acme.test/",
            "Acme Plumbing",
            "Plumbers you can trust",
        ),
        page(
            "https://acme.test/water-heaters",
            "Water Heater Repair | Acme Plumbing",
            "Water heaters",
        ),
    ];
    let matcher = PageMatcher::new(&pages, &Language::english(), &[]);
    let found = matcher.matches("drain cleaning");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0.url, "https://acme.test/drain-cleaning");
    assert_eq!(found[0].1, 1.0);
    assert!(matcher.matches("sump pump installation").is_empty());
}

#[test]
fn a_broader_page_serves_a_longer_name_less_well_than_its_own_page() {
    let pages = [
        page(
            "https://acme.test/heaters",
            "Water Heaters",
            "Water heaters",
        ),
        page(
            "https://acme.test/heaters/tankless",
            "Tankless Water Heater Installation",
            "Tankless water heater installation",
        ),
    ];
    let matcher = PageMatcher::new(&pages, &Language::english(), &[]);
    let found = matcher.matches("tankless water heater installation");
    assert_eq!(found[0].0.url, "https://acme.test/heaters/tankless");
    assert!(found.iter().skip(1).all(|(_, score)| *score < COMPETES));
}

#[test]
fn a_title_every_page_has_names_the_home_page_only_and_headings_name_the_others() {
    // A template's one title on every page: only the headings tell the pages apart.
    let tagline = "Alexandria Dentist VA | Top Rated Family Dentistry 22079";
    let pages = [
        page(
            "https://dentist.test/",
            "Alexandria Dentist | Top Rated Family Dentistry 22079",
            "Dentist in Alexandria",
        ),
        page(
            "https://dentist.test/pediatric-dentistry.html",
            tagline,
            "Pediatric Dentistry",
        ),
        page(
            "https://dentist.test/dental-x-rays.html",
            tagline,
            "Dental X-Rays",
        ),
        page(
            "https://dentist.test/sleep-apnea.html",
            tagline,
            "Sleep Apnea",
        ),
    ];
    let matcher = PageMatcher::new(&pages, &Language::english(), &[]);
    let tagline = matcher.matches("top rated family dentistry 22079");
    assert_eq!(tagline.len(), 1, "{:?}", urls(&tagline));
    assert_eq!(tagline[0].0.url, "https://dentist.test/");
    assert!(
        tagline[0].1 >= SERVES,
        "the root's address has no words to miss"
    );
    let x_rays = matcher.matches("dental x-rays");
    assert_eq!(urls(&x_rays), ["https://dentist.test/dental-x-rays.html"]);
    assert_eq!(x_rays[0].1, 0.6);
}

#[test]
fn the_site_s_name_in_every_title_serves_with_a_page_s_own_words_and_alone_on_the_home_page() {
    let pages = [
        page(
            "https://brew.test/",
            "BrightBrew Coffee | Specialty Coffee Roasters",
            "Coffee roasted in Portland",
        ),
        page(
            "https://brew.test/shop/rose-city-espresso-blend.html",
            "Rose City Espresso Blend | BrightBrew Coffee",
            "Rose City Espresso Blend",
        ),
        page(
            "https://brew.test/shop/pour-over-starter-kit.html",
            "Pour-Over Starter Kit | BrightBrew Coffee",
            "Pour-over starter kit",
        ),
        page(
            "https://brew.test/about.html",
            "About Us | BrightBrew Coffee",
            "Our story",
        ),
    ];
    let matcher = PageMatcher::new(&pages, &Language::english(), &[]);
    assert_eq!(
        urls(&matcher.matches("brightbrew rose city espresso blend")),
        ["https://brew.test/shop/rose-city-espresso-blend.html"]
    );
    assert_eq!(
        urls(&matcher.matches("brightbrew starter kit")),
        ["https://brew.test/shop/pour-over-starter-kit.html"]
    );
    assert_eq!(
        urls(&matcher.matches("brightbrew coffee")),
        ["https://brew.test/"]
    );
}

#[test]
fn the_site_s_town_in_a_title_does_not_count_against_a_name_without_it() {
    let pages = [
        page(
            "https://dentist.test/dental-implants.html",
            "Dental Implants Dallas | Permanent Tooth Replacement",
            "Dental Implants in Dallas – Restore Your Smile",
        ),
        page(
            "https://dentist.test/blog-dental-implants.html",
            "Dental Implants: Benefits, Procedure & Healing – Dallas Implant Dentist",
            "Dental Implants: Benefits, Procedure & Healing",
        ),
    ];
    let dallas = ["Dallas".to_string()];
    let matcher = PageMatcher::new(&pages, &Language::english(), &dallas);
    let found = matcher.matches("dental implants");
    assert_eq!(
        urls(&found),
        [
            "https://dentist.test/dental-implants.html",
            "https://dentist.test/blog-dental-implants.html"
        ]
    );
    assert_eq!(found[0].1, 1.0);
    assert!(found[1].1 >= COMPETES && found[1].1 >= EQUAL_RATIO * found[0].1);
    // Named, the town counts as any word does.
    let local = matcher.matches("dental implants dallas");
    assert_eq!(local[0].0.url, "https://dentist.test/dental-implants.html");
    assert_eq!(local[0].1, 0.96);
    // Elsewhere, a town is a word like any other.
    let nowhere = PageMatcher::new(&pages, &Language::english(), &[]);
    assert_eq!(
        nowhere.matches("dental implants")[0].0.url,
        "https://dentist.test/blog-dental-implants.html"
    );
}

fn urls<'p>(found: &[(&'p PageOutline, f64)]) -> Vec<&'p str> {
    found.iter().map(|(page, _)| page.url.as_str()).collect()
}

#[test]
fn path_words_drop_extensions_and_numbers() {
    assert_eq!(
        path_words("https://a.test/blog/2024/sump-pump_install.html?x=1"),
        "blog sump pump install"
    );
    assert_eq!(path_words("https://a.test"), "");
}
