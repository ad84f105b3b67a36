//! `searchAnalytics.query`: the request body as Google reads it (its field names, its limits),
//! filters, grouping by the asked dimensions (clicks and impressions summed, position weighted
//! by impressions), and the order that makes paging deterministic: clicks descending, then the
//! keys in the fixed order query, page, date, country, device. Filters: `equals`, `notEquals`,
//! `contains`, `notContains` (the regular expression operators are refused).

use std::collections::HashMap;

use chrono::NaiveDate;
use serde::Serialize;
use serde_json::{Map, Value};

use super::dataset::{Dataset, SeriesKeys};
use super::generate::{Row, BIG_PAIRS};
use super::seeded::BIG_SITE_URL;

/// In the order rows are sorted by when their clicks tie.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dimension {
    Query,
    Page,
    Date,
    Country,
    Device,
}

impl Dimension {
    fn parse(name: &str) -> Option<Dimension> {
        Some(match name.to_ascii_lowercase().as_str() {
            "query" => Dimension::Query,
            "page" => Dimension::Page,
            "date" => Dimension::Date,
            "country" => Dimension::Country,
            "device" => Dimension::Device,
            _ => return None,
        })
    }
}

#[derive(Debug)]
enum Operator {
    Equals,
    NotEquals,
    Contains,
    NotContains,
}

#[derive(Debug)]
struct Filter {
    dimension: Dimension,
    operator: Operator,
    expression: String,
}

impl Filter {
    fn accepts(&self, keys: &SeriesKeys) -> bool {
        let value = match self.dimension {
            Dimension::Query => keys.query,
            Dimension::Page => keys.page,
            Dimension::Country => keys.country,
            Dimension::Device => keys.device,
            Dimension::Date => return true,
        };
        // Country and device codes are matched whatever their case; `contains` is never
        // case-sensitive, `equals` is for queries and pages (as Google documents).
        let exact = matches!(self.dimension, Dimension::Query | Dimension::Page);
        let equal = if exact {
            value == self.expression
        } else {
            value.eq_ignore_ascii_case(&self.expression)
        };
        let contains = || {
            value
                .to_lowercase()
                .contains(&self.expression.to_lowercase())
        };
        match &self.operator {
            Operator::Equals => equal,
            Operator::NotEquals => !equal,
            Operator::Contains => contains(),
            Operator::NotContains => !contains(),
        }
    }
}

#[derive(Debug)]
pub struct AnalyticsRequest {
    pub start: NaiveDate,
    pub end: NaiveDate,
    pub dimensions: Vec<Dimension>,
    filters: Vec<Filter>,
    pub row_limit: u64,
    pub start_row: u64,
    /// Only web search has data here; the other types answer no rows.
    web: bool,
    by_page: bool,
}

const FIELDS: [&str; 10] = [
    "startDate",
    "endDate",
    "dimensions",
    "type",
    "searchType",
    "dimensionFilterGroups",
    "aggregationType",
    "rowLimit",
    "startRow",
    "dataState",
];

fn date(body: &Map<String, Value>, field: &str) -> Result<NaiveDate, String> {
    let text = body
        .get(field)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("Missing required field: {field}."))?;
    NaiveDate::parse_from_str(text, "%Y-%m-%d").map_err(|_| {
        format!("Invalid value at '{field}' (TYPE_STRING), \"{text}\": use YYYY-MM-DD.")
    })
}

fn text<'a>(object: &'a Map<String, Value>, field: &str) -> Result<Option<&'a str>, String> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(format!("Invalid value at '{field}': {other}.")),
    }
}

fn whole(body: &Map<String, Value>, field: &str, default: u64) -> Result<i64, String> {
    match body.get(field) {
        None | Some(Value::Null) => Ok(default as i64),
        Some(v) => v
            .as_i64()
            .ok_or_else(|| format!("Invalid value at '{field}' (TYPE_INT32), {v}.")),
    }
}

