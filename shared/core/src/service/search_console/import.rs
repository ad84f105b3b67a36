//! A job's import of its property's searches: Search Console's `searchAnalytics.query` by
//! query, page and day over the last `days` days of data for the job's country, read a page
//! of rows at a time and folded into per-query figures as it arrives (a million rows are never
//! held), then matched to the job's keywords. A lapsed grant or Google failing is an outcome
//! ([`ImportOutcome::Skipped`] with the reason), never an error: the job goes on without.

use std::collections::HashMap;

use async_trait::async_trait;
use chrono::{Days, NaiveDate};

use super::{access, AccessToken, CredentialKey, GoogleAccounts, GoogleError, SearchConsoleError};
use crate::dataset::{compared_keyword, SearchConsoleDay, SearchConsoleMetrics, SearchConsolePage};
use crate::domain::{PropertyUrl, SearchConsoleImport, UserId};
use crate::store::{SearchConsoleStore, StoreError};

/// Rows per request: Search Console's largest page.
pub const ROW_LIMIT: u32 = 25_000;
/// Days of data a job imports unless `KR_SEARCH_CONSOLE_DAYS` says otherwise.
pub const DEFAULT_DAYS: u32 = 90;
/// The most days Search Console keeps (16 months).
pub const MAX_DAYS: u32 = 486;
/// Days in the recent window (and in the one before it).
pub const WINDOW_DAYS: u64 = 28;
/// Pages kept per keyword.
pub const MAX_PAGES: usize = 10;
/// Longest query that can join a job (as keyword lists are cleaned).
const MAX_QUERY_CHARS: usize = 80;
const MAX_QUERY_WORDS: usize = 10;

/// `KR_SEARCH_CONSOLE_DAYS`: 1 to 486, default 90.
pub fn days_from_vars(lookup: impl Fn(&str) -> Option<String>) -> Result<u32, String> {
    match lookup("KR_SEARCH_CONSOLE_DAYS") {
        None => Ok(DEFAULT_DAYS),
        Some(raw) => raw
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|days| (1..=MAX_DAYS).contains(days))
            .ok_or_else(|| format!("KR_SEARCH_CONSOLE_DAYS must be 1 to {MAX_DAYS}")),
    }
}

/// A dimension of a search analytics query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnalyticsDimension {
    Query,
    Page,
    Date,
}

/// What is asked of `searchAnalytics.query` (web search; every row, paged by the adapter).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalyticsQuery {
    pub start_date: NaiveDate,
    pub end_date: NaiveDate,
    pub dimensions: Vec<AnalyticsDimension>,
    /// ISO 3166-1 alpha-3, lowercase (`usa`); `None`: every country.
    pub country: Option<String>,
}

/// One row: its keys in the order of the query's dimensions.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalyticsRow {
    pub keys: Vec<String>,
    pub clicks: u64,
    pub impressions: u64,
    /// Average position of the row, as Search Console gives it.
    pub position: f64,
}

/// The port to the Search Analytics API.
#[async_trait]
pub trait SearchAnalytics: Send + Sync {
    /// Every row of `query` on `property`, [`ROW_LIMIT`] at a time (`startRow`) until a short
    /// page; each page goes to `page` as it arrives. Answers the rows read.
    async fn search_analytics(
        &self,
        token: &AccessToken,
        property: &PropertyUrl,
        query: &AnalyticsQuery,
        page: &mut (dyn FnMut(Vec<AnalyticsRow>) + Send),
    ) -> Result<u64, GoogleError>;
}

/// A property's searches over the imported window, per query.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SearchConsoleData {
    pub start_date: Option<NaiveDate>,
    /// The last day with data.
    pub end_date: Option<NaiveDate>,
    pub rows: u64,
    /// Every query, in no order.
    pub queries: Vec<QueryData>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct QueryData {
    /// As Search Console wrote it.
    pub query: String,
    /// Impressions over the whole window.
    pub window_impressions: u64,
    pub metrics: SearchConsoleMetrics,
}

/// What an import came to.
#[derive(Debug, Clone, PartialEq)]
pub enum ImportOutcome {
    Imported(SearchConsoleData),
    /// Not imported, for this reason (the owner's words).
    Skipped(String),
}

