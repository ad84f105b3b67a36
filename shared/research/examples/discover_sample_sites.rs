//! Prints the top discovery candidates for the sample sites in `tests/fixtures/sites`, the
//! pages extracted by the crawler's own extractor, to judge discovery by eye.
//!
//! Usage: `cargo run -p kr-research --example discover_sample_sites [-- PRIMARY [COMPETITOR...] [--top N] [--research]]`
//! (default: brightbrew-coffee.com against roastrivals.com, top 30). `--research` runs the
//! whole offline research instead and prints the top keywords with intent, cluster and
//! persona, the largest clusters and the personas.

use std::path::{Path, PathBuf};
use std::{env, fs};

use kr_crawler::{extract_page, PageContent, SiteRole};
use kr_research::discovery::{discover, DiscoveryConfig};
use kr_research::research::{research, ResearchInput};
use kr_research::text::Language;

fn html_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            html_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "html") {
            out.push(path);
        }
    }
}

fn main() {
    let mut args: Vec<String> = env::args().skip(1).collect();
    let mut top = 30;
    let full = args.iter().any(|a| a == "--research");
    args.retain(|a| a != "--research");
    if let Some(i) = args.iter().position(|a| a == "--top") {
        top = args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(top);
        args.drain(i..(i + 2).min(args.len()));
    }
    if args.is_empty() {
        args = vec!["brightbrew-coffee.com".into(), "roastrivals.com".into()];
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/sites");
    let mut pages: Vec<PageContent> = Vec::new();
    for (index, domain) in args.iter().enumerate() {
        let site_root = root.join(domain);
        let mut files = Vec::new();
        html_files(&site_root, &mut files);
        for file in files {
            let relative = file.strip_prefix(&site_root).unwrap_or(&file);
            let url = format!("https://{domain}/{}", relative.display());
            let Ok(url) = url.parse() else { continue };
            let html = fs::read_to_string(&file).unwrap_or_default();
            let mut page = extract_page(&html, &url).content;
            page.site = Some(if index == 0 {
                SiteRole::Primary
            } else {
                SiteRole::Competitor(index - 1)
            });
            pages.push(page);
        }
    }
    println!("{} pages", pages.len());
    if full {
        print_research(&pages, &args, top);
        return;
    }
    let found = discover(&pages, &DiscoveryConfig::new(Language::english(), top));
    for (rank, c) in found.iter().enumerate() {
        println!(
            "{:>3} {:<40} {:>7.2} primary {:>3} competitors {:>3} sites {}",
            rank + 1,
            c.keyword,
            c.score,
            c.primary_occurrences,
            c.competitor_occurrences,
            c.site_count
        );
    }
}

fn print_research(pages: &[PageContent], domains: &[String], top: usize) {
    let input = ResearchInput {
        brand_terms: domains.to_vec(),
        primary_domain: domains.first().cloned(),
        competitor_domains: domains.iter().skip(1).cloned().collect(),
        ..ResearchInput::default()
    };
    let output = research(pages, &input);
    let site = kr_research::personas::SiteProfile::from_pages(pages, &input.language);
    println!("places {:?}\nofferings {:?}", site.places, site.offerings);
    println!(
        "{} keywords, {} clusters",
        output.keywords.len(),
        output.clusters.len()
    );
    for k in output.keywords.iter().take(top) {
        let secondary: Vec<&str> = k.secondary_intents.iter().map(|i| i.as_str()).collect();
        println!(
            "{:<40} {:<13} {:<13} {:<32} {}",
            k.keyword,
            k.intent.as_str(),
            secondary.join(","),
            k.cluster_name,
            k.persona_avatar_name.as_deref().unwrap_or("-")
        );
    }
    let mut clusters: Vec<_> = output.clusters.iter().collect();
    clusters.sort_by_key(|c| std::cmp::Reverse(c.keyword_count));
    println!("largest clusters:");
    for c in clusters.iter().take(10) {
        println!("  {:>4} {}", c.keyword_count, c.name);
    }
    println!("content plan (largest topics):");
    let by_id: std::collections::HashMap<&str, &kr_research::research::ClusterRecord> =
        output.clusters.iter().map(|c| (c.id.as_str(), c)).collect();
    let mut actions = std::collections::BTreeMap::new();
    for c in &output.clusters {
        *actions.entry(format!("{:?}", c.action)).or_insert(0) += 1;
    }
    println!("  actions: {actions:?}, {} topics", output.topics.len());
    let mut topics: Vec<_> = output.topics.iter().collect();
    topics.sort_by_key(|t| std::cmp::Reverse(t.cluster_count));
    for topic in topics.iter().take(top) {
        println!("  {} ({} clusters)", topic.name, topic.cluster_count);
        for id in &topic.cluster_ids {
            let c = by_id[id.as_str()];
            println!(
                "    {:<40} {:<12} {} {:?}",
                c.name,
                c.action.map_or("-", |a| a.as_str()),
                c.target_url.as_deref().unwrap_or("-"),
                c.cannibalizing_urls
            );
        }
    }
    println!("personas:");
    for p in &output.personas {
        println!(
            "  {} ({} keywords): {}",
            p.avatar_name, p.keyword_count, p.description
        );
    }
}
