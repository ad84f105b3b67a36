//! Offline keywords on real small-business websites (issue 23): each site of
//! `tests/fixtures/real-sites/sites.tsv` is served on loopback, crawled with a competitor from
//! another trade, and researched without a data provider. Per site, of the top 50 keywords by
//! opportunity value: the share that name one of the site's offerings (its labelled terms, or
//! its brand) and the share that are single words; then the top 10.
//!
//! Run through `.ci/bench offline [tune|check|all|SITE]` (default: check, the held-out half;
//! a site's name runs that site alone). `OFFLINE_BENCH_KEYWORDS=<file>` also writes every
//! keyword of every site there (site, tab, keyword), to compare two versions of the rules.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use kr_crawler::{CrawlConfig, Crawler, SiteRole};
use kr_research::research::{research, KeywordRecord, ResearchInput};
use kr_research::text::Language;
use kr_tests::sites::serve_sites;
use kr_tests::template::workspace_root;

const TOP: usize = 50;
const SHOWN: usize = 10;
/// Politeness of a loopback server: the default 250 ms between requests only slows the bench.
const DELAY_MS: &str = "10";

struct Site {
    name: String,
    repo: String,
    split: String,
    competitor: String,
    brand: Vec<String>,
    terms: Vec<String>,
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
}

fn read_sites() -> Vec<Site> {
    let path = workspace_root().join("tests/fixtures/real-sites/sites.tsv");
    let text = std::fs::read_to_string(&path).expect("the real sites' labels");
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 8, "{}: {line}", path.display());
            let list = |field: &str| field.split(',').map(str::to_string).collect::<Vec<_>>();
            Site {
                name: fields[0].to_string(),
                repo: fields[1].to_string(),
                split: fields[4].to_string(),
                competitor: fields[5].to_string(),
                brand: vec![fields[6].to_string()],
                terms: list(fields[7]),
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

async fn crawl(crawler: &Crawler, name: &str, role: SiteRole) -> Vec<kr_research::PageContent> {
    let max_pages = match role {
        SiteRole::Primary => crawler.config().max_pages_primary,
        SiteRole::Competitor(_) => crawler.config().max_pages_competitor,
    };
    match crawler
        .crawl_site(&Site::domain(name), role, max_pages, &|_| {})
        .await
    {
        Ok(crawl) => crawl.pages,
        Err(error) => panic!("{name}: {error}"),
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let split = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "check".to_string());
    let sites_dir = std::env::var_os("KR_REAL_SITES")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join(".eval/realsites"));
    let sites = read_sites();
    let chosen = |s: &&Site| split == "all" || s.split == split || s.name == split;
    if !sites.iter().any(|s| chosen(&s)) {
        // Once measured, a held-out half becomes tune; a new one needs new sites.
        println!(
            "No site in \"{split}\" (tests/fixtures/real-sites/sites.tsv). shared/research/README.md lists each held-out half's figure at the commit it was measured."
        );
        return ExitCode::SUCCESS;
    }
    let missing: Vec<&str> = sites
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
    let root = served_root(&sites_dir, &sites).expect("a folder of links");
    let address = serve_sites("127.0.0.1:0".parse().unwrap(), root.clone())
        .await
        .expect("the sites are served");
    let resolve: Vec<String> = sites
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

    let mut named_total = 0;
    let mut single_total = 0;
    let mut counted = 0;
    println!("| site ({split}) | pages | keywords | top {TOP} naming an offering | single words |");
    println!("|---|---:|---:|---:|---:|");
    let mut tables = Vec::new();
    let mut every_keyword = String::new();
    for site in sites.iter().filter(chosen) {
        let mut pages = crawl(&crawler, &site.name, SiteRole::Primary).await;
        let primary_pages = pages.len();
        pages.extend(crawl(&crawler, &site.competitor, SiteRole::Competitor(0)).await);
        let input = ResearchInput {
            language: Language::english(),
            brand_terms: vec![site.brand[0].clone(), Site::domain(&site.name)],
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
        let named = top
            .iter()
            .filter(|k| site.names_offering(&k.keyword))
            .count();
        let single = top
            .iter()
            .filter(|k| k.keyword.split_whitespace().count() == 1)
            .count();
        named_total += named;
        single_total += single;
        counted += top.len();
        println!(
            "| {} ({}) | {primary_pages} | {} | {} | {} |",
            site.name,
            site.repo,
            output.keywords.len(),
            percent(named, top.len()),
            percent(single, top.len())
        );
        tables.push(top_table(site, &top));
    }
    println!(
        "| all | | | {} | {} |",
        percent(named_total, counted),
        percent(single_total, counted)
    );
    for table in tables {
        println!("\n{table}");
    }
    if let Some(file) = std::env::var_os("OFFLINE_BENCH_KEYWORDS") {
        std::fs::write(file, every_keyword).expect("the keyword list is written");
    }
    let _ = std::fs::remove_dir_all(&root);
    ExitCode::SUCCESS
}

fn percent(part: usize, whole: usize) -> String {
    format!(
        "{:.0} % ({part}/{whole})",
        100.0 * part as f64 / whole.max(1) as f64
    )
}

fn top_table(site: &Site, top: &[&KeywordRecord]) -> String {
    let mut out = format!(
        "{} against {}, top {SHOWN} by opportunity value:\n\n| keyword | estimate | intent | source | names an offering |\n|---|---:|---|---|---|\n",
        site.name, site.competitor
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
    out
}