/// Reads `property`'s searches for a job of `owner`: `days` days of data ending on the last
/// day Search Console has (asked first, by date only, from `today` back), by query, page and
/// date, for `country`. Store failures are errors (the stage is retried); anything Google
/// says is an outcome. A refused grant is also recorded on the connection as lapsed.
#[allow(clippy::too_many_arguments)]
pub async fn import_search_console(
    store: &dyn SearchConsoleStore,
    google: &dyn GoogleAccounts,
    analytics: &dyn SearchAnalytics,
    key: &CredentialKey,
    owner: UserId,
    property: &PropertyUrl,
    country: Option<&str>,
    days: u32,
    today: NaiveDate,
) -> Result<ImportOutcome, StoreError> {
    let Some(mut connection) = store.connection(owner).await? else {
        return Ok(ImportOutcome::Skipped(
            "The account no longer has a Search Console connection; connect it again in Settings → Search Console.".into(),
        ));
    };
    let listed = connection
        .properties
        .iter()
        .any(|listed| &listed.site_url == property && listed.permission_level.reads_data());
    if !listed {
        return Ok(ImportOutcome::Skipped(format!(
            "The connected Google account no longer lists {property} as a property it can read."
        )));
    }
    let token = match access(google, key, &connection).await {
        Ok(token) => token,
        Err(SearchConsoleError::Google(GoogleError::GrantRefused(why))) => {
            connection.lapsed = Some(why.clone());
            store.put_connection(&connection).await?;
            return Ok(ImportOutcome::Skipped(format!(
                "Google refused the Search Console grant ({why}); connect Search Console again in Settings → Search Console."
            )));
        }
        Err(SearchConsoleError::Store(err)) => return Err(err),
        Err(other) => return Ok(ImportOutcome::Skipped(skip_reason(&other.to_string()))),
    };
    let days = days.clamp(1, MAX_DAYS);
    let span = Days::new(u64::from(days) - 1);
    let country = country.map(str::to_string);
    // The last day with data: Search Console lags, and the windows end there.
    let mut last: Option<NaiveDate> = None;
    let by_date = AnalyticsQuery {
        start_date: today - span,
        end_date: today,
        dimensions: vec![AnalyticsDimension::Date],
        country: country.clone(),
    };
    let read = analytics
        .search_analytics(&token, property, &by_date, &mut |rows| {
            for row in rows {
                let date = row.keys.first().and_then(|d| parse_date(d));
                if row.impressions > 0 && date > last {
                    last = date;
                }
            }
        })
        .await;
    if let Err(err) = read {
        return Ok(ImportOutcome::Skipped(google_reason(err)));
    }
    let Some(end) = last else {
        return Ok(ImportOutcome::Imported(SearchConsoleData::default()));
    };
    let start = end - span;
    let mut folding = Fold::new(start, end);
    let query = AnalyticsQuery {
        start_date: start,
        end_date: end,
        dimensions: vec![
            AnalyticsDimension::Query,
            AnalyticsDimension::Page,
            AnalyticsDimension::Date,
        ],
        country,
    };
    let read = analytics
        .search_analytics(&token, property, &query, &mut |rows| {
            for row in rows {
                folding.add(row);
            }
        })
        .await;
    match read {
        Ok(rows) => Ok(ImportOutcome::Imported(folding.finish(rows))),
        Err(err) => Ok(ImportOutcome::Skipped(google_reason(err))),
    }
}

fn parse_date(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()
}

fn skip_reason(detail: &str) -> String {
    format!("Search Console could not be read ({detail}); the job went on without its data.")
}

fn google_reason(err: GoogleError) -> String {
    match err {
        GoogleError::GrantRefused(why) => format!(
            "Google refused the Search Console grant ({why}); connect Search Console again in Settings → Search Console."
        ),
        GoogleError::PropertyRefused(why) => {
            format!("Google refused access to the property ({why}); the job went on without its data.")
        }
        other => skip_reason(&other.to_string()),
    }
}

#[derive(Debug, Default, Clone, Copy)]
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
        if self.impressions == 0 {
            0.0
        } else {
            round(self.weighted / self.impressions as f64, 100.0)
        }
    }
}

