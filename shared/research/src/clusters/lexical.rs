//! The lexical grouping, hub and spoke over keyword cores (see [`super`] for the rule).

use std::collections::HashMap;

use super::profile::Profiles;

/// Hub-and-spoke groups in hub order, each hub first and then its spokes, given the keywords
/// in hub order (`order`). A spoke has the hub's core or the hub's spelling without spaces;
/// nothing else joins, so a keyword that is no close variant of a hub stays alone.
pub(super) fn hub_groups(profiles: &Profiles, order: &[usize]) -> Vec<Vec<usize>> {
    let count = profiles.cores.len();
    // Keywords per core and per spelling: the only places a spoke can be found, so no two
    // keywords are compared unless they share a key.
    let mut by_core: HashMap<&[u32], Vec<usize>> = HashMap::with_capacity(count);
    let mut by_spelling: HashMap<&str, Vec<usize>> = HashMap::with_capacity(count);
    for &item in order {
        by_core
            .entry(profiles.cores[item].as_slice())
            .or_default()
            .push(item);
        let spelling = profiles.spellings[item].as_str();
        if !spelling.is_empty() {
            by_spelling.entry(spelling).or_default().push(item);
        }
    }

    let mut assigned = vec![false; count];
    let mut groups = Vec::new();
    for &hub in order {
        if assigned[hub] {
            continue;
        }
        assigned[hub] = true;
        let mut members = vec![hub];
        // Every keyword of a list taken becomes assigned, so each list is taken (removed) at
        // most once: the work stays linear however many hubs share a key.
        let mut take = |list: Option<Vec<usize>>| {
            for item in list.into_iter().flatten() {
                if !assigned[item] {
                    assigned[item] = true;
                    members.push(item);
                }
            }
        };
        take(by_core.remove(profiles.cores[hub].as_slice()));
        take(by_spelling.remove(profiles.spellings[hub].as_str()));
        groups.push(members);
    }
    groups
}
