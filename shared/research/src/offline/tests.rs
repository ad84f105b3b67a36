//! Issue 23's roofing contractor: the keywords it keeps without a provider are queries.

use super::*;
use crate::{PageContent, SiteRole};
use kr_core::dataset::KeywordSource;

fn page(
    site: &str,
    role: SiteRole,
    url: &str,
    title: &str,
    headings: &[&str],
    body: &str,
) -> PageContent {
    PageContent {
        url: format!("https://{site}{url}"),
        site: Some(role),
        title: title.to_string(),
        headings: headings.iter().map(|h| h.to_string()).collect(),
        body_text: body.to_string(),
        ..PageContent::default()
    }
}

fn primary(site: &str, url: &str, title: &str, headings: &[&str], body: &str) -> PageContent {
    page(site, SiteRole::Primary, url, title, headings, body)
}

fn roofer(url: &str, title: &str, headings: &[&str], body: &str) -> PageContent {
    primary("summit-roofing.test", url, title, headings, body)
}

/// A roofer in Irvington, NJ, whose copy is full of phrases nobody searches, and a garden-flag
/// shop as its competitor.
fn pages() -> Vec<PageContent> {
    vec![
        roofer(
            "/",
            "Summit Roofing | Roof Repair & Roof Replacement in Irvington, NJ",
            &[
                "Roof Repair and Roof Replacement in Irvington",
                "Read Reviews",
            ],
            "Family-owned roofers serving homeowners in Irvington, East Orange and Maplewood. \
             Read reviews from customers. A premium aesthetic for every home. Get an exact \
             quote and a cost breakdown. Licensed & insured.",
        ),
        roofer(
            "/gutter-cleaning",
            "Gutter Cleaning in Irvington, NJ | Summit Roofing",
            &["Gutter Cleaning", "Licensed & Insured"],
            "Ask for a cleaning quote today. Our gutter cleaning crews clear leaves and \
             debris. Read reviews. Premium aesthetic. Cleaning quote within a day. Serving \
             Irvington, East Orange and Maplewood.",
        ),
        roofer(
            "/roof-repair",
            "Roof Repair Irvington | Summit Roofing",
            &["Emergency Roof Repair", "Repair Quote"],
            "Storm damage or a leak? Ask for a repair quote. Roof repair for homes in Irvington \
             and East Orange the same day. Exact quote, cost breakdown.",
        ),
        roofer(
            "/skylights",
            "Skylights | Summit Roofing",
            &["Skylights", "Customer Reviews"],
            "Skylights bring light into your home. Customer reviews praise our skylights. \
             Cost breakdown on request.",
        ),
        page(
            "garden-flags.test",
            SiteRole::Competitor(0),
            "/",
            "Garden Flags and House Flags | Flag Shop",
            &["Garden Flags", "Seasonal House Flags", "Cost Breakdown"],
            "Garden flags for every season. Detailed quote for bulk garden flags. Siding \
             mounts for house flags. Cost breakdown. Detailed quote.",
        ),
    ]
}

fn keywords() -> Vec<Candidate> {
    offline_keywords(&pages(), &Language::english(), 200)
}

fn texts(found: &[Candidate]) -> Vec<&str> {
    found.iter().map(|c| c.keyword.as_str()).collect()
}

#[test]
fn keeps_no_place_modifier_or_page_copy_alone() {
    let found = keywords();
    let texts = texts(&found);
    for not_a_query in [
        "irvington",
        "east orange",
        "quote",
        "cleaning",
        "read reviews",
        "customer reviews",
        "premium aesthetic",
        "cost breakdown",
        "exact quote",
        "repair quote",
        "cleaning quote",
        "licensed",
    ] {
        assert!(!texts.contains(&not_a_query), "{not_a_query}: {texts:?}");
    }
}

#[test]
fn every_keyword_names_an_offering_or_the_brand() {
    let found = keywords();
    let named = ["roof", "gutter", "skylight", "summit"];
    for keyword in &found {
        assert!(
            named.iter().any(|n| keyword.keyword.contains(n)),
            "{}: {:?}",
            keyword.keyword,
            texts(&found)
        );
    }
}

#[test]
fn completes_a_phrase_from_the_offering_on_its_page() {
    let found = keywords();
    let texts = texts(&found);
    assert!(texts.contains(&"gutter cleaning quote"), "{texts:?}");
    assert!(texts.contains(&"roof repair quote"), "{texts:?}");
}