fn round(value: f64, scale: f64) -> f64 {
    (value * scale).round() / scale
}

/// One query's figures while rows arrive.
struct QueryFold {
    query: String,
    recent: Sum,
    previous: Sum,
    window_impressions: u64,
    /// (page id, recent figures).
    pages: Vec<(u32, Sum)>,
    /// (day from the window's start, figures): one per row; merged at the end.
    days: Vec<(u16, u32, u32, f32)>,
}

/// Rows folded into per-query figures.
struct Fold {
    start: NaiveDate,
    recent_from: NaiveDate,
    previous_from: NaiveDate,
    queries: HashMap<String, QueryFold>,
    pages: HashMap<String, u32>,
    page_names: Vec<String>,
}

impl Fold {
    fn new(start: NaiveDate, end: NaiveDate) -> Self {
        let recent_from = end - Days::new(WINDOW_DAYS - 1);
        Self {
            start,
            recent_from,
            previous_from: recent_from - Days::new(WINDOW_DAYS),
            queries: HashMap::new(),
            pages: HashMap::new(),
            page_names: Vec::new(),
        }
    }

    fn add(&mut self, row: AnalyticsRow) {
        let [query, page, date] = <[String; 3]>::try_from(row.keys).unwrap_or_default();
        let Some(date) = parse_date(&date) else {
            return;
        };
        if date < self.start || query.trim().is_empty() {
            return;
        }
        let entry = self
            .queries
            .entry(compared_keyword(&query))
            .or_insert_with(|| QueryFold {
                query,
                recent: Sum::default(),
                previous: Sum::default(),
                window_impressions: 0,
                pages: Vec::new(),
                days: Vec::new(),
            });
        let (clicks, impressions, position) = (row.clicks, row.impressions, row.position);
        entry.window_impressions += impressions;
        let day = (date - self.start).num_days() as u16;
        entry.days.push((
            day,
            clicks.min(u32::MAX as u64) as u32,
            impressions.min(u32::MAX as u64) as u32,
            (position * impressions as f64) as f32,
        ));
        if date >= self.recent_from {
            entry.recent.add(clicks, impressions, position);
            let next_id = self.page_names.len() as u32;
            let id = *self.pages.entry(page.clone()).or_insert(next_id);
            if id == next_id {
                self.page_names.push(page);
            }
            match entry.pages.iter_mut().find(|(p, _)| *p == id) {
                Some((_, sum)) => sum.add(clicks, impressions, position),
                None => {
                    let mut sum = Sum::default();
                    sum.add(clicks, impressions, position);
                    entry.pages.push((id, sum));
                }
            }
        } else if date >= self.previous_from {
            entry.previous.add(clicks, impressions, position);
        }
    }

