//! Keywords without a usable SERP that are close variants of a SERP-clustered keyword.

use std::collections::HashMap;

use super::super::profile::Profiles;

/// For each of `rest` (keywords no SERP groups), the SERP group it joins: the first of
/// `groups` (hub order, so the highest volume) holding a keyword of the same core or, failing
/// that, the same spelling without spaces, as the lexical rule reads them. The same query in
/// other words has the same results, so it belongs where its variant's SERP put it; anything
/// else is left to the words (`None`).
pub(super) fn serp_group_of_variants(
    profiles: &Profiles,
    groups: &[Vec<usize>],
    rest: &[usize],
) -> Vec<Option<usize>> {
    let mut by_core: HashMap<&[u32], usize> = HashMap::new();
    let mut by_spelling: HashMap<&str, usize> = HashMap::new();
    for (group, members) in groups.iter().enumerate() {
        for &member in members {
            let core = profiles.cores[member].as_slice();
            // A keyword without words ("...") is nobody's variant.
            if !core.is_empty() {
                by_core.entry(core).or_insert(group);
            }
            let spelling = profiles.spellings[member].as_str();
            if !spelling.is_empty() {
                by_spelling.entry(spelling).or_insert(group);
            }
        }
    }
    // Empty cores and spellings are no keys above, so they find nothing here.
    rest.iter()
        .map(|&item| {
            by_core
                .get(profiles.cores[item].as_slice())
                .or_else(|| by_spelling.get(profiles.spellings[item].as_str()))
                .copied()
        })
        .collect()
}
