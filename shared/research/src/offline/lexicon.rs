//! Per language: the words that qualify a topic rather than name it, and the query patterns
//! keyword tools build from an offering (`{}` is the offering), in that language's word order.
//! The languages are those of the intent lexicons; another language keeps discovery's phrases
//! named by the site's head terms, without ideas.

use crate::text::Language;

pub(super) struct Lexicon {
    /// What is done for a customer ("repair", "cleaning"): a qualifier, unless it is the trade
    /// itself (most offerings share it), and the mark of a service.
    pub actions: &'static [&'static str],
    /// Actions every trade performs ("services", "solutions"): never the trade itself.
    pub generic_actions: &'static [&'static str],
    /// Other words that qualify a topic: price, kind, quality, audience, provider.
    pub qualifiers: &'static [&'static str],
    /// Ideas for a service the site performs ("gutter cleaning cost").
    pub service: &'static [&'static str],
    /// Ideas for a thing a home service works on ("skylight repair").
    pub home_service_object: &'static [&'static str],
    /// Ideas for a thing a local business sells or provides ("egg sandwich near me", "best
    /// dental implants"): where and which, not a quote.
    pub local_thing: &'static [&'static str],
    /// Ideas for a product the site sells ("buy espresso beans").
    pub product: &'static [&'static str],
    /// The language writes a noun's kind at the end of one word ("Fensterreinigung",
    /// "Klavierunterricht", "dakreparatie"): a compound ending with an action is a service.
    pub compounds: bool,
}

impl Lexicon {
    pub fn for_language(language: &Language) -> Option<&'static Lexicon> {
        Some(match language.code() {
            "en" => &EN,
            "de" => &DE,
            "fr" => &FR,
            "es" => &ES,
            "it" => &IT,
            "pt" => &PT,
            "nl" => &NL,
            _ => return None,
        })
    }

    pub fn is_action(&self, word: &str) -> bool {
        self.actions.contains(&word)
    }

    /// What is done, as a word of its own or, in a language that compounds, as a word's
    /// last part ("Klavierunterricht": lessons, a service, not a thing for sale).
    pub fn names_action(&self, word: &str) -> bool {
        self.is_action(word)
            || (self.compounds
                && self
                    .actions
                    .iter()
                    .any(|action| word.len() >= action.len() + 3 && word.ends_with(action)))
    }

    pub fn qualifies(&self, word: &str) -> bool {
        self.is_action(word) || self.qualifiers.contains(&word)
    }

    /// The product a name written as a shopper's query names: "brandpreventie middelen" of
    /// a shop's heading "Brandpreventie middelen kopen", "Kaffee" of "Kaffee kaufen". The
    /// ideas add the query back.
    pub fn product_of_query(&self, name: &str) -> Option<String> {
        let lowercase = name.to_lowercase();
        self.product.iter().find_map(|pattern| {
            let (before, after) = pattern.split_once("{}")?;
            let product = lowercase.strip_prefix(before)?.strip_suffix(after)?.trim();
            (!product.is_empty() && product != lowercase).then(|| product.to_string())
        })
    }
}

static EN: Lexicon = Lexicon {
    actions: &[
        "repair",
        "repairs",
        "replacement",
        "replacements",
        "installation",
        "installations",
        "install",
        "installer",
        "installers",
        "cleaning",
        "washing",
        "inspection",
        "inspections",
        "maintenance",
        "upkeep",
        "prep",
        "preparation",
        "testing",
        "rebuild",
        "rebuilds",
        "removal",
        "restoration",
        "service",
        "services",
        "servicing",
        "design",
        "consultation",
        "consulting",
        "delivery",
        "catering",
        "rental",
        "rentals",
        "treatment",
        "treatments",
        "coating",
        "sealing",
        "painting",
        "construction",
        "remodeling",
        "renovation",
        "renovations",
        "upgrade",
        "upgrades",
        "care",
        "support",
        "management",
        "cleanup",
        "work",
        "solutions",
        "training",
        "lessons",
        "classes",
    ],
    generic_actions: &[
        "service",
        "services",
        "servicing",
        "solutions",
        "work",
        "support",
        "care",
        "management",
        // Done by many trades, the trade of none: a garage-door company's "spring repair",
        // "opener repair", "cable repair" make no "repair cost" query.
        "repair",
        "repairs",
        "replacement",
        "replacements",
        "installation",
        "installations",
        "install",
        "inspection",
        "inspections",
        "maintenance",
        "upkeep",
        "removal",
        "upgrade",
        "upgrades",
        "treatment",
        "treatments",
        "testing",
    ],
    qualifiers: &[
        "cost",
        "costs",
        "price",
        "prices",
        "pricing",
        "quote",
        "quotes",
        "estimate",
        "estimates",
        "company",
        "companies",
        "contractor",
        "contractors",
        "specialist",
        "specialists",
        "expert",
        "experts",
        "professional",
        "professionals",
        "pros",
        "team",
        "emergency",
        "commercial",
        "residential",
        "industrial",
        "local",
        "best",
        "top",
        "affordable",
        "cheap",
        "new",
        "custom",
        "quality",
        "premium",
        "free",
        "fast",
        "reliable",
        "licensed",
        "insured",
        "certified",
        "trusted",
        "near",
        "me",
        "online",
        "buy",
        "sale",
        "shop",
        "store",
        "options",
        "types",
        "guide",
        "tips",
        "ideas",
        "help",
        "project",
        "projects",
        "job",
        "jobs",
        "full",
        "complete",
        "same",
        "day",
        "24",
        "hour",
        "home",
        "house",
        "office",
        "business",
        "family",
        "owned",
        "family-owned",
        "operated",
        "locally",
        "independent",
        "experienced",
        "area",
        "areas",
        // What a business says about itself, not what it offers.
        "matters",
        "type",
        "video",
        "videos",
        "craftsmanship",
        "workmanship",
        "results",
        "process",
        "approach",
        "values",
        "mission",
        "experience",
        "history",
        "offices",
    ],
    service: &["{} cost", "{} near me", "{} quote", "{} company", "best {}"],
    home_service_object: &["{} repair", "{} replacement", "{} installation"],
    local_thing: &["best {}", "{} near me"],
    product: &["buy {}", "best {}", "{} price", "{} online"],
    compounds: false,
};

