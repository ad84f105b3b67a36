//! The competitors' pages AI Overviews cite for a cluster: picked from its keywords'
//! `aiOverview` references, read through the crawler as the ranking pages are, and kept with
//! their headings, so the writer sees what the pages Google's overview trusts say.

use kr_core::dataset::{registrable_domain, CitedPage, KeywordRecord};
use kr_crawler::OutlinedPage;

/// Cited pages a brief lists (and reads) at most.
pub const MAX_CITED_PAGES: usize = 5;
/// Headings kept per cited page, and the characters of each.
const MAX_HEADINGS: usize = 20;
const MAX_HEADING_CHARS: usize = 200;

/// A cited page to read: its address, its competitor, the overview's title for it and how
/// many of the cluster's keywords' overviews cite it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cited {
    pub url: String,
    pub competitor: String,
    pub title: Option<String>,
    pub citations: usize,
}

/// The competitors' pages the overviews on `members` cite, most cited first (ties: the
/// order they are first cited in), at most [`MAX_CITED_PAGES`]. `competitors` are the job's
/// as it lists them; a page counts once per keyword.
pub(crate) fn pick_cited(members: &[&KeywordRecord], competitors: &[String]) -> Vec<Cited> {
    let sites: Vec<String> = competitors.iter().map(|c| registrable_domain(c)).collect();
    let mut found: Vec<Cited> = Vec::new();
    for member in members {
        let Some(overview) = member.ai_overview.as_ref().filter(|o| o.present) else {
            continue;
        };
        let mut seen: Vec<&str> = Vec::new();
        for reference in &overview.references {
            if seen.contains(&reference.url.as_str()) {
                continue;
            }
            seen.push(&reference.url);
            let site = reference.site();
            let Some(at) = sites.iter().position(|s| *s == site) else {
                continue;
            };
            match found.iter_mut().find(|c| c.url == reference.url) {
                Some(known) => {
                    known.citations += 1;
                    if known.title.is_none() {
                        known.title.clone_from(&reference.title);
                    }
                }
                None => found.push(Cited {
                    url: reference.url.clone(),
                    competitor: competitors[at].clone(),
                    title: reference.title.clone(),
                    citations: 1,
                }),
            }
        }
    }
    // Stable: equal counts keep the order they were first cited in.
    found.sort_by_key(|cited| std::cmp::Reverse(cited.citations));
    found.truncate(MAX_CITED_PAGES);
    found
}

/// A cited page and what became of reading it.
pub(crate) fn cited_page(cited: Cited, read: Result<OutlinedPage, String>) -> CitedPage {
    let (headings, skipped_because) = match read {
        Ok(page) => (
            page.headings
                .into_iter()
                .map(|(_, text)| text.trim().chars().take(MAX_HEADING_CHARS).collect())
                .filter(|text: &String| !text.is_empty())
                .take(MAX_HEADINGS)
                .collect(),
            None,
        ),
        Err(why) => (Vec::new(), Some(why)),
    };
    CitedPage {
        url: cited.url,
        competitor: cited.competitor,
        title: cited.title,
        citations: cited.citations,
        fetched: skipped_because.is_none(),
        skipped_because,
        headings,
    }
}

#[cfg(test)]
mod tests {
    use kr_core::dataset::{AiOverview, AiReference};

    use super::*;

    fn keyword(urls: &[(&str, &str)]) -> KeywordRecord {
        let references: Vec<AiReference> = urls
            .iter()
            .map(|(url, title)| AiReference::new(url, None, Some(title)).unwrap())
            .collect();
        KeywordRecord {
            ai_overview: Some(AiOverview::from_serp(
                Some(&references),
                "brightbrew-coffee.com",
                &["beanhub.com", "roastery.co.uk"],
            )),
            ..KeywordRecord::default()
        }
    }

    #[test]
    fn competitors_pages_are_picked_most_cited_first_never_the_sites_or_others() {
        let competitors = vec!["beanhub.com".to_string(), "roastery.co.uk".to_string()];
        let a = keyword(&[
            ("https://shop.roastery.co.uk/ratio", "Ratio"),
            ("https://www.beanhub.com/guide", "Guide"),
            ("https://brightbrew-coffee.com/", "Us"),
            ("https://news.org/", "News"),
        ]);
        let b = keyword(&[
            ("https://www.beanhub.com/guide", "Guide again"),
            ("https://www.beanhub.com/guide", "Twice on one page"),
        ]);
        let none = KeywordRecord::default();
        let members = [&a, &b, &none];
        let picked = pick_cited(&members, &competitors);
        let urls: Vec<(&str, &str, usize)> = picked
            .iter()
            .map(|c| (c.url.as_str(), c.competitor.as_str(), c.citations))
            .collect();
        assert_eq!(
            urls,
            [
                ("https://www.beanhub.com/guide", "beanhub.com", 2),
                ("https://shop.roastery.co.uk/ratio", "roastery.co.uk", 1)
            ]
        );
        assert_eq!(picked[0].title.as_deref(), Some("Guide"));
    }

    #[test]
    fn at_most_five_are_read() {
        let urls: Vec<String> = (0..8).map(|n| format!("https://beanhub.com/{n}")).collect();
        let pairs: Vec<(&str, &str)> = urls.iter().map(|u| (u.as_str(), "t")).collect();
        let member = keyword(&pairs);
        let picked = pick_cited(&[&member], &["beanhub.com".to_string()]);
        assert_eq!(picked.len(), MAX_CITED_PAGES);
        assert_eq!(picked[0].url, "https://beanhub.com/0");
    }

    #[test]
    fn a_page_read_keeps_its_headings_and_one_skipped_says_why() {
        let cited = Cited {
            url: "https://beanhub.com/guide".into(),
            competitor: "beanhub.com".into(),
            title: None,
            citations: 1,
        };
        let read = OutlinedPage {
            url: cited.url.clone(),
            title: "Guide".into(),
            headings: vec![
                (2, " Ratio ".into()),
                (3, String::new()),
                (3, "Time".into()),
            ],
            main_text: String::new(),
        };
        let page = cited_page(cited.clone(), Ok(read));
        assert!(page.fetched);
        assert_eq!(page.headings, ["Ratio", "Time"]);
        let skipped = cited_page(cited, Err("it answered with HTTP status 404".into()));
        assert!(!skipped.fetched && skipped.headings.is_empty());
        assert_eq!(
            skipped.skipped_because.as_deref(),
            Some("it answered with HTTP status 404")
        );
    }
}
