//! The lexical grouping, hub and spoke over keyword cores (see [`super`] for the rule).

use std::collections::HashMap;

use super::profile::Profiles;

/// Hub-and-spoke groups in hub order, each hub first and then its spokes, given the keywords
/// in hub order (`order`).
pub(super) fn hub_groups(profiles: &Profiles, order: &[usize], threshold: f64) -> Vec<Vec<usize>> {
    let count = profiles.cores.len();
    // Keywords per core, per spelling, and per core less one stem: the only places a spoke
    // can be found, so no two keywords are compared unless they share a key.
    let mut by_core: HashMap<&[u32], Vec<usize>> = HashMap::with_capacity(count);
    let mut by_spelling: HashMap<&str, Vec<usize>> = HashMap::with_capacity(count);
    let mut by_reduced: HashMap<Vec<u32>, Vec<usize>> = HashMap::new();
    for &item in order {
        let core = profiles.cores[item].as_slice();
        by_core.entry(core).or_default().push(item);
        let spelling = profiles.spellings[item].as_str();
        if !spelling.is_empty() {
            by_spelling.entry(spelling).or_default().push(item);
        }
        if extends(profiles, item, threshold) {
            for skip in 0..core.len() {
                if profiles.is_specific(core[skip]) {
                    by_reduced
                        .entry(without(core, skip))
                        .or_default()
                        .push(item);
                }
            }
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
        let core = profiles.cores[hub].as_slice();
        // Every keyword of a list taken becomes assigned, so each list is taken (removed) at
        // most once: the work stays linear however many hubs share a key.
        let mut take = |list: Option<Vec<usize>>, members: &mut Vec<usize>| {
            for item in list.into_iter().flatten() {
                if !assigned[item] {
                    assigned[item] = true;
                    members.push(item);
                }
            }
        };
        take(by_core.remove(core), &mut members);
        take(
            by_spelling.remove(profiles.spellings[hub].as_str()),
            &mut members,
        );
        // Spokes one specific word longer than the hub.
        if reducible(profiles, core.len() + 1, threshold) {
            take(by_reduced.remove(core), &mut members);
        }
        // Spokes one specific word shorter than the hub.
        if extends(profiles, hub, threshold) {
            for skip in 0..core.len() {
                if profiles.is_specific(core[skip]) {
                    take(by_core.remove(without(core, skip).as_slice()), &mut members);
                }
            }
        }
        groups.push(members);
    }
    attach_singletons(profiles, &mut groups, threshold);
    groups
}

/// Second pass: a keyword left alone joins the cluster holding a keyword whose core is its own
/// less one specific stem, under the same conditions as a spoke of a hub (the earliest such
/// cluster in hub order). "best chatgpt prompts for content creation" was left alone when
/// its hub "chatgpt content prompts" took "chatgpt prompts for content creation". Keywords are
/// taken shortest core first and one that moves is no target itself, so nothing chains further.
fn attach_singletons(profiles: &Profiles, groups: &mut Vec<Vec<usize>>, threshold: f64) {
    let mut by_core: HashMap<&[u32], usize> = HashMap::new();
    for (g, members) in groups.iter().enumerate() {
        for &m in members {
            by_core.entry(profiles.cores[m].as_slice()).or_insert(g);
        }
    }
    let mut singles: Vec<usize> = (0..groups.len())
        .filter(|&g| groups[g].len() == 1)
        .collect();
    singles.sort_by_key(|&g| (profiles.cores[groups[g][0]].len(), g));
    let mut moved = vec![false; groups.len()];
    for g in singles {
        let item = groups[g][0];
        let core = profiles.cores[item].as_slice();
        if !extends(profiles, item, threshold) {
            continue;
        }
        let target = (0..core.len())
            .filter(|&skip| profiles.is_specific(core[skip]))
            .filter_map(|skip| by_core.get(without(core, skip).as_slice()).copied())
            .filter(|&target| target != g && !moved[target])
            .min();
        if let Some(target) = target {
            moved[g] = true;
            groups[target].push(item);
        }
    }
    let mut index = 0;
    groups.retain(|_| {
        index += 1;
        !moved[index - 1]
    });
}

/// Whether a keyword's core is long enough to be one word longer than another's at
/// `threshold` (Jaccard of the two cores: shorter length over longer length).
fn extends(profiles: &Profiles, item: usize, threshold: f64) -> bool {
    reducible(profiles, profiles.cores[item].len(), threshold)
}

fn reducible(profiles: &Profiles, longer: usize, threshold: f64) -> bool {
    let shorter = longer.saturating_sub(1);
    shorter >= profiles.min_shared
        && longer <= MAX_EXTENDED_CORE
        && shorter as f64 / longer as f64 >= threshold
}

/// Longer cores (a sentence pasted as a keyword) are matched whole only: indexing every core
/// less one stem costs the square of its length.
const MAX_EXTENDED_CORE: usize = 12;

fn without(core: &[u32], skip: usize) -> Vec<u32> {
    let mut reduced = Vec::with_capacity(core.len() - 1);
    reduced.extend_from_slice(&core[..skip]);
    reduced.extend_from_slice(&core[skip + 1..]);
    reduced
}
