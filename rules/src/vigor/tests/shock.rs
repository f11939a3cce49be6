//! Shock's countdown is a number like any other: an NPC's (its Stamina) stays the GM's while
//! the table sees that it is in Shock; a player's character's is the table's.

use serde_json::json;

use crate::action::ArgValue;
use crate::testing::scene::{self, S, Scene};

use super::super::Vigor;
use super::{creature, with};

use S::*;

#[test]
fn an_npcs_shock_countdown_is_the_gms_and_ends_with_the_shock() {
    // Wounded already, 3 Health, Stamina 15: Shock for 15 rounds.
    let dying = |id: &str, kind: &str| {
        with(creature(id, kind), |v| {
            v["durability"] = json!(0);
            v["health"] = json!(3);
            v["abilities"]["stamina"] = json!(15);
        })
    };
    let hit = |who: &str| vec![("target", ArgValue::Text(who.to_owned()))];
    let scenes = vec![
        Scene {
            name: "the raider's countdown: 15, then 14 after the recovery phase, hidden",
            options: &[],
            cast: vec![creature("aune", "pc"), dying("raider", "npc")],
            steps: vec![
                Start(&[15, 5]),
                // 10 + 6 = 16 beats Guard 15; 5 + 3 = 8 off Health 3 leaves 0: Shock.
                Act("aune", "attack", hit("raider"), &[10, 6]),
                Answer("take", &[5, 3]),
                Has("raider", "shock"),
                Res("raider", "shock_rounds", 15),
                HiddenFromPlayers("raider", "shock_rounds"),
                PlayerNeverHears("rounds_left: Some"),
                // The raider, unconscious, is passed over: the round ends with Aune's turn.
                Act("aune", "end_turn", vec![], &[]),
                Round(2),
                Res("raider", "shock_rounds", 14),
                HiddenFromPlayers("raider", "shock_rounds"),
                // Any damage in Shock kills: the count goes with it.
                Act("aune", "attack", hit("raider"), &[10, 6, 1, 1]),
                Has("raider", "dead"),
                Lacks("raider", "shock"),
                Res("raider", "shock_rounds", 0),
            ],
        },
        Scene {
            name: "a Shock count the GM rules with --rounds counts down from it",
            options: &[],
            cast: vec![creature("aune", "pc"), creature("raider", "npc")],
            steps: vec![
                Start(&[15, 5]),
                // The GM rules the raider down to 0 Health (Shock for its Stamina, 25), then
                // rules that it has 2 rounds left.
                Gm(
                    "rule.set-resource",
                    vec![
                        ("target", ArgValue::Text("raider".into())),
                        ("resource", ArgValue::Text("health".into())),
                        ("value", ArgValue::Int(0)),
                    ],
                    &[],
                ),
                Res("raider", "shock_rounds", 25),
                Gm(
                    "rule.set-status",
                    vec![
                        ("target", ArgValue::Text("raider".into())),
                        ("status", ArgValue::Text("shock".into())),
                        ("rounds", ArgValue::Int(2)),
                    ],
                    &[],
                ),
                // In Shock the raider is passed over. The first recovery phase moves the 2 into
                // the number and counts one off.
                Act("aune", "end_turn", vec![], &[]),
                Round(2),
                Res("raider", "shock_rounds", 1),
                Lacks("raider", "dead"),
                Act("aune", "end_turn", vec![], &[]),
                Round(3),
                Has("raider", "dead"),
            ],
        },
        Scene {
            name: "a player's character counts down from its Stamina too",
            options: &[],
            cast: vec![dying("aune", "pc"), creature("raider", "npc")],
            steps: vec![
                Start(&[5, 15]),
                Act("raider", "attack", hit("aune"), &[10, 6]),
                Answer("take", &[5, 3]),
                Has("aune", "shock"),
                Res("aune", "shock_rounds", 15),
            ],
        },
    ];
    for s in scenes {
        scene::play(&Vigor, "aune", s);
    }
}
