//! Readying any one-action thing, not only an attack: it is checked when readied, taken when
//! the GM springs it (as a reaction, paid by the action set aside), and refused at the spring
//! when its own rules refuse it then.

use serde_json::json;

use crate::action::ArgValue;
use crate::grid::Cell;
use crate::state::StateView;
use crate::testing::scene::{self, S, Scene};

use super::super::Vigor;
use super::{creature, with};

use S::*;

fn t(s: &str) -> ArgValue {
    ArgValue::Text(s.to_owned())
}

fn cell(x: i32, y: i32) -> ArgValue {
    ArgValue::Cell(Cell::new(x, y))
}

fn readies(
    action: &'static str,
    mut more: Vec<(&'static str, ArgValue)>,
) -> Vec<(&'static str, ArgValue)> {
    more.push(("trigger", t("when the raider steps in")));
    more.push(("action", t(action)));
    more
}

fn spring() -> Vec<(&'static str, ArgValue)> {
    vec![("target", t("aune"))]
}

#[test]
fn any_one_action_can_be_readied_and_is_taken_as_a_reaction_when_sprung() {
    let aune = || creature("aune", "pc");
    let raider = || creature("raider", "npc");
    let caster = || {
        with(aune(), |v| {
            v["abilities_list"] = json!([
                { "id": "flurry", "name": "Flurry", "actions": 1, "vigor": 3 },
                { "id": "firestorm", "name": "Firestorm", "actions": 5 }
            ]);
        })
    };
    let scenes = vec![
        Scene {
            name: "a readied move: 1 action now, the move in the raider's turn, no Vigor",
            options: &[],
            cast: vec![aune(), raider()],
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 4, 0),
                Start(&[15, 5]),
                Act(
                    "aune",
                    "ready",
                    readies("move", vec![("to", cell(-3, 0))]),
                    &[],
                ),
                Res("aune", "actions", 1),
                S::Check(Box::new(|p| {
                    let asked: Vec<&str> = p
                        .state
                        .encounter()
                        .deferred
                        .iter()
                        .map(|s| s.question.as_str())
                        .collect();
                    assert_eq!(asked, ["aune readies to move: when the raider steps in"]);
                })),
                Act("aune", "end_turn", vec![], &[]),
                Gm("spring_ready", spring(), &[]),
                // Speed 30 moves 30 ft a Move: 3 cells is 15 ft. Back to 0 actions after.
                S::Check(Box::new(|p| {
                    let at = p.state.combatant(&"aune".into()).and_then(|c| c.position);
                    assert_eq!(at, Some(Cell::new(-3, 0)), "{}", p.at);
                })),
                Res("aune", "actions", 0),
                Res("aune", "vigor", 10),
                // Sprung once, it is gone.
                GmRefused("spring_ready", spring(), "rule"),
            ],
        },
        Scene {
            name: "a Winded readier cannot take its readied action",
            options: &[],
            cast: vec![aune(), raider()],
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 4, 0),
                Start(&[15, 5]),
                Act(
                    "aune",
                    "ready",
                    readies("move", vec![("to", cell(-3, 0))]),
                    &[],
                ),
                Act("aune", "end_turn", vec![], &[]),
                Gm(
                    "rule.set-resource",
                    vec![
                        ("target", t("aune")),
                        ("resource", t("vigor")),
                        ("value", ArgValue::Int(0)),
                    ],
                    &[],
                ),
                Has("aune", "winded"),
                GmRefused("spring_ready", spring(), "rule"),
                Res("aune", "actions", 0),
            ],
        },
        Scene {
            name: "a readied one-action ability pays its Vigor when sprung",
            options: &[],
            cast: vec![caster(), raider()],
            steps: vec![
                Start(&[15, 5]),
                // Five actions cannot be one reaction.
                Refused(
                    "aune",
                    "ready",
                    readies("use_ability", vec![("ability", t("firestorm"))]),
                    "rule",
                ),
                Act(
                    "aune",
                    "ready",
                    readies("use_ability", vec![("ability", t("flurry"))]),
                    &[],
                ),
                Res("aune", "vigor", 10),
                Act("aune", "end_turn", vec![], &[]),
                Gm("spring_ready", spring(), &[]),
                // Flurry costs 3 Vigor: 10 - 3 = 7.
                Res("aune", "vigor", 7),
                Res("aune", "actions", 0),
            ],
        },
        Scene {
            name: "what cannot be readied, or is readied wrongly, is refused and costs nothing",
            options: &[],
            cast: vec![aune(), raider()],
            steps: vec![
                Place("aune", 0, 0),
                Start(&[15, 5]),
                // Emergency aid takes two actions; Defend only matters in one's own turn.
                Refused(
                    "aune",
                    "ready",
                    readies("emergency_aid", vec![]),
                    "bad_request",
                ),
                Refused("aune", "ready", readies("defend", vec![]), "bad_request"),
                // A move needs a cell; an attack a target that exists.
                Refused("aune", "ready", readies("move", vec![]), "bad_request"),
                Refused(
                    "aune",
                    "ready",
                    readies("attack", vec![("target", t("ghost"))]),
                    "unknown_entity",
                ),
                // A weapon or an item the sheet lacks, or an attack on oneself: refused now,
                // not after the action was paid.
                Refused(
                    "aune",
                    "ready",
                    readies(
                        "attack",
                        vec![("target", t("raider")), ("weapon", t("nosuch"))],
                    ),
                    "unknown_name",
                ),
                Refused(
                    "aune",
                    "ready",
                    readies("use_item", vec![("item", t("nosuch"))]),
                    "unknown_name",
                ),
                Refused(
                    "aune",
                    "ready",
                    readies("attack", vec![("target", t("aune"))]),
                    "bad_request",
                ),
                Res("aune", "actions", 2),
                Prompt(false),
            ],
        },
        Scene {
            name: "a readied attack on a target out of reach is refused when sprung, then lapses",
            options: &[],
            cast: vec![aune(), raider()],
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 4, 0),
                Start(&[15, 5]),
                Act(
                    "aune",
                    "ready",
                    readies("attack", vec![("target", t("raider"))]),
                    &[],
                ),
                Act("aune", "end_turn", vec![], &[]),
                // 20 ft away: a sword's 6 ft reach does not take it in.
                GmRefused("spring_ready", spring(), "out_of_range"),
                Act("raider", "end_turn", vec![], &[]),
                Turn(Some("aune")),
                Said("lapses"),
                Res("aune", "actions", 2),
            ],
        },
    ];
    for s in scenes {
        scene::play(&Vigor, "aune", s);
    }
}