/// The body of a query, or Google's INVALID_ARGUMENT message.
pub fn parse(body: &[u8]) -> Result<AnalyticsRequest, String> {
    let value: Value =
        serde_json::from_slice(body).map_err(|e| format!("Invalid JSON payload received. {e}"))?;
    let Value::Object(body) = value else {
        return Err("Invalid JSON payload received. Expected an object.".into());
    };
    if let Some(unknown) = body.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(format!(
            "Invalid JSON payload received. Unknown name \"{unknown}\": Cannot find field."
        ));
    }
    let (start, end) = (date(&body, "startDate")?, date(&body, "endDate")?);
    if start > end {
        return Err("startDate must be earlier than or equal to endDate.".into());
    }
    let mut dimensions = Vec::new();
    for name in body
        .get("dimensions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = name.as_str().unwrap_or_default();
        let dimension = Dimension::parse(name)
            .ok_or_else(|| format!("Invalid value at 'dimensions': \"{name}\"."))?;
        if dimensions.contains(&dimension) {
            return Err(format!("Dimension {name} is repeated."));
        }
        dimensions.push(dimension);
    }
    let kind = text(&body, "type")?
        .or(text(&body, "searchType")?)
        .unwrap_or("web");
    let known_types = ["web", "image", "video", "news", "discover", "googlenews"];
    if !known_types.contains(&kind.to_ascii_lowercase().as_str()) {
        return Err(format!("Invalid value at 'type': \"{kind}\"."));
    }
    if let Some(state) = text(&body, "dataState")? {
        if !["final", "all", "hourly_all"].contains(&state.to_ascii_lowercase().as_str()) {
            return Err(format!("Invalid value at 'data_state': \"{state}\"."));
        }
    }
    let filters = parse_filters(body.get("dimensionFilterGroups"))?;
    let by_page = dimensions.contains(&Dimension::Page)
        || filters.iter().any(|f| f.dimension == Dimension::Page);
    match text(&body, "aggregationType")?
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        None | Some("auto") | Some("bypage") => {}
        Some("byproperty") if by_page => {
            return Err("Cannot aggregate by property when grouping or filtering by page.".into())
        }
        Some("byproperty") => {}
        Some(other) => return Err(format!("Invalid value at 'aggregation_type': \"{other}\".")),
    }
    let row_limit = whole(&body, "rowLimit", 1000)?;
    if !(1..=25_000).contains(&row_limit) {
        return Err("rowLimit must be between 1 and 25000.".into());
    }
    let start_row = whole(&body, "startRow", 0)?;
    if start_row < 0 {
        return Err("startRow must be non-negative.".into());
    }
    Ok(AnalyticsRequest {
        start,
        end,
        dimensions,
        filters,
        row_limit: row_limit as u64,
        start_row: start_row as u64,
        web: kind.eq_ignore_ascii_case("web"),
        by_page,
    })
}

fn parse_filters(groups: Option<&Value>) -> Result<Vec<Filter>, String> {
    let mut filters = Vec::new();
    let groups = match groups {
        None | Some(Value::Null) => return Ok(filters),
        Some(Value::Array(groups)) => groups,
        Some(_) => return Err("Invalid value at 'dimension_filter_groups'.".into()),
    };
    for group in groups {
        let group = group
            .as_object()
            .ok_or("A filter group must be an object.")?;
        if let Some(kind) = text(group, "groupType")? {
            if !kind.eq_ignore_ascii_case("and") {
                return Err(format!("Invalid value at 'group_type': \"{kind}\"."));
            }
        }
        for filter in group
            .get("filters")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let filter = filter.as_object().ok_or("A filter must be an object.")?;
            let name = text(filter, "dimension")?.unwrap_or_default();
            let dimension = Dimension::parse(name)
                .filter(|d| *d != Dimension::Date)
                .ok_or_else(|| format!("Invalid value at 'filters.dimension': \"{name}\"."))?;
            let expression = text(filter, "expression")?.unwrap_or_default().to_owned();
            let operator = match text(filter, "operator")?.unwrap_or("equals") {
                "equals" => Operator::Equals,
                "notEquals" => Operator::NotEquals,
                "contains" => Operator::Contains,
                "notContains" => Operator::NotContains,
                "includingRegex" | "excludingRegex" => {
                    return Err("The mock does not take regular expression filters.".into())
                }
                other => return Err(format!("Invalid value at 'filters.operator': \"{other}\".")),
            };
            filters.push(Filter {
                dimension,
                operator,
                expression,
            });
        }
    }
    Ok(filters)
}

