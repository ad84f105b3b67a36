//! Every property's data as one thing to walk: the seeded sites' series and the big property's
//! rows, visited over a date range, with the filters checked once per series (a filter never
//! depends on the date) before any row is made.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Context, Result};
use chrono::{Days, NaiveDate};

use super::generate::{self, Row, Series, BIG_DAYS, BIG_PAIRS};
use super::seeded::{fixture_file, page_words, BIG_SITE_URL, SITES};

/// The dimensions of one series, as a filter sees them.
pub struct SeriesKeys<'a> {
    pub query: &'a str,
    pub page: &'a str,
    pub country: &'a str,
    pub device: &'a str,
}

pub struct Dataset {
    pub seed: u64,
    /// The last day with data (Search Console's data lags a couple of days behind today).
    pub end: NaiveDate,
    series: BTreeMap<&'static str, Vec<Series>>,
    /// Per seeded property, the queries whose exact words appear in the text of one of the
    /// site's pages (the rest are found only in Search Console).
    mentioned: BTreeMap<&'static str, BTreeSet<&'static str>>,
}

impl Dataset {
    /// The data for `seed`, ending on `end`, with the sample sites read from `sites_root`.
    pub fn new(seed: u64, end: NaiveDate, sites_root: &Path) -> Result<Dataset> {
        let mut series = BTreeMap::new();
        let mut mentioned = BTreeMap::new();
        for site in &SITES {
            series.insert(site.site_url, generate::series(seed, site));
            let folder = sites_root.join(site.folder);
            let mut text = String::new();
            for file in html_files(&folder)? {
                let html = std::fs::read_to_string(&file)
                    .with_context(|| format!("reading {}", file.display()))?;
                text.push_str(&page_words(&html));
            }
            for (_, _, paths, _) in site.queries {
                for path in *paths {
                    let file = folder.join(fixture_file(path));
                    anyhow::ensure!(file.is_file(), "{} is not a page", file.display());
                }
            }
            let found = site
                .queries
                .iter()
                .map(|(query, ..)| *query)
                .filter(|query| text.contains(&format!(" {query} ")))
                .collect();
            mentioned.insert(site.site_url, found);
        }
        Ok(Dataset {
            seed,
            end,
            series,
            mentioned,
        })
    }

    pub fn mentioned(&self, site_url: &str) -> Option<&BTreeSet<&'static str>> {
        self.mentioned.get(site_url)
    }

    /// Every row of `site_url` dated `from..=to` whose series `keep` accepts, in the order the
    /// data is generated (for the big property: the API's order).
    pub fn visit(
        &self,
        site_url: &str,
        from: NaiveDate,
        to: NaiveDate,
        keep: &dyn Fn(&SeriesKeys) -> bool,
        visit: &mut dyn FnMut(&Row),
    ) {
        let (first, last) = generate::data_window(site_url, self.end);
        let (from, to) = (from.max(first), to.min(last));
        if from > to {
            return;
        }
        if site_url == BIG_SITE_URL {
            for pair in 0..BIG_PAIRS {
                self.visit_big_pair(pair, from, to, 0, u64::MAX, keep, visit);
            }
            return;
        }
        let recent = generate::recent_start(self.end);
        for series in self.series.get(site_url).into_iter().flatten() {
            let keys = SeriesKeys {
                query: &series.query,
                page: &series.page,
                country: series.country,
                device: series.device,
            };
            if !keep(&keys) {
                continue;
            }
            let mut date = from;
            while date <= to {
                if let Some(row) = generate::row_on(series, date, recent) {
                    visit(&row);
                }
                date = date + Days::new(1);
            }
        }
    }

    /// The rows of one pair of the big property dated `from..=to` (within its window), after
    /// skipping `skip` of them and at most `take`; returns how many it had in the range, so a
    /// caller paging through can skip a whole pair without making its rows.
    #[allow(clippy::too_many_arguments)]
    pub fn visit_big_pair(
        &self,
        pair: u64,
        from: NaiveDate,
        to: NaiveDate,
        skip: u64,
        take: u64,
        keep: &dyn Fn(&SeriesKeys) -> bool,
        visit: &mut dyn FnMut(&Row),
    ) -> u64 {
        let (start, _) = generate::data_window(BIG_SITE_URL, self.end);
        let days = generate::big_pair_days(pair);
        let first = (from - start).num_days().max(0) as u64;
        let last = ((to - start).num_days().max(-1) + 1)
            .min(days as i64)
            .max(0) as u64;
        if first >= last {
            return 0;
        }
        let (query, page) = generate::big_pair(pair);
        let device = generate::big_row(self.seed, pair * BIG_DAYS, start, "", "").device;
        let keys = SeriesKeys {
            query: &query,
            page: &page,
            country: "usa",
            device,
        };
        if !keep(&keys) {
            return 0;
        }
        let count = last - first;
        let begin = first + skip.min(count);
        let end = begin.saturating_add(take).min(last);
        for day in begin..end {
            visit(&generate::big_row(
                self.seed,
                pair * BIG_DAYS + day,
                start,
                &query,
                &page,
            ));
        }
        count
    }
}

fn html_files(folder: &Path) -> Result<Vec<std::path::PathBuf>> {
    let mut out = Vec::new();
    let entries =
        std::fs::read_dir(folder).with_context(|| format!("reading {}", folder.display()))?;
    for entry in entries {
        let path = entry?.path();
        if path.is_dir() {
            out.extend(html_files(&path)?);
        } else if path.extension().is_some_and(|e| e == "html") {
            out.push(path);
        }
    }
    out.sort();
    Ok(out)
}
