//! Pairwise figures of a partition: which pairs it puts together, and how many of those a
//! criterion confirms (two keywords' top 10 share 3 URLs, or Ahrefs gives them one Parent
//! Keyword).

use std::collections::HashMap;

use kr_research::clusters::{normalize_url, DEFAULT_SERP_OVERLAP, SERP_DEPTH};

/// Every unordered pair of `part`'s items that `labels` puts in one group.
pub fn together(labels: &[usize], part: &[usize]) -> Vec<(usize, usize)> {
    let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
    for &i in part {
        groups.entry(labels[i]).or_default().push(i);
    }
    let mut pairs = Vec::new();
    for members in groups.values() {
        for (x, &a) in members.iter().enumerate() {
            for &b in &members[x + 1..] {
                pairs.push((a.min(b), a.max(b)));
            }
        }
    }
    pairs
}

/// Pairs of `part` in one group of `labels`, without listing them.
pub fn count_together(labels: &[usize], part: &[usize]) -> usize {
    let mut sizes: HashMap<usize, usize> = HashMap::new();
    for &i in part {
        *sizes.entry(labels[i]).or_default() += 1;
    }
    sizes.values().map(|&n| n * (n - 1) / 2).sum()
}

/// How many of `part` are in a group of `labels` (made on the whole set) with two members or
/// more.
pub fn grouped_count(labels: &[usize], part: &[usize]) -> usize {
    let mut sizes: HashMap<usize, usize> = HashMap::new();
    for &label in labels {
        *sizes.entry(label).or_default() += 1;
    }
    part.iter().filter(|&&i| sizes[&labels[i]] >= 2).count()
}

/// [`grouped_count`] as a share of `part`.
pub fn grouped_share(labels: &[usize], part: &[usize]) -> f64 {
    grouped_count(labels, part) as f64 / part.len().max(1) as f64
}

/// Each keyword's top-10 URLs, normalised as the SERP clustering compares them, sorted.
pub fn url_sets(urls: &[Vec<String>]) -> Vec<Vec<String>> {
    urls.iter()
        .map(|list| {
            let mut set: Vec<String> = list
                .iter()
                .take(SERP_DEPTH)
                .map(|u| normalize_url(u))
                .filter(|u| !u.is_empty())
                .collect();
            set.sort_unstable();
            set.dedup();
            set
        })
        .collect()
}

/// Whether two keywords' SERPs (from [`url_sets`]) share [`DEFAULT_SERP_OVERLAP`] URLs.
pub fn serp_agrees(sets: &[Vec<String>], a: usize, b: usize) -> bool {
    let other = &sets[b];
    sets[a]
        .iter()
        .filter(|u| other.binary_search(u).is_ok())
        .count()
        >= DEFAULT_SERP_OVERLAP
}

/// Pairwise figures of one half.
pub struct PairScore {
    /// Pairs the partition puts together.
    pub pairs: usize,
    /// Of those, the ones the criterion confirms.
    pub confirmed: usize,
    /// Pairs the criterion confirms among all pairs of the half (for recall), when counted.
    pub reference_pairs: Option<usize>,
}

impl PairScore {
    /// `None` when the partition puts no pair together.
    pub fn precision(&self) -> Option<f64> {
        (self.pairs > 0).then(|| self.confirmed as f64 / self.pairs as f64)
    }

    pub fn recall(&self) -> Option<f64> {
        self.reference_pairs
            .filter(|&n| n > 0)
            .map(|n| self.confirmed as f64 / n as f64)
    }
}

/// Our pairs in `part` against the SERP criterion.
pub fn against_serps(ours: &[usize], sets: &[Vec<String>], part: &[usize]) -> PairScore {
    let pairs = together(ours, part);
    let confirmed = pairs
        .iter()
        .filter(|&&(a, b)| serp_agrees(sets, a, b))
        .count();
    PairScore {
        pairs: pairs.len(),
        confirmed,
        reference_pairs: None,
    }
}

