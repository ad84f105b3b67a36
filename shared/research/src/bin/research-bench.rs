//! Benchmark of the research engine on synthetic crawls.
//!
//! Usage: `research-bench [candidates ...]` (default: 20000 100000). Each size runs in a
//! child process of its own so that the peak memory (VmHWM from /proc/self/status) belongs
//! to that size alone. A crawl of one primary and five competitor sites is generated with
//! Zipf-distributed pseudo-words and stop words, navigation anchors repeated on every page
//! (boilerplate), and grown until discovery yields about the requested number of distinct
//! candidates. The timed run then puts every candidate (untruncated) through discovery,
//! metric estimates, intent, scores, clusters, personas and cluster aggregates; then the offline
//! selection (queries naming the primary site's offerings, completions, ideas) is timed on the
//! same crawl, as the discovery of a job without a data provider adds it.

use std::env;
use std::fs;
use std::process::{Command, ExitCode};
use std::time::Instant;

use kr_research::discovery::discover_all;
use kr_research::discovery::MAX_KEYWORDS_LIMIT;
use kr_research::metrics::estimate_all;
use kr_research::offline::offline_keywords;
use kr_research::personas::OfflinePersonaGenerator;
use kr_research::research::{assemble, Measured, ResearchInput};
use kr_research::text::Language;
use kr_research::{PageContent, SiteRole};

const SITES: usize = 6;
const VOCABULARY: usize = 6000;
const CONCEPTS: usize = 2_000;
const STOP_WORDS: [&str; 12] = [
    "the", "of", "and", "for", "with", "a", "in", "to", "our", "your", "on", "is",
];
const MODIFIERS: [&str; 10] = [
    "best",
    "cheap",
    "buy",
    "price",
    "review",
    "near me",
    "for business",
    "how to",
    "free",
    "vs",
];

fn main() -> ExitCode {
    let sizes: Vec<usize> = env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    match sizes.as_slice() {
        [] => run_children(&[20_000, 100_000]),
        [size] => {
            bench(*size);
            ExitCode::SUCCESS
        }
        many => run_children(many),
    }
}