#[test]
fn a_competitor_from_another_trade_contributes_nothing() {
    let found = keywords();
    for keyword in &found {
        assert!(
            !["flag", "siding", "detailed quote"]
                .iter()
                .any(|w| keyword.keyword.contains(w)),
            "{}",
            keyword.keyword
        );
    }
}

#[test]
fn makes_ideas_from_offerings_modifiers_and_places_below_their_offering() {
    let found = keywords();
    let idea = |text: &str| {
        found
            .iter()
            .find(|c| c.keyword == text)
            .unwrap_or_else(|| panic!("{text}: {:?}", texts(&found)))
    };
    for text in [
        "roof repair cost",
        "roof repair near me",
        "gutter cleaning quote",
        "roof repair irvington",
        "roof repair irvington nj",
        "gutter cleaning east orange nj",
        "skylight repair",
        "skylight installation",
        "skylight repair irvington",
    ] {
        let found = idea(text);
        // The two the pages hold are found there; the rest are ideas.
        if !["gutter cleaning quote", "roof repair irvington"].contains(&text) {
            assert_eq!(found.source, KeywordSource::Idea, "{text}");
        }
    }
    let texts = texts(&found);
    for not_an_idea in [
        "skylights irvington",
        "roof repair installation",
        "summit roofing cost",
    ] {
        assert!(!texts.contains(&not_an_idea), "{not_an_idea}: {texts:?}");
    }
    let offering = idea("roof repair");
    assert_eq!(offering.source, KeywordSource::Crawl);
    assert!(idea("roof repair cost").score < offering.score);
    assert!(idea("roof repair irvington nj").score < idea("roof repair").score);
    assert!(idea("skylight repair irvington").score < idea("skylight repair").score);
}

#[test]
fn a_shop_gets_shopping_ideas_in_its_language() {
    let shop = |title: &str, headings: &[&str]| {
        page(
            "kaffee.test",
            SiteRole::Primary,
            "/",
            title,
            headings,
            "Frisch geröstet.",
        )
    };
    let pages = vec![
        shop(
            "Espressobohnen | Röstwerk",
            &["Espressobohnen", "Filterkaffee"],
        ),
        shop("Filterkaffee | Röstwerk", &["Filterkaffee"]),
    ];
    let found = offline_keywords(&pages, &Language::new("de"), 100);
    let texts = texts(&found);
    for idea in ["espressobohnen kaufen", "filterkaffee preis"] {
        assert!(texts.contains(&idea), "{idea}: {texts:?}");
    }
    assert!(
        !texts.iter().any(|t| t.contains("in der nähe")),
        "{texts:?}"
    );
}

#[test]
fn a_site_naming_offerings_only_in_headings_is_judged_by_them_without_ideas() {
    // One home page: nothing is named in a title, an address or on two pages, yet its
    // headings say what it sells better than every phrase of its copy would.
    let pages = vec![primary(
        "smokehouse.test",
        "/",
        "Welcome",
        &["Smoked Brisket", "Pulled Pork Sandwiches", "Tradition"],
        "Smoked brisket every day and pulled pork sandwiches on fresh buns. Friendly staff \
         and a warm welcome since day one. Smoked brisket by the pound.",
    )];
    let found = offline_keywords(&pages, &Language::english(), 100);
    let texts = texts(&found);
    for expected in ["smoked brisket", "pulled pork sandwiches"] {
        assert!(texts.contains(&expected), "{expected}: {texts:?}");
    }
    for copy in ["friendly staff", "warm welcome", "fresh buns"] {
        assert!(!texts.contains(&copy), "{copy}: {texts:?}");
    }
    // A heading named once may be a selling point ("Tradition"): no "buy tradition".
    assert!(
        found.iter().all(|c| c.source != KeywordSource::Idea),
        "{texts:?}"
    );
}

#[test]
fn a_site_without_offerings_keeps_discovery_s_list() {
    let pages = vec![page(
        "blank.test",
        SiteRole::Primary,
        "/",
        "Welcome",
        &["Welcome"],
        "Alpine tents and alpine tents for two. Alpine tents.",
    )];
    let found = offline_keywords(&pages, &Language::english(), 10);
    assert_eq!(
        texts(&found),
        texts(&discover_all(&pages, &Language::english())[..found.len()])
    );
    // A competitor's phrases are not its own.
    let mut with_competitor = pages.clone();
    with_competitor.push(page(
        "flags.test",
        SiteRole::Competitor(0),
        "/",
        "Garden Flags",
        &["Garden Flags"],
        "Garden flags and garden flags for every season.",
    ));
    let found = offline_keywords(&with_competitor, &Language::english(), 10);
    assert!(found.iter().all(|c| c.in_primary), "{:?}", texts(&found));
}

