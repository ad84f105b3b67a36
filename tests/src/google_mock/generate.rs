//! The data behind every property, generated on demand: a row's clicks, impressions and
//! position are a pure function of the seed, the property, the query, the page, the country and
//! the date (and, for decaying queries, of where the last 28 days of data begin). Nothing is
//! random and nothing is stored: any date range can be asked for, and the big property's
//! 1,000,000 rows are produced one at a time.

use chrono::{Datelike, Days, Months, NaiveDate};

use super::seeded::{Kind, SeededSite, BIG_SITE_URL};

/// One row of data: a (query, page, date, country) with its device.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row<'a> {
    pub query: &'a str,
    pub page: &'a str,
    pub date: NaiveDate,
    pub country: &'static str,
    pub device: &'static str,
    pub clicks: u64,
    pub impressions: u64,
    pub position: f64,
}

/// Days of the big property, ending with the last day of data.
pub const BIG_DAYS: u64 = 90;
pub const BIG_ROWS: u64 = 1_000_000;
const BIG_PAGES_PER_QUERY: u64 = 4;
/// (query, page) pairs of the big property: every one has all 90 days but the last, which has
/// the 10 days that make the count exactly 1,000,000.
pub const BIG_PAIRS: u64 = BIG_ROWS.div_ceil(BIG_DAYS);
pub const BIG_QUERIES: u64 = BIG_PAIRS.div_ceil(BIG_PAGES_PER_QUERY);

/// A 64-bit mix of a string (FNV-1a), for the keys of the generator.
pub(super) fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// splitmix64's finaliser.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// A number in [0, 1) for `key` and `salt`.
fn unit(key: u64, salt: u64) -> f64 {
    (mix(key ^ mix(salt.wrapping_add(0x9e37_79b9_7f4a_7c15))) >> 11) as f64 / (1u64 << 53) as f64
}

/// The share of impressions that click at a position (organic results, roughly).
pub fn ctr_at(position: f64) -> f64 {
    const TOP: [f64; 10] = [
        0.28, 0.16, 0.11, 0.08, 0.06, 0.045, 0.035, 0.028, 0.023, 0.02,
    ];
    match position {
        p if p < 10.5 => TOP[(p.round().max(1.0) as usize) - 1],
        p if p <= 20.0 => 0.012,
        _ => 0.003,
    }
}

const DEVICES: [&str; 3] = ["MOBILE", "DESKTOP", "TABLET"];

fn device_for(key: u64) -> &'static str {
    match unit(key, 7) {
        u if u < 0.55 => DEVICES[0],
        u if u < 0.95 => DEVICES[1],
        _ => DEVICES[2],
    }
}

/// One (query, page, country) of a seeded property, with its generator's parameters.
#[derive(Debug, Clone)]
pub struct Series {
    pub query: String,
    pub page: String,
    pub country: &'static str,
    pub device: &'static str,
    pub kind: Kind,
    key: u64,
    impressions: f64,
    position: f64,
}

/// The series of a seeded site.
pub fn series(seed: u64, site: &SeededSite) -> Vec<Series> {
    let mut out = Vec::new();
    for (query, kind, paths, gbr) in site.queries {
        for (rank, path) in paths.iter().enumerate() {
            let page = format!("{}{path}", site.origin);
            let base = mix(seed ^ fnv(site.site_url)) ^ fnv(query) ^ fnv(&page).rotate_left(17);
            let (u, v) = (unit(base, 1), unit(base, 2));
            // Impressions a day and position, by kind; a cannibalized query's later pages get
            // a smaller share at a worse position.
            let (impressions, position) = match kind {
                Kind::Healthy => (30.0 + 90.0 * u, 1.3 + 1.3 * v),
                Kind::Striking => (4.0 + 16.0 * u, 6.0 + 9.0 * v),
                Kind::Decaying => (40.0 + 40.0 * u, 2.5 + 2.0 * v),
                Kind::Cannibalized => {
                    let share = [0.6, 0.3, 0.15][rank.min(2)];
                    (
                        (12.0 + 18.0 * u) * share * 2.0,
                        5.0 + 3.0 * v + 4.0 * rank as f64,
                    )
                }
                Kind::Ordinary => (1.0 + 5.0 * u, 21.0 + 24.0 * v),
            };
            let countries: &[(&str, f64, f64)] = if *gbr {
                &[("usa", 1.0, 0.0), ("gbr", 0.12, 2.0)]
            } else {
                &[("usa", 1.0, 0.0)]
            };
            for (country, share, worse) in countries {
                let key = base ^ fnv(country).rotate_left(29);
                out.push(Series {
                    query: (*query).to_owned(),
                    page: page.clone(),
                    country,
                    device: device_for(key),
                    kind: *kind,
                    key,
                    impressions: impressions * share,
                    position: position + worse,
                });
            }
        }
    }
    out
}