    fn finish(self, rows: u64) -> SearchConsoleData {
        let Fold {
            start,
            recent_from,
            queries,
            page_names,
            ..
        } = self;
        let end = recent_from + Days::new(WINDOW_DAYS - 1);
        let queries = queries
            .into_values()
            .map(|mut fold| {
                let mut pages: Vec<SearchConsolePage> = fold
                    .pages
                    .iter()
                    .filter(|(_, sum)| sum.impressions > 0)
                    .map(|(id, sum)| SearchConsolePage {
                        page: page_names[*id as usize].clone(),
                        clicks: sum.clicks,
                        impressions: sum.impressions,
                        position: sum.position(),
                    })
                    .collect();
                pages.sort_by(|a, b| {
                    (b.clicks, b.impressions)
                        .cmp(&(a.clicks, a.impressions))
                        .then_with(|| a.page.cmp(&b.page))
                });
                pages.truncate(MAX_PAGES);
                fold.days.sort_unstable_by_key(|(day, ..)| *day);
                let mut daily: Vec<SearchConsoleDay> = Vec::new();
                let mut current: Option<(u16, Sum)> = None;
                let flush = |entry: Option<(u16, Sum)>, daily: &mut Vec<SearchConsoleDay>| {
                    if let Some((day, sum)) = entry.filter(|(_, sum)| sum.impressions > 0) {
                        daily.push(SearchConsoleDay {
                            date: (start + Days::new(u64::from(day))).to_string(),
                            clicks: sum.clicks,
                            impressions: sum.impressions,
                            position: sum.position(),
                        });
                    }
                };
                for (day, clicks, impressions, weighted) in fold.days {
                    if current.as_ref().is_some_and(|(d, _)| *d != day) {
                        flush(current.take(), &mut daily);
                    }
                    let sum = &mut current.get_or_insert((day, Sum::default())).1;
                    sum.clicks += u64::from(clicks);
                    sum.impressions += u64::from(impressions);
                    sum.weighted += f64::from(weighted);
                }
                flush(current, &mut daily);
                let recent = fold.recent;
                QueryData {
                    query: fold.query,
                    window_impressions: fold.window_impressions,
                    metrics: SearchConsoleMetrics {
                        clicks: recent.clicks,
                        impressions: recent.impressions,
                        ctr: if recent.impressions == 0 {
                            0.0
                        } else {
                            round(recent.clicks as f64 / recent.impressions as f64, 10_000.0)
                        },
                        position: recent.position(),
                        page: pages.first().map(|p| p.page.clone()),
                        previous_clicks: fold.previous.clicks,
                        previous_impressions: fold.previous.impressions,
                        pages,
                        daily,
                    },
                }
            })
            .collect();
        SearchConsoleData {
            start_date: Some(start),
            end_date: Some(end),
            rows,
            queries,
        }
    }
}

/// A job's share of an import: the figures of its keywords, and the queries only Search
/// Console knew that join it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct JobSearchConsole {
    /// (compared keyword, figures) for every keyword of the job the property has data for.
    pub matched: Vec<(String, SearchConsoleMetrics)>,
    /// Queries to add to the job, most impressions first (last 28 days, then the window).
    pub added: Vec<QueryData>,
}

impl SearchConsoleData {
    /// Matches `keywords` (the job's, compared case- and space-insensitively) and picks at
    /// most `room` of the other queries to add, by impressions over the last 28 days (then
    /// over the window, then by text); queries too long to be keywords (80 characters, 10
    /// words) are left out.
    pub fn for_job<'a>(
        &self,
        keywords: impl IntoIterator<Item = &'a str>,
        room: usize,
    ) -> JobSearchConsole {
        let wanted: std::collections::HashSet<String> =
            keywords.into_iter().map(compared_keyword).collect();
        let mut matched = Vec::new();
        let mut others = Vec::new();
        for query in &self.queries {
            let key = compared_keyword(&query.query);
            if wanted.contains(&key) {
                matched.push((key, query.metrics.clone()));
            } else if query.query.chars().count() <= MAX_QUERY_CHARS
                && query.query.split_whitespace().count() <= MAX_QUERY_WORDS
            {
                others.push(query);
            }
        }
        matched.sort_by(|a, b| a.0.cmp(&b.0));
        others.sort_by(|a: &&QueryData, b: &&QueryData| {
            (b.metrics.impressions, b.window_impressions)
                .cmp(&(a.metrics.impressions, a.window_impressions))
                .then_with(|| a.query.cmp(&b.query))
        });
        others.truncate(room);
        JobSearchConsole {
            matched,
            added: others.into_iter().cloned().collect(),
        }
    }
}

impl ImportOutcome {
    /// The job's record of it, given what joined the job.
    pub fn record(&self, joined: Option<&JobSearchConsole>) -> SearchConsoleImport {
        match self {
            Self::Skipped(reason) => SearchConsoleImport::skipped(reason.clone()),
            Self::Imported(data) => SearchConsoleImport {
                status: crate::domain::ImportStatus::Imported,
                reason: data.end_date.is_none().then(|| {
                    "The property has no data for the job's country in the window.".to_string()
                }),
                rows: data.rows,
                queries: data.queries.len() as u64,
                keywords: joined.map_or(0, |j| (j.matched.len() + j.added.len()) as u64),
                added_keywords: joined.map_or(0, |j| j.added.len() as u64),
                start_date: data.start_date.map(|d| d.to_string()),
                end_date: data.end_date.map(|d| d.to_string()),
            },
        }
    }
}