#[test]
fn a_florist_named_only_in_its_site_name_keeps_flower_queries() {
    let florist = |url: &str, title: &str, headings: &[&str], body: &str| {
        primary("dragonflies.test", url, title, headings, body)
    };
    let pages = vec![
        florist(
            "/",
            "Dragonflies Flower Shop",
            &[
                "Dragonflies Flower Shop",
                "Bespoke Bouquets",
                "Freshness Guaranteed",
            ],
            "Your local flower shop in Glossop. Bespoke bouquets with a personal touch and \
             timely delivery. A wide range of flowers for a wide range of occasions.",
        ),
        florist(
            "/funeral-flowers",
            "Dragonflies Flower Shop",
            &[
                "Funeral Flowers Gallery",
                "A Range of Thoughtful Floral Tributes",
            ],
            "Funeral flowers and funeral flowers in Glossop, with a personal touch.",
        ),
    ];
    let found = offline_keywords(&pages, &Language::english(), 100);
    let texts = texts(&found);
    assert!(texts.contains(&"funeral flowers"), "{texts:?}");
    for copy in ["personal touch", "timely delivery", "wide range"] {
        assert!(!texts.contains(&copy), "{copy}: {texts:?}");
    }
}

#[test]
fn steps_of_a_process_list_are_no_queries_alone() {
    let cleaner = |url: &str, title: &str, headings: &[&str]| {
        page(
            "h2o.test",
            SiteRole::Primary,
            url,
            title,
            headings,
            "We scrub, rinse and protect every surface. Window cleaning and gutter cleaning \
             by hand; we scrub screens and protect plants.",
        )
    };
    let pages = vec![
        cleaner(
            "/",
            "Window Cleaning | H2O Bros",
            &["Window Cleaning", "Scrub", "Protect"],
        ),
        cleaner(
            "/gutter-cleaning",
            "Gutter Cleaning | H2O Bros",
            &["Gutter Cleaning", "Scrub", "Protect"],
        ),
    ];
    let found = offline_keywords(&pages, &Language::english(), 100);
    let texts = texts(&found);
    assert!(texts.contains(&"window cleaning"), "{texts:?}");
    for step in ["scrub", "protect"] {
        assert!(!texts.contains(&step), "{step}: {texts:?}");
    }
}

#[test]
fn a_query_ends_with_its_offering_not_with_a_describing_word() {
    let cleaner = |url: &str, title: &str, headings: &[&str]| {
        page(
            "sparkle.test",
            SiteRole::Primary,
            url,
            title,
            headings,
            "A deep clean of every room. Book a deep clean today: deep clean, carpet cleaning \
             and window cleaning by a mobile team, mobile trusted and insured.",
        )
    };
    let pages = vec![
        cleaner(
            "/",
            "Deep Cleaning | Sparkle",
            &["Deep Cleaning", "Carpet Cleaning"],
        ),
        cleaner(
            "/carpet-cleaning",
            "Carpet Cleaning | Sparkle",
            &["Carpet Cleaning", "Window Cleaning"],
        ),
        cleaner(
            "/window-cleaning",
            "Window Cleaning | Sparkle",
            &["Window Cleaning", "Mobile Cleaning"],
        ),
    ];
    let found = offline_keywords(&pages, &Language::english(), 100);
    let texts = texts(&found);
    assert!(texts.contains(&"deep clean"), "{texts:?}");
    assert!(!texts.iter().any(|t| t.ends_with("trusted")), "{texts:?}");
}

#[test]
fn a_word_that_only_follows_one_other_names_nothing_without_it() {
    let locksmith = |url: &str, title: &str, headings: &[&str]| {
        page(
            "secure-locks.test",
            SiteRole::Primary,
            url,
            title,
            headings,
            "Ignition switch repair and ignition switch replacement for every car. Switch \
             replacement takes an hour; lock rekeying too. Ask for a secure quote.",
        )
    };
    let pages = vec![
        locksmith(
            "/ignition-switch-repair",
            "Ignition Switch Repair | Secure Locks",
            &["Ignition Switch Repair", "Lock Rekeying"],
        ),
        locksmith(
            "/ignition-switch-replacement",
            "Ignition Switch Replacement | Secure Locks",
            &["Ignition Switch Replacement", "Lock Rekeying"],
        ),
    ];
    let found = offline_keywords(&pages, &Language::english(), 200);
    let texts = texts(&found);
    assert!(texts.contains(&"ignition switch replacement"), "{texts:?}");
    // "switch" of this site is an ignition switch; "secure" of its name describes.
    for unwanted in ["switch replacement", "secure quote"] {
        assert!(!texts.contains(&unwanted), "{unwanted}: {texts:?}");
    }
}

