use super::*;

fn page(url: &str, title: &str, headings: &[&str]) -> PageContent {
    PageContent {
        url: url.to_string(),
        title: title.to_string(),
        headings: headings.iter().map(|h| h.to_string()).collect(),
        ..PageContent::default()
    }
}

#[test]
fn the_trade_in_the_site_name_is_an_offering() {
    let mut home = page(
        "https://dragonflies.test/",
        "Dragonflies Flower Shop",
        &[
            "Some of our work",
            "Your Local Florist in Glossop and Beyond",
        ],
    );
    home.body_text = "The friendly flower shop in Glossop for every occasion.".to_string();
    let funeral = page(
        "https://dragonflies.test/funeral-flowers",
        "Dragonflies Flower Shop",
        &["Funeral Flowers Gallery", "Celebrate Mother's Day with us"],
    );
    let pages = [home, funeral];
    let refs: Vec<&PageContent> = pages.iter().collect();
    let name = Some("Dragonflies Flower Shop");
    let found = offerings(
        &refs,
        name,
        &["Glossop".to_string()],
        &Language::english(),
        8,
    );
    assert_eq!(found[..2], ["flower shop", "funeral flowers"], "{found:?}");
    for unwanted in ["some", "beyond", "celebrate mother's day", "dragonflies"] {
        assert!(
            !found.contains(&unwanted.to_string()),
            "{unwanted}: {found:?}"
        );
    }
}

#[test]
fn a_name_that_opens_with_its_trade_has_its_brand_after() {
    let mut home = page(
        "https://metzgerei-hinderer.test/",
        "Metzgerei Hinderer | Partyservice",
        &["Frische Wurstwaren"],
    );
    home.body_text = "Ihre Metzgerei in Bingen. Unsere Metzgerei liefert. Aus der Metzgerei \
                      frisch. Jede Metzgerei kann das. Familie Hinderer grüßt."
        .to_string();
    let refs = [&home];
    let found = offerings(
        &refs,
        Some("Metzgerei Hinderer"),
        &["Bingen".to_string()],
        &Language::new("de"),
        8,
    );
    assert!(found.contains(&"metzgerei".to_string()), "{found:?}");
    assert!(!found.iter().any(|o| o.contains("hinderer")), "{found:?}");
    let home = page(
        "https://taxi.test/",
        "Taxi Brannenburg | Flughafentransfer",
        &[],
    );
    let found = offerings(
        &[&home],
        Some("Taxi Brannenburg"),
        &["Brannenburg".to_string()],
        &Language::new("de"),
        8,
    );
    assert!(found.contains(&"taxi".to_string()), "{found:?}");
}

#[test]
fn conjuncts_share_the_noun_of_a_list_in_either_word_order() {
    let tiles = page(
        "https://carrelage.test/carrelage",
        "Carrelage intérieur & extérieur | Top Carrelage",
        &["Parquet stratifié, contrecollé & massif"],
    );
    let found = offerings(
        &[&tiles],
        Some("Top Carrelage"),
        &[],
        &Language::new("fr"),
        8,
    );
    for name in [
        "carrelage extérieur",
        "parquet massif",
        "parquet contrecollé",
    ] {
        assert!(found.contains(&name.to_string()), "{name}: {found:?}");
    }
    for alone in ["extérieur", "massif"] {
        assert!(!found.contains(&alone.to_string()), "{alone}: {found:?}");
    }
    let towing = page(
        "https://towing.test/",
        "Light, Medium & Heavy Duty Towing | Sawa",
        &["Roofing and Gutter Repair"],
    );
    let found = offerings(&[&towing], Some("Sawa"), &[], &Language::english(), 8);
    for name in ["light duty towing", "heavy duty towing", "gutter repair"] {
        assert!(found.contains(&name.to_string()), "{name}: {found:?}");
    }
    assert!(!found.contains(&"light".to_string()), "{found:?}");
}

#[test]
fn a_name_the_site_never_writes_in_lowercase_is_no_trade() {
    let mut home = page(
        "https://rivercity.test/",
        "River City Autohaus LLC | Auto Repair",
        &["Oregon Drivers", "Case Study"],
    );
    home.body_text = "Auto repair for the whole city.".to_string();
    let refs = [&home];
    let found = offerings(
        &refs,
        Some("River City Autohaus LLC"),
        &[],
        &Language::english(),
        8,
    );
    assert_eq!(found, ["auto repair"], "{found:?}");
}

