//! A search result's URL as the service keeps it: without the parameters that say where a click
//! came from rather than which page it opens. Google adds `srsltid` to shops' results with a
//! new value in every results page, so kept as given, one product page ranking for two keywords
//! would be two URLs to every comparison of results (SERP clusters, topics, target pages,
//! competitors' positions, briefs' sources).

/// Besides these, every `utm_*`. X (Twitter) adds `ref_src` to profiles.
const TRACKING_PARAMS: [&str; 14] = [
    "srsltid", "gclid", "gbraid", "wbraid", "dclid", "fbclid", "msclkid", "yclid", "mc_cid",
    "mc_eid", "igshid", "_ga", "_gl", "ref_src",
];

/// Whether a query parameter (`name=value` or `name`) is a click tracker.
fn is_tracking_param(param: &str) -> bool {
    let name = param.split_once('=').map_or(param, |(name, _)| name);
    name.starts_with("utm_") || TRACKING_PARAMS.contains(&name)
}

/// `url` without its click-tracking parameters, otherwise exactly as given.
pub fn without_tracking(url: &str) -> String {
    let (before, fragment) = url.find('#').map_or((url, ""), |at| url.split_at(at));
    let Some((base, query)) = before.split_once('?') else {
        return url.to_string();
    };
    let mut clean = base.to_string();
    push_query(query, &mut clean);
    clean.push_str(fragment);
    clean
}

/// The parameters of `query` (without its "?") that are no click trackers, after a "?" when
/// any are left.
pub fn push_query(query: &str, out: &mut String) {
    let mut first = true;
    for param in query
        .split('&')
        .filter(|p| !p.is_empty() && !is_tracking_param(p))
    {
        out.push(if first { '?' } else { '&' });
        out.push_str(param);
        first = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn click_trackers_go_and_everything_else_stays() {
        for (raw, clean) in [
            (
                "https://shop.com/p/1?srsltid=AfmBOop&size=9&utm_source=x#reviews",
                "https://shop.com/p/1?size=9#reviews",
            ),
            (
                "https://shop.com/p/1?srsltid=AfmBOop",
                "https://shop.com/p/1",
            ),
            (
                "https://x.com/someone?ref_src=twsrc",
                "https://x.com/someone",
            ),
            (
                "https://www.youtube.com/watch?v=abc&utm_medium=serp",
                "https://www.youtube.com/watch?v=abc",
            ),
            (
                "https://a.com/?utm=1&srsltidx=2",
                "https://a.com/?utm=1&srsltidx=2",
            ),
            ("https://a.com/path", "https://a.com/path"),
        ] {
            assert_eq!(without_tracking(raw), clean, "{raw}");
        }
    }
}