#[test]
fn a_town_in_the_name_is_no_brand_and_repair_is_no_trade() {
    let garage = |url: &str, title: &str, headings: &[&str]| {
        page(
            "columbus-garage.test",
            SiteRole::Primary,
            url,
            title,
            headings,
            "Garage door repair in Columbus, Ohio. Spring repair, opener repair and cable \
             repair for Columbus homes: see what a repair costs, repair cost by part, and the \
             Columbus area we serve.",
        )
    };
    let pages = vec![
        garage(
            "/spring-repair",
            "Spring Repair | Columbus Garage Door Service",
            &["Spring Repair in Columbus", "Opener Repair"],
        ),
        garage(
            "/opener-repair",
            "Opener Repair | Columbus Garage Door Service",
            &["Opener Repair in Columbus", "Cable Repair"],
        ),
        garage(
            "/cable-repair",
            "Cable Repair | Columbus Garage Door Service",
            &["Cable Repair in Columbus", "Spring Repair"],
        ),
    ];
    let found = offline_keywords(&pages, &Language::english(), 200);
    let texts = texts(&found);
    for expected in ["spring repair", "columbus garage door service"] {
        assert!(texts.contains(&expected), "{expected}: {texts:?}");
    }
    for unwanted in [
        "repair cost",
        "columbus homes",
        "columbus area",
        "columbus ohio",
    ] {
        assert!(!texts.contains(&unwanted), "{unwanted}: {texts:?}");
    }
}

#[test]
fn a_competitor_phrase_must_be_about_a_word_of_this_site() {
    let pages = vec![
        page(
            "cypress.test",
            SiteRole::Primary,
            "/door-installation",
            "Door Installation | Cypress Homes",
            &["Door Installation", "Kitchen Remodeling"],
            "Door installation and kitchen remodeling in Orlando. Door repair too.",
        ),
        page(
            "cypress.test",
            SiteRole::Primary,
            "/kitchen-remodeling",
            "Kitchen Remodeling | Cypress Homes",
            &["Kitchen Remodeling", "Door Installation"],
            "Kitchen remodeling and door installation.",
        ),
        page(
            "glass.test",
            SiteRole::Competitor(0),
            "/door-glass",
            "Door Glass Replacement | Glass Co",
            &["Door Glass Replacement", "Door Glass", "Condo Glass"],
            "Door glass replacement. Shattered door glass? Door glass repair today. \
             Kitchen remodeling costs. Kitchen remodeling for condos.",
        ),
    ];
    let found = offline_keywords(&pages, &Language::english(), 200);
    let texts = texts(&found);
    // Qualified by the competitor's words, this site's offering is still its own.
    for expected in ["door installation", "kitchen remodeling for condos"] {
        assert!(texts.contains(&expected), "{expected}: {texts:?}");
    }
    assert!(!texts.iter().any(|t| t.contains("glass")), "{texts:?}");
}

#[test]
fn a_trade_in_every_title_is_named_by_the_logo_and_heads_the_queries() {
    // "… — Plumbing" on every page: the trade, with the brand only in the logo and the home
    // link. "Emergency Plumbing" links every page too, but "emergency" is no proper name.
    let plumber = |url: &str, title: &str, headings: &[&str], body: &str| PageContent {
        anchors: vec![
            "Brookside Plumbing".to_string(),
            "Emergency Plumbing".to_string(),
        ],
        image_alts: vec!["Brookside Plumbing logo".to_string()],
        ..primary("brookside.test", url, title, headings, body)
    };
    let pages = vec![
        plumber(
            "/",
            "Plumbing — Residential & Emergency Plumbing",
            &[
                "Honest plumbing — done neat and done right",
                "Emergency repairs",
                "Appliance hookups",
            ],
            "Plumbing repair for leaks and clogs, and emergency plumbing when a pipe bursts. \
             We do it right.",
        ),
        plumber(
            "/services",
            "Services — Plumbing",
            &["Services", "Leak repair", "Water heaters"],
            "Residential plumbing services: plumbing repair, leak repair and water heaters.",
        ),
        plumber(
            "/about",
            "About — Plumbing",
            &["About us", "Clean work"],
            "A small crew doing residential plumbing services with clean work.",
        ),
    ];
    let profile = SiteProfile::from_pages(&pages, &Language::english());
    assert_eq!(profile.name.as_deref(), Some("Brookside Plumbing"));
    let found = offline_keywords(&pages, &Language::english(), 200);
    let texts = texts(&found);
    for expected in [
        "emergency plumbing",
        "plumbing repair",
        "residential plumbing services",
    ] {
        assert!(texts.contains(&expected), "{expected}: {texts:?}");
    }
    // The trade heads the queries, so page copy without it is none.
    for copy in ["clean work", "small crew", "appliance hookups"] {
        assert!(!texts.contains(&copy), "{copy}: {texts:?}");
    }
    assert!(!texts.iter().any(|t| t.contains("done")), "{texts:?}");
}

