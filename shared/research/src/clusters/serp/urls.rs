//! Result URLs as small integers: normalised, interned, and stored flat per keyword.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use kr_core::result_url::push_query;

use super::{SerpClusterInput, SERP_DEPTH};

/// The form in which two result URLs are compared: no scheme, no "www.", no fragment, no
/// trailing slash on the path, host in lowercase (the path and query keep their case, which
/// servers may distinguish), no click-tracking parameters ([`kr_core::result_url`]).
/// `https://www.Example.com/Shoes/?srsltid=AfmB#top` → `example.com/Shoes`.
pub fn normalize_url(url: &str) -> String {
    let mut normal = String::with_capacity(url.len());
    normalize_into(url, &mut normal);
    normal
}

/// [`normalize_url`] into a buffer, so interning many URLs allocates only for new ones.
fn normalize_into(url: &str, out: &mut String) {
    out.clear();
    let url = url.trim();
    let url = url.split_once('#').map_or(url, |(before, _)| before);
    let rest = match url.split_once("://") {
        Some((scheme, rest))
            if scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c)) =>
        {
            rest
        }
        _ => url.strip_prefix("//").unwrap_or(url),
    };
    let (host, tail) = rest.split_at(rest.find(['/', '?']).unwrap_or(rest.len()));
    if host.is_ascii() {
        out.push_str(host);
        out.make_ascii_lowercase();
    } else {
        out.extend(host.chars().flat_map(char::to_lowercase));
    }
    if out.starts_with("www.") {
        out.drain(..4);
    }
    let (path, query) = tail.split_at(tail.find('?').unwrap_or(tail.len()));
    out.push_str(path.trim_end_matches('/'));
    if let Some(query) = query.strip_prefix('?') {
        push_query(query, out);
    }
}

/// Every keyword's top URLs as sorted, deduplicated ids, in one flat array: interning a few
/// hundred thousand URLs is most of the work, and one allocation per keyword would add to it.
pub(super) struct UrlSets {
    ids: Vec<u32>,
    /// Keyword `i`'s ids are `ids[starts[i]..starts[i + 1]]`.
    starts: Vec<u32>,
    /// Distinct URLs; ids are `0..url_count`.
    pub(super) url_count: usize,
}

impl UrlSets {
    pub(super) fn build(items: &[SerpClusterInput]) -> UrlSets {
        let mut interned: HashMap<String, u32, BuildHasherDefault<WordHasher>> = HashMap::default();
        let mut normal = String::new();
        let mut ids = Vec::new();
        let mut starts = Vec::with_capacity(items.len() + 1);
        starts.push(0);
        for item in items {
            let start = ids.len();
            for url in item.serp_urls.iter().flatten().take(SERP_DEPTH) {
                normalize_into(url, &mut normal);
                if normal.is_empty() {
                    continue;
                }
                let id = match interned.get(normal.as_str()) {
                    Some(&id) => id,
                    None => {
                        let id = interned.len() as u32;
                        interned.insert(normal.clone(), id);
                        id
                    }
                };
                ids.push(id);
            }
            ids[start..].sort_unstable();
            let mut kept = start;
            for read in start..ids.len() {
                if read == start || ids[read] != ids[kept - 1] {
                    ids[kept] = ids[read];
                    kept += 1;
                }
            }
            ids.truncate(kept);
            starts.push(ids.len() as u32);
        }
        UrlSets {
            ids,
            starts,
            url_count: interned.len(),
        }
    }

    /// Keyword `item`'s URL ids, ascending.
    pub(super) fn get(&self, item: usize) -> &[u32] {
        &self.ids[self.starts[item] as usize..self.starts[item + 1] as usize]
    }
}

/// Hashes eight bytes per step (as rustc's FxHasher does) instead of SipHash's rounds: the
/// keys are URLs from search results, hashed once per result, and the map lives for one call.
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
            self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
        }
        for &byte in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(byte)).wrapping_mul(K);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
