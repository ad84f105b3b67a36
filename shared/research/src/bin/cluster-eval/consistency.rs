//! Whether a dev set agrees with itself before it is trusted: near-duplicate keywords should
//! share SERP URLs, and labels should agree with their own source.
//!
//! Near-duplicates are found by two keys that use none of the lexical clustering's own word
//! lists (so the check does not grade the rules with themselves):
//!
//! - *exact variants*: the same words, reordered, with a final "s" dropped and punctuation
//!   ignored ("cpp film heat sealable" and "heat sealable cpp film");
//! - *stem variants*: the same stems once stop words are dropped ("chatgpt prompts" and
//!   "prompts for chatgpt"), a superset of the first.

use std::collections::HashMap;

use kr_research::text::{Analyzer, Language};

/// Pairs of distinct keywords that are exact variants and stem variants of each other.
pub struct VariantPairs {
    pub exact: Vec<(usize, usize)>,
    pub stems: Vec<(usize, usize)>,
}

pub fn variant_pairs(keywords: &[String]) -> VariantPairs {
    let analyzer = Analyzer::new(&Language::english());
    let exact = pairs_by_key(keywords, |k| {
        let mut words: Vec<String> = k
            .to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(|w| {
                if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") {
                    w[..w.len() - 1].to_string()
                } else {
                    w.to_string()
                }
            })
            .collect();
        words.sort_unstable();
        words.join(" ")
    });
    let stems = pairs_by_key(keywords, |k| {
        let words = analyzer.tokenizer().words(k);
        let mut stems: Vec<String> = words
            .iter()
            .filter(|w| !analyzer.is_stop_word(w))
            .map(|w| analyzer.stem(w).into_owned())
            .collect();
        stems.sort_unstable();
        stems.dedup();
        stems.join(" ")
    });
    VariantPairs { exact, stems }
}

fn pairs_by_key(keywords: &[String], key: impl Fn(&str) -> String) -> Vec<(usize, usize)> {
    let mut groups: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, k) in keywords.iter().enumerate() {
        let key = key(k);
        if !key.is_empty() {
            groups.entry(key).or_default().push(i);
        }
    }
    let mut pairs: Vec<(usize, usize)> = groups
        .values()
        .flat_map(|members| {
            members
                .iter()
                .enumerate()
                .flat_map(move |(x, &a)| members[x + 1..].iter().map(move |&b| (a, b)))
        })
        .filter(|&(a, b)| !keywords[a].eq_ignore_ascii_case(&keywords[b]))
        .collect();
    pairs.sort_unstable();
    pairs
}

/// Parent Keyword self-agreement: of the parents that are keywords of the set themselves,
/// how many have themselves as parent (`(agreeing, present)`).
pub fn parents_own_parent(keywords: &[String], parents: &[String]) -> (usize, usize) {
    let index: HashMap<String, usize> = keywords
        .iter()
        .enumerate()
        .map(|(i, k)| (k.to_lowercase(), i))
        .collect();
    let mut distinct: Vec<String> = parents.iter().map(|p| p.to_lowercase()).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let present: Vec<usize> = distinct
        .iter()
        .filter_map(|p| index.get(p).copied())
        .collect();
    let agreeing = present
        .iter()
        .filter(|&&i| parents[i].to_lowercase() == keywords[i].to_lowercase())
        .count();
    (agreeing, present.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_and_parents() {
        let keywords: Vec<String> = [
            "heat sealable cpp film",
            "cpp film heat sealable",
            "cpp films heat sealable",
            "chatgpt prompts",
            "prompts for chatgpt",
            "chatgpt",
        ]
        .map(String::from)
        .to_vec();
        let pairs = variant_pairs(&keywords);
        assert_eq!(pairs.exact, vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairs.stems, vec![(0, 1), (0, 2), (1, 2), (3, 4)]);
        let parents: Vec<String> = ["a", "a", "a", "chatgpt", "chatgpt prompts", "chatgpt"]
            .map(String::from)
            .to_vec();
        // "chatgpt prompts" is a parent but has another; "chatgpt" is its own.
        assert_eq!(parents_own_parent(&keywords, &parents), (1, 2));
    }
}