#[test]
fn a_site_that_names_no_deed_on_things_gets_no_repair_ideas_for_them() {
    // An accountant who once writes "residential" (read as a home service) names no repair,
    // replacement or installation anywhere, so its offerings take no such ideas.
    let accountant = |url: &str, title: &str, headings: &[&str], body: &str| {
        primary("ledger-accounts.test", url, title, headings, body)
    };
    let pages = vec![
        accountant(
            "/",
            "Ledger Accountants | Tax Returns & Bookkeeping in Perth",
            &["Tax Returns", "Bookkeeping"],
            "Tax returns and bookkeeping for residential property investors and small \
             businesses in Perth. Tax returns lodged on time; bookkeeping every month.",
        ),
        accountant(
            "/tax-returns",
            "Tax Returns | Ledger Accountants",
            &["Tax Returns", "PAYG Instalments"],
            "Individual tax returns and company tax returns. We look after your PAYG \
             instalments.",
        ),
        accountant(
            "/bookkeeping",
            "Bookkeeping | Ledger Accountants",
            &["Bookkeeping"],
            "Monthly bookkeeping and payroll for small businesses in Perth.",
        ),
    ];
    let found = offline_keywords(&pages, &Language::english(), 200);
    let texts = texts(&found);
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("tax returns") || t.starts_with("bookkeeping")),
        "{texts:?}"
    );
    let deeds: Vec<&&str> = texts
        .iter()
        .filter(|t| {
            t.ends_with(" repair") || t.ends_with(" installation") || t.ends_with(" replacement")
        })
        .collect();
    assert!(deeds.is_empty(), "{deeds:?}");
}

#[test]
fn what_a_local_business_provides_takes_its_places() {
    // A bakery's cakes are things, not deeds, yet "wedding cakes staten island" is what its
    // buyers type: a local business's things go with the places it serves.
    let bakery = |url: &str, title: &str, headings: &[&str], body: &str| {
        primary("rosas-bakery.test", url, title, headings, body)
    };
    let pages = vec![
        bakery(
            "/",
            "Rosa's Bakery | Wedding Cakes & Cupcakes in Staten Island",
            &["Wedding Cakes", "Cupcakes"],
            "Custom wedding cakes and cupcakes baked fresh every morning. Serving Staten \
             Island and Bayonne. Order your wedding cake today.",
        ),
        bakery(
            "/wedding-cakes",
            "Wedding Cakes | Rosa's Bakery",
            &["Wedding Cakes", "Tastings"],
            "Wedding cakes in every size, with a tasting before you order.",
        ),
        bakery(
            "/cupcakes",
            "Cupcakes | Rosa's Bakery",
            &["Cupcakes"],
            "Cupcakes by the dozen for birthdays and showers.",
        ),
    ];
    let found = offline_keywords(&pages, &Language::english(), 200);
    let texts = texts(&found);
    assert!(
        texts.iter().any(|t| t.starts_with("wedding cakes ")
            && (t.ends_with(" staten island") || t.ends_with(" bayonne"))),
        "{texts:?}"
    );
}

#[test]
fn an_offering_with_a_place_is_estimated_as_a_share_of_its_offering() {
    // "Read as its offering, of which the place takes a share" (`metrics`): the idea carries
    // its offering's prominence, so its volume is that share of the offering's own estimate.
    let found = keywords();
    let places = ["Irvington".to_string(), "East Orange".to_string()];
    let metrics = crate::metrics::estimate_all_serving(&found, &Language::english(), &places);
    let volume = |keyword: &str| {
        let at = found
            .iter()
            .position(|c| c.keyword == keyword)
            .unwrap_or_else(|| panic!("{keyword}: {:?}", texts(&found)));
        metrics[at].search_volume.expect("estimated")
    };
    let offering = volume("gutter cleaning");
    let placed = volume("gutter cleaning east orange");
    assert!(placed <= offering, "{placed} > {offering}");
    assert!(
        2 * placed >= offering * 8 / 10,
        "{placed} against {offering}"
    );
}