#[test]
fn names_offerings_without_brand_place_or_boilerplate() {
    let pages = [
        page(
            "https://summit.test/",
            "Summit Roofing | Roof Repair & Roof Replacement in Newark, NJ",
            &[
                "Roof Repair and Replacement",
                "Why Choose Us",
                "Our Services",
            ],
        ),
        page(
            "https://summit.test/gutters",
            "Gutter Installation in Newark | Summit Roofing",
            &[
                "Gutter Installation",
                "Get a Free Estimate",
                "Licensed & Insured",
                "Residential",
            ],
        ),
        page(
            "https://summit.test/roof-repair",
            "Roof Repair Newark | Summit Roofing",
            &["Emergency Roof Repair", "How Much Does Roof Repair Cost?"],
        ),
        page(
            "https://summit.test/blog/ice-dams",
            "How to Prevent Ice Dams | Summit Roofing",
            &["Ice Dams Explained"],
        ),
    ];
    let refs: Vec<&PageContent> = pages.iter().collect();
    let found = offerings(
        &refs,
        Some("Summit Roofing"),
        &["Newark".to_string()],
        &Language::english(),
        8,
    );
    assert_eq!(found[0], "roof repair", "{found:?}");
    for expected in [
        "roof replacement",
        "gutter installation",
        "emergency roof repair",
    ] {
        assert!(
            found.contains(&expected.to_string()),
            "{expected}: {found:?}"
        );
    }
    for unwanted in [
        "why choose us",
        "our services",
        "ice dams explained",
        "summit roofing",
        "licensed",
        "insured",
        "residential",
    ] {
        assert!(
            !found.contains(&unwanted.to_string()),
            "{unwanted}: {found:?}"
        );
    }
}

#[test]
fn what_the_site_works_on_and_its_selling_points_are_no_offerings() {
    let pages = [
        page(
            "https://lock.test/car-lockout",
            "Car Lockout Service | Lock Co",
            &[
                "Vehicles & Systems We Handle",
                "Expert Care",
                "One Local Team",
                "Natural Products",
            ],
        ),
        page(
            "https://lock.test/",
            "Lawn Care & Key Duplication | Lock Co",
            &[
                "Vehicles & Key Types We Handle",
                "Parts & Materials",
                "Los Angeles",
                "Local Ingredients",
            ],
        ),
    ];
    let refs: Vec<&PageContent> = pages.iter().collect();
    let found = offerings(&refs, Some("Lock Co"), &[], &Language::english(), 20);
    for expected in ["car lockout service", "lawn care", "key duplication"] {
        assert!(
            found.contains(&expected.to_string()),
            "{expected}: {found:?}"
        );
    }
    for unwanted in [
        "vehicles",
        "expert care",
        "one local team",
        "natural products",
        "parts",
        "materials",
        "los angeles",
        "local ingredients",
    ] {
        assert!(
            !found.contains(&unwanted.to_string()),
            "{unwanted}: {found:?}"
        );
    }
}

#[test]
fn a_colour_alone_is_no_offering() {
    let home = page(
        "https://inkstudio.test/",
        "Black & Grey | Fine Line Tattoos",
        &["Black and Grey", "Cover-Up Tattoos", "Schwarz"],
    );
    let refs = [&home];
    let found = offerings(&refs, None, &[], &Language::english(), 8);
    assert!(
        found.contains(&"fine line tattoos".to_string()),
        "{found:?}"
    );
    for colour in ["black", "grey", "schwarz"] {
        assert!(!found.contains(&colour.to_string()), "{colour}: {found:?}");
    }
}

#[test]
fn a_registered_form_is_no_word_of_an_offering() {
    let home = page(
        "https://musikschule.test/",
        "Musikschule Unterallgäu e.V.",
        &["Klavierunterricht"],
    );
    let refs = [&home];
    let found = offerings(&refs, None, &[], &Language::new("de"), 8);
    assert!(
        found.contains(&"musikschule unterallgäu".to_string()),
        "{found:?}"
    );
    assert!(!found.iter().any(|o| o.ends_with("e.v")), "{found:?}");
}

#[test]
fn a_noun_first_language_names_a_material_after_in_and_a_place_is_cut() {
    let mut windows = page(
        "https://infissi.test/prodotti.html",
        "Infissi in Alluminio | Catalogo",
        &["Porte in Legno a Carmiano"],
    );
    windows.body_text = "Infissi e porte su misura.".to_string();
    let found = offerings(
        &[&windows],
        None,
        &["Carmiano".to_string()],
        &Language::new("it"),
        8,
    );
    for name in ["infissi in alluminio", "porte in legno"] {
        assert!(found.contains(&name.to_string()), "{name}: {found:?}");
    }
    let help = page(
        "https://hilfe.test/",
        "Haushaltshilfe in Hannover | Alltagshilfe",
        &[],
    );
    let found = offerings(&[&help], None, &[], &Language::new("de"), 8);
    assert!(found.contains(&"haushaltshilfe".to_string()), "{found:?}");
}

