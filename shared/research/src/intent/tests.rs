use super::*;

fn intent(code: &str, keyword: &str) -> Intent {
    classify(keyword, &Language::new(code), &["acme.com".to_string()])
}

fn check(code: &str, cases: &[(&str, Intent)]) {
    let classifier = IntentClassifier::new(&Language::new(code), &["acme.com".to_string()]);
    for (keyword, expected) in cases {
        assert_eq!(classifier.classify(keyword), *expected, "{code}: {keyword}");
    }
}

use Intent::*;

#[test]
fn english() {
    check(
        "en",
        &[
            ("buy running shoes", Transactional),
            ("running shoes price", Transactional),
            ("plumber near me", Transactional),
            ("hire a web designer", Transactional),
            ("cheapest flights to rome", Transactional),
            ("best running shoes", Commercial),
            ("nike vs adidas", Commercial),
            ("crm software reviews", Commercial),
            ("notion alternatives", Commercial),
            ("how to lace running shoes", Informational),
            ("what is a crm", Informational),
            ("accounting software", Informational),
            ("best books about marketing", Commercial),
            ("acme login", Navigational),
            ("gmail login", Navigational),
            ("acme.com", Navigational),
            ("acme's return policy", Navigational),
        ],
    );
}

#[test]
fn german() {
    check(
        "de",
        &[
            ("laufschuhe kaufen", Transactional),
            ("laufschuhe günstig", Transactional),
            ("physiotherapie in der nähe", Transactional),
            ("beste laufschuhe", Commercial),
            ("laufschuhe test", Commercial),
            ("crm preisvergleich", Commercial),
            ("wie schnüre ich laufschuhe", Informational),
            ("acme kundenservice", Navigational),
        ],
    );
}

#[test]
fn french() {
    check(
        "fr",
        &[
            ("acheter chaussures de course", Transactional),
            ("chaussures pas cher", Transactional),
            ("plombier près de chez moi", Transactional),
            ("meilleures chaussures de course", Commercial),
            ("avis logiciel crm", Commercial),
            ("comment lacer ses chaussures", Informational),
            ("acme connexion", Navigational),
        ],
    );
}

#[test]
fn spanish() {
    check(
        "es",
        &[
            ("comprar zapatillas", Transactional),
            ("precio zapatillas running", Transactional),
            ("fontanero cerca de mí", Transactional),
            ("mejores zapatillas running", Commercial),
            ("opiniones crm", Commercial),
            ("cómo atar zapatillas", Informational),
            ("acme iniciar sesión", Navigational),
        ],
    );
}

#[test]
fn italian() {
    check(
        "it",
        &[
            ("comprare scarpe da corsa", Transactional),
            ("scarpe da corsa prezzi", Transactional),
            ("idraulico vicino a me", Transactional),
            ("migliori scarpe da corsa", Commercial),
            ("recensioni crm", Commercial),
            ("come allacciare le scarpe", Informational),
            ("acme area clienti", Navigational),
        ],
    );
}

#[test]
fn portuguese() {
    check(
        "pt-BR",
        &[
            ("comprar tênis de corrida", Transactional),
            ("tênis barato", Transactional),
            ("encanador perto de mim", Transactional),
            ("melhores tênis de corrida", Commercial),
            ("crm comparativo", Commercial),
            ("como amarrar o tênis", Informational),
            ("acme login", Navigational),
        ],
    );
}

#[test]
fn dutch() {
    check(
        "nl",
        &[
            ("hardloopschoenen kopen", Transactional),
            ("hardloopschoenen goedkoop", Transactional),
            ("loodgieter in de buurt", Transactional),
            ("beste hardloopschoenen", Commercial),
            ("crm vergelijken", Commercial),
            ("hoe strik je hardloopschoenen", Informational),
            ("acme klantenservice", Navigational),
        ],
    );
}

#[test]
fn unknown_languages_fall_back_to_english_cues() {
    assert_eq!(intent("zh-TW", "iphone vs pixel"), Commercial);
    assert_eq!(intent("zh-TW", "關鍵字研究"), Informational);
}

#[test]
fn brand_terms_from_domains_and_names() {
    let classifier = IntentClassifier::new(
        &Language::english(),
        &[
            "www.globex.co.uk".to_string(),
            "Initech Labs".to_string(),
            "x".to_string(),
        ],
    );
    assert_eq!(classifier.classify("globex opening times"), Navigational);
    assert_eq!(classifier.classify("initech labs careers"), Navigational);
    assert_eq!(classifier.classify("initechlabs"), Navigational);
    assert_eq!(classifier.classify("initech-labs pricing"), Navigational);
    // A one-letter brand is ignored rather than matching every "x".
    assert_eq!(classifier.classify("x ray machine"), Informational);
    assert_eq!(classifier.classify("labs near me"), Transactional);
}

#[test]
fn cues_report_every_kind_present() {
    let classifier = IntentClassifier::new(&Language::english(), &[]);
    let cues = classifier.cues("best price for running shoes");
    assert!(cues.transactional && cues.commercial && !cues.brand && !cues.navigational);
}

#[test]
fn serialises_lowercase() {
    assert_eq!(
        serde_json::to_string(&Intent::Transactional).unwrap(),
        "\"transactional\""
    );
    let parsed: Intent = serde_json::from_str("\"navigational\"").unwrap();
    assert_eq!(parsed, Navigational);
    assert_eq!(Intent::Commercial.as_str(), "commercial");
}
