//! Intent read from a keyword's results page, added to the cue weights of its words:
//!
//! | what the page shows | intent | weight |
//! |---|---|---|
//! | among the top three results, the front page or social profile of a site the query names ("barts asphalt" → bartsasphalt.com, "amazn" → amazon.com; `site_name.rs`) | navigational | +4.0 |
//! | … a deeper page of a site the query names whole, with at most two other words ("morningstar moat") | navigational | +2.0 |
//! | the top five results' page types ([`page_type`]), each weighted 1/rank, as shares of the results known: guides and forums | informational | +3.0 × share |
//! | … lists (best-of, reviews, comparisons) | commercial, or what the words ask for (below) | +3.0 × share |
//! | … providers' and sellers' own pages: front pages, service pages, directories' listings, products, shop categories, and pages of no telling address (half a vote) | transactional, or what the words ask for | +3.0 × share |
//! | a shopping box / a local pack | transactional / commercial, or what the words ask for | +1.5 |
//!
//! The buying votes go to the buying intent the words ask for: an act ("near me", "price")
//! transactional, weighing ("best", "vs") or a supplier of goods ("manufacturers") commercial,
//! both the heavier; only when they ask for neither does the page decide. So one known result
//! counts in full, and words decide when the page is silent (tools and social posts vote for
//! nothing). A service provider asked for without weighing ("asphalt services in detroit",
//! "sealcoating contractor"), commercial by its words alone, is to hire when the page's buying
//! votes are mostly transactional: the provider's weight moves there. In a niche whose typed
//! pages are mostly guides and forums ([`NichePages`], from the job's own results pages), a
//! page of no telling address and a front page vote informational instead.
//!
//! A page of a site the query names casts no page-type vote: it is where the query goes, not a
//! provider, shop or guide among others. A query typed as an address ("deers.gov", "www
//! craiglist") reads no page types at all. A question names no site ("how much are medicare
//! premiums").
//!
//! Chosen on the tune halves of the dev results pages and of two content-niche sets, with the
//! labels of three SEO labellers each (a label counts when two of them gave it;
//! `shared/research/tests/intent/README.md`); the naming of sites on the tune half of ORCAS-I's
//! hand-labelled queries with the page their users clicked (`.ci/intent-sets`).

use kr_core::dataset::SerpFeature;

use super::site_name::{self, Naming, QueryNames};
use super::{is_address, CueWeights, Cues, Intent};
use crate::serp_page::{page_type, PageType};
use crate::text::web_address::path_of;

/// Results read for page types; lower ones hardly change what Google thinks a query wants.
const TOP_RESULTS: usize = 5;
const PAGE_TYPES: f64 = 3.0;
const NAMED_SITE: f64 = 4.0;
/// A deeper page of a site the query names: the site is sought, for something on it; as much
/// as a weighing cue, less than an act ("tor project download").
const NAMED_PAGE: f64 = 2.0;
/// Words a query may hold besides the name of the site whose deeper page it reaches.
const MAX_BESIDE_NAMED_PAGE: usize = 2;
/// Results read for a site the query names.
const NAMED_SITE_RESULTS: usize = 3;
const FEATURE: f64 = 1.5;
/// Share of a vote a page of no telling address casts: most are a business's page for what
/// it offers, but that is a guess a word of the query should outweigh.
const OFFER_PAGE: f64 = 0.5;

/// What a keyword's results page shows, as far as it is known.
#[derive(Debug, Clone, Copy, Default)]
pub struct ResultsPage<'a> {
    /// Top organic result URLs in rank order.
    pub organic: &'a [String],
    pub features: &'a [SerpFeature],
}

/// How the results pages of one list of keywords (a job's, a niche's) read where their pages
/// tell their kind: the share of guides and forums among the pages that tell learning from
/// buying. A page of no telling address is taken to be like them: a maker's "/double-deck.html"
/// in a niche of product pages, a publisher's "/nutrition/carnivore-diet" in a niche of
/// articles.
/// With nothing known (the default), a page of no telling address is taken for an offer.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct NichePages {
    learning_share: f64,
}

impl NichePages {
    /// From every results page known of the list (its top results, as far as known).
    pub fn from_pages<'a>(pages: impl IntoIterator<Item = &'a [String]>) -> Self {
        let (mut learning, mut buying) = (0usize, 0usize);
        for page in pages {
            for kind in page.iter().take(TOP_RESULTS).map(|url| page_type(url)) {
                if kind == PageType::Other {
                    continue;
                }
                match vote_of(kind) {
                    Vote::Learning => learning += 1,
                    Vote::Buying(_) => buying += 1,
                    Vote::None => {}
                }
            }
        }
        let told = learning + buying;
        NichePages {
            learning_share: if told == 0 {
                0.0
            } else {
                learning as f64 / told as f64
            },
        }
    }

    /// Whether most pages that tell are guides and forums.
    fn mostly_learning(&self) -> bool {
        self.learning_share > 0.5
    }
}