/// The series' row on `date`, when it had impressions. `recent` is the first day of the last 28
/// days of data, where a decaying query has lost most of its clicks.
pub fn row_on(series: &Series, date: NaiveDate, recent: NaiveDate) -> Option<Row<'_>> {
    let day = u64::from(date.num_days_from_ce().unsigned_abs());
    let key = series.key ^ mix(day);
    let weekend = matches!(date.weekday().num_days_from_monday(), 5 | 6);
    let season = 1.0 + 0.15 * (f64::from(date.ordinal()) / 365.0 * std::f64::consts::TAU).sin();
    let noise = 0.75 + 0.5 * unit(key, 3);
    let decayed = series.kind == Kind::Decaying && date >= recent;
    let mut impressions = series.impressions * season * noise * if weekend { 0.8 } else { 1.0 };
    let mut position = (series.position + 1.6 * (unit(key, 4) - 0.5)).max(1.0);
    let mut ctr = ctr_at(position) * (0.8 + 0.4 * unit(key, 5));
    if decayed {
        impressions *= 0.55;
        position += 2.0;
        ctr *= 0.5;
    }
    let impressions = (impressions + unit(key, 6)).floor() as u64;
    if impressions == 0 {
        return None;
    }
    let clicks = ((impressions as f64 * ctr + unit(key, 8)).floor() as u64).min(impressions);
    position = (position * 100.0).round() / 100.0;
    Some(Row {
        query: &series.query,
        page: &series.page,
        date,
        country: series.country,
        device: series.device,
        clicks,
        impressions,
        position,
    })
}

/// The days a property has data for: 16 months up to `end` (90 days for the big property).
pub fn data_window(site_url: &str, end: NaiveDate) -> (NaiveDate, NaiveDate) {
    let start = if site_url == BIG_SITE_URL {
        end - Days::new(BIG_DAYS - 1)
    } else {
        end.checked_sub_months(Months::new(16)).unwrap_or(end) + Days::new(1)
    };
    (start, end)
}

/// The first day of the last 28 days of data.
pub fn recent_start(end: NaiveDate) -> NaiveDate {
    end - Days::new(27)
}

/// The big property's (query, page) pair `pair`: its query text and page URL. Both are
/// zero-padded so that their text order is the pairs' order.
pub fn big_pair(pair: u64) -> (String, String) {
    let query = pair / BIG_PAGES_PER_QUERY;
    let page = pair % BIG_PAGES_PER_QUERY;
    (
        format!("big test query {query:05}"),
        format!("https://big-property.com/q{query:05}/p{page}"),
    )
}

/// How many days pair `pair` has (every day but for the last pair).
pub fn big_pair_days(pair: u64) -> u64 {
    BIG_DAYS.min(BIG_ROWS - pair * BIG_DAYS)
}

/// The big property's row `index` (pair `index / 90`, day `index % 90` from `start`). Clicks
/// never grow with the index, and ties keep the index's order, which is the order of the keys:
/// the rows in index order are the rows in the API's order, whatever dates are asked for.
pub fn big_row<'a>(
    seed: u64,
    index: u64,
    start: NaiveDate,
    query: &'a str,
    page: &'a str,
) -> Row<'a> {
    let key = mix(seed ^ 0xb16 ^ mix(index));
    let pair_key = mix(seed ^ (index / BIG_DAYS));
    let clicks = 2_000_000 / (index + 400);
    let impressions = clicks * (3 + (key % 20)) + (key >> 32) % 50;
    Row {
        query,
        page,
        date: start + Days::new(index % BIG_DAYS),
        country: "usa",
        device: device_for(pair_key),
        clicks,
        impressions,
        position: ((1.0 + 40.0 * unit(key, 9)) * 100.0).round() / 100.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::google_mock::seeded::SITES;

    fn date(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn google_rows_are_a_pure_function_of_their_keys() {
        let site = &SITES[0];
        let (a, b) = (series(7, site), series(7, site));
        let recent = date("2026-03-01");
        for (x, y) in a.iter().zip(&b) {
            for d in ["2025-01-01", "2026-02-28", "2026-03-15"] {
                assert_eq!(row_on(x, date(d), recent), row_on(y, date(d), recent));
            }
        }
        let other = series(8, site);
        let differs = a
            .iter()
            .zip(&other)
            .any(|(x, y)| row_on(x, recent, recent) != row_on(y, recent, recent));
        assert!(differs, "the seed matters");
    }

    #[test]
    fn google_big_property_counts_and_orders_its_rows() {
        assert_eq!(BIG_PAIRS, 11_112);
        let total: u64 = (0..BIG_PAIRS).map(big_pair_days).sum();
        assert_eq!(total, BIG_ROWS);
        let start = date("2026-01-01");
        let (q0, p0) = big_pair(0);
        let (q1, p1) = big_pair(1);
        assert!((q0.as_str(), p0.as_str()) < (q1.as_str(), p1.as_str()));
        let mut last = u64::MAX;
        for index in (0..BIG_ROWS).step_by(997) {
            let row = big_row(1, index, start, "q", "p");
            assert!(row.clicks <= last && row.clicks >= 1 && row.impressions >= row.clicks);
            last = row.clicks;
        }
    }
}
