//! Character sheets as the core holds them: the id of the system that wrote the sheet and the
//! sheet as a document, with the system's typed form kept beside it once the system has read it.
//!
//! The core never knows a system's sheet type. A system builds a [`Sheet`] from its own typed
//! sheet ([`Sheet::new`]) and reads it back with [`Sheet::typed`]; a sheet that arrived through
//! the log or the wire is parsed into the typed form the first time its system reads it, and
//! that form is shared by every copy of the combatant afterwards. The document is what goes
//! into events and state digests, exactly as it was logged, so a system whose sheet type grows
//! a field changes neither old logs nor their digests.
//!
//! Sheets arrive as TOML files (players, GMs) or as the same schema in JSON (the calculator's
//! requests); both go through serde into the system's typed sheet and then through the system's
//! validation, so an error always names the field and the rule.

use std::any::Any;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

use serde::de::{DeserializeOwned, Error as _};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// The `system` of a [`Sheet::generic`] sheet.
pub const GENERIC: &str = "generic";

/// A combatant's sheet. Cheap to clone: copies share the document and the typed form.
#[derive(Clone)]
pub struct Sheet(Arc<Inner>);

struct Inner {
    system: String,
    /// The sheet's fields, in the order they were written or logged (never with `system`).
    document: Map<String, Value>,
    /// The system's typed form, once read.
    typed: OnceLock<Arc<dyn Any + Send + Sync>>,
}

impl Sheet {
    /// A sheet from a system's typed form, which is kept so the system need not parse it again.
    ///
    /// # Errors
    ///
    /// The typed form does not serialize to a JSON object.
    pub fn new<T>(system: &str, typed: T) -> Result<Self, SheetError>
    where
        T: Serialize + Send + Sync + 'static,
    {
        let document = match serde_json::to_value(&typed) {
            Ok(Value::Object(map)) => map,
            Ok(_) => {
                return Err(SheetError::Syntax(
                    "a sheet must be a table of fields".into(),
                ));
            }
            Err(e) => return Err(SheetError::Syntax(e.to_string())),
        };
        let sheet = Sheet::from_document(system, document);
        let typed: Arc<dyn Any + Send + Sync> = Arc::new(typed);
        let _ = sheet.0.typed.set(typed);
        Ok(sheet)
    }

    /// The sheet that carries named numbers and nothing else.
    ///
    /// It has two uses. It is the stand-in a seat holds for a combatant whose numbers it may
    /// not see (empty: see `redact::without_numbers`), which is why the log format carries it;
    /// and it is the whole sheet of systems that keep their numbers as plain named stats, such
    /// as the ones the interface tests define outside this crate.
    pub fn generic(stats: BTreeMap<String, i64>) -> Self {
        let mut document = Map::new();
        let stats = stats
            .into_iter()
            .map(|(k, v)| (k, Value::from(v)))
            .collect();
        document.insert("stats".into(), Value::Object(stats));
        Sheet::from_document(GENERIC, document)
    }

    fn from_document(system: &str, document: Map<String, Value>) -> Self {
        Sheet(Arc::new(Inner {
            system: system.to_owned(),
            document,
            typed: OnceLock::new(),
        }))
    }

    /// The id of the system that wrote the sheet (`generic` for [`Sheet::generic`]).
    pub fn system(&self) -> &str {
        &self.0.system
    }

    /// The sheet's fields as logged.
    pub fn document(&self) -> &Map<String, Value> {
        &self.0.document
    }

    /// The system's typed form, parsed from the document the first time it is asked for.
    ///
    /// # Errors
    ///
    /// The sheet is another system's, or its document does not have `T`'s shape (a log edited
    /// by hand), or another type was asked for first.
    pub fn typed<T>(&self, system: &str) -> Result<&T, SheetError>
    where
        T: DeserializeOwned + Send + Sync + 'static,
    {
        if self.0.system != system {
            return Err(SheetError::Syntax(format!(
                "the sheet was written for `{}`, not `{system}`",
                self.0.system
            )));
        }
        if self.0.typed.get().is_none() {
            let parsed: T = serde_json::from_value(Value::Object(self.0.document.clone()))
                .map_err(|e| SheetError::Syntax(e.to_string()))?;
            let parsed: Arc<dyn Any + Send + Sync> = Arc::new(parsed);
            // Another thread may have set it meanwhile; both parsed the same document.
            let _ = self.0.typed.set(parsed);
        }
        self.0
            .typed
            .get()
            .and_then(|t| t.downcast_ref::<T>())
            .ok_or_else(|| SheetError::Syntax("the sheet was read as another type".into()))
    }

    /// A number from a generic sheet; 0 when absent or when the sheet is not generic.
    pub fn generic_stat(&self, key: &str) -> i64 {
        if self.0.system != GENERIC {
            return 0;
        }
        self.0
            .document
            .get("stats")
            .and_then(|s| s.get(key))
            .and_then(Value::as_i64)
            .unwrap_or(0)
    }