#[test]
fn a_pair_the_site_never_writes_apart_names_no_offering_of_either_word() {
    let mut home = page(
        "https://scaffold.test/",
        "Scaffolding Sussex",
        &["Health & Safety", "Roofing & Chimney Scaffolds"],
    );
    home.body_text = "Health and safety comes first. Chimney scaffolds and roofing scaffolds, \
                      chimney work, roofing work."
        .to_string();
    let pages = [home];
    let refs: Vec<&PageContent> = pages.iter().collect();
    let found = offerings(&refs, None, &[], &Language::english(), 8);
    assert!(
        !found.iter().any(|o| o == "health" || o == "safety"),
        "{found:?}"
    );
    assert!(found.iter().any(|o| o == "roofing"), "{found:?}");
}

#[test]
fn a_name_is_not_cut_at_an_in_the_site_joins_to_its_noun() {
    let mut home = page(
        "https://tubs.test/",
        "Walk In Tub Denver | Free Quote",
        &["Roof Repair in Denver"],
    );
    home.body_text = "A walk-in tub for every bathroom, and roof repair.".to_string();
    let pages = [home];
    let refs: Vec<&PageContent> = pages.iter().collect();
    let found = offerings(
        &refs,
        None,
        &["Denver".to_string()],
        &Language::english(),
        8,
    );
    assert!(found.iter().any(|o| o == "walk in tub"), "{found:?}");
    assert!(found.iter().any(|o| o == "roof repair"), "{found:?}");
}

#[test]
fn a_list_opened_by_whom_it_is_for_names_audiences() {
    let pages = [
        page(
            "https://eifelkresse.test/",
            "Microgreens – Für Restaurants, Handel & Privat | Eifelkresse",
            &["Microgreens", "Erbsensprossen"],
        ),
        page(
            "https://eifelkresse.test/sorten",
            "Sorten | Eifelkresse",
            &["Erbsensprossen", "Rettichkresse"],
        ),
    ];
    let refs: Vec<&PageContent> = pages.iter().collect();
    let found = offerings(&refs, None, &[], &Language::new("de"), 8);
    assert!(found.contains(&"microgreens".to_string()), "{found:?}");
    for audience in ["handel", "privat", "restaurants"] {
        assert!(
            !found.iter().any(|o| o == audience),
            "{audience}: {found:?}"
        );
    }
}

#[test]
fn one_word_nouns_before_a_list_s_last_name_share_its_noun() {
    let pages = [page(
        "https://oceanpat.test/",
        "Charity & Community PAT Testing | Ocean PAT",
        &["Gutters and Downspout Cleaning"],
    )];
    let refs: Vec<&PageContent> = pages.iter().collect();
    let found = offerings(&refs, None, &[], &Language::english(), 8);
    for name in [
        "charity pat testing",
        "community pat testing",
        "downspout cleaning",
    ] {
        assert!(found.contains(&name.to_string()), "{name}: {found:?}");
    }
    for wrong in ["charity", "gutters downspout cleaning"] {
        assert!(!found.contains(&wrong.to_string()), "{wrong}: {found:?}");
    }
}

#[test]
fn a_state_code_after_a_name_is_where_not_what() {
    let pages = [page(
        "https://nassaufire.test/",
        "Emergency Roof Repair NJ | Ridgeline",
        &["Photo ID Cards", "Fire Extinguisher Recharge"],
    )];
    let refs: Vec<&PageContent> = pages.iter().collect();
    let found = offerings(&refs, None, &[], &Language::english(), 8);
    assert!(
        found.contains(&"emergency roof repair".to_string()),
        "{found:?}"
    );
    assert!(!found.iter().any(|o| o.ends_with(" nj")), "{found:?}");
}

#[test]
fn a_suspended_compound_takes_the_head_of_the_last() {
    let mut home = page(
        "https://kochkurse.test/",
        "Mobile Koch- & Backkurse in Wolnzach",
        &["Brot- und Kuchenbacken"],
    );
    home.body_text = "Unsere Kurse finden bei Ihnen zu Hause statt.".to_string();
    let refs = [&home];
    let found = offerings(&refs, None, &[], &Language::new("de"), 8);
    assert!(found.contains(&"mobile kochkurse".to_string()), "{found:?}");
    assert!(!found.iter().any(|o| o.ends_with("koch")), "{found:?}");
}