/// Our pairs in `part` against a reference partition (Parent Keyword), with recall.
pub fn against_labels(ours: &[usize], reference: &[usize], part: &[usize]) -> PairScore {
    let pairs = together(ours, part);
    let confirmed = pairs
        .iter()
        .filter(|&&(a, b)| reference[a] == reference[b])
        .count();
    PairScore {
        pairs: pairs.len(),
        confirmed,
        reference_pairs: Some(count_together(reference, part)),
    }
}

/// Share of all pairs of `part` that share 3 URLs: the precision of grouping at random.
pub fn serp_base_rate(sets: &[Vec<String>], part: &[usize]) -> f64 {
    let (agree, all) = serp_agreeing_pairs(sets, part);
    agree as f64 / all.max(1) as f64
}

/// Of all pairs of `part`, how many share 3 URLs, and how many there are.
pub fn serp_agreeing_pairs(sets: &[Vec<String>], part: &[usize]) -> (usize, usize) {
    let (mut all, mut agree) = (0usize, 0usize);
    for (x, &a) in part.iter().enumerate() {
        for &b in &part[x + 1..] {
            all += 1;
            agree += usize::from(serp_agrees(sets, a, b));
        }
    }
    (agree, all)
}

/// The 95 % Wilson score interval of a precision of `confirmed` in `pairs`, or `None` without
/// pairs. It takes the pairs as independent draws; pairs of one cluster are not, so the true
/// interval is wider still: this is how little a small set can tell, at the least.
pub fn wilson_interval(confirmed: usize, pairs: usize) -> Option<(f64, f64)> {
    const Z: f64 = 1.959_964;
    if pairs == 0 {
        return None;
    }
    let n = pairs as f64;
    let p = confirmed as f64 / n;
    let shrink = 1.0 + Z * Z / n;
    let centre = (p + Z * Z / (2.0 * n)) / shrink;
    let spread = Z * (p * (1.0 - p) / n + Z * Z / (4.0 * n * n)).sqrt() / shrink;
    Some(((centre - spread).max(0.0), (centre + spread).min(1.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precision_recall_and_grouped_share() {
        // Ours: {0, 1, 2}, {3}; reference: {0, 1}, {2, 3}.
        let ours = [0, 0, 0, 1];
        let reference = [7, 7, 8, 8];
        let all = [0, 1, 2, 3];
        let score = against_labels(&ours, &reference, &all);
        assert_eq!((score.pairs, score.confirmed), (3, 1));
        assert_eq!(score.reference_pairs, Some(2));
        assert_eq!(score.recall(), Some(0.5));
        assert_eq!(grouped_share(&ours, &all), 0.75);
        // Restricted to {0, 3}: no pair of ours, but 0 is grouped in the whole set.
        let half = [0, 3];
        assert_eq!(against_labels(&ours, &reference, &half).precision(), None);
        assert_eq!(grouped_share(&ours, &half), 0.5);
    }

    #[test]
    fn serp_pairs_compare_normalised_urls() {
        let urls = vec![
            vec![
                "https://www.a.com/".into(),
                "http://b.com/x".into(),
                "c.com".into(),
            ],
            vec![
                "a.com".into(),
                "https://b.com/x/".into(),
                "https://c.com/#top".into(),
            ],
            vec!["a.com".into(), "b.com/y".into(), "c.com".into()],
        ];
        let sets = url_sets(&urls);
        assert!(serp_agrees(&sets, 0, 1));
        assert!(!serp_agrees(&sets, 0, 2));
        let score = against_serps(&[0, 0, 0], &sets, &[0, 1, 2]);
        assert_eq!((score.pairs, score.confirmed), (3, 1));
    }

    #[test]
    fn wilson_interval_of_small_and_empty_samples() {
        let (low, high) = wilson_interval(24, 33).unwrap();
        assert!((low - 0.558).abs() < 0.001 && (high - 0.849).abs() < 0.001);
        let (low, high) = wilson_interval(10, 10).unwrap();
        assert!(low > 0.7 && (high - 1.0).abs() < 1e-9);
        assert_eq!(wilson_interval(0, 0), None);
    }
}
