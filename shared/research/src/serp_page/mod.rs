//! Reading a results page for what an SEO looks at first: which of its top organic results are
//! weak spots (see [`sites`] for which sites count), and what kind of page each result is
//! ([`page_type`]).

mod page_type;
mod sites;

pub use page_type::{page_type, PageType};

use kr_core::dataset::{WeakSpot, WeakSpotKind};

use crate::text::web_address::{belongs, host_of, path_of};

/// The weak spots among `organic` (top results in rank order), with their positions.
pub fn weak_spots(organic: &[String]) -> Vec<WeakSpot> {
    organic
        .iter()
        .enumerate()
        .filter_map(|(index, url)| {
            let (site, kind) = weak_site(url)?;
            Some(WeakSpot {
                position: index as u32 + 1,
                url: url.clone(),
                site,
                kind,
            })
        })
        .collect()
}

/// The listed site `url` is on and its kind, or its host when its address says forum.
fn weak_site(url: &str) -> Option<(String, WeakSpotKind)> {
    let host = host_of(url).trim_end_matches('.');
    if let Some((site, kind)) = sites::SITES.iter().find(|(site, _)| belongs(host, site)) {
        return Some((site.to_string(), *kind));
    }
    let bare = host.to_ascii_lowercase();
    let bare = bare.strip_prefix("www.").unwrap_or(&bare).to_string();
    let first_label = bare.split('.').next().unwrap_or("");
    // A one-label host ("forum") is no site of its own.
    let forum_host = bare.contains('.') && sites::FORUM_HOST_LABELS.contains(&first_label);
    let path = path_of(url).to_ascii_lowercase();
    let mut segments = path.split('/').filter(|segment| !segment.is_empty());
    let forum_path = segments
        .next()
        .is_some_and(|first| sites::FORUM_PATH_SEGMENTS.contains(&first))
        || path
            .rsplit('/')
            .next()
            .is_some_and(|last| sites::FORUM_SCRIPTS.contains(&last));
    (forum_host || forum_path).then_some((bare, WeakSpotKind::Forum))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spots(urls: &[&str]) -> Vec<(u32, String, WeakSpotKind)> {
        let urls: Vec<String> = urls.iter().map(|u| u.to_string()).collect();
        weak_spots(&urls)
            .into_iter()
            .map(|spot| (spot.position, spot.site, spot.kind))
            .collect()
    }

    #[test]
    fn listed_sites_and_their_subdomains_are_weak_spots_with_positions() {
        assert_eq!(
            spots(&[
                "https://www.coffee.com/cold-brew",
                "https://old.reddit.com/r/Coffee/comments/1/cold_brew/",
                "https://www.quora.com/How-do-I-make-cold-brew",
                "https://someone.blogspot.com/2024/cold-brew.html",
                "https://www.pinterest.com/pin/123/",
            ]),
            vec![
                (2, "reddit.com".into(), WeakSpotKind::Forum),
                (3, "quora.com".into(), WeakSpotKind::QuestionsAndAnswers),
                (4, "blogspot.com".into(), WeakSpotKind::UserBlog),
                (5, "pinterest.com".into(), WeakSpotKind::Social),
            ]
        );
    }

    #[test]
    fn forums_are_told_by_their_address_and_lookalikes_are_not() {
        assert_eq!(
            spots(&[
                "https://forum.espressoparts.com/t/grinder/12",
                "https://www.home-barista.com/forums/espresso-machines-f7/",
                "https://example.org/board/viewtopic.php?t=4",
                "https://notreddit.com/r/x",
                "https://www.forumshop.com/chairs",
                "https://shop.example.com/community-coffee-beans",
                "http://forum/internal",
            ]),
            vec![
                (1, "forum.espressoparts.com".into(), WeakSpotKind::Forum),
                (2, "home-barista.com".into(), WeakSpotKind::Forum),
                (3, "example.org".into(), WeakSpotKind::Forum),
            ]
        );
    }
}
