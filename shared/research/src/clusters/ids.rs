//! Cluster and topic ids, unique across every clustering of one job.

use std::collections::{HashMap, HashSet};

/// Ids already handed out, and the next suffix to try per slug.
pub(crate) struct IdRegistry {
    prefix: &'static str,
    /// The slug of a name with no ASCII letter or digit.
    unnamed: &'static str,
    used: HashSet<String>,
    next_suffix: HashMap<String, usize>,
}

impl Default for IdRegistry {
    /// Cluster ids: "c-...".
    fn default() -> Self {
        IdRegistry::with_prefix("c", "cluster")
    }
}

impl IdRegistry {
    /// Ids that start with `prefix` and a hyphen ("t" for topics).
    pub(crate) fn with_prefix(prefix: &'static str, unnamed: &'static str) -> Self {
        IdRegistry {
            prefix,
            unnamed,
            used: HashSet::new(),
            next_suffix: HashMap::new(),
        }
    }

    /// The prefix and an ASCII slug of `name` ("c-running-shoes"), with "-2", "-3", ... when
    /// taken.
    pub(crate) fn issue(&mut self, name: &str) -> String {
        let mut slug = String::new();
        for c in name.chars() {
            if c.is_ascii_alphanumeric() {
                slug.push(c.to_ascii_lowercase());
            } else if !slug.is_empty() && !slug.ends_with('-') {
                slug.push('-');
            }
        }
        let slug: String = slug.chars().take(48).collect();
        let slug = slug.trim_end_matches('-');
        let slug = if slug.is_empty() { self.unnamed } else { slug };
        let base = format!("{}-{slug}", self.prefix);
        let mut id = base.clone();
        if self.used.contains(&id) {
            let suffix = self.next_suffix.entry(base.clone()).or_insert(2);
            while self.used.contains(&format!("{base}-{suffix}")) {
                *suffix += 1;
            }
            id = format!("{base}-{suffix}");
            *suffix += 1;
        }
        self.used.insert(id.clone());
        id
    }
}
