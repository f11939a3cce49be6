//! Whether a JSON text names a key twice in one object. serde_json keeps one of the two values
//! (the last) without a word, and another reader may keep the other: a part that says `"face":
//! 20` and `"face": 13` must mean one thing to every verifier, so it means nothing and fails.

use std::collections::BTreeSet;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// The first key some object of `json` holds twice; `None` when there is none or the text is
/// not JSON (the caller's own decoding says what is wrong with it then).
pub fn repeated_key(json: &str) -> Option<String> {
    match serde_json::from_str::<Checked>(json) {
        Err(e) => e
            .to_string()
            .strip_prefix(REPEATED)
            .and_then(|rest| rest.split('`').next())
            .map(str::to_owned),
        Ok(_) => None,
    }
}

const REPEATED: &str = "repeated key `";

/// Any JSON value, read only to check its objects' keys.
struct Checked;

impl<'de> Deserialize<'de> for Checked {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(CheckVisitor)
    }
}

struct CheckVisitor;

impl<'de> Visitor<'de> for CheckVisitor {
    type Value = Checked;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Checked, A::Error> {
        let mut seen = BTreeSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format!("{REPEATED}{key}`")));
            }
            map.next_value::<Checked>()?;
        }
        Ok(Checked)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Checked, A::Error> {
        while seq.next_element::<Checked>()?.is_some() {}
        Ok(Checked)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_str<E>(self, _: &str) -> Result<Checked, E> {
        Ok(Checked)
    }
    fn visit_unit<E>(self) -> Result<Checked, E> {
        Ok(Checked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_named_twice_in_any_object_is_found_and_nothing_else_is() {
        let cases = [
            (r#"{"a":1,"b":2}"#, None),
            (r#"{"a":1,"a":2}"#, Some("a")),
            (
                r#"{"fact":{"roll":{"dice":[{"face":20,"face":13}]}}}"#,
                Some("face"),
            ),
            (r#"[{"x":1},{"x":2}]"#, None),
            (r#"{"a":{"b":1},"c":{"b":2}}"#, None),
            (r#"{"a\u0062":1,"ab":2}"#, Some("ab")),
            ("not json", None),
        ];
        for (json, want) in cases {
            assert_eq!(repeated_key(json).as_deref(), want, "{json}");
        }
    }
}
