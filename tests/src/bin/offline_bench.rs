//! Offline keywords on real small-business websites (issue 23): each site of
//! `tests/fixtures/real-sites/sites.tsv` is served on loopback, crawled with a competitor from
//! another trade, and researched without a data provider. Per site, of the top 50 keywords by
//! opportunity value: the share that name one of the site's offerings (its labelled terms, or
//! its brand) and the share that are single words; then the top 10.
//!
//! Run through `.ci/bench offline [tune|heldout|all|SITE]` (default: tune, every site looked at
//! while building, the earlier `check` halves included; `heldout`: the sites labelled and
//! committed before any run, reported as their own section; a site's name runs that site
//! alone). `OFFLINE_BENCH_KEYWORDS=<file>` also writes every keyword of every site there (site,
//! tab, keyword), to compare two versions of the rules.
//!
//! Two optional trailing columns label a site's `people` (names on the site, lowercase) and
//! `places` (the places it serves): the bench then also prints the share of the top 50 that
//! hold a person's name (outside a labelled brand variant), and how many of the top 20 are an
//! offering with a place. The share
//! that is site furniture is counted on every site, with [`FURNITURE`].

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use kr_crawler::{CrawlConfig, Crawler, SiteRole};
use kr_research::research::{research, KeywordRecord, ResearchInput};
use kr_research::text::Language;
use kr_tests::sites::serve_sites;
use kr_tests::template::workspace_root;

const TOP: usize = 50;
const SHOWN: usize = 10;
/// A local business's keywords read here: "offering + place" among its first 20.
const LOCAL_TOP: usize = 20;

/// Site furniture for the evaluation: a keyword holding one of these (as whole words) names a
/// section, notice or page of a site rather than anything it offers ("holiday schedule",
/// "legal disclaimer", "customer reviews"). Written before any run measured it, and kept apart
/// from the method's own word lists (`shared/research`): the bench judges the method, so the
/// method must not read this list, nor this list be grown from the method's misses.
const FURNITURE: &[&str] = &[
    "about us",
    "accessibility",
    "all rights",
    "blog post",
    "careers",
    "click here",
    "closure",
    "closures",
    "closure dates",
    "contact us",
    "cookie",
    "cookies",
    "copyright",
    "customer reviews",
    "client reviews",
    "google reviews",
    "read reviews",
    "disclaimer",
    "faq",
    "faqs",
    "follow us",
    "holiday schedule",
    "holiday hours",
    "home page",
    "homepage",
    "clinic hours",
    "office hours",
    "opening hours",
    "business hours",
    "hours of operation",
    "learn more",
    "legal",
    "login",
    "log in",
    "newsletter",
    "overview",
    "pricing page",
    "privacy",
    "read more",
    "rights reserved",
    "sign in",
    "sign up",
    "sitemap",
    "skip to",
    "subscribe",
    "terms of service",
    "terms and conditions",
    "terms of use",
    "testimonial",
    "testimonials",
    "welcome",
    "our story",
    "our team",
    "meet the team",
    "our mission",
    "page",
    "pages",
    "quick links",
    "navigation",
    "menu toggle",
    "footer",
    "header",
];
/// Politeness of a loopback server: the default 250 ms between requests only slows the bench.
const DELAY_MS: &str = "10";

#[derive(Clone)]
struct Site {
    name: String,
    repo: String,
    split: String,
    competitor: String,
    brand: Vec<String>,
    terms: Vec<String>,
    people: Vec<String>,
    places: Vec<String>,
}

impl Site {
    fn domain(name: &str) -> String {
        format!("{name}.com")
    }

    /// A word of the keyword starts with a one-word term, or the keyword holds a longer one.
    fn names_offering(&self, keyword: &str) -> bool {
        let words: Vec<&str> = keyword.split_whitespace().collect();
        self.terms.iter().chain(&self.brand).any(|term| {
            if term.contains(' ') {
                keyword.contains(term.as_str())
            } else {
                words.iter().any(|w| w.starts_with(term.as_str()))
            }
        })
    }

    /// One of the offering terms (not the brand) is named.
    fn names_offering_term(&self, keyword: &str) -> bool {
        let words: Vec<&str> = keyword.split_whitespace().collect();
        self.terms.iter().any(|term| {
            if term.contains(' ') {
                keyword.contains(term.as_str())
            } else {
                words.iter().any(|w| w.starts_with(term.as_str()))
            }
        })
    }