/// Adds the page's votes to `weights`; `words` are the keyword's, `cues` what they carry.
pub(super) fn vote(
    words: &[String],
    cues: &Cues,
    page: &ResultsPage,
    niche: &NichePages,
    weights: &mut CueWeights,
) {
    // Which of the two buying intents the words ask for: an act ("near me", "price") or
    // weighing and providers ("best", "contractors", "manufacturers"); with both, the
    // heavier. A product's name alone asks for neither.
    let weighing = cues.commercial || cues.supplier;
    let buying = match (cues.transactional, weighing) {
        (true, false) => Some(Intent::Transactional),
        (false, true) => Some(Intent::Commercial),
        (true, true) if weights.transactional >= weights.commercial => Some(Intent::Transactional),
        (true, true) => Some(Intent::Commercial),
        (false, false) => None,
    };
    let mut known = 0.0;
    let mut votes = CueWeights::default();
    // A question about a site ("how much are medicare premiums") wants an answer, not the site.
    let names = if cues.question {
        QueryNames::default()
    } else {
        QueryNames::new(words)
    };
    let mut named: f64 = 0.0;
    // A query typed as an address ("deers.gov", "www craiglist") goes to a site: the kinds of
    // page it lands on say nothing of what it wants.
    let address = words.iter().any(|word| is_address(word));
    let typed = if address { 0 } else { TOP_RESULTS };
    for (rank, url) in page.organic.iter().take(typed).enumerate() {
        let weight = 1.0 / (rank + 1) as f64;
        known += weight;
        let page = page_type(url);
        // The site the query names is where it goes, not a provider, shop or guide it weighs:
        // its front page (or profile) whatever else the query says, a deeper page when the
        // query is about little else ("morningstar moat", not "us bank routing number
        // arizona") and names it whole.
        let naming = (rank < NAMED_SITE_RESULTS)
            .then(|| is_named_site(&names, url, page))
            .flatten();
        let front = matches!(page, PageType::Home | PageType::Social) || is_front_of_section(url);
        let weight_named = match naming {
            Some(_) if front => NAMED_SITE,
            Some(n) if !n.tail && n.beside <= MAX_BESIDE_NAMED_PAGE => NAMED_PAGE,
            _ => 0.0,
        };
        if weight_named > 0.0 {
            named = named.max(weight_named);
            continue;
        }
        let strength = if page == PageType::Other {
            OFFER_PAGE
        } else {
            1.0
        };
        // In a niche of guides, a page of no telling address and a front page are more
        // articles and organisations explaining than offers.
        if niche.mostly_learning() && matches!(page, PageType::Other | PageType::Home) {
            votes.add(Intent::Informational, weight * strength);
            continue;
        }
        match vote_of(page) {
            Vote::Learning => votes.add(Intent::Informational, weight * strength),
            Vote::Buying(by_page) => votes.add(buying.unwrap_or(by_page), weight * strength),
            Vote::None => {}
        }
    }
    // A provider asked for without weighing ("asphalt services in detroit") is to hire when
    // the page shows providers' own pages, and to weigh when it shows lists of them.
    if cues.provider && buying.is_none() && votes.transactional > votes.commercial {
        let provider = CueWeights::provider(cues);
        weights.commercial -= provider;
        weights.transactional += provider;
    }
    if known > 0.0 {
        let scale = PAGE_TYPES / known;
        weights.informational += votes.informational * scale;
        weights.commercial += votes.commercial * scale;
        weights.transactional += votes.transactional * scale;
    }
    weights.navigational += named;
    for feature in page.features {
        let by_page = match feature {
            SerpFeature::Shopping => Intent::Transactional,
            SerpFeature::LocalPack => Intent::Commercial,
            _ => continue,
        };
        weights.add(buying.unwrap_or(by_page), FEATURE);
    }
}

/// What a result's page type says about the query.
enum Vote {
    Learning,
    /// Buying, commercial or transactional: the words' lean decides, else the page's own.
    Buying(Intent),
    None,
}

fn vote_of(page: PageType) -> Vote {
    match page {
        PageType::Guide | PageType::Forum => Vote::Learning,
        PageType::List => Vote::Buying(Intent::Commercial),
        PageType::LocalService
        | PageType::Home
        | PageType::Product
        | PageType::Category
        | PageType::Other => Vote::Buying(Intent::Transactional),
        PageType::Tool | PageType::Social => Vote::None,
    }
}

