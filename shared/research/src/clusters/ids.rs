//! Cluster ids, unique across every clustering of one job.

use std::collections::{HashMap, HashSet};

/// Cluster ids already handed out, and the next suffix to try per slug.
#[derive(Default)]
pub(crate) struct IdRegistry {
    used: HashSet<String>,
    next_suffix: HashMap<String, usize>,
}

impl IdRegistry {
    /// "c-" and an ASCII slug of `name` ("c-running-shoes"), with "-2", "-3", ... when taken.
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
        let base = format!("c-{}", if slug.is_empty() { "cluster" } else { slug });
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