    /// A person's name outside the brand: a practitioner's site named after her ("elia dance"
    /// of Eli'Dance) keeps its brand as a navigational query (issue 50), so a labelled brand
    /// variant's words are read as the brand, not a person.
    fn names_person(&self, keyword: &str) -> bool {
        let mut words = format!(" {keyword} ");
        for brand in &self.brand {
            words = words.replace(&format!(" {brand} "), " ");
        }
        self.people.iter().any(|name| holds_words(&words, name))
    }

    /// A hyphen joins a place's parts as a space does: "zeltingen-rachtig" is typed
    /// "zeltingen rachtig" too.
    fn offering_with_place(&self, keyword: &str) -> bool {
        let spaced = keyword.replace('-', " ");
        self.names_offering_term(keyword)
            && self
                .places
                .iter()
                .any(|place| holds_words(&spaced, &place.replace('-', " ")))
    }
}

/// `keyword` holds `phrase`'s words in a row, as whole words.
fn holds_words(keyword: &str, phrase: &str) -> bool {
    let words: Vec<&str> = keyword.split_whitespace().collect();
    let wanted: Vec<&str> = phrase.split_whitespace().collect();
    !wanted.is_empty() && words.windows(wanted.len()).any(|w| w == wanted.as_slice())
}

fn is_furniture(keyword: &str) -> bool {
    FURNITURE.iter().any(|phrase| holds_words(keyword, phrase))
}

fn read_sites() -> Vec<Site> {
    let path = workspace_root().join("tests/fixtures/real-sites/sites.tsv");
    let text = std::fs::read_to_string(&path).expect("the real sites' labels");
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert!(
                (8..=10).contains(&fields.len()),
                "{}: {line}",
                path.display()
            );
            let list = |field: &str| {
                field
                    .split(',')
                    .map(|s| s.trim().to_lowercase())
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
            };
            let optional = |i: usize| fields.get(i).map_or_else(Vec::new, |f| list(f));
            Site {
                name: fields[0].to_string(),
                repo: fields[1].to_string(),
                split: fields[4].to_string(),
                competitor: fields[5].to_string(),
                brand: list(fields[6]),
                terms: list(fields[7]),
                people: optional(8),
                places: optional(9),
            }
        })
        .collect()
}

/// A folder the loopback server reads by host: `<name>.com` → the site's files.
fn served_root(sites_dir: &Path, sites: &[Site]) -> std::io::Result<PathBuf> {
    let root = std::env::temp_dir().join(format!("kr-real-sites-{}", std::process::id()));
    std::fs::create_dir_all(&root)?;
    for site in sites {
        let link = root.join(Site::domain(&site.name));
        if !link.exists() {
            std::os::unix::fs::symlink(sites_dir.join(&site.name), link)?;
        }
    }
    Ok(root)
}

/// The site's pages, or why they cannot be crawled (its robots.txt forbids it, as a job's
/// crawl would be refused).
async fn crawl(
    crawler: &Crawler,
    name: &str,
    role: SiteRole,
) -> Result<Vec<kr_research::PageContent>, String> {
    let max_pages = match role {
        SiteRole::Primary => crawler.config().max_pages_primary,
        SiteRole::Competitor(_) => crawler.config().max_pages_competitor,
    };
    crawler
        .crawl_site(&Site::domain(name), role, max_pages, &|_| {})
        .await
        .map(|crawl| crawl.pages)
        .map_err(|error| error.to_string())
}

/// Which sites `arg` names: a split (`tune`: every site but the held-out ones; `heldout`), or
/// one site by name. `all` is both splits, each as its own section.
fn sections<'a>(arg: &str, sites: &'a [Site]) -> Vec<(String, Vec<&'a Site>)> {
    let tune = || {
        sites
            .iter()
            .filter(|s| s.split != HELDOUT)
            .collect::<Vec<_>>()
    };
    let heldout = || {
        sites
            .iter()
            .filter(|s| s.split == HELDOUT)
            .collect::<Vec<_>>()
    };
    match arg {
        "tune" => vec![("tune".to_string(), tune())],
        HELDOUT => vec![(HELDOUT.to_string(), heldout())],
        "all" => vec![
            ("tune".to_string(), tune()),
            (HELDOUT.to_string(), heldout()),
        ],
        name => vec![(
            name.to_string(),
            sites.iter().filter(|s| s.name == name).collect(),
        )],
    }
}

/// The split of the sites labelled and committed before their first run (issue 50).
const HELDOUT: &str = "heldout";

#[derive(Default)]
struct Totals {
    named: usize,
    single: usize,
    people: usize,
    furniture: usize,
    counted: usize,
    local_sites: usize,
    local_hits: usize,
    local_counted: usize,
}