/// A site's or a section's front page whatever kind of site it is ("irs.gov/",
/// "carteret.cpclib.org/cart/index.htm"): [`page_type`] calls a public body's front page a guide.
fn is_front_of_section(url: &str) -> bool {
    let path = path_of(url).trim_matches('/');
    let last = path.rsplit('/').next().unwrap_or("");
    let stem = last.split('.').next().unwrap_or("").to_ascii_lowercase();
    path.is_empty() || matches!(stem.as_str(), "index" | "home" | "default")
}

/// Whether `url` is a page of a site the keyword names (`site_name.rs`), or the social
/// profile it names ("barts asphalt reviews" → facebook.com/BartsAsphalt): how many of its
/// words are beside the name, or `None`.
fn is_named_site(names: &QueryNames, url: &str, page: PageType) -> Option<Naming> {
    if page == PageType::Social {
        return path_of(url)
            .split('/')
            .find(|segment| !segment.is_empty())
            .and_then(|profile| names.name(&site_name::compact(profile)));
    }
    names.site(url)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intent::IntentClassifier;
    use crate::text::Language;

    fn urls(list: &[&str]) -> Vec<String> {
        list.iter().map(|u| u.to_string()).collect()
    }

    fn classify(keyword: &str, organic: &[&str], features: &[SerpFeature]) -> Intent {
        let english = IntentClassifier::new(&Language::english(), &[]);
        classify_by(&english, keyword, organic, features)
    }

    fn classify_by(
        classifier: &IntentClassifier,
        keyword: &str,
        organic: &[&str],
        features: &[SerpFeature],
    ) -> Intent {
        let organic = urls(organic);
        classifier
            .scores_on(
                keyword,
                &ResultsPage {
                    organic: &organic,
                    features,
                },
            )
            .primary()
    }

    #[test]
    fn a_named_sites_front_page_on_top_makes_a_query_navigational() {
        assert_eq!(
            classify("barts asphalt", &["https://www.bartsasphalt.com/"], &[]),
            Intent::Navigational
        );
        assert_eq!(
            classify(
                "barts asphalt reviews",
                &["https://www.facebook.com/BartsAsphalt/"],
                &[]
            ),
            Intent::Navigational
        );
        // A front page of a site the query does not name is a provider to hire.
        assert_eq!(
            classify("sealcoating", &["https://www.anthonysasphalt.com/"], &[]),
            Intent::Transactional
        );
    }

    #[test]
    fn a_query_naming_the_result_s_site_misspelt_or_run_together_is_navigational() {
        for (query, url) in [
            ("amazn", "https://www.amazon.com/"),
            ("www,ebay", "https://www.ebay.com/"),
            ("paycvor", "https://www.paycor.com/"),
            (
                "cariboo coffee",
                "https://shop.cariboucoffee.com/asp/shop/index.asp",
            ),
            (
                "gooogle login",
                "https://myaccount.google.com/intro/security",
            ),
            (
                "carteret county public library",
                "http://carteret.cpclib.org/cart/index.htm",
            ),
            ("slo county jail", "http://www.slocounty.ca.gov/"),
            (
                "morningstar moat",
                "http://www.morningstar.com/invglossary/economic_moat.aspx",
            ),
            ("deers.gov", "https://www.tricare.mil/deers/"),
        ] {
            assert_eq!(
                classify(query, &[url], &[]),
                Intent::Navigational,
                "{query} → {url}"
            );
        }
    }

    #[test]
    fn a_named_site_s_page_is_no_provider_and_a_topic_on_it_no_destination() {
        // Before, a front page voted for a provider to hire: "paycvor" was transactional.
        let words = IntentClassifier::new(&Language::english(), &[]);
        assert_ne!(words.classify("paycvor"), Intent::Navigational);
        // A question about a site, or a topic on it in many words, wants the page's answer.
        for (query, url) in [
            (
                "how much are medicare premiums for 2018",
                "https://www.medicare.gov/your-medicare-costs/costs-at-a-glance/costs-at-glance.html",
            ),
            (
                "us bank routing number arizona",
                "https://www.usbank.com/bank-accounts/checking-accounts/aba-routing-number.html",
            ),
        ] {
            assert_ne!(classify(query, &[url], &[]), Intent::Navigational, "{query}");
        }
        // An act on the site's deeper page stays an act.
        assert_eq!(
            classify(
                "tor project download windows",
                &["https://www.torproject.org/download/download-easy.html.en"],
                &[]
            ),
            Intent::Transactional
        );
    }

    #[test]
    fn shops_guides_and_service_pages_vote_for_their_intents() {
        assert_eq!(
            classify(
                "carpet yarn",
                &[
                    "https://amyoxford.com/collections/rug-yarn",
                    "https://www.amazon.com/rug-yarn/s?k=rug+yarn",
                ],
                &[]
            ),
            Intent::Transactional
        );
        assert_eq!(
            classify(
                "tfo machine",
                &["https://www.weavetech.com/what-is-two-for-one-twister-tfo/"],
                &[]
            ),
            Intent::Informational
        );
        assert_eq!(
            classify(
                "asphalt paving",
                &["https://www.yelp.com/search?find_desc=x"],
                &[]
            ),
            Intent::Transactional
        );
        assert_eq!(
            classify(
                "asphalt paving",
                &["https://acme.com/best-asphalt-paving-companies"],
                &[]
            ),
            Intent::Commercial
        );
        assert_eq!(
            classify("gutter guards", &[], &[SerpFeature::Shopping]),
            Intent::Transactional
        );
    }

    #[test]
    fn words_decide_when_the_page_says_nothing() {
        for keyword in [
            "how to seal a driveway",
            "buy gutter guards",
            "best roofers",
        ] {
            let plain = IntentClassifier::new(&Language::english(), &[]).classify(keyword);
            assert_eq!(classify(keyword, &[], &[]), plain, "{keyword}");
            let tool = ["https://acme.com/tools/driveway-calculator"];
            assert_eq!(classify(keyword, &tool, &[]), plain, "{keyword}");
        }
    }

    #[test]
    fn short_or_partial_site_names_are_not_named() {
        let words = |k: &str| {
            let words: Vec<String> = k.split(' ').map(str::to_string).collect();
            QueryNames::new(&words)
        };
        let is_named_site =
            |names: &QueryNames, url: &str| is_named_site(names, url, page_type(url)).is_some();
        assert!(!is_named_site(&words("ab testing"), "https://ab.com/"));
        assert!(!is_named_site(&words("barts"), "https://bartsasphalt.com/"));
        assert!(is_named_site(
            &words("call barts asphalt now"),
            "https://barts-asphalt.com/"
        ));
        assert!(is_named_site(
            &words("murray asphalt"),
            "https://murraysasphaltmi.com/"
        ));
        assert!(is_named_site(
            &words("action asphalt michigan"),
            "https://actionasphaltllc.com/"
        ));
        assert!(!is_named_site(&words("abc"), "https://abcllc.com/"));
        assert!(!is_named_site(
            &words("asphalt"),
            "https://asphaltpaving.com/"
        ));
    }

    #[test]
    fn a_service_is_to_hire_and_a_supplier_to_compare_when_the_page_shows_providers() {
        let provider_page = ["https://www.detroitasphaltllc.com/"];
        // Words alone: a local service query is commercial.
        let words = IntentClassifier::new(&Language::english(), &[]);
        assert_eq!(
            words.classify("asphalt services in detroit"),
            Intent::Commercial
        );
        assert_eq!(
            classify("asphalt services in detroit", &provider_page, &[]),
            Intent::Transactional
        );
        // Weighing keeps it commercial, and so does asking for a supplier of goods.
        assert_eq!(
            classify("best asphalt services in detroit", &provider_page, &[]),
            Intent::Commercial
        );
        assert_eq!(
            classify(
                "cpp film manufacturers",
                &["https://www.jpflfilms.com/products/cpp-films"],
                &[]
            ),
            Intent::Commercial
        );
    }

    #[test]
    fn an_untold_page_reads_like_the_niches_pages() {
        let article = "https://www.healthline.com/nutrition/carnivore-diet";
        let words = IntentClassifier::new(&Language::english(), &[]);
        // Alone, a page of no telling address is an offer.
        assert_eq!(
            classify_by(&words, "carnivore diet", &[article], &[]),
            Intent::Transactional
        );
        let guides = urls(&[
            "https://en.wikipedia.org/wiki/Ketogenic_diet",
            "https://www.dietdoctor.com/low-carb/keto/guide",
            "https://www.acme.com/how-to-start-keto",
            "https://www.acme.com/shop/keto-bars",
        ]);
        let niche = NichePages::from_pages([guides.as_slice(), urls(&[article]).as_slice()]);
        assert!(niche.mostly_learning(), "{niche:?}");
        let in_niche = words.clone().with_niche(niche);
        assert_eq!(
            classify_by(&in_niche, "carnivore diet", &[article], &[]),
            Intent::Informational
        );
        assert_eq!(
            classify_by(
                &in_niche,
                "domestic violence",
                &["https://www.thehotline.org/"],
                &[]
            ),
            Intent::Informational
        );
        // A niche of offers leaves them offers.
        let shops = urls(&[
            "https://acme.com/products/tfo",
            "https://acme.com/shop/yarn",
        ]);
        let offers = words.with_niche(NichePages::from_pages([shops.as_slice()]));
        assert_eq!(
            classify_by(&offers, "carnivore diet", &[article], &[]),
            Intent::Transactional
        );
    }
}
