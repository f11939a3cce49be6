//! mist's rules proved with numbers. Pure rules are tables of cases run by one function each
//! (`pure`); encounter rules are scenarios, lists of commands with scripted dice and what the
//! table must hold after each, run by one player (`scenes`); sheets load or are refused with
//! the field named (`sheets`). The characters are the text's: Beatrix, Markus, the masked thugs.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod care;
mod catalogue;
mod dodge;
mod interrupt;
mod pure;
mod scenes;
mod sheets;
mod stealth;

use serde_json::{Value, json};

/// A character with every number 0 but what `edit` sets: Life 10, bare hands, Evade 5.
pub fn creature(id: &str, kind: &str) -> Value {
    let mut v = json!({
        "id": id,
        "name": id,
        "kind": kind,
        "evade": 5,
        "life_max": 10,
    });
    if kind == "pc" {
        v["owner"] = json!(id);
    }
    v
}

/// `creature` with `edit` applied to its JSON.
pub fn with(mut v: Value, edit: impl FnOnce(&mut Value)) -> Value {
    edit(&mut v);
    v
}
