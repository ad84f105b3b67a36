//! What the seeded data plants, computed from the data itself over the last 28 days of data
//! (and the 28 before, for decay), so a test asserts against `/__mock/facts` rather than
//! against numbers written down somewhere else.

use std::collections::BTreeMap;

use chrono::{Days, NaiveDate};
use serde_json::{json, Value};

use super::dataset::{Dataset, SeriesKeys};
use super::generate::{self, BIG_PAIRS, BIG_QUERIES, BIG_ROWS};
use super::seeded::{Kind, BIG_SITE_URL, SITES};

#[derive(Default, Clone, Copy)]
struct Sum {
    clicks: u64,
    impressions: u64,
    weighted: f64,
}

impl Sum {
    fn add(&mut self, clicks: u64, impressions: u64, position: f64) {
        self.clicks += clicks;
        self.impressions += impressions;
        self.weighted += position * impressions as f64;
    }

    fn position(&self) -> f64 {
        self.weighted / self.impressions.max(1) as f64
    }
}

fn window(from: NaiveDate, to: NaiveDate) -> Value {
    json!({"startDate": from.to_string(), "endDate": to.to_string()})
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Healthy => "healthyTop3",
        Kind::Striking => "strikingDistance",
        Kind::Decaying => "decaying",
        Kind::Cannibalized => "cannibalized",
        Kind::Ordinary => "ordinary",
    }
}

/// The facts of `site_url` (rows of `country` only, when given); `None` for no such property.
pub fn facts(data: &Dataset, site_url: &str, country: Option<&str>) -> Option<Value> {
    if site_url == BIG_SITE_URL {
        return Some(big_facts(data));
    }
    let site = SITES.iter().find(|s| s.site_url == site_url)?;
    let end = data.end;
    let recent = generate::recent_start(end);
    let before = recent - Days::new(28);
    let (first, _) = generate::data_window(site_url, end);
    let keep = |keys: &SeriesKeys| country.is_none_or(|c| keys.country.eq_ignore_ascii_case(c));
    let mut now: BTreeMap<String, Sum> = BTreeMap::new();
    let mut then: BTreeMap<String, Sum> = BTreeMap::new();
    let mut pages: BTreeMap<String, BTreeMap<String, Sum>> = BTreeMap::new();
    data.visit(site_url, before, end, &keep, &mut |row| {
        let (c, i, p) = (row.clicks, row.impressions, row.position);
        if row.date >= recent {
            now.entry(row.query.to_owned()).or_default().add(c, i, p);
            let by_page = pages.entry(row.query.to_owned()).or_default();
            by_page.entry(row.page.to_owned()).or_default().add(c, i, p);
        } else {
            then.entry(row.query.to_owned()).or_default().add(c, i, p);
        }
    });
    let mut striking = Vec::new();
    let mut healthy = Vec::new();
    for (query, sum) in &now {
        let entry = json!({"query": query, "position": sum.position(), "clicks": sum.clicks,
                           "impressions": sum.impressions});
        if (4.0..=20.0).contains(&sum.position()) && sum.impressions >= 10 {
            striking.push(entry);
        } else if sum.position() <= 3.0 && sum.clicks >= 1 {
            healthy.push(entry);
        }
    }
    let mut decaying = Vec::new();
    for (query, old) in &then {
        let new = now.get(query).copied().unwrap_or_default();
        if old.clicks >= 20 && new.clicks * 100 <= old.clicks * 70 {
            decaying.push(json!({"query": query, "clicksBefore": old.clicks,
                                 "clicksRecent": new.clicks,
                                 "change": new.clicks as f64 / old.clicks as f64 - 1.0}));
        }
    }
    let mut cannibalized = Vec::new();
    for (query, by_page) in &pages {
        let mut ranked: Vec<(&String, &Sum)> =
            by_page.iter().filter(|(_, s)| s.impressions > 0).collect();
        if ranked.len() < 2 {
            continue;
        }
        ranked.sort_by(|(pa, a), (pb, b)| {
            (b.clicks, b.impressions)
                .cmp(&(a.clicks, a.impressions))
                .then(pa.cmp(pb))
        });
        let pages: Vec<Value> = ranked
            .iter()
            .map(|(page, s)| {
                json!({"page": page, "clicks": s.clicks,
                                    "impressions": s.impressions, "position": s.position()})
            })
            .collect();
        cannibalized.push(json!({"query": query, "pages": pages}));
    }
    let mentioned = data.mentioned(site_url).cloned().unwrap_or_default();
    let queries: Vec<Value> = site
        .queries
        .iter()
        .map(|(query, kind, paths, gbr)| {
            json!({"query": query, "planted": kind_name(*kind),
                   "mentionedOnSite": mentioned.contains(query),
                   "pages": paths.iter().map(|p| format!("{}{p}", site.origin)).collect::<Vec<_>>(),
                   "countries": if *gbr { vec!["usa", "gbr"] } else { vec!["usa"] }})
        })
        .collect();
    let only: Vec<&str> = site
        .queries
        .iter()
        .map(|(query, ..)| *query)
        .filter(|q| !mentioned.contains(q))
        .collect();
    Some(json!({
        "siteUrl": site.site_url,
        "permissionLevel": site.permission_level,
        "dataStartDate": first.to_string(),
        "dataEndDate": end.to_string(),
        "country": country,
        "recentWindow": window(recent, end),
        "previousWindow": window(before, recent - Days::new(1)),
        "queries": queries,
        "searchConsoleOnly": only,
        "strikingDistance": striking,
        "decaying": decaying,
        "cannibalized": cannibalized,
        "healthyTop3": healthy,
    }))
}

