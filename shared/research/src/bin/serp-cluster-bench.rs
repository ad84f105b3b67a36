//! Benchmark of SERP-overlap clustering ([`cluster_by_serp`]) on synthetic search results.
//!
//! Usage: `serp-cluster-bench [keywords] [runs]` (default: 30000 keywords, 7 runs). Prints the
//! shape of the data, the clusters found and the minimum and median time of the runs, on one
//! thread (the clustering is single-threaded).
//!
//! The data imitates a job's SERPs, from a fixed seed so every run sees the same input:
//!
//! - keywords come in topics of log-uniform size 1 to 60 (many small topics, a few big ones),
//!   named from pseudo-words with modifiers, so the lexical fallback has real words to work on;
//! - each topic has 15 pages of its own; about 6 of a keyword's 10 results come from them,
//!   the first pages far more often than the last, so related keywords share most results;
//! - about 2 results come from 500 pages that appear across topics (encyclopedia, video and
//!   shopping pages), with log-uniform popularity: the most common is in about a fifth of
//!   all SERPs;
//! - the rest are pages seen in that SERP alone;
//! - URLs come with and without "www.", scheme variants and trailing slashes, as providers
//!   return them, so normalisation is part of the measured work.

use std::collections::HashMap;
use std::env;
use std::time::{Duration, Instant};

use kr_research::clusters::{
    cluster_by_serp, normalize_url, SerpClusterConfig, SerpClusterInput, SERP_DEPTH,
};

const TOPIC_PAGES: u64 = 15;
const COMMON_PAGES: u64 = 500;
const MAX_TOPIC_SIZE: f64 = 60.0;
const MODIFIERS: [&str; 12] = [
    "best", "cheap", "buy", "review", "near me", "how to", "free", "online", "for kids", "2024",
    "vs", "guide",
];
const SYLLABLES: [&str; 16] = [
    "ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ber", "dan", "gol", "pir", "shu", "tek",
    "zor", "wen",
];

/// xorshift64*: small, fast and the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// 0..bound, log-uniform: 0 most likely, each larger value less so.
    fn skewed(&mut self, bound: u64) -> u64 {
        ((bound as f64).powf(self.unit()) as u64 - 1).min(bound - 1)
    }
}

fn word(mut n: u64) -> String {
    let mut word = String::new();
    loop {
        word.push_str(SYLLABLES[(n % 16) as usize]);
        n /= 16;
        if n == 0 {
            return word;
        }
    }
}

/// How a provider might spell the URL of a page on `site`.
fn url(rng: &mut Rng, site: &str, path: &str) -> String {
    let (scheme, www, slash) = (rng.below(8), rng.below(3) == 0, rng.below(2) == 0);
    format!(
        "{}{}{site}/{path}{}",
        if scheme == 0 { "http://" } else { "https://" },
        if www { "www." } else { "" },
        if slash { "/" } else { "" }
    )
}

fn generate(count: usize) -> Vec<SerpClusterInput> {
    let mut rng = Rng(0x5EED_CAFE_F00D_0001);
    let mut items = Vec::with_capacity(count);
    let mut topic = 0u64;
    while items.len() < count {
        let size = (MAX_TOPIC_SIZE.powf(rng.unit()) as usize).max(1);
        let (head, qualifier) = (word(topic * 3 + 1000), word(topic * 7 + 5));
        for variant in 0..size.min(count - items.len()) {
            let mut urls: Vec<String> = Vec::with_capacity(SERP_DEPTH);
            while urls.len() < SERP_DEPTH {
                let roll = rng.below(10);
                let candidate = if roll < 6 {
                    let page = rng.skewed(TOPIC_PAGES);
                    url(&mut rng, &format!("{head}-{page}.com"), &qualifier)
                } else if roll < 8 {
                    let page = rng.skewed(COMMON_PAGES);
                    let site = ["wikipedia.org", "youtube.com", "amazon.com", "reddit.com"];
                    url(&mut rng, site[(page % 4) as usize], &format!("p/{page}"))
                } else {
                    let page = rng.next();
                    url(
                        &mut rng,
                        &format!("s{}.net", page % 100_000),
                        &page.to_string(),
                    )
                };
                let key = normalize_url(&candidate);
                if !urls.iter().any(|u| normalize_url(u) == key) {
                    urls.push(candidate);
                }
            }
            let modifier = MODIFIERS[(rng.below(MODIFIERS.len() as u64)) as usize];
            let keyword = match variant % 3 {
                0 => format!("{qualifier} {head}"),
                1 => format!("{modifier} {qualifier} {head}"),
                _ => format!("{head} {modifier} {}", word(rng.below(4000))),
            };
            let volume = (10.0 * 10_000f64.powf(rng.unit())).round();
            items.push(SerpClusterInput {
                keyword: format!("{keyword} {variant}"),
                volume,
                lexical_value: volume,
                serp_urls: Some(urls),
            });
        }
        topic += 1;
    }
    items
}

/// The share of SERPs that the most common URL appears in.
fn most_common_share(items: &[SerpClusterInput]) -> f64 {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for urls in items.iter().filter_map(|i| i.serp_urls.as_ref()) {
        for url in urls {
            *counts.entry(normalize_url(url)).or_default() += 1;
        }
    }
    let top = counts.values().max().copied().unwrap_or(0);
    top as f64 / items.len().max(1) as f64
}

fn main() {
    let mut args = env::args().skip(1).filter_map(|a| a.parse::<usize>().ok());
    let count = args.next().unwrap_or(30_000);
    let runs = args.next().unwrap_or(7).max(1);
    let items = generate(count);
    let config = SerpClusterConfig::default();

    let mut times: Vec<Duration> = Vec::with_capacity(runs);
    let mut clusters = Vec::new();
    for _ in 0..runs {
        let started = Instant::now();
        clusters = cluster_by_serp(&items, &config);
        times.push(started.elapsed());
    }
    times.sort();

    let members: usize = clusters.iter().map(|c| c.members.len()).sum();
    assert_eq!(members, items.len(), "every keyword in exactly one cluster");
    let grouped: usize = clusters
        .iter()
        .filter(|c| c.members.len() > 1)
        .map(|c| c.members.len())
        .sum();
    let largest = clusters.iter().map(|c| c.members.len()).max().unwrap_or(0);
    println!(
        "keywords {} x {SERP_DEPTH} urls (most common url in {:.0}% of SERPs) | overlap {}",
        items.len(),
        100.0 * most_common_share(&items),
        config.overlap,
    );
    println!(
        "  clusters {} | keywords in clusters of 2+ {grouped} | largest {largest}",
        clusters.len()
    );
    println!(
        "  cluster_by_serp, 1 thread, {runs} runs: min {:.3} s, median {:.3} s (target < 5 s)",
        times[0].as_secs_f64(),
        times[runs / 2].as_secs_f64()
    );
}
