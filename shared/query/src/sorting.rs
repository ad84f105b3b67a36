//! What the cluster and topic lists share: `sortBy` and `sortOrder`, and one page of a sorted
//! list.

use std::cmp::Ordering;

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
