//! `searchAnalytics.query` (Search Console API v1, under `/webmasters/v3/`): the request and
//! its rows with Google's field names, read `rowLimit` rows at a time from `startRow` until a
//! page comes back short, each page handed on as it arrives (so a million rows are never held
//! at once). Every request is retried with backoff on 429 and 5xx (`api::call`).

use async_trait::async_trait;
use kr_core::domain::PropertyUrl;
use kr_core::service::search_console::{
    AccessToken, AnalyticsDimension, AnalyticsQuery, AnalyticsRow, GoogleError, SearchAnalytics,
    ROW_LIMIT,
};
use reqwest::Method;
use serde::{Deserialize, Serialize};

use crate::api::call;
use crate::Google;

/// The request body, as Google names its fields.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchAnalyticsRequest {
    /// `YYYY-MM-DD`, Pacific time, inclusive.
    pub start_date: String,
    pub end_date: String,
    /// `query`, `page`, `date`, `country`, `device`.
    pub dimensions: Vec<&'static str>,
    /// `web`.
    #[serde(rename = "type")]
    pub search_type: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dimension_filter_groups: Vec<FilterGroup>,
    /// 1 to 25,000.
    pub row_limit: u32,
    /// Zero-based.
    pub start_row: u64,
    /// `final`: only finished days, as the windows are read from them.
    pub data_state: &'static str,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FilterGroup {
    pub group_type: &'static str,
    pub filters: Vec<Filter>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Filter {
    pub dimension: &'static str,
    pub operator: &'static str,
    pub expression: String,
}

/// One row of the answer.
#[derive(Debug, Clone, Deserialize)]
pub struct ApiRow {
    #[serde(default)]
    pub keys: Vec<String>,
    #[serde(default)]
    pub clicks: f64,
    #[serde(default)]
    pub impressions: f64,
    #[serde(default)]
    pub position: f64,
}

/// The answer: `rows` is absent when there are none.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchAnalyticsAnswer {
    #[serde(default)]
    pub rows: Vec<ApiRow>,
}

fn dimension(d: AnalyticsDimension) -> &'static str {
    match d {
        AnalyticsDimension::Query => "query",
        AnalyticsDimension::Page => "page",
        AnalyticsDimension::Date => "date",
    }
}

impl SearchAnalyticsRequest {
    /// The first page of `query`.
    pub fn of(query: &AnalyticsQuery, row_limit: u32) -> Self {
        let filters: Vec<Filter> = query
            .country
            .iter()
            .map(|country| Filter {
                dimension: "country",
                operator: "equals",
                expression: country.clone(),
            })
            .collect();
        Self {
            start_date: query.start_date.to_string(),
            end_date: query.end_date.to_string(),
            dimensions: query.dimensions.iter().copied().map(dimension).collect(),
            search_type: "web",
            dimension_filter_groups: if filters.is_empty() {
                Vec::new()
            } else {
                vec![FilterGroup {
                    group_type: "and",
                    filters,
                }]
            },
            row_limit,
            start_row: 0,
            data_state: "final",
        }
    }
}

/// The path segment of a property: `siteUrl` percent-encoded whole (`sc-domain:` and the
/// slashes of a URL prefix included), as Google asks.
fn site_segment(site_url: &str) -> String {
    url::form_urlencoded::byte_serialize(site_url.as_bytes())
        .collect::<String>()
        .replace('+', "%20")
}

impl Google {
    /// Every row of `request` on the property `site_url` (as Google writes it) from
    /// `startRow` on, `rowLimit` at a time, each page given to `page` as it arrives; stops at
    /// the first short page. Answers the rows read.
    pub async fn search_analytics_pages(
        &self,
        token: &AccessToken,
        site_url: &str,
        mut request: SearchAnalyticsRequest,
        page: &mut (dyn FnMut(Vec<ApiRow>) + Send),
    ) -> Result<u64, GoogleError> {
        let url = self.api_url(&format!(
            "/webmasters/v3/sites/{}/searchAnalytics/query",
            site_segment(site_url)
        ));
        let mut read = 0u64;
        loop {
            let body = serde_json::to_value(&request)
                .map_err(|err| GoogleError::Unavailable(err.to_string()))?;
            let answer: SearchAnalyticsAnswer = call(
                &self.http,
                self.retry,
                Method::POST,
                &url,
                token,
                Some(&body),
            )
            .await?;
            let count = answer.rows.len() as u64;
            read += count;
            page(answer.rows);
            if count < u64::from(request.row_limit) {
                return Ok(read);
            }
            request.start_row += count;
        }
    }
}

#[async_trait]
impl SearchAnalytics for Google {
    async fn search_analytics(
        &self,
        token: &AccessToken,
        property: &PropertyUrl,
        query: &AnalyticsQuery,
        page: &mut (dyn FnMut(Vec<AnalyticsRow>) + Send),
    ) -> Result<u64, GoogleError> {
        let request = SearchAnalyticsRequest::of(query, ROW_LIMIT);
        self.search_analytics_pages(token, property.as_str(), request, &mut |rows| {
            page(
                rows.into_iter()
                    .map(|row| AnalyticsRow {
                        keys: row.keys,
                        clicks: row.clicks.max(0.0) as u64,
                        impressions: row.impressions.max(0.0) as u64,
                        position: row.position,
                    })
                    .collect(),
            )
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    #[test]
    fn the_request_has_googles_field_names() {
        let query = AnalyticsQuery {
            start_date: NaiveDate::from_ymd_opt(2026, 1, 1).unwrap(),
            end_date: NaiveDate::from_ymd_opt(2026, 3, 31).unwrap(),
            dimensions: vec![
                AnalyticsDimension::Query,
                AnalyticsDimension::Page,
                AnalyticsDimension::Date,
            ],
            country: Some("usa".into()),
        };
        let body = serde_json::to_value(SearchAnalyticsRequest::of(&query, 25_000)).unwrap();
        assert_eq!(
            body,
            serde_json::json!({
                "startDate": "2026-01-01", "endDate": "2026-03-31",
                "dimensions": ["query", "page", "date"], "type": "web",
                "dimensionFilterGroups": [{"groupType": "and", "filters": [
                    {"dimension": "country", "operator": "equals", "expression": "usa"}]}],
                "rowLimit": 25000, "startRow": 0, "dataState": "final"
            })
        );
    }

    #[test]
    fn a_property_is_one_path_segment() {
        let domain = PropertyUrl::parse("sc-domain:example.com").unwrap();
        assert_eq!(site_segment(domain.as_str()), "sc-domain%3Aexample.com");
        let prefix = PropertyUrl::parse("https://www.example.com/").unwrap();
        assert_eq!(
            site_segment(prefix.as_str()),
            "https%3A%2F%2Fwww.example.com%2F"
        );
    }
}