fn run_children(sizes: &[usize]) -> ExitCode {
    let exe = match env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            eprintln!("research-bench: cannot find itself: {e}");
            return ExitCode::FAILURE;
        }
    };
    for size in sizes {
        match Command::new(&exe).arg(size.to_string()).status() {
            Ok(status) if status.success() => {}
            Ok(status) => {
                eprintln!("research-bench: size {size} failed: {status}");
                return ExitCode::FAILURE;
            }
            Err(e) => {
                eprintln!("research-bench: cannot run {}: {e}", exe.display());
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

fn bench(target: usize) {
    let language = Language::english();
    // Calibrate the crawl size (untimed): candidates grow about linearly with pages.
    let mut pages_count = (target / 60).max(SITES);
    let mut pages = generate(pages_count);
    for _ in 0..4 {
        let found = discover_all(&pages, &language).len();
        let ratio = target as f64 / found.max(1) as f64;
        if (ratio - 1.0).abs() < 0.03 {
            break;
        }
        pages_count = ((pages_count as f64 * ratio).round() as usize).max(SITES);
        pages = generate(pages_count);
    }
    let text_bytes: usize = pages.iter().map(text_size).sum();
    // The calibration runs must not count towards the peak: reset VmHWM (Linux ≥ 4.0).
    let reset = fs::write("/proc/self/clear_refs", "5").is_ok();
    let started = Instant::now();
    let candidates = discover_all(&pages, &language);
    let discovery = started.elapsed().as_secs_f64();
    let metrics = estimate_all(&candidates, &language);
    let estimate = started.elapsed().as_secs_f64() - discovery;
    let input = ResearchInput {
        brand_terms: vec!["site0.example".to_string()],
        ..ResearchInput::default()
    };
    let measured: Vec<Measured> = metrics.into_iter().map(Measured::estimated).collect();
    let output = assemble(&candidates, &measured, &input, &OfflinePersonaGenerator);
    let total = started.elapsed().as_secs_f64();
    let later = total - discovery - estimate;
    // What a job without a provider runs instead of discovery alone: the same discovery, then
    // the selection of queries that name the primary site's offerings, and ideas.
    let selection_started = Instant::now();
    let offline = offline_keywords(&pages, &language, MAX_KEYWORDS_LIMIT);
    let selection = selection_started.elapsed().as_secs_f64() - discovery;

    println!(
        "candidates {:>7} (target {target}) | pages {pages_count} | text {:.1} MB | clusters {} | personas {}",
        candidates.len(),
        text_bytes as f64 / 1e6,
        output.clusters.len(),
        output.personas.len()
    );
    println!(
        "  discovery {discovery:.2} s + metrics {estimate:.2} s + intent/scores/clusters/personas {later:.2} s = {total:.2} s; peak memory {}{}",
        peak_memory(),
        if reset { "" } else { " (includes calibration)" }
    );
    println!(
        "  offline selection (topic, completion, ideas) {selection:.2} s more, {} kept: {:.2} s with it",
        offline.len(),
        total + selection
    );
}

/// Bytes of text in all fields of a page.
fn text_size(page: &PageContent) -> usize {
    let lists = [
        &page.headings,
        &page.anchors,
        &page.image_alts,
        &page.json_ld_names,
    ];
    page.title.len()
        + page.meta_description.len()
        + page.body_text.len()
        + lists
            .iter()
            .flat_map(|list| list.iter())
            .map(String::len)
            .sum::<usize>()
}

/// VmHWM of this process, as the kernel reports it.
fn peak_memory() -> String {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|line| line.starts_with("VmHWM:"))
                .map(|line| line["VmHWM:".len()..].trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string())
}

/// Deterministic pages. Sentences are made of *concepts* (1 to 3 pseudo-words, drawn from
/// a pool with Zipf frequencies, sometimes with a search modifier such as "best" or "near
/// me") joined by stop words, so that phrases repeat across pages and sites as in real
/// text. Each site repeats its navigation anchors on every page (boilerplate).
fn generate(page_count: usize) -> Vec<PageContent> {
    let mut rng = Rng(42);
    let words: Vec<String> = (0..VOCABULARY).map(pseudo_word).collect();
    let word_zipf = Zipf::new(VOCABULARY);
    let concepts: Vec<String> = (0..CONCEPTS)
        .map(|_| {
            let len = 1 + rng.below(3);
            let parts: Vec<&str> = (0..len)
                .map(|_| words[word_zipf.sample(&mut rng)].as_str())
                .collect();
            parts.join(" ")
        })
        .collect();
    let concept_zipf = Zipf::new(CONCEPTS);
    let phrase = |rng: &mut Rng, min: usize, max: usize| {
        let count = min + rng.below(max - min + 1);
        let mut out: Vec<&str> = Vec::with_capacity(count * 2);
        for position in 0..count {
            if position > 0 {
                out.push(STOP_WORDS[rng.below(STOP_WORDS.len())]);
            }
            if rng.below(10) == 0 {
                out.push(MODIFIERS[rng.below(MODIFIERS.len())]);
            }
            out.push(&concepts[concept_zipf.sample(rng)]);
        }
        out.join(" ")
    };
    let navigation: Vec<Vec<String>> = (0..SITES)
        .map(|_| (0..8).map(|_| phrase(&mut rng, 1, 1)).collect())
        .collect();
    (0..page_count)
        .map(|index| {
            let site = index % SITES;
            let sentences: Vec<String> = (0..40).map(|_| phrase(&mut rng, 2, 5)).collect();
            PageContent {
                url: format!("https://site{site}.example/page-{index}"),
                site: Some(if site == 0 {
                    SiteRole::Primary
                } else {
                    SiteRole::Competitor(site - 1)
                }),
                title: phrase(&mut rng, 1, 2),
                meta_description: phrase(&mut rng, 2, 4),
                headings: (0..4).map(|_| phrase(&mut rng, 1, 2)).collect(),
                body_text: sentences.join(". "),
                anchors: navigation[site].clone(),
                image_alts: (0..2).map(|_| phrase(&mut rng, 1, 2)).collect(),
                json_ld_names: vec![phrase(&mut rng, 1, 1)],
                json_ld_places: Vec::new(),
                map_addresses: Vec::new(),
                lang: Some("en".to_string()),
                categories: Vec::new(),
                headed_links: Vec::new(),
                sells: false,
                fine_print_anchors: Vec::new(),
            }
        })
        .collect()
}

fn pseudo_word(index: usize) -> String {
    const SYLLABLES: [&str; 20] = [
        "ka", "lo", "mi", "ten", "ra", "su", "bel", "do", "vi", "nor", "pa", "gre", "to", "lan",
        "shi", "mu", "ver", "ko", "da", "rin",
    ];
    let mut n = index + SYLLABLES.len();
    let mut word = String::new();
    while n > 0 {
        word.push_str(SYLLABLES[n % SYLLABLES.len()]);
        n /= SYLLABLES.len();
    }
    word
}

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Word ranks with probability ∝ 1 / rank, as in natural text.
struct Zipf {
    cumulative: Vec<f64>,
}

impl Zipf {
    fn new(n: usize) -> Self {
        let mut total = 0.0;
        let cumulative = (1..=n)
            .map(|rank| {
                total += 1.0 / rank as f64;
                total
            })
            .collect();
        Zipf { cumulative }
    }

    fn sample(&self, rng: &mut Rng) -> usize {
        let target = rng.unit() * self.cumulative.last().copied().unwrap_or(0.0);
        self.cumulative
            .partition_point(|&c| c < target)
            .min(self.cumulative.len() - 1)
    }
}
