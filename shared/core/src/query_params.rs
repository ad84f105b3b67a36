//! A query string read as named parameters: typed accessors whose refusals name the
//! parameter ([`FieldError`]), so the API's handlers, the MCP tools (whose arguments are read as
//! the query string of the endpoint behind each tool) and the query engine read a parameter the
//! same way. Unknown parameters are ignored (contract); a repeated parameter is refused as
//! ambiguous.

use std::collections::HashMap;
use std::str::FromStr;

use crate::validation::FieldError;

/// Query parameters with typed accessors whose errors name the parameter.
#[derive(Debug, Default)]
pub struct QueryParams(HashMap<String, String>);

impl QueryParams {
    /// `raw` (`application/x-www-form-urlencoded`, without the `?`), decoded.
    pub fn parse(raw: &str) -> Result<Self, FieldError> {
        let mut map = HashMap::new();
        for (name, value) in url::form_urlencoded::parse(raw.as_bytes()) {
            let name = name.into_owned();
            if map.insert(name.clone(), value.into_owned()).is_some() {
                return Err(FieldError::new(name, "must be given at most once"));
            }
        }
        Ok(Self(map))
    }

    /// The `status` filter of a job list; `None` when absent.
    pub fn job_status(&self) -> Result<Option<crate::domain::JobStatus>, FieldError> {
        self.value("status")
            .map(|raw| {
                raw.parse()
                    .map_err(|message| FieldError::new("status", message))
            })
            .transpose()
    }

    /// A text parameter's value, trimmed; an empty value counts as absent (filters nothing).
    pub fn str(&self, name: &str) -> Option<&str> {
        self.value(name).filter(|value| !value.is_empty())
    }

    /// A typed parameter's value (a number, one of a list), trimmed. Present even when empty:
    /// an empty value is refused like any other that is not of the type, rather than taken
    /// for the default.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(|value| value.trim())
    }

    /// A number within `min..=max`, or `default` when absent.
    pub fn number<T>(
        &self,
        name: &str,
        min: T,
        max: Option<T>,
        default: Option<T>,
    ) -> Result<Option<T>, FieldError>
    where
        T: FromStr + PartialOrd + std::fmt::Display + Copy,
    {
        let Some(raw) = self.value(name) else {
            return Ok(default);
        };
        let value: T = raw
            .parse()
            .map_err(|_| FieldError::new(name, format!("must be a number, got {raw:?}")))?;
        if value < min {
            return Err(FieldError::new(name, format!("must be at least {min}")));
        }
        if let Some(max) = max {
            if value > max {
                return Err(FieldError::new(name, format!("must be at most {max}")));
            }
        }
        Ok(Some(value))
    }

    /// `limit` (1 to `max_limit`, default `default_limit`) and `offset` (0 or more, default 0)
    /// of a paged list.
    pub fn paging(&self, max_limit: u32, default_limit: u32) -> Result<(u32, u32), FieldError> {
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
    ) -> Result<Option<&'static str>, FieldError> {
        let Some(raw) = self.value(name) else {
            return Ok(default);
        };
        allowed
            .iter()
            .find(|candidate| candidate.eq_ignore_ascii_case(raw))
            .copied()
            .map(Some)
            .ok_or_else(|| FieldError::new(name, format!("must be one of {}", allowed.join(", "))))
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
        assert_eq!(err.field, "limit");
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
    fn an_empty_typed_value_is_refused_and_an_empty_text_filters_nothing() {
        let query = QueryParams::parse("limit=&sortOrder=%20&search=").unwrap();
        assert!(query
            .number::<u32>("limit", 1, Some(100), Some(20))
            .is_err());
        assert!(query.choice("sortOrder", &["asc", "desc"], None).is_err());
        assert_eq!(query.str("search"), None);
        assert_eq!(
            query.number::<u32>("offset", 0, None, Some(0)).unwrap(),
            Some(0)
        );
    }

    #[test]
    fn repeated_parameters_are_refused() {
        let err = QueryParams::parse("status=queued&status=failed").unwrap_err();
        assert_eq!(err.field, "status");
    }

    #[test]
    fn values_are_decoded() {
        let query = QueryParams::parse("search=caf%C3%A9+cr%C3%A8me&intent=a%2Cb").unwrap();
        assert_eq!(query.str("search"), Some("café crème"));
        assert_eq!(query.value("intent"), Some("a,b"));
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
