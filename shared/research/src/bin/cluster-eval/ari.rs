//! Adjusted Rand index (Hubert and Arabie, 1985) between two partitions of the same items.

use std::collections::HashMap;

/// Pairs among `n` items.
fn pairs(n: usize) -> f64 {
    let n = n as f64;
    n * (n - 1.0) / 2.0
}

/// ARI of two labelings of the same items (`a[i]` and `b[i]` label item `i`): 1 for the same
/// partition, about 0 for chance agreement. Two all-singleton partitions count as identical.
pub fn adjusted_rand_index(a: &[usize], b: &[usize]) -> f64 {
    assert_eq!(a.len(), b.len());
    let mut both: HashMap<(usize, usize), usize> = HashMap::new();
    let mut rows: HashMap<usize, usize> = HashMap::new();
    let mut columns: HashMap<usize, usize> = HashMap::new();
    for (&x, &y) in a.iter().zip(b) {
        *both.entry((x, y)).or_default() += 1;
        *rows.entry(x).or_default() += 1;
        *columns.entry(y).or_default() += 1;
    }
    let index: f64 = both.values().map(|&n| pairs(n)).sum();
    let row_sum: f64 = rows.values().map(|&n| pairs(n)).sum();
    let column_sum: f64 = columns.values().map(|&n| pairs(n)).sum();
    let total = pairs(a.len());
    if total == 0.0 {
        return 1.0;
    }
    let expected = row_sum * column_sum / total;
    let maximum = (row_sum + column_sum) / 2.0;
    if maximum == expected {
        return 1.0;
    }
    (index - expected) / (maximum - expected)
}

/// The labels of `keep`'s items, for comparing two partitions on a subset.
pub fn restrict(labels: &[usize], keep: &[usize]) -> Vec<usize> {
    keep.iter().map(|&i| labels[i]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        assert_eq!(adjusted_rand_index(&[0, 0, 1, 1], &[5, 5, 7, 7]), 1.0);
        // sklearn.metrics.adjusted_rand_score([0, 0, 1, 1], [0, 0, 1, 2]) = 0.5714...
        let ari = adjusted_rand_index(&[0, 0, 1, 1], &[0, 0, 1, 2]);
        assert!((ari - 0.571_428_571).abs() < 1e-6, "{ari}");
        // ... ([0, 0, 0, 1, 1, 1], [0, 1, 2, 3, 4, 5]) = 0
        assert_eq!(
            adjusted_rand_index(&[0, 0, 0, 1, 1, 1], &[0, 1, 2, 3, 4, 5]),
            0.0
        );
    }
}
