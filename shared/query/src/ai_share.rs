//! Clusters' and topics' `aiShareOfVoice` and clusters' `earnCitation`: of their keywords
//! with an AI Overview, the share citing the site and each competitor. Not stored: computed
//! once when a dataset is loaded, from the keywords' `aiOverview`.

use std::collections::HashMap;

use kr_core::dataset::{
    registrable_domain, AiShareTally, ArchivedKeywordRecord, ClusterRecord, TopicRecord,
};

/// Fills `clusters` and `topics` with their shares. `competitors` are the job's, as it lists
/// them (each is listed in every share, 0 when never cited); a cited competitor the list does
/// not have (a dataset read without its job) is listed after them.
pub(crate) fn fill(
    keywords: &[ArchivedKeywordRecord],
    cluster_ids: &HashMap<String, u32>,
    cluster_of: &[u32],
    clusters: &mut [ClusterRecord],
    topics: &mut [TopicRecord],
    competitors: &[String],
) {
    let mut names: Vec<String> = competitors.to_vec();
    let mut sites: Vec<String> = names.iter().map(|n| registrable_domain(n)).collect();
    let mut tallies = vec![AiShareTally::default(); cluster_ids.len()];
    for (at, keyword) in keywords.iter().enumerate() {
        let Some(overview) = keyword.ai_overview.as_ref() else {
            continue;
        };
        if !overview.present {
            continue;
        }
        let mut cited = Vec::with_capacity(overview.cites_competitors.len());
        for name in overview.cites_competitors.iter() {
            let site = registrable_domain(name.as_str());
            let index = match sites.iter().position(|known| *known == site) {
                Some(index) => index,
                None => {
                    names.push(name.as_str().to_string());
                    sites.push(site);
                    names.len() - 1
                }
            };
            cited.push(index);
        }
        tallies[cluster_of[at] as usize].add(overview.cites_site, cited);
    }
    let mut by_topic: HashMap<String, AiShareTally> = HashMap::new();
    for cluster in clusters.iter_mut() {
        let Some(&index) = cluster_ids.get(&cluster.id) else {
            continue;
        };
        let tally = &tallies[index as usize];
        cluster.ai_share_of_voice = tally.finish(&names);
        cluster.earn_citation = cluster
            .ai_share_of_voice
            .as_ref()
            .is_some_and(|share| share.earns_citation());
        if let Some(topic) = cluster.topic_id.as_deref() {
            by_topic.entry(topic.to_string()).or_default().merge(tally);
        }
    }
    for topic in topics {
        topic.ai_share_of_voice = by_topic
            .get(&topic.id)
            .and_then(|tally| tally.finish(&names));
    }
}