/// One row of the answer, with Google's field names.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ApiRow {
    pub keys: Vec<String>,
    pub clicks: u64,
    pub impressions: u64,
    pub ctr: f64,
    pub position: f64,
}

#[derive(Debug, Default, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Key {
    query: Option<String>,
    page: Option<String>,
    date: Option<NaiveDate>,
    country: Option<&'static str>,
    device: Option<&'static str>,
}

#[derive(Default)]
struct Sum {
    clicks: u64,
    impressions: u64,
    weighted_position: f64,
}

impl AnalyticsRequest {
    /// `responseAggregationType`.
    pub fn aggregation(&self) -> &'static str {
        if self.by_page {
            "byPage"
        } else {
            "byProperty"
        }
    }

    fn keep(&self, keys: &SeriesKeys) -> bool {
        self.filters.iter().all(|f| f.accepts(keys))
    }

    fn key(&self, row: &Row) -> Key {
        let has = |d| self.dimensions.contains(&d);
        Key {
            query: has(Dimension::Query).then(|| row.query.to_owned()),
            page: has(Dimension::Page).then(|| row.page.to_owned()),
            date: has(Dimension::Date).then_some(row.date),
            country: has(Dimension::Country).then_some(row.country),
            device: has(Dimension::Device).then_some(row.device),
        }
    }

    fn api_row(&self, key: &Key, sum: &Sum) -> ApiRow {
        let keys = self
            .dimensions
            .iter()
            .map(|d| match d {
                Dimension::Query => key.query.clone().unwrap_or_default(),
                Dimension::Page => key.page.clone().unwrap_or_default(),
                Dimension::Date => key.date.map(|d| d.to_string()).unwrap_or_default(),
                Dimension::Country => key.country.unwrap_or_default().to_owned(),
                Dimension::Device => key.device.unwrap_or_default().to_owned(),
            })
            .collect();
        let impressions = sum.impressions.max(1) as f64;
        ApiRow {
            keys,
            clicks: sum.clicks,
            impressions: sum.impressions,
            ctr: sum.clicks as f64 / impressions,
            position: sum.weighted_position / impressions,
        }
    }

    /// The page of rows this request asks for.
    pub fn run(&self, data: &Dataset, site_url: &str) -> Vec<ApiRow> {
        if !self.web {
            return Vec::new();
        }
        let keep = |keys: &SeriesKeys| self.keep(keys);
        let raw = self.dimensions.contains(&Dimension::Page)
            && self.dimensions.contains(&Dimension::Date);
        if site_url == BIG_SITE_URL && raw {
            return self.big_page(data, &keep);
        }
        let mut groups: HashMap<Key, Sum> = HashMap::new();
        data.visit(site_url, self.start, self.end, &keep, &mut |row| {
            let sum = groups.entry(self.key(row)).or_default();
            sum.clicks += row.clicks;
            sum.impressions += row.impressions;
            sum.weighted_position += row.position * row.impressions as f64;
        });
        let mut sorted: Vec<(Key, Sum)> = groups.into_iter().collect();
        sorted.sort_by(|(ka, a), (kb, b)| b.clicks.cmp(&a.clicks).then_with(|| ka.cmp(kb)));
        sorted
            .iter()
            .skip(self.start_row as usize)
            .take(self.row_limit as usize)
            .map(|(key, sum)| self.api_row(key, sum))
            .collect()
    }

    /// Each row of the big property is its own group when pages and dates are asked for (a
    /// page has one query, one country and one device), and the rows come in the API's order:
    /// the page is cut out of the stream without holding the rest.
    fn big_page(&self, data: &Dataset, keep: &dyn Fn(&SeriesKeys) -> bool) -> Vec<ApiRow> {
        let mut skip = self.start_row;
        let mut out = Vec::new();
        for pair in 0..BIG_PAIRS {
            let take = self.row_limit - out.len() as u64;
            if take == 0 {
                break;
            }
            let mut emit = |row: &Row| {
                let sum = Sum {
                    clicks: row.clicks,
                    impressions: row.impressions,
                    weighted_position: row.position * row.impressions as f64,
                };
                out.push(self.api_row(&self.key(row), &sum));
            };
            let had = data.visit_big_pair(pair, self.start, self.end, skip, take, keep, &mut emit);
            skip = skip.saturating_sub(had);
        }
        out
    }
}