static DE: Lexicon = Lexicon {
    actions: &[
        "reparatur",
        "reparaturen",
        "sanierung",
        "montage",
        "installation",
        "reinigung",
        "wartung",
        "service",
        "beratung",
        "planung",
        "lieferung",
        "verleih",
        "vermietung",
        "pflege",
        "einbau",
        "austausch",
        "renovierung",
        "bau",
        "entsorgung",
        "unterricht",
        "kurs",
        "kurse",
        "training",
        "behandlung",
        "therapie",
        "schulung",
        "betreuung",
    ],
    generic_actions: &["service"],
    qualifiers: &[
        "kosten",
        "preis",
        "preise",
        "angebot",
        "angebote",
        "firma",
        "betrieb",
        "fachbetrieb",
        "profi",
        "profis",
        "experte",
        "experten",
        "notdienst",
        "günstig",
        "beste",
        "bester",
        "neu",
        "online",
        "kaufen",
        "shop",
        "in",
        "der",
        "nähe",
        "privat",
        "gewerbe",
    ],
    service: &["{} kosten", "{} in der nähe", "{} angebot", "{} firma"],
    home_service_object: &["{} reparatur", "{} austausch", "{} montage"],
    local_thing: &["{} in der nähe"],
    product: &["{} kaufen", "{} preis", "{} online", "{} test"],
    compounds: true,
};

static FR: Lexicon = Lexicon {
    actions: &[
        "réparation",
        "réparations",
        "remplacement",
        "installation",
        "pose",
        "nettoyage",
        "entretien",
        "service",
        "services",
        "rénovation",
        "dépannage",
        "livraison",
        "location",
        "conseil",
        "traitement",
        "maintenance",
    ],
    generic_actions: &["service", "services"],
    qualifiers: &[
        "prix",
        "tarif",
        "tarifs",
        "devis",
        "entreprise",
        "société",
        "artisan",
        "expert",
        "professionnel",
        "urgence",
        "pas",
        "cher",
        "meilleur",
        "meilleure",
        "neuf",
        "acheter",
        "boutique",
        "près",
        "chez",
        "moi",
    ],
    service: &[
        "prix {}",
        "devis {}",
        "{} près de chez moi",
        "entreprise {}",
    ],
    home_service_object: &["réparation {}", "remplacement {}", "pose {}"],
    local_thing: &["meilleur {}", "{} près de chez moi"],
    product: &["acheter {}", "meilleur {}", "prix {}", "{} pas cher"],
    compounds: false,
};

static ES: Lexicon = Lexicon {
    actions: &[
        "reparación",
        "reparaciones",
        "sustitución",
        "instalación",
        "limpieza",
        "mantenimiento",
        "servicio",
        "servicios",
        "reforma",
        "reformas",
        "entrega",
        "alquiler",
        "asesoría",
        "tratamiento",
    ],
    generic_actions: &["servicio", "servicios"],
    qualifiers: &[
        "precio",
        "precios",
        "presupuesto",
        "empresa",
        "empresas",
        "profesional",
        "experto",
        "urgencia",
        "urgente",
        "barato",
        "barata",
        "mejor",
        "mejores",
        "nuevo",
        "comprar",
        "tienda",
        "online",
        "cerca",
        "de",
        "mi",
    ],
    service: &[
        "precio {}",
        "presupuesto {}",
        "{} cerca de mi",
        "empresa de {}",
    ],
    home_service_object: &["reparación de {}", "instalación de {}"],
    local_thing: &["mejor {}", "{} cerca de mi"],
    product: &["comprar {}", "mejor {}", "precio {}", "{} barato"],
    compounds: false,
};

