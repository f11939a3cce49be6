//! 10acity's rules proved with numbers. Pure rules are tables of cases run by one function each
//! (`pure`); encounter rules are scenarios, lists of commands with scripted dice and what the
//! table must hold after each, run by one player (`scenes`); sheets load or are refused with
//! the field named (`sheets`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::type_complexity
)]

mod pure;
mod scenes;
mod sheets;

use serde_json::{Value, json};

/// A character with round numbers: six attributes of 2 hero dice (Awareness 2, as W1), four
/// skills each; Investigation 2 (1 impact d4), Melee 4 (2 impact d4), Reaction 3; 3
/// 10acity, no Spin, max stress 10, two wounds of capacity, a sword of +1 impact.
pub fn character(id: &str, kind: &str) -> Value {
    let attr = |skills: [(&str, i64); 4]| json!({ "dice": 2, "skills": skills.iter().map(|(k, v)| ((*k).to_owned(), json!(v))).collect::<serde_json::Map<_, _>>() });
    let mut v = json!({
        "id": id,
        "name": id,
        "kind": kind,
        "attributes": {
            "awareness": attr([("investigation", 2), ("perception", 2), ("insight", 1), ("survival", 0)]),
            "dexterity": attr([("reaction", 3), ("stealth", 1), ("pilot", 1), ("ranged", 0)]),
            "strength": attr([("melee", 4), ("athletics", 2), ("unarmed", 1), ("endurance", 0)]),
            "intellect": attr([("concentration", 2), ("medicine", 4), ("occult", 0), ("nature", 0)]),
            "presence": attr([("persuasion", 1), ("deception", 0), ("intimidation", 0), ("performance", 0)]),
            "craft": attr([("engineering", 0), ("repair", 0), ("smithing", 0), ("cooking", 0)])
        },
        "tenacity": 3,
        "max_stress": 10,
        "wound_capacity": 2,
        "movement": 6,
        "equipment": [ { "id": "sword", "name": "sword", "impact_bonus": 1 } ]
    });
    if kind == "pc" {
        v["owner"] = json!(id);
    }
    v
}

/// `character` with `edit` applied to its JSON.
pub fn with(mut v: Value, edit: impl FnOnce(&mut Value)) -> Value {
    edit(&mut v);
    v
}
