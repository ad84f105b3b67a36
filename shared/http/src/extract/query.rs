use std::collections::HashMap;
use std::str::FromStr;

use axum::extract::{FromRequestParts, RawQuery};
use axum::http::request::Parts;

use crate::ApiError;

/// Query parameters with typed accessors whose errors name the parameter. Unknown
/// parameters are ignored (contract); a repeated parameter is refused as ambiguous.
#[derive(Debug, Default)]
pub struct QueryParams(HashMap<String, String>);

impl<S: Send + Sync> FromRequestParts<S> for QueryParams {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let RawQuery(raw) = RawQuery::from_request_parts(parts, state)
            .await
            .map_err(ApiError::internal)?;
        Self::parse(raw.as_deref().unwrap_or(""))
    }
}

impl QueryParams {
    pub fn parse(raw: &str) -> Result<Self, ApiError> {
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw)
            .map_err(|_| ApiError::field("query", "is not a valid query string"))?;
        let mut map = HashMap::new();
        for (name, value) in pairs {
            if map.insert(name.clone(), value).is_some() {
                return Err(ApiError::field(name, "must be given at most once"));
            }
        }
        Ok(Self(map))
    }

    /// The raw value; an empty value counts as absent.
    pub fn str(&self, name: &str) -> Option<&str> {
        self.0
            .get(name)
            .map(|value| value.trim())
            .filter(|value| !value.is_empty())
    }

    /// A number within `min..=max`, or `default` when absent.
    pub fn number<T>(
        &self,
        name: &str,
        min: T,
        max: Option<T>,
        default: Option<T>,
    ) -> Result<Option<T>, ApiError>
    where
        T: FromStr + PartialOrd + std::fmt::Display + Copy,
    {
        let Some(raw) = self.str(name) else {
            return Ok(default);
        };
        let value: T = raw
            .parse()
            .map_err(|_| ApiError::field(name, format!("must be a number, got {raw:?}")))?;
        if value < min {
            return Err(ApiError::field(name, format!("must be at least {min}")));
        }
        if let Some(max) = max {
            if value > max {
                return Err(ApiError::field(name, format!("must be at most {max}")));
            }
        }
        Ok(Some(value))
    }

    /// `limit` (1 to `max_limit`, default `default_limit`) and `offset` (0 or more, default 0)
    /// of a paged list.
    pub fn paging(&self, max_limit: u32, default_limit: u32) -> Result<(u32, u32), ApiError> {
        let limit = self
            .number::<u32>("limit", 1, Some(max_limit), Some(default_limit))?
            .unwrap_or(default_limit);
        let offset = self.number::<u32>("offset", 0, None, Some(0))?.unwrap_or(0);
        Ok((limit, offset))
    }

    /// One of `allowed` (exact, case-insensitive), or `default` when absent.
    pub fn choice(
        &self,
        name: &str,
        allowed: &[&'static str],
        default: Option<&'static str>,
    ) -> Result<Option<&'static str>, ApiError> {
        let Some(raw) = self.str(name) else {
            return Ok(default);
        };
        allowed
            .iter()
            .find(|candidate| candidate.eq_ignore_ascii_case(raw))
            .copied()
            .map(Some)
            .ok_or_else(|| ApiError::field(name, format!("must be one of {}", allowed.join(", "))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_bounded_and_named() {
        let query = QueryParams::parse("limit=0&offset=abc&ok=5").unwrap();
        let err = query
            .number::<u32>("limit", 1, Some(100), Some(20))
            .unwrap_err();
        assert!(err.details.unwrap().to_string().contains("limit"));
        assert!(query.number::<u32>("offset", 0, None, Some(0)).is_err());
        assert_eq!(
            query.number::<u32>("ok", 1, Some(100), None).unwrap(),
            Some(5)
        );
        assert_eq!(
            query
                .number::<u32>("absent", 1, Some(100), Some(20))
                .unwrap(),
            Some(20)
        );
    }

    #[test]
    fn negative_numbers_are_refused_for_unsigned_parameters() {
        let query = QueryParams::parse("offset=-1").unwrap();
        assert!(query.number::<u32>("offset", 0, None, Some(0)).is_err());
    }

    #[test]
    fn repeated_parameters_are_refused() {
        assert!(QueryParams::parse("status=queued&status=failed").is_err());
    }

    #[test]
    fn choices_ignore_case() {
        let query = QueryParams::parse("status=COMPLETED&bad=x").unwrap();
        assert_eq!(
            query
                .choice("status", &["queued", "completed"], None)
                .unwrap(),
            Some("completed")
        );
        assert!(query.choice("bad", &["a"], None).is_err());
    }
}
