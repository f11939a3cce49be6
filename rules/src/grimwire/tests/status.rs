//! The status effects, as scenes on the shared runner: what each takes off a roll, which take
//! the turn away, what strikes at a turn's start, and the actions that end them.
//!
//! The cast, from `docs/examples/grimwire`: Aune (`ines`: TOG 2, AGL 3, COR 3, MND 1, PER 2,
//! Condition 12, a knife 1d4 and a pistol), Mara (`tom`: TOG 4, AGL 2, MND 2, Condition 14,
//! armour 1) and the goblin with the cleaver (the GM's: COR 1, AGL 2, MND -1, Condition 10,
//! weak to heat, defence TN 12, attack TN 11). Initiative 10, 5 and 2 (d20 + PER) puts Aune
//! (12) before the goblin (6) and Mara (3).

use serde_json::Value;

use crate::action::ArgValue;
use crate::grid::Cell;
use crate::testing::scene::{self, S, Scene};

use super::super::Grimwire;

fn sheet(text: &str) -> Value {
    toml::from_str(text).unwrap()
}

fn cast() -> Vec<Value> {
    vec![
        sheet(include_str!("../../../../docs/examples/grimwire/aune.toml")),
        sheet(include_str!(
            "../../../../docs/examples/grimwire/goblin-1.toml"
        )),
        sheet(include_str!("../../../../docs/examples/grimwire/mara.toml")),
    ]
}

fn play(name: &'static str, options: &'static [(&'static str, &'static str)], steps: Vec<S>) {
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

fn t(s: &str) -> ArgValue {
    ArgValue::Text(s.into())
}

fn n(i: i64) -> ArgValue {
    ArgValue::Int(i)
}

fn to(x: i32, y: i32) -> ArgValue {
    ArgValue::Cell(Cell::new(x, y))
}

/// Aune first, then the goblin, then Mara, standing in a row 2 m apart.
fn start() -> Vec<S> {
    vec![
        S::Place("aune", 0, 0),
        S::Place("goblin-1", 2, 0),
        S::Place("mara", 4, 0),
        S::Start(&[10, 5, 2]),
        S::Order(&["aune", "goblin-1", "mara"]),
    ]
}

/// The GM sets `status` on `who`; `rounds`: how many of its turns it covers.
fn set(who: &'static str, status: &'static str, magnitude: i64, rounds: Option<i64>) -> S {
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

fn check(who: &'static str, attribute: &'static str, tn: i64, faces: &'static [u32]) -> S {
    S::GmAct(
        who,
        "check",
        vec![("attribute", t(attribute)), ("tn", n(tn))],
        faces,
    )
}

fn end(who: &'static str) -> S {
    S::Act(who, "end_turn", vec![], &[])
}

fn knife(target: &'static str, faces: &'static [u32]) -> S {
    S::Act(
        "aune",
        "attack",
        vec![("target", t(target)), ("weapon", t("knife"))],
        faces,
    )
}

#[test]
fn knocked_down_takes_3_off_agl_makes_a_crawl_and_standing_takes_the_movement() {
    let mut steps = start();
    steps.extend([
        set("aune", "knocked_down", 0, None),
        // AGL 10 + 3 - 3 = 10 misses 11 (13 would make it).
        check("aune", "AGL", 11, &[10]),
        S::Said("label: \"knocked down\", value: -3"),
        S::Said("result: \"failure\""),
        // What is left of her turn: a 3 m crawl, not the 9 of base 6 + AGL 3.
        S::Said("label: \"m of movement\", value: 3"),
        S::Refused("aune", "move", vec![("to", to(0, 4))], "out_of_range"),
        S::Act("aune", "stand", vec![], &[]),
        S::Lacks("aune", "knocked_down"),
        // Standing took the movement.
        S::Refused("aune", "move", vec![("to", to(0, 1))], "none_left"),
        S::Refused("aune", "stand", vec![], "rule: aune is not knocked down"),
        // The goblin, knocked down, makes no roll: its -3 AGL eases Aune's attack, 6 + COR 3
        // + 3 = 12 reaching its defence 12 (9 would not); knife 2 + TOG 2 = 4.
        set("goblin-1", "knocked_down", 0, None),
        knife("goblin-1", &[6, 2]),
        S::Said("goblin-1: knocked down"),
        S::Res("goblin-1", "condition", 6),
        end("aune"),
        // Knocked down, the goblin cannot help anyone up; Mara, 2 m from it, can, but not
        // Aune 4 m away.
        set("aune", "knocked_down", 0, None),
        S::Refused(
            "goblin-1",
            "help_up",
            vec![("target", t("aune"))],
            "rule: goblin-1 is down too",
        ),
        S::Act("goblin-1", "end_turn", vec![], &[]),
        S::Refused(
            "mara",
            "help_up",
            vec![("target", t("aune"))],
            "out_of_range",
        ),
        S::Act("mara", "help_up", vec![("target", t("goblin-1"))], &[]),
        S::Lacks("goblin-1", "knocked_down"),
        S::Said("mara helps goblin-1 up"),
    ]);
    play("knocked down", &[], steps);
}