#[tokio::main]
async fn main() -> ExitCode {
    let arg = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tune".to_string());
    let sites_dir = std::env::var_os("KR_REAL_SITES")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join(".eval/realsites"));
    let sites = read_sites();
    let sections = sections(&arg, &sites);
    if sections.iter().all(|(_, chosen)| chosen.is_empty()) {
        // Once measured, a held-out half becomes tune; a new one needs new sites.
        println!(
            "No site in \"{arg}\" (tests/fixtures/real-sites/sites.tsv). shared/research/README.md lists each held-out half's figure at the commit it was measured."
        );
        return ExitCode::SUCCESS;
    }
    // Only the chosen sites and their competitors are read (a tune run needs no held-out site).
    let needed: Vec<&Site> = sites
        .iter()
        .filter(|s| {
            sections.iter().any(|(_, chosen)| {
                chosen
                    .iter()
                    .any(|c| c.name == s.name || c.competitor == s.name)
            })
        })
        .collect();
    let missing: Vec<&str> = needed
        .iter()
        .filter(|s| !sites_dir.join(&s.name).join("index.html").is_file())
        .map(|s| s.name.as_str())
        .collect();
    if !missing.is_empty() {
        eprintln!(
            "offline-bench: {} lacks {} (shared/research/README.md, \"Offline keywords on real sites\", says how to fetch them)",
            sites_dir.display(),
            missing.join(", ")
        );
        return ExitCode::FAILURE;
    }
    let needed: Vec<Site> = needed.into_iter().cloned().collect();
    let root = served_root(&sites_dir, &needed).expect("a folder of links");
    let address = serve_sites("127.0.0.1:0".parse().unwrap(), root.clone())
        .await
        .expect("the sites are served");
    let resolve: Vec<String> = needed
        .iter()
        .map(|s| format!("{0}={address},www.{0}={address}", Site::domain(&s.name)))
        .collect();
    let config = CrawlConfig::from_vars(|name| match name {
        "KR_CRAWL_RESOLVE" => Some(resolve.join(",")),
        "KR_CRAWL_DELAY_MS" => Some(DELAY_MS.to_string()),
        _ => None,
    })
    .expect("a crawl configuration");
    let crawler = Crawler::new(config).expect("a crawler");

    let mut every_keyword = String::new();
    for (label, chosen) in &sections {
        if chosen.is_empty() {
            println!("\n## {label}: no site\n");
            continue;
        }
        println!("\n## {label}\n");
        run_section(&crawler, label, chosen, &mut every_keyword).await;
    }
    if let Some(file) = std::env::var_os("OFFLINE_BENCH_KEYWORDS") {
        std::fs::write(file, every_keyword).expect("the keyword list is written");
    }
    let _ = std::fs::remove_dir_all(&root);
    ExitCode::SUCCESS
}

