//! Field decoders that never fail a response: DataForSEO documents every field as optional,
//! and a figure of an unexpected type (a float volume, a numeric string) is still data, while
//! anything else is "no data" rather than a reason to lose the whole response.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

fn number(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    }
    .filter(|n| n.is_finite())
}

pub fn opt_f64<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<f64>, D::Error> {
    Ok(number(&Value::deserialize(deserializer)?))
}

pub fn opt_i64<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
    Ok(number(&Value::deserialize(deserializer)?).map(|n| n.round() as i64))
}

pub fn opt_u32<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u32>, D::Error> {
    Ok(number(&Value::deserialize(deserializer)?)
        .filter(|n| *n >= 0.0 && *n <= f64::from(u32::MAX))
        .map(|n| n.round() as u32))
}

pub fn opt_string<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(deserializer)? {
        Value::String(s) if !s.trim().is_empty() => Some(s),
        _ => None,
    })
}

/// A list whose malformed entries are skipped one by one instead of failing the list.
pub fn list<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    Ok(match Value::deserialize(deserializer)? {
        Value::Array(items) => items
            .into_iter()
            .filter_map(|item| serde_json::from_value(item).ok())
            .collect(),
        _ => Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Deserialize)]
    struct Sample {
        #[serde(default, deserialize_with = "super::opt_i64")]
        volume: Option<i64>,
        #[serde(default, deserialize_with = "super::opt_f64")]
        cpc: Option<f64>,
        #[serde(default, deserialize_with = "super::opt_string")]
        name: Option<String>,
        #[serde(default, deserialize_with = "super::list")]
        items: Vec<u32>,
    }

    fn parse(json: &str) -> Sample {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn odd_types_are_no_data_not_errors() {
        let s = parse(r#"{"volume": 1000.4, "cpc": "1.25", "name": "", "items": [1, "x", 3]}"#);
        assert_eq!(s.volume, Some(1000));
        assert_eq!(s.cpc, Some(1.25));
        assert_eq!(s.name, None);
        assert_eq!(s.items, vec![1, 3]);
        let s = parse(r#"{"volume": {"a": 1}, "cpc": null, "items": null, "extra": true}"#);
        assert_eq!((s.volume, s.cpc, s.items.len()), (None, None, 0));
        let s = parse("{}");
        assert_eq!((s.volume, s.name), (None, None));
    }
}
