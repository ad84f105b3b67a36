//! Past the SERP budget: a job with SERPs for some of its keywords only. The keywords without
//! one are grouped by their words, and those that are close variants of a SERP-clustered
//! keyword join its cluster ([`cluster_by_serp`]). Simulated on each dev SERP set by hiding the
//! SERPs of one half and scoring, against the hidden SERPs, every pair that holds a keyword of
//! that half, beside the lexical clustering of that half on its own (what the half got before
//! close variants joined SERP clusters).

use kr_research::clusters::{
    cluster, cluster_by_serp, ClusterConfig, SerpClusterConfig, SerpClusterInput,
};

use super::{halves, inputs, labels, pairs, ratio, DevSet};

/// Pairs holding a keyword of the half without SERPs, and how many the SERPs confirm.
#[derive(Default, Clone, Copy)]
struct Tally {
    pairs: usize,
    confirmed: usize,
    grouped: usize,
    keywords: usize,
    /// For reference: the pairs of keywords with SERPs that the SERP clusters hold, confirmed.
    serp_pairs: usize,
    serp_confirmed: usize,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.pairs += other.pairs;
        self.confirmed += other.confirmed;
        self.grouped += other.grouped;
        self.keywords += other.keywords;
        self.serp_pairs += other.serp_pairs;
        self.serp_confirmed += other.serp_confirmed;
    }

    fn row(&self, set: &str, half: &str, rule: &str) {
        println!(
            "{:<36} {:>5} {:<18} {:>8} {:>7.1}% {:>6} {:>9} {:>16}",
            set,
            half,
            rule,
            self.keywords,
            100.0 * self.grouped as f64 / self.keywords.max(1) as f64,
            self.pairs,
            share(self.confirmed, self.pairs),
            if self.serp_pairs > 0 {
                format!(
                    "{} ({})",
                    share(self.serp_confirmed, self.serp_pairs),
                    self.serp_pairs
                )
            } else {
                "-".to_string()
            },
        );
    }
}

fn share(part: usize, whole: usize) -> String {
    ratio((whole > 0).then(|| part as f64 / whole as f64))
}

/// `which` names the sets in the title and the pooled rows ("dev", "held-out").
pub fn report(sets: &[DevSet], which: &str) {
    println!();
    println!("## Past the SERP budget: one half's SERPs hidden ({which} SERP sets)");
    println!("half = the keywords without a SERP; pairs = pairs holding one of them, precision");
    println!("  against the hidden SERPs; grouped = those keywords in a cluster of 2 or more.");
    println!("  words only: the half clustered by itself (before close variants joined SERP");
    println!("  clusters); SERP + variants: cluster_by_serp. serp pairs: for reference, the");
    println!("  precision (and number) of the pairs of keywords with SERPs in one SERP cluster");
    println!(
        "{:<36} {:>5} {:<18} {:>8} {:>8} {:>6} {:>9} {:>16}",
        "set", "half", "rule", "keywords", "grouped", "pairs", "precision", "serp pairs"
    );
    let mut pooled = [[Tally::default(); 2]; 2];
    for set in sets {
        let Some(urls) = &set.urls else { continue };
        let url_sets = pairs::url_sets(urls);
        for (h, (half, hidden)) in halves(set).into_iter().enumerate() {
            let alone = words_only(set, &hidden, &url_sets);
            let joined = with_serp_clusters(set, urls, &hidden, &url_sets);
            alone.row(&set.name, half, "words only");
            joined.row(&set.name, half, "SERP + variants");
            pooled[h][0].add(alone);
            pooled[h][1].add(joined);
        }
    }
    for (h, half) in ["tune", "check"].into_iter().enumerate() {
        let label = format!("{which} pooled");
        pooled[h][0].row(&label, half, "words only");
        pooled[h][1].row(&label, half, "SERP + variants");
    }
}

/// The hidden half clustered by its words alone.
fn words_only(set: &DevSet, hidden: &[usize], url_sets: &[Vec<String>]) -> Tally {
    let all = inputs(set);
    let input: Vec<_> = hidden.iter().map(|&i| all[i].clone()).collect();
    let local = labels(&cluster(&input, &ClusterConfig::default()), input.len());
    // Labels by the set's own indexes; keywords with SERPs are each a group of their own.
    let mut ours: Vec<usize> = (0..set.keywords.len()).map(|i| i + input.len()).collect();
    for (position, &item) in hidden.iter().enumerate() {
        ours[item] = local[position];
    }
    tally(&ours, hidden, url_sets)
}

/// The whole set through [`cluster_by_serp`] with the hidden half's SERPs left out.
fn with_serp_clusters(
    set: &DevSet,
    urls: &[Vec<String>],
    hidden: &[usize],
    url_sets: &[Vec<String>],
) -> Tally {
    let without = mask(set.keywords.len(), hidden);
    let input: Vec<SerpClusterInput> = set
        .keywords
        .iter()
        .zip(urls)
        .enumerate()
        .map(|(i, (keyword, urls))| SerpClusterInput {
            keyword: keyword.clone(),
            volume: 0.0,
            lexical_value: 0.0,
            serp_urls: (!without[i]).then(|| urls.clone()),
        })
        .collect();
    let clusters = cluster_by_serp(&input, &SerpClusterConfig::default());
    let ours = labels(&clusters, input.len());
    let shown: Vec<usize> = (0..ours.len()).filter(|&i| !without[i]).collect();
    let serp_own = pairs::against_serps(&ours, url_sets, &shown);
    Tally {
        serp_pairs: serp_own.pairs,
        serp_confirmed: serp_own.confirmed,
        ..tally(&ours, hidden, url_sets)
    }
}

fn tally(ours: &[usize], hidden: &[usize], url_sets: &[Vec<String>]) -> Tally {
    let is_hidden = mask(ours.len(), hidden);
    let all: Vec<usize> = (0..ours.len()).collect();
    let held: Vec<(usize, usize)> = pairs::together(ours, &all)
        .into_iter()
        .filter(|&(a, b)| is_hidden[a] || is_hidden[b])
        .collect();
    Tally {
        pairs: held.len(),
        confirmed: held
            .iter()
            .filter(|&&(a, b)| pairs::serp_agrees(url_sets, a, b))
            .count(),
        grouped: pairs::grouped_count(ours, hidden),
        keywords: hidden.len(),
        serp_pairs: 0,
        serp_confirmed: 0,
    }
}

/// `true` at each of `items`, of `len` places.
fn mask(len: usize, items: &[usize]) -> Vec<bool> {
    let mut marked = vec![false; len];
    for &i in items {
        marked[i] = true;
    }
    marked
}
