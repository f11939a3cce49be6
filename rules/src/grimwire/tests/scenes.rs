//! The shared cast and steps of GRIMWIRE's scenes.
//!
//! The cast, from `docs/examples/grimwire`: Aune (`ines`: TOG 2, AGL 3, COR 3, MND 1, PER 2,
//! Condition 12, a knife 1d4 and a pistol), Mara (`tom`: TOG 4, AGL 2, MND 2, Condition 14,
//! armour 1) and the goblin with the cleaver (the GM's: TOG 1, COR 1, AGL 2, MND -1,
//! Condition 10, weak to heat, defence TN 12, attack TN 11). Initiative 10, 5 and 2 (d20 + PER)
//! puts Aune (12) before the goblin (6) and Mara (3).

use serde_json::Value;

use crate::action::ArgValue;
use crate::grid::Cell;
use crate::testing::scene::{self, S, Scene};

use super::super::Grimwire;

pub(super) fn sheet(text: &str) -> Value {
    toml::from_str(text).unwrap()
}

pub(super) fn cast() -> Vec<Value> {
    vec![
        sheet(include_str!("../../../../docs/examples/grimwire/aune.toml")),
        sheet(include_str!(
            "../../../../docs/examples/grimwire/goblin-1.toml"
        )),
        sheet(include_str!("../../../../docs/examples/grimwire/mara.toml")),
    ]
}

pub(super) fn play(
    name: &'static str,
    options: &'static [(&'static str, &'static str)],
    steps: Vec<S>,
) {
    scene::play(
        &Grimwire,
        "ines",
        Scene {
            name,
            options,
            cast: cast(),
            steps,
        },
    );
}

/// A scene with its own cast.
pub(super) fn play_cast(name: &'static str, cast: Vec<Value>, steps: Vec<S>) {
    scene::play(
        &Grimwire,
        "ines",
        Scene {
            name,
            options: &[],
            cast,
            steps,
        },
    );
}

pub(super) fn t(s: &str) -> ArgValue {
    ArgValue::Text(s.into())
}

pub(super) fn n(i: i64) -> ArgValue {
    ArgValue::Int(i)
}

pub(super) fn to(x: i32, y: i32) -> ArgValue {
    ArgValue::Cell(Cell::new(x, y))
}

/// Aune first, then the goblin, then Mara, standing in a row 2 m apart.
pub(super) fn start() -> Vec<S> {
    vec![
        S::Place("aune", 0, 0),
        S::Place("goblin-1", 2, 0),
        S::Place("mara", 4, 0),
        S::Start(&[10, 5, 2]),
        S::Order(&["aune", "goblin-1", "mara"]),
    ]
}

/// The GM sets `status` on `who`; `rounds`: how many of its turns it covers.
pub(super) fn set(
    who: &'static str,
    status: &'static str,
    magnitude: i64,
    rounds: Option<i64>,
) -> S {
    let mut args = vec![
        ("target", t(who)),
        ("status", t(status)),
        ("magnitude", n(magnitude)),
    ];
    if let Some(r) = rounds {
        args.push(("rounds", n(r)));
    }
    S::Gm("rule.set-status", args, &[])
}

pub(super) fn check(
    who: &'static str,
    attribute: &'static str,
    tn: i64,
    faces: &'static [u32],
) -> S {
    S::GmAct(
        who,
        "check",
        vec![("attribute", t(attribute)), ("tn", n(tn))],
        faces,
    )
}

pub(super) fn end(who: &'static str) -> S {
    end_with(who, &[])
}

/// `who` ends the turn, and the next one's start draws `faces`.
pub(super) fn end_with(who: &'static str, faces: &'static [u32]) -> S {
    S::Act(who, "end_turn", vec![], faces)
}

pub(super) fn knife(target: &'static str, faces: &'static [u32]) -> S {
    S::Act(
        "aune",
        "attack",
        vec![("target", t(target)), ("weapon", t("knife"))],
        faces,
    )
}

/// The GM rules `who`'s Condition to `value`.
pub(super) fn condition(who: &'static str, value: i64) -> S {
    S::Gm(
        "rule.set-resource",
        vec![
            ("target", t(who)),
            ("resource", t("condition")),
            ("value", n(value)),
        ],
        &[],
    )
}
