//! Tiny d10's rules proved with numbers. The text has no worked example with numbers
//! (rules/tinyd10.md, section 2), so every vector here is our own, with its derivation from the
//! rule beside it. Pure rules are tables of cases (`pure`); sheets load or are refused with the
//! field named (`sheets`); the data tables hold together (`data`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod abilities;
mod catalogue;
mod data;
mod edges;
mod explore;
mod levelling;
mod limits;
mod pure;
mod scenes;
mod sheets;
mod spells;

use serde_json::{Value, json};

/// A valid level 1 character of `class` and `race`: every list filled with what the class and
/// race require, attribute points in power and reflex, HP 5 and PP 5, an MP roll of 7 for a
/// caster. `with` then breaks one thing.
pub fn pc(class: &str, race: &str) -> Value {
    let (abilities, spells, caster) = match class {
        "cleric" => (
            json!(["spell_casting_divine", "words_of_healing"]),
            json!(["sword_of_the_spirit", "divine_medicine"]),
            true,
        ),
        "rogue" => (
            json!(["deflect_projectiles", "evade", "feint"]),
            json!([]),
            false,
        ),
        "warrior" => (json!(["defensive_rush", "power_strike"]), json!([]), false),
        _ => (
            json!(["prestidigitation", "spell_casting_magical", "splash_effect"]),
            json!(["fireball_1", "magic_missile_1", "heal"]),
            true,
        ),
    };
    let skills = match race {
        "dwarf" => json!(["craft"]),
        "halfling" => json!(["hide", "sneak"]),
        "human" => json!(["persuade", "spot"]),
        _ => json!([]),
    };
    let mut v = json!({
        "id": class, "name": class, "kind": "pc", "owner": class,
        "race": race, "class": class,
        "points": {"power": 2, "reflex": 1, "hp": 5, "pp": 5},
        "skills": skills, "abilities": abilities, "spells": spells,
    });
    if caster {
        v["points"]["mp_roll"] = json!(7);
    }
    v
}

/// `v` with `edit` applied.
pub fn with(mut v: Value, edit: impl FnOnce(&mut Value)) -> Value {
    edit(&mut v);
    v
}

/// The dice `who` rolled in the last command (`Rolled` facts, by their totals) reach the GM and
/// not the player seat `p1`: a face that would tell the players one of the GM's numbers.
pub fn dice_gm_alone(who: &'static str, totals: &'static [i64]) -> crate::testing::scene::S {
    use crate::event::Fact;
    use crate::ids::Seat;
    crate::testing::scene::S::Check(Box::new(move |p| {
        let rolled = |seat: &Seat| -> Vec<i64> {
            p.last
                .iter()
                .filter_map(|e| e.view(seat))
                .flat_map(|e| e.parts)
                .filter_map(|part| match part.fact {
                    Fact::Rolled {
                        by: Some(by), roll, ..
                    } if by.0 == who => Some(roll.total),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(
            rolled(&Seat::Gm),
            totals,
            "{}: the GM reads {who}'s dice",
            p.at
        );
        assert_eq!(
            rolled(&Seat::Player("p1".into())),
            Vec::<i64>::new(),
            "{}: the player reads {who}'s dice",
            p.at
        );
    }))
}
