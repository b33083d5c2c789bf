//! Whole numbers as JSON Schema counts them: `integer` takes `8342.0` as well as
//! `8342`, so the API does too. serde reads a JSON number with a fraction part as a
//! float, which a `u64` field refuses; these read a float without a fraction as the
//! whole number it is, and leave every other value to the field's own type (and its
//! error text).

use serde::de::Error;
use serde::{Deserialize, Deserializer};
use serde_json::{Number, Value};

/// `n` as a whole number when it is one, written with or without `.0`.
pub fn whole(n: &Number) -> Option<u64> {
    n.as_u64().or_else(|| {
        n.as_f64()
            .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < u64::MAX as f64)
            .map(|f| f as u64)
    })
}

/// [`whole`] for any JSON value: none unless a whole number.
pub fn whole_value(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => whole(n),
        _ => None,
    }
}

/// `v` with every whole number written as a float (`61.0`) rewritten as the
/// integer it is, at any depth: for documents read by a derive elsewhere (a custom
/// policy), whose integer fields would refuse the float. Float fields read an
/// integer as well.
pub fn whole_numbers(v: &Value) -> Value {
    match v {
        Value::Number(n) if n.as_u64().is_none() => whole(n).map_or(v.clone(), |w| Value::Number(Number::from(w))),
        Value::Array(items) => Value::Array(items.iter().map(whole_numbers).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), whole_numbers(v))).collect()),
        _ => v.clone(),
    }
}

/// For `#[serde(default, deserialize_with = "opt_whole")]` on an `Option` of an
/// unsigned integer: `8342.0` reads as 8342; anything else as `T` reads it.
pub fn opt_whole<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let Some(v) = Option::<Value>::deserialize(d)? else {
        return Ok(None);
    };
    T::deserialize(whole_numbers(&v)).map(Some).map_err(D::Error::custom)
}

#[cfg(test)]
mod tests {
    use super::opt_whole;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    struct Body {
        #[serde(default, deserialize_with = "opt_whole")]
        n: Option<u32>,
    }

    fn read(json: &str) -> Result<Option<u32>, String> {
        serde_json::from_str::<Body>(json)
            .map(|b| b.n)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn whole_floats_read_as_integers_and_nothing_else_changes() {
        assert_eq!(read("{}"), Ok(None));
        assert_eq!(read(r#"{"n": null}"#), Ok(None));
        assert_eq!(read(r#"{"n": 7}"#), Ok(Some(7)));
        assert_eq!(read(r#"{"n": 8342.0}"#), Ok(Some(8342)));
        assert_eq!(read(r#"{"n": 1e3}"#), Ok(Some(1000)));
        for bad in [
            r#"{"n": 7.5}"#,
            r#"{"n": -1}"#,
            r#"{"n": -1.0}"#,
            r#"{"n": "7"}"#,
            r#"{"n": 5e9}"#,
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
        let text = read(r#"{"n": 7.5}"#).err().unwrap_or_default();
        assert!(
            text.starts_with("invalid type: floating point `7.5`, expected u32"),
            "{text}"
        );
    }

    #[test]
    fn whole_numbers_rewrites_whole_floats_at_any_depth() {
        use super::whole_numbers;
        use serde_json::json;
        let given = json!({"retention": {"settledDays": 61.0}, "waits": [1.0, 2.5, -3.0], "name": "x", "n": 4});
        let want = json!({"retention": {"settledDays": 61}, "waits": [1, 2.5, -3.0], "name": "x", "n": 4});
        assert_eq!(whole_numbers(&given), want);
        assert!(whole_numbers(&given)["retention"]["settledDays"].is_u64());
    }
}