async fn run_section(crawler: &Crawler, label: &str, chosen: &[&Site], every_keyword: &mut String) {
    let mut totals = Totals::default();
    println!(
        "| site ({label}) | pages | keywords | top {TOP} naming an offering | single words | person names | site furniture | top {LOCAL_TOP}: offering + place |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let mut tables = Vec::new();
    for site in chosen {
        // A site that forbids crawling is no job's site: it is listed, not counted.
        let mut pages = match crawl(crawler, &site.name, SiteRole::Primary).await {
            Ok(pages) => pages,
            Err(error) => {
                println!(
                    "| {} ({}) | not crawled: {error} | | | | | | |",
                    site.name, site.repo
                );
                continue;
            }
        };
        let primary_pages = pages.len();
        // The job's language, as its owner would choose it: the site's own (its pages'
        // `lang`) where it is one the service offers ("zxx" is no language), else the one
        // its text is written in.
        let language = pages
            .iter()
            .filter_map(|page| page.lang.as_deref())
            .map(Language::new)
            .find(|language| kr_core::domain::LanguageCode::parse(language.code()).is_ok())
            .unwrap_or_else(|| language_of_text(&pages));
        let competitor = crawl(crawler, &site.competitor, SiteRole::Competitor(0)).await;
        pages.extend(competitor.unwrap_or_else(|error| panic!("{}: {error}", site.competitor)));
        let input = ResearchInput {
            language: language.clone(),
            brand_terms: site
                .brand
                .iter()
                .cloned()
                .chain([Site::domain(&site.name)])
                .collect(),
            primary_domain: Some(Site::domain(&site.name)),
            competitor_domains: vec![Site::domain(&site.competitor)],
            ..ResearchInput::default()
        };
        let output = research(&pages, &input);
        for keyword in &output.keywords {
            every_keyword.push_str(&format!("{}\t{}\n", site.name, keyword.keyword));
        }
        let mut ranked: Vec<&KeywordRecord> = output.keywords.iter().collect();
        ranked.sort_by(|a, b| {
            b.opportunity_value
                .total_cmp(&a.opportunity_value)
                .then_with(|| a.keyword.cmp(&b.keyword))
        });
        let top: Vec<&KeywordRecord> = ranked.into_iter().take(TOP).collect();
        let count = |test: &dyn Fn(&str) -> bool| top.iter().filter(|k| test(&k.keyword)).count();
        let named = count(&|k| site.names_offering(k));
        let single = count(&|k| k.split_whitespace().count() == 1);
        let people = count(&|k| site.names_person(k));
        let furniture = count(&is_furniture);
        let local = if site.places.is_empty() {
            "-".to_string()
        } else {
            let first = &top[..top.len().min(LOCAL_TOP)];
            let hits = first
                .iter()
                .filter(|k| site.offering_with_place(&k.keyword))
                .count();
            totals.local_sites += 1;
            totals.local_hits += hits;
            totals.local_counted += first.len();
            format!("{hits}/{}", first.len())
        };
        totals.named += named;
        totals.single += single;
        totals.people += people;
        totals.furniture += furniture;
        totals.counted += top.len();
        println!(
            "| {} ({}) | {primary_pages} | {} | {} | {} | {} | {} | {local} |",
            site.name,
            site.repo,
            output.keywords.len(),
            percent(named, top.len()),
            percent(single, top.len()),
            percent(people, top.len()),
            percent(furniture, top.len()),
        );
        tables.push(top_table(site, &top, &language));
    }
    println!(
        "| all | | | {} | {} | {} | {} | {} |",
        percent(totals.named, totals.counted),
        percent(totals.single, totals.counted),
        percent(totals.people, totals.counted),
        percent(totals.furniture, totals.counted),
        if totals.local_sites == 0 {
            "-".to_string()
        } else {
            format!(
                "{}/{} over {} sites",
                totals.local_hits, totals.local_counted, totals.local_sites
            )
        }
    );
    for table in tables {
        println!("\n{table}");
    }
}

fn percent(part: usize, whole: usize) -> String {
    format!(
        "{:.0} % ({part}/{whole})",
        100.0 * part as f64 / whole.max(1) as f64
    )
}

/// The language among those with stop word lists whose stop words the pages' running text
/// uses most ("und", "der", "die" on a German site that declares no `lang`); English on a tie.
fn language_of_text(pages: &[kr_research::PageContent]) -> Language {
    let words: Vec<String> = pages
        .iter()
        .flat_map(|page| page.body_text.split_whitespace())
        .map(|word| {
            word.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    kr_research::text::stop_word_languages()
        .map(|language| {
            let stop_words = kr_research::text::stop_words(&language);
            let used = words
                .iter()
                .filter(|w| stop_words.contains(w.as_str()))
                .count();
            (used, language)
        })
        .fold((0, Language::english()), |best, next| {
            if next.0 > best.0 {
                next
            } else {
                best
            }
        })
        .1
}

fn top_table(site: &Site, top: &[&KeywordRecord], language: &Language) -> String {
    let mut out = format!(
        "{} against {} (job language {}), top {SHOWN} by opportunity value:\n\n| keyword | estimate | intent | source | names an offering |\n|---|---:|---|---|---|\n",
        site.name,
        site.competitor,
        language.code()
    );
    let misses: Vec<&str> = top
        .iter()
        .map(|k| k.keyword.as_str())
        .filter(|k| !site.names_offering(k))
        .collect();
    let misses = format!(
        "\nOf the top {TOP}, naming none of its labelled offerings: {}.\n",
        if misses.is_empty() {
            "none".to_string()
        } else {
            misses.join(", ")
        }
    );
    for keyword in top.iter().take(SHOWN) {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            keyword.keyword,
            keyword
                .search_volume
                .map_or_else(|| "-".to_string(), |v| v.to_string()),
            keyword.intent.as_str(),
            keyword.source.map_or("-", |s| s.as_str()),
            if site.names_offering(&keyword.keyword) {
                "yes"
            } else {
                "no"
            }
        ));
    }
    out.push_str(&misses);
    let people: Vec<&str> = top
        .iter()
        .map(|k| k.keyword.as_str())
        .filter(|k| site.names_person(k))
        .collect();
    let furniture: Vec<&str> = top
        .iter()
        .map(|k| k.keyword.as_str())
        .filter(|k| is_furniture(k))
        .collect();
    if !people.is_empty() {
        out.push_str(&format!(
            "Holding a person's name: {}.\n",
            people.join(", ")
        ));
    }
    if !furniture.is_empty() {
        out.push_str(&format!("Site furniture: {}.\n", furniture.join(", ")));
    }
    out
}