fn big_facts(data: &Dataset) -> Value {
    let (first, last) = generate::data_window(BIG_SITE_URL, data.end);
    let (mut clicks, mut impressions) = (0u64, 0u64);
    data.visit(BIG_SITE_URL, first, last, &|_| true, &mut |row| {
        clicks += row.clicks;
        impressions += row.impressions;
    });
    json!({
        "siteUrl": BIG_SITE_URL,
        "permissionLevel": "siteOwner",
        "dataStartDate": first.to_string(),
        "dataEndDate": last.to_string(),
        "rows": BIG_ROWS,
        "queries": BIG_QUERIES,
        "pages": BIG_PAIRS,
        "clicks": clicks,
        "impressions": impressions,
        "rawRowDimensions": ["query", "page", "date"],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sites::fixtures_root;

    fn names(facts: &Value, list: &str) -> Vec<String> {
        facts[list]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["query"].as_str().unwrap().to_owned())
            .collect()
    }

    /// Every planted query is what it was planted to be, whatever day the data ends on.
    #[test]
    fn google_planted_kinds_hold_for_any_end_date() {
        for end in ["2026-01-10", "2026-06-30", "2027-02-14"] {
            let end = NaiveDate::parse_from_str(end, "%Y-%m-%d").unwrap();
            let data = Dataset::new(20_260_401, end, &fixtures_root()).unwrap();
            for site in &SITES {
                let facts = facts(&data, site.site_url, None).unwrap();
                for (query, kind, pages, _) in site.queries {
                    let list = kind_name(*kind);
                    if *kind == Kind::Ordinary {
                        assert!(!names(&facts, "strikingDistance").contains(&query.to_string()));
                        continue;
                    }
                    assert!(
                        names(&facts, list).contains(&query.to_string()),
                        "{query} {list} {end}"
                    );
                    if *kind == Kind::Cannibalized {
                        let entry = facts["cannibalized"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .find(|e| e["query"] == *query)
                            .unwrap();
                        let first = format!("{}{}", site.origin, pages[0]);
                        assert_eq!(entry["pages"][0]["page"], first.as_str(), "{query}");
                    }
                }
                let only = facts["searchConsoleOnly"].as_array().unwrap().len();
                assert!(
                    only >= 10 && only + 10 <= site.queries.len(),
                    "{}",
                    site.site_url
                );
            }
        }
    }
}
