//! vigor's rules proved with numbers. Pure rules are tables of cases run by one function each
//! (`pure`); encounter rules are scenarios, lists of commands with scripted dice and what the
//! table must hold after each, run by one player (`scenes`); sheets load or are refused with
//! the field named (`sheets`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod pure;
mod reach;
mod readied;
mod scenes;
mod sheets;
mod shock;
mod skills;

use serde_json::{Value, json};

/// A creature with round numbers every scenario starts from: Guard 15, 10 Vigor, Durability
/// and Health, Speed 30 (six cells a Move), Stamina 25 (5 Vigor a round), one bonus die each
/// in Agility, Speed and Strength, and an ordinary sword (1 die of d8).
pub fn creature(id: &str, kind: &str) -> Value {
    let mut v = json!({
        "id": id,
        "name": id,
        "kind": kind,
        "vigor_max": 10,
        "durability_max": 10,
        "health_max": 10,
        "abilities": { "speed": 30, "stamina": 25 },
        "bonus_dice": { "agility": 1, "speed": 1, "strength": 1 },
        "weapons": [
            { "id": "sword", "name": "sword", "damage": 1, "quality": "ordinary" }
        ]
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