    /// Whether this is the empty generic sheet: the stand-in for numbers a seat may not see.
    pub fn is_empty_generic(&self) -> bool {
        self.0.system == GENERIC
            && self
                .0
                .document
                .get("stats")
                .and_then(Value::as_object)
                .is_none_or(Map::is_empty)
    }

    /// The sheet as TOML, fields in the order they were written (for showing it to those who
    /// may see it). Empty fields are left out, as TOML has no null.
    pub fn to_toml(&self) -> Option<String> {
        let document = without_nulls(Value::Object(self.0.document.clone()));
        toml::to_string(&document).ok()
    }
}

/// `value` with every null (an absent optional field) removed, at any depth.
fn without_nulls(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_nulls).collect()),
        other => other,
    }
}

impl PartialEq for Sheet {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
            || (self.0.system == other.0.system && self.0.document == other.0.document)
    }
}

impl Eq for Sheet {}

impl fmt::Debug for Sheet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sheet")
            .field("system", &self.0.system)
            .field("document", &self.0.document)
            .finish()
    }
}

/// Written as one object: `system` first, then the document's fields, the shape logs have
/// always carried.
impl Serialize for Sheet {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.document.len() + 1))?;
        map.serialize_entry("system", &self.0.system)?;
        for (key, value) in &self.0.document {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Sheet {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut document = Map::<String, Value>::deserialize(deserializer)?;
        // `shift_remove` keeps the other fields in their logged order.
        let system = match document.shift_remove("system") {
            Some(Value::String(s)) => s,
            Some(_) => return Err(D::Error::custom("a sheet's `system` must be a string")),
            None => return Err(D::Error::missing_field("system")),
        };
        Ok(Sheet::from_document(&system, document))
    }
}

/// Why a sheet was refused: the field (a dotted path such as `attributes.COR` or
/// `weapons[1].damage`) and the rule it breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SheetError {
    /// The text is not valid TOML/JSON or does not have the schema's shape (a missing field,
    /// a string where a number goes). The message comes from the parser and names the field.
    #[error("sheet does not match the schema: {0}")]
    Syntax(String),
    /// The shape is right but a value breaks a rule of the system.
    #[error("`{field}`: {rule}")]
    Invalid { field: String, rule: String },
}

impl SheetError {
    pub fn invalid(field: impl Into<String>, rule: impl Into<String>) -> Self {
        SheetError::Invalid {
            field: field.into(),
            rule: rule.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Typed {
        name: String,
        level: i64,
        note: Option<String>,
    }

    #[test]
    fn a_sheet_keeps_its_field_order_through_the_log_and_reads_back_typed() {
        let sheet = Sheet::new(
            "sys",
            Typed {
                name: "Aune".into(),
                level: 2,
                note: None,
            },
        )
        .unwrap();
        let json = serde_json::to_string(&sheet).unwrap();
        assert_eq!(
            json,
            r#"{"system":"sys","name":"Aune","level":2,"note":null}"#
        );
        let back: Sheet = serde_json::from_str(&json).unwrap();
        assert_eq!(back, sheet);
        // Wherever `system` stands in a logged sheet, the other fields keep their order.
        let late: Sheet =
            serde_json::from_str(r#"{"name":"Aune","level":2,"system":"sys","note":null}"#)
                .unwrap();
        assert_eq!(serde_json::to_string(&late).unwrap(), json);
        assert_eq!(back.typed::<Typed>("sys").unwrap().level, 2);
        assert!(back.typed::<Typed>("other").is_err());
        assert_eq!(back.to_toml().unwrap(), "name = \"Aune\"\nlevel = 2\n");
        let msgpack = rmp_serde::to_vec_named(&sheet).unwrap();
        assert_eq!(rmp_serde::from_slice::<Sheet>(&msgpack).unwrap(), sheet);
    }

    #[test]
    fn sheets_are_equal_when_system_and_document_are() {
        let a = Sheet::generic([("guard".to_owned(), 12)].into());
        let same = Sheet::generic([("guard".to_owned(), 12)].into());
        let other_number = Sheet::generic([("guard".to_owned(), 13)].into());
        let other_system: Sheet =
            serde_json::from_str(r#"{"system":"sys","stats":{"guard":12}}"#).unwrap();
        assert_eq!(a, same);
        assert_ne!(a, other_number);
        assert_ne!(a, other_system);
    }

    #[test]
    fn a_generic_sheet_has_its_numbers_and_the_empty_one_is_the_stand_in() {
        let sheet = Sheet::generic([("guard".to_owned(), 12)].into());
        assert_eq!(sheet.generic_stat("guard"), 12);
        assert_eq!(sheet.generic_stat("hp"), 0);
        assert!(!sheet.is_empty_generic());
        assert!(Sheet::generic(BTreeMap::new()).is_empty_generic());
        assert_eq!(
            serde_json::to_string(&sheet).unwrap(),
            r#"{"system":"generic","stats":{"guard":12}}"#
        );
        let bad: Result<Sheet, _> = serde_json::from_str(r#"{"stats":{}}"#);
        assert!(bad.is_err());
    }
}
