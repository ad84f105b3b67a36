//! What the cluster and topic lists share: `sortBy` and `sortOrder`, and one page of a sorted
//! list.

use std::cmp::Ordering;

use kr_core::dataset::{AiShareOfVoice, ClusterRecord, TopicRecord};
use kr_core::query_params::QueryParams;
use kr_core::validation::FieldError;

/// `sortBy` (one of `sorts`, default the first) and whether `sortOrder` is `desc` (default).
pub(crate) fn parse_sort(
    query: &QueryParams,
    sorts: &[&'static str],
) -> Result<(&'static str, bool), FieldError> {
    let sort = query
        .choice("sortBy", sorts, Some(sorts[0]))?
        .unwrap_or(sorts[0]);
    let descending = query.choice("sortOrder", &["asc", "desc"], Some("desc"))? != Some("asc");
    Ok((sort, descending))
}

/// `items` sorted, then `limit` of them from `offset`, and how many there were.
pub(crate) fn sorted_page<'a, T>(
    items: impl Iterator<Item = &'a T>,
    compare: impl Fn(&T, &T) -> Ordering,
    offset: u32,
    limit: u32,
) -> (Vec<&'a T>, usize) {
    let mut sorted: Vec<&T> = items.collect();
    sorted.sort_by(|a, b| compare(a, b));
    let total = sorted.len();
    let page = sorted
        .into_iter()
        .skip(offset as usize)
        .take(limit as usize)
        .collect();
    (page, total)
}

/// `order` as asked: reversed for a descending sort.
pub(crate) fn directed(order: Ordering, descending: bool) -> Ordering {
    if descending {
        order.reverse()
    } else {
        order
    }
}

/// Two optional values compared with `ordered` (which applies the direction); an unknown one
/// last in either direction.
pub(crate) fn known_first(
    a: Option<f64>,
    b: Option<f64>,
    ordered: impl Fn(Ordering) -> Ordering,
) -> Ordering {
    match (a, b) {
        (Some(x), Some(y)) => ordered(x.total_cmp(&y)),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// What `sortBy=aiShare` compares: the site's share of the AI Overviews on a cluster's or
/// topic's keywords; `None` (sorted last) without an overview.
pub(crate) fn ai_share(record: &impl HasAiShare) -> Option<f64> {
    record.ai_share().map(|share| share.site)
}

pub(crate) trait HasAiShare {
    fn ai_share(&self) -> Option<&AiShareOfVoice>;
}

impl HasAiShare for ClusterRecord {
    fn ai_share(&self) -> Option<&AiShareOfVoice> {
        self.ai_share_of_voice.as_ref()
    }
}

impl HasAiShare for TopicRecord {
    fn ai_share(&self) -> Option<&AiShareOfVoice> {
        self.ai_share_of_voice.as_ref()
    }
}
