//! Reach on the map: two creatures within 6 ft are adjacent only with a clear path between
//! them, and the same holds for a longer melee reach. Walls and cover the GM marks with
//! `rule.terrain` break it; a single wall's corner does not.

use serde_json::json;

use crate::action::ArgValue;
use crate::grid::Cell;
use crate::testing::scene::{self, S, Scene};

use super::super::Vigor;
use super::{creature, with};

use S::*;

fn at(x: i32, y: i32) -> ArgValue {
    ArgValue::Cell(Cell::new(x, y))
}

/// The GM marks a cell as a wall.
fn wall(x: i32, y: i32) -> S {
    Gm(
        "rule.terrain",
        vec![("cell", at(x, y)), ("blocking", ArgValue::Flag(true))],
        &[],
    )
}

/// The GM marks a cell as giving light cover (a low crate).
fn crate_at(x: i32, y: i32) -> S {
    Gm(
        "rule.terrain",
        vec![
            ("cell", at(x, y)),
            ("cover", ArgValue::Text("light".into())),
        ],
        &[],
    )
}

fn attack_raider() -> Vec<(&'static str, ArgValue)> {
    vec![("target", ArgValue::Text("raider".into()))]
}

#[test]
fn walls_and_cover_between_two_creatures_break_melee_reach_and_openings() {
    let aune = || creature("aune", "pc");
    let raider = || creature("raider", "npc");
    let spear = || {
        with(creature("raider", "npc"), |v| {
            v["weapons"] = json!([{ "id": "spear", "name": "spear", "damage": 1,
                "quality": "ordinary", "reach_ft": 10 }]);
        })
    };
    let scenes = vec![
        Scene {
            name: "diagonal neighbours with walls on both sides of the corner are not adjacent",
            options: &[],
            cast: vec![aune(), raider()],
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 1, 1),
                wall(1, 0),
                wall(0, 1),
                Start(&[15, 5]),
                Refused("aune", "attack", attack_raider(), "rule"),
                Res("aune", "actions", 2),
                // Fleeing past a raider who cannot reach her opens nothing.
                Act("aune", "escape", vec![], &[]),
                Prompt(false),
            ],
        },
        Scene {
            name: "one wall's corner does not stop a diagonal reach",
            options: &[],
            cast: vec![aune(), raider()],
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 1, 1),
                wall(1, 0),
                Start(&[15, 5]),
                // 10 + d10 6 = 16 beats Guard 15: a hit, so the raider is asked to defend.
                Act("aune", "attack", attack_raider(), &[10, 6]),
                Prompt(true),
            ],
        },
        Scene {
            name: "a crate between a spear and its target blocks the 10 ft reach",
            options: &[],
            cast: vec![aune(), spear()],
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 2, 0),
                crate_at(1, 0),
                // The raider acts first (initiative 15 against 5).
                Start(&[5, 15]),
                Refused(
                    "raider",
                    "attack",
                    vec![("target", ArgValue::Text("aune".into()))],
                    "rule",
                ),
                Res("raider", "actions", 2),
                // With the crate gone the spear reaches 10 ft: 2 cells.
                Gm("rule.terrain", vec![("cell", at(1, 0))], &[]),
                Act(
                    "raider",
                    "attack",
                    vec![("target", ArgValue::Text("aune".into()))],
                    &[10, 6],
                ),
                Prompt(true),
            ],
        },
        Scene {
            name: "an opening is offered only to the foe with a clear path",
            options: &[],
            cast: vec![aune(), raider(), creature("wolf", "npc")],
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 1, 0),
                Place("wolf", -1, -1),
                wall(-1, 0),
                wall(0, -1),
                Start(&[15, 5, 3]),
                Act("aune", "escape", vec![], &[]),
                Prompt(true),
                Asked("raider"),
                Answer("let_go", &[]),
                // The wolf at (-1, -1) is diagonal behind the corner of two walls: not asked.
                Prompt(false),
            ],
        },
    ];
    for s in scenes {
        scene::play(&Vigor, "aune", s);
    }
}