static IT: Lexicon = Lexicon {
    actions: &[
        "riparazione",
        "riparazioni",
        "sostituzione",
        "installazione",
        "pulizia",
        "manutenzione",
        "servizio",
        "servizi",
        "ristrutturazione",
        "consegna",
        "noleggio",
        "consulenza",
        "trattamento",
    ],
    generic_actions: &["servizio", "servizi"],
    qualifiers: &[
        "prezzo",
        "prezzi",
        "costo",
        "costi",
        "preventivo",
        "azienda",
        "ditta",
        "impresa",
        "professionale",
        "esperto",
        "urgente",
        "economico",
        "migliore",
        "migliori",
        "nuovo",
        "comprare",
        "negozio",
        "online",
        "vicino",
        "a",
        "me",
    ],
    service: &["{} prezzi", "preventivo {}", "{} vicino a me", "ditta {}"],
    home_service_object: &["riparazione {}", "sostituzione {}", "installazione {}"],
    local_thing: &["migliori {}", "{} vicino a me"],
    product: &["{} prezzo", "migliori {}", "{} online", "{} offerta"],
    compounds: false,
};

static PT: Lexicon = Lexicon {
    actions: &[
        "reparação",
        "reparo",
        "conserto",
        "substituição",
        "instalação",
        "limpeza",
        "manutenção",
        "serviço",
        "serviços",
        "reforma",
        "entrega",
        "aluguel",
        "aluguer",
        "consultoria",
        "tratamento",
    ],
    generic_actions: &["serviço", "serviços"],
    qualifiers: &[
        "preço",
        "preços",
        "orçamento",
        "empresa",
        "empresas",
        "profissional",
        "especialista",
        "urgente",
        "barato",
        "barata",
        "melhor",
        "melhores",
        "novo",
        "comprar",
        "loja",
        "online",
        "perto",
        "de",
        "mim",
    ],
    service: &[
        "preço {}",
        "orçamento {}",
        "{} perto de mim",
        "empresa de {}",
    ],
    home_service_object: &["conserto de {}", "instalação de {}"],
    local_thing: &["melhor {}", "{} perto de mim"],
    product: &["comprar {}", "melhor {}", "preço {}", "{} online"],
    compounds: false,
};

static NL: Lexicon = Lexicon {
    actions: &[
        "reparatie",
        "vervangen",
        "vervanging",
        "installatie",
        "montage",
        "reiniging",
        "onderhoud",
        "service",
        "renovatie",
        "levering",
        "verhuur",
        "advies",
        "behandeling",
    ],
    generic_actions: &["service"],
    qualifiers: &[
        "kosten",
        "prijs",
        "prijzen",
        "offerte",
        "bedrijf",
        "bedrijven",
        "specialist",
        "vakman",
        "spoed",
        "goedkoop",
        "goedkope",
        "beste",
        "nieuw",
        "kopen",
        "winkel",
        "online",
        "in",
        "de",
        "buurt",
    ],
    service: &["{} kosten", "{} offerte", "{} in de buurt", "{} bedrijf"],
    home_service_object: &["{} reparatie", "{} vervangen", "{} installatie"],
    local_thing: &["beste {}", "{} in de buurt"],
    product: &["{} kopen", "beste {}", "{} prijs", "{} online"],
    compounds: true,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compound_ending_with_an_action_names_a_service_where_the_language_compounds() {
        let german = Lexicon::for_language(&Language::new("de")).unwrap();
        assert!(german.names_action("fensterreinigung"));
        assert!(german.names_action("klavierunterricht"));
        assert!(!german.names_action("honig"));
        assert!(
            !german.qualifies("fensterreinigung"),
            "the compound stays a head term"
        );
        let english = Lexicon::for_language(&Language::english()).unwrap();
        assert!(!english.names_action("prerepair"));
    }

    #[test]
    fn a_name_written_as_a_shoppers_query_names_its_product() {
        let dutch = Lexicon::for_language(&Language::new("nl")).unwrap();
        assert_eq!(
            dutch
                .product_of_query("Brandpreventie middelen kopen")
                .as_deref(),
            Some("brandpreventie middelen")
        );
        assert_eq!(dutch.product_of_query("kopen"), None);
        let english = Lexicon::for_language(&Language::english()).unwrap();
        assert_eq!(
            english.product_of_query("buy coffee").as_deref(),
            Some("coffee")
        );
        assert_eq!(english.product_of_query("buyers guide"), None);
    }
}
