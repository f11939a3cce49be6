//! Encounter rules as scenarios: each is a cast, table options and a list of steps (commands
//! with the exact dice faces they draw, and what must hold after), played by [`play`] through
//! the real `decide` and `apply`. The comment on each step gives its arithmetic.

use serde_json::Value;

use crate::action::ArgValue;
use crate::ids::Seat;
use crate::state::StateView;
use crate::testing::scene::{self, Played, S, Scene};

use super::super::Tenacity;
use super::{character, with};

/// Plays a scenario; the hearing steps read the player `aune`'s copy.
fn play(s: Scene) {
    scene::play(&Tenacity, "aune", s);
}

/// Who holds the spotlight.
fn spot(who: &'static str) -> S {
    S::Now(vec![who])
}

/// A shared impact pool's value.
fn pool_is(name: &'static str, v: i64) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let got = p
            .state
            .encounter()
            .values
            .get(&format!("pool.{name}"))
            .copied();
        assert_eq!(got.unwrap_or(0), v, "{}: pool {name}", p.at);
    }))
}

fn t(s: &'static str) -> ArgValue {
    ArgValue::Text(s.into())
}
fn n(v: i64) -> ArgValue {
    ArgValue::Int(v)
}
fn e(s: &'static str) -> ArgValue {
    ArgValue::Text(s.into())
}
fn yes() -> ArgValue {
    ArgValue::Flag(true)
}

fn pc(id: &str) -> Value {
    character(id, "pc")
}
fn npc(id: &str) -> Value {
    character(id, "npc")
}

/// bryn: Awareness 3 dice, Investigation 4, Survival 1.
fn bryn_the_investigator() -> Value {
    with(pc("bryn"), |v| {
        v["attributes"]["awareness"]["dice"] = serde_json::json!(3);
        v["attributes"]["awareness"]["skills"]["investigation"] = serde_json::json!(4);
        v["attributes"]["awareness"]["skills"]["survival"] = serde_json::json!(1);
    })
}

fn scenes() -> Vec<Scene> {
    vec![
        Scene {
            name: "w1 investigation against 7 then 8",
            options: &[],
            cast: vec![pc("aune")],
            steps: vec![
                // W1: 3 and 6, keep 6, + 2 = 8 beats 7. Pass/fail: no impact drawn.
                S::Act(
                    "aune",
                    "check",
                    vec![("skill", t("investigation")), ("cr", n(7))],
                    &[3, 6],
                ),
                S::Prompt(false),
                S::Res("aune", "spin", 0),
                // Against 8 it ties and fails: +1 Spin for the failed action, and a push offered.
                S::Act(
                    "aune",
                    "check",
                    vec![("skill", t("investigation")), ("cr", n(8))],
                    &[3, 6],
                ),
                S::Res("aune", "spin", 1),
                S::Prompt(true),
                S::Answer("accept", &[]),
                S::Prompt(false),
                S::Res("aune", "tenacity", 3),
            ],
        },
        Scene {
            name: "a failure pushed into success with Spin and 10acity",
            options: &[],
            cast: vec![pc("aune")],
            steps: vec![
                // 4 and 2: 4 + 2 = 6 against 8 fails: +1 Spin (now 1).
                S::Act(
                    "aune",
                    "check",
                    vec![("skill", t("investigation")), ("cr", n(8))],
                    &[4, 2],
                ),
                S::Res("aune", "spin", 1),
                // Offering more Spin than held is refused by the window's bounds.
                S::AnswerRefused(None, "push", vec![("spin", n(2))], "bad_request"),
                // Another seat cannot answer.
                S::AnswerRefused(
                    Some(Seat::Player("bryn".into())),
                    "accept",
                    vec![],
                    "forbidden",
                ),
                // 6 + 1 Spin + 2 points = 9 beats 8: paid, success.
                S::AnswerWith("push", vec![("spin", n(1)), ("points", n(2))], &[]),
                S::Res("aune", "spin", 0),
                S::Res("aune", "tenacity", 1),
                S::Prompt(false),
            ],
        },
        Scene {
            name: "a push at a cost takes exactly the negative Spin still needed",
            options: &[],
            cast: vec![pc("aune")],
            steps: vec![
                // 2 and 3: 3 + 2 = 5 against 9 fails: Spin 1.
                S::Act(
                    "aune",
                    "check",
                    vec![("skill", t("investigation")), ("cr", n(9))],
                    &[2, 3],
                ),
                // 5 + 1 point = 6, 4 short of 10: spends the point, 4 negative Spin: 1 - 4 = -3.
                S::AnswerWith("push", vec![("points", n(1)), ("at_cost", yes())], &[]),
                S::Res("aune", "tenacity", 2),
                S::Res("aune", "spin", -3),
                // A push that cannot beat the challenge costs nothing: 5 + 2 points = 7 vs 9.
                S::Act(
                    "aune",
                    "check",
                    vec![("skill", t("investigation")), ("cr", n(9))],
                    &[2, 3],
                ),
                // Failing earns +1: -3 -> -2, still negative.
                S::Res("aune", "spin", -2),
                S::AnswerWith("push", vec![("points", n(2))], &[]),
                S::Res("aune", "tenacity", 2),
                S::Res("aune", "spin", -2),
                // Negative Spin: Spin cannot be generated (only at exactly 0).
                S::Refused("aune", "generate_spin", vec![], "rule"),
            ],
        },
        Scene {
            name: "a special ability activated in a push adds its bonus for one point",
            options: &[],
            cast: vec![with(pc("aune"), |v| {
                v["abilities"] = serde_json::json!([{"id": "focus", "bonus": 2}])
            })],
            steps: vec![
                // 4,2 = 6 against 9 fails: Spin 1. Focus (+2, 1 10acity) and 1 point: 9 ties,
                // so the push cannot succeed and nothing is paid.
                S::Act(
                    "aune",
                    "check",
                    vec![("skill", t("investigation")), ("cr", n(9))],
                    &[4, 2],
                ),
                S::AnswerRefused(None, "push", vec![("ability", t("haste"))], "bad_request"),
                S::AnswerWith("push", vec![("ability", t("focus")), ("points", n(1))], &[]),
                S::Res("aune", "tenacity", 3),
                S::Res("aune", "spin", 1),
                // Again: Spin 2. Focus paid with Spin, + 1 Spin + 1 point: 6 + 2 + 1 + 1 = 10.
                S::Act(
                    "aune",
                    "check",
                    vec![("skill", t("investigation")), ("cr", n(9))],
                    &[4, 2],
                ),
                S::AnswerWith(
                    "push",
                    vec![
                        ("ability", t("focus")),
                        ("ability_pay", t("spin")),
                        ("spin", n(1)),
                        ("points", n(1)),
                    ],
                    &[],
                ),
                S::Res("aune", "spin", 0),
                S::Res("aune", "tenacity", 2),
            ],
        },
        Scene {
            name: "a special ability activated before the roll adds its bonus for one point",
            options: &[],
            cast: vec![with(
                pc("aune"),
                |v| {
                    v["abilities"] =
                        serde_json::json!([{"id": "focus", "name": "Focused mind", "bonus": 2}])
                },
            )],
            steps: vec![
                // Focus for 1 10acity (3 → 2), before the roll: 4,2 gives 4 + rank 2 = 6, + 2
                // = 8 beats 7, where 6 alone would not.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("investigation")),
                        ("cr", n(7)),
                        ("ability", t("focus")),
                    ],
                    &[4, 2],
                ),
                S::Res("aune", "tenacity", 2),
                S::Prompt(false),
                S::Said("aune activates Focused mind for 1 10acity"),
                S::Said("label: \"Focused mind\", value: 2"),
                // Paid with Spin it needs a Spin to spend: none, refused, nothing paid.
                S::Refused(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("investigation")),
                        ("cr", n(7)),
                        ("ability", t("focus")),
                        ("ability_pay", t("spin")),
                    ],
                    "insufficient_resource",
                ),
                S::Refused(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("investigation")),
                        ("cr", n(7)),
                        ("ability", t("haste")),
                    ],
                    "unknown_name",
                ),
                S::Res("aune", "tenacity", 2),
                // Activated before a roll that fails (4,2 + 2 + 2 = 8 against 9), it cannot be
                // activated again in the push: one activation a check.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("investigation")),
                        ("cr", n(9)),
                        ("ability", t("focus")),
                    ],
                    &[4, 2],
                ),
                S::AnswerRefused(None, "push", vec![("ability", t("focus"))], "rule"),
                S::Res("aune", "tenacity", 1),
                S::Answer("accept", &[]),
                // Before a stealth roll too: 4,2 gives 4 + stealth 1 + 2 = 7 to find her by.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("stealth")),
                        ("kind", t("stealth")),
                        ("ability", t("focus")),
                    ],
                    &[4, 2],
                ),
                S::Magnitude("aune", "hidden", 7),
                S::Res("aune", "tenacity", 0),
            ],
        },
        Scene {
            name: "a critical: the player chooses the extra impact die",
            options: &[],
            cast: vec![pc("aune"), npc("raider")],
            steps: vec![
                // Melee (strength 2 dice) faces 10, 4: a natural 10, the choice comes first.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("raider")),
                        ("cr", n(9)),
                        ("item", t("sword")),
                    ],
                    &[10, 4],
                ),
                S::Prompt(true),
                // 10 + 4 = 14 beats 9. Impact: rank 4 gives 2d4 (3, 2) plus the critical d4 (4),
                // + sword 1 = 10 stress: exactly the maximum, which holds.
                S::Answer("impact_die", &[3, 2, 4]),
                S::Res("raider", "stress", 10),
                S::Prompt(false),
                // A further 1d4... another hit: 5 and 3 = 5 + 4 = 9 beats 8; 2d4 (1, 1) + 1 = 3:
                // 13 is over 10: the raider's seat (the GM) chooses a wound; stress resets.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("raider")),
                        ("cr", n(8)),
                        ("item", t("sword")),
                    ],
                    &[5, 3, 1, 1],
                ),
                S::Res("raider", "stress", 0),
                S::Prompt(true),
                S::Asked("raider is over its maximum stress: mark a wound, or fall unconscious?"),
                // Left unanswered, the wound is marked.
                S::TimeOut(&[]),
                S::Res("raider", "wounds", 1),
                S::Lacks("raider", "unconscious"),
            ],
        },
        Scene {
            name: "a critical's extra hero die is added before the comparison",
            options: &[],
            cast: vec![pc("aune")],
            steps: vec![
                // 10 and 10 with the default `one`: one extra d10 (6): 10 + 2 + 6 = 18 beats 15.
                // Doubles on an action: +1 Spin.
                S::Act(
                    "aune",
                    "check",
                    vec![("skill", t("investigation")), ("cr", n(15))],
                    &[10, 10],
                ),
                S::Answer("hero_die", &[6]),
                S::Prompt(false),
                S::Res("aune", "spin", 1),
            ],
        },
        Scene {
            name: "a critical left unanswered takes the extra hero die",
            options: &[],
            cast: vec![pc("aune")],
            steps: vec![
                // 10, 5: no answer in time: one extra d10 (1): 10 + 2 + 1 = 13 beats 12.
                S::Act(
                    "aune",
                    "check",
                    vec![("skill", t("investigation")), ("cr", n(12))],
                    &[10, 5],
                ),
                S::TimeOut(&[1]),
                S::Prompt(false),
                S::Res("aune", "spin", 0),
            ],
        },
        Scene {
            name: "option criticals each: two tens give two extra dice",
            options: &[("tenacity.criticals", "each")],
            cast: vec![pc("aune")],
            steps: vec![
                // Two extra d10 (3, 4): 10 + 2 + 7 = 19 beats 18 (with one die, 15, it would fail).
                S::Act(
                    "aune",
                    "check",
                    vec![("skill", t("investigation")), ("cr", n(18))],
                    &[10, 10],
                ),
                S::Answer("hero_die", &[3, 4]),
                S::Prompt(false),
                S::Res("aune", "spin", 1),
            ],
        },
        Scene {
            name: "a fumble costs Spin and earns none, even when it succeeds",
            options: &[],
            cast: vec![with(pc("aune"), |v| v["spin"] = serde_json::json!(2))],
            steps: vec![
                // 1 and 1: highest 1, + 2 = 3 beats 2 but is a fumble: 2 - 1 = 1.
                S::Act(
                    "aune",
                    "check",
                    vec![("skill", t("investigation")), ("cr", n(2))],
                    &[1, 1],
                ),
                S::Res("aune", "spin", 1),
                S::Prompt(false),
            ],
        },
        Scene {
            name: "a reaction earns no Spin for failing",
            options: &[],
            cast: vec![pc("aune")],
            steps: vec![
                // Reaction rank 3: 2 and 4 = 7 against 9 fails; a reaction earns nothing.
                S::Act(
                    "aune",
                    "check",
                    vec![("skill", t("reaction")), ("cr", n(9)), ("reaction", yes())],
                    &[2, 4],
                ),
                S::Res("aune", "spin", 0),
                S::Answer("accept", &[]),
            ],
        },
        Scene {
            name: "secret challenge dice are summed and kept from the players",
            options: &[],
            cast: vec![pc("aune")],
            steps: vec![
                // The GM rolls 2d6 (4, 3) = 7 in secret; aune's 3, 6: 6 + 2 = 8 beats 7.
                S::GmAct(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("investigation")),
                        ("challenge_dice", n(2)),
                        ("secret", yes()),
                    ],
                    &[4, 3, 3, 6],
                ),
                S::Prompt(false),
                S::PlayerHears("succeeds"),
                S::PlayerNeverHears("HiddenTarget"),
                S::PlayerNeverHears("challenge dice\", roll"),
                // A player may not keep a challenge secret from the table.
                S::Refused(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("investigation")),
                        ("cr", n(3)),
                        ("secret", yes()),
                    ],
                    "forbidden",
                ),
            ],
        },
        Scene {
            name: "option challenge_dice highest keeps the best d6",
            options: &[("tenacity.challenge_dice", "highest")],
            cast: vec![pc("aune")],
            steps: vec![
                // 2d6 (4, 3) keep 4, + 1 = 5; aune's 2, 3: 3 + 2 = 5 ties and fails (summed: 8).
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("investigation")),
                        ("challenge_dice", n(2)),
                        ("challenge_bonus", n(1)),
                    ],
                    &[4, 3, 2, 3],
                ),
                S::Prompt(true),
                S::Answer("accept", &[]),
                // 2d6 (4, 3) keep 4 + 1 = 5; 3, 4: 4 + 2 = 6 beats 5.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("investigation")),
                        ("challenge_dice", n(2)),
                        ("challenge_bonus", n(1)),
                    ],
                    &[4, 3, 3, 4],
                ),
                S::Prompt(false),
            ],
        },
        Scene {
            name: "an NPC's challenge dice from its sheet stay the GM's",
            options: &[],
            cast: vec![
                pc("aune"),
                with(npc("raider"), |v| {
                    v["challenge"] = serde_json::json!({"dice": 2, "bonus": 1})
                }),
            ],
            steps: vec![
                // The raider's 2d6 (5, 5) + 1 = 11; aune's melee 6, 4: 6 + 4 = 10 fails. Spin 1.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("raider")),
                    ],
                    &[5, 5, 6, 4],
                ),
                S::PlayerNeverHears("target: 11"),
                S::TargetSeen(false),
                S::PlayerHears("fails"),
                S::Res("aune", "spin", 1),
                // Pushing 1 Spin + 1 point: 12 beats 11. Damage 2d4 (2, 2) + 0 = 4 stress.
                S::AnswerWith("push", vec![("spin", n(1)), ("points", n(1))], &[2, 2]),
                S::Res("raider", "stress", 4),
                S::Res("aune", "spin", 0),
            ],
        },
        Scene {
            name: "create an advantage and a hinder that does not stack",
            options: &[],
            cast: vec![pc("aune"), pc("bryn"), npc("raider")],
            steps: vec![
                // Melee 4: 7, 2 = 11 beats 5; 2d4 (4, 1) = 5 impact: 5 / 2 = 2 Spin to bryn.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("advantage")),
                        ("target", e("bryn")),
                        ("cr", n(5)),
                    ],
                    &[7, 2, 4, 1],
                ),
                S::Res("bryn", "spin", 2),
                // A condition: 8, 3 = 12 beats 6; 2d4 (2, 1) = 3: raider hindered by 3.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("condition")),
                        ("target", e("raider")),
                        ("cr", n(6)),
                    ],
                    &[8, 3, 2, 1],
                ),
                S::Magnitude("raider", "hinder", 3),
                // A weaker second hinder (1, 1 = 2) leaves 3; a stronger one (4, 4 = 8) replaces it.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("condition")),
                        ("target", e("raider")),
                        ("cr", n(6)),
                    ],
                    &[8, 3, 1, 1],
                ),
                S::Magnitude("raider", "hinder", 3),
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("condition")),
                        ("target", e("raider")),
                        ("cr", n(6)),
                    ],
                    &[8, 3, 4, 4],
                ),
                S::Magnitude("raider", "hinder", 8),
            ],
        },
        Scene {
            name: "over maximum stress with no wound left falls unconscious, then cannot act",
            options: &[],
            cast: vec![
                pc("aune"),
                with(pc("bryn"), |v| {
                    v["wounds"] = serde_json::json!(2);
                    v["stress"] = serde_json::json!(9);
                }),
            ],
            steps: vec![
                // 9, 9 = 13 beats 5 (doubles: +1 Spin); 2d4 (1, 1) = 2: 11 > 10, no wound left.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("bryn")),
                        ("cr", n(5)),
                    ],
                    &[9, 9, 1, 1],
                ),
                S::Res("aune", "spin", 1),
                S::Has("bryn", "unconscious"),
                S::Res("bryn", "stress", 0),
                S::Prompt(false),
                S::Refused(
                    "bryn",
                    "check",
                    vec![("skill", t("melee")), ("cr", n(3))],
                    "cannot_act",
                ),
            ],
        },
        Scene {
            name: "over maximum stress, the bearer may choose unconsciousness",
            options: &[],
            cast: vec![
                pc("aune"),
                with(pc("bryn"), |v| v["stress"] = serde_json::json!(9)),
            ],
            steps: vec![
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("bryn")),
                        ("cr", n(5)),
                    ],
                    &[9, 8, 1, 1],
                ),
                S::AnswerRefused(
                    Some(Seat::Player("aune".into())),
                    "wound",
                    vec![],
                    "forbidden",
                ),
                S::Answer("unconscious", &[]),
                S::Has("bryn", "unconscious"),
                S::Res("bryn", "wounds", 0),
            ],
        },
        Scene {
            name: "hardcore: over the maximum marks a wound, and with none left perishes",
            options: &[("tenacity.hardcore", "on")],
            cast: vec![
                pc("aune"),
                with(pc("bryn"), |v| {
                    v["wounds"] = serde_json::json!(1);
                    v["stress"] = serde_json::json!(9);
                }),
            ],
            steps: vec![
                // 9, 8 = 12; 2d4 (1, 1) = 2: 11 > 10: a wound, no choice (2 of 2).
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("bryn")),
                        ("cr", n(5)),
                    ],
                    &[9, 8, 1, 1],
                ),
                S::Prompt(false),
                S::Res("bryn", "wounds", 2),
                S::Lacks("bryn", "dead"),
                // 2d4 (4, 4) + 1 sword = 9, then (2, 1) + 1 = 4: 13 > 10 with none left: dead.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("bryn")),
                        ("cr", n(5)),
                        ("item", t("sword")),
                    ],
                    &[9, 8, 4, 4],
                ),
                S::Res("bryn", "stress", 9),
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("bryn")),
                        ("cr", n(5)),
                        ("item", t("sword")),
                    ],
                    &[9, 8, 2, 1],
                ),
                S::Has("bryn", "dead"),
            ],
        },
        Scene {
            name: "end of scene, generate Spin, recover 10acity and a day of care",
            options: &[],
            cast: vec![
                with(pc("aune"), |v| {
                    v["spin"] = serde_json::json!(3);
                    v["stress"] = serde_json::json!(4);
                    v["tenacity"] = serde_json::json!(0);
                }),
                with(pc("bryn"), |v| {
                    v["spin"] = serde_json::json!(-2);
                    v["wounds"] = serde_json::json!(2);
                    v["wound_capacity"] = serde_json::json!(3);
                }),
            ],
            steps: vec![
                S::Refused("aune", "end_scene", vec![], "forbidden"),
                S::Refused("aune", "generate_spin", vec![], "rule"),
                S::Gm("end_scene", vec![], &[]),
                // Positive Spin is lost, negative stays; stress recovers.
                S::Res("aune", "spin", 0),
                S::Res("aune", "stress", 0),
                S::Res("bryn", "spin", -2),
                S::Act("aune", "generate_spin", vec![], &[]),
                S::Res("aune", "spin", 1),
                S::Act("aune", "recover_tenacity", vec![], &[]),
                S::Res("aune", "tenacity", 1),
                S::Refused("aune", "recover_tenacity", vec![], "rule"),
                // Medicine 4: 2d4 (4, 4) = 8 recovery: 2 wounds cost 10: not yet.
                S::Gm(
                    "care",
                    vec![
                        ("healer", e("aune")),
                        ("patient", e("bryn")),
                        ("skill", t("medicine")),
                    ],
                    &[4, 4],
                ),
                S::Res("bryn", "recovery", 8),
                // (2, 1) = 3: 11 reaches 10, one wound healed, 1 carries on.
                S::Gm(
                    "care",
                    vec![
                        ("healer", e("aune")),
                        ("patient", e("bryn")),
                        ("skill", t("medicine")),
                    ],
                    &[2, 1],
                ),
                S::Res("bryn", "wounds", 1),
                S::Res("bryn", "recovery", 1),
                // A skill of rank 1 has no impact dice: a day of its care adds nothing, and
                // draws no die (the step's dice list is empty and must be used up exactly).
                S::Gm(
                    "care",
                    vec![
                        ("healer", e("aune")),
                        ("patient", e("bryn")),
                        ("skill", t("persuasion")),
                    ],
                    &[],
                ),
                S::Res("bryn", "wounds", 1),
                S::Res("bryn", "recovery", 1),
            ],
        },
        Scene {
            name: "the opening roll's winner may pass first place once and still act later",
            options: &[],
            cast: vec![
                pc("aune"),
                pc("bryn"),
                npc("raider"),
                character("door", "object"),
            ],
            steps: vec![
                // Reaction 3: aune 5,2 = 8; bryn 9,1 = 12; raider 4,3 = 7. Bryn holds it.
                S::Gm("start_encounter", vec![], &[5, 2, 9, 1, 4, 3]),
                spot("bryn"),
                // Someone else cannot give it away; bryn gives first place to aune.
                S::Refused(
                    "aune",
                    "pass_first",
                    vec![("to", e("raider"))],
                    "not_your_turn",
                ),
                S::Refused("bryn", "pass_first", vec![("to", e("bryn"))], "bad_request"),
                // A door takes no turns.
                S::Refused("bryn", "pass_first", vec![("to", e("door"))], "bad_request"),
                S::Act("bryn", "pass_first", vec![("to", e("aune"))], &[]),
                spot("aune"),
                // First place passes once: aune must act or end her turn.
                S::Refused("aune", "pass_first", vec![("to", e("raider"))], "rule"),
                S::Refused("aune", "end_turn", vec![("next", e("door"))], "rule"),
                S::Act("aune", "end_turn", vec![("next", e("raider"))], &[]),
                // Bryn has not acted: the raider may hand the spotlight back to bryn.
                S::Act("raider", "end_turn", vec![("next", e("bryn"))], &[]),
                spot("bryn"),
                S::Round(1),
                // Bryn ends the round; the round reset lets it name the opener of round 2.
                S::Act("bryn", "end_turn", vec![("next", e("raider"))], &[]),
                S::Round(2),
                S::Refused("raider", "pass_first", vec![("to", e("aune"))], "rule"),
            ],
        },
        Scene {
            name: "option initiative group: the highest roller picks the first side, the second has an advantage die",
            options: &[("tenacity.initiative", "group")],
            cast: vec![pc("aune"), pc("bryn"), npc("raider")],
            steps: vec![
                // Reaction: aune 5,2 = 8; bryn 9,1 = 12; raider 4,3 = 7. Bryn rolled highest
                // and is asked; she lets the enemies go first.
                S::Gm("start_encounter", vec![], &[5, 2, 9, 1, 4, 3]),
                S::Asked("which side goes first?"),
                S::AnswerRefused(
                    Some(Seat::Player("aune".into())),
                    "enemies",
                    vec![],
                    "forbidden",
                ),
                S::Answer("enemies", &[]),
                S::Now(vec!["raider"]),
                // The first side rolls its own dice only: melee 6,2 = 6 + 4 = 10 beats 5.
                S::Act(
                    "raider",
                    "check",
                    vec![("skill", t("melee")), ("cr", n(5))],
                    &[6, 2],
                ),
                S::Refused(
                    "raider",
                    "end_turn",
                    vec![("next", e("aune"))],
                    "bad_request",
                ),
                S::Act("raider", "end_turn", vec![], &[]),
                // The players' side, in any order: each one's first action has one more die
                // (three d10s: 1, 2, 9 = 9 + 4 = 13).
                S::Now(vec!["aune", "bryn"]),
                S::Refused("aune", "pass_first", vec![("to", e("bryn"))], "rule"),
                S::Act(
                    "bryn",
                    "check",
                    vec![("skill", t("melee")), ("cr", n(5))],
                    &[1, 2, 9],
                ),
                S::Act("bryn", "end_turn", vec![], &[]),
                S::Now(vec!["aune"]),
                S::Act(
                    "aune",
                    "check",
                    vec![("skill", t("melee")), ("cr", n(5))],
                    &[3, 8, 2],
                ),
                S::Act("aune", "end_turn", vec![], &[]),
                // Round 2: the enemies first again, still without the die.
                S::Round(2),
                S::Now(vec!["raider"]),
                S::Act(
                    "raider",
                    "check",
                    vec![("skill", t("melee")), ("cr", n(5))],
                    &[7, 1],
                ),
            ],
        },
        Scene {
            name: "option initiative group: objects take no turns and a side nobody can act for is passed over",
            options: &[("tenacity.initiative", "group")],
            cast: vec![pc("aune"), npc("raider"), character("door", "object")],
            steps: vec![
                S::Give("raider", "unconscious", 0),
                // aune 5,2 = 8; raider 9,1 = 12: the GM picks the enemies, where nobody can act.
                S::Gm("start_encounter", vec![], &[5, 2, 9, 1]),
                S::Answer("enemies", &[]),
                S::Now(vec!["aune"]),
                S::Act("aune", "end_turn", vec![], &[]),
                // The enemies are passed over again: round 2 is aune's at once.
                S::Round(2),
                S::Now(vec!["aune"]),
            ],
        },
        Scene {
            name: "option initiative group: with no answer the highest roller's own side goes first",
            options: &[("tenacity.initiative", "group")],
            cast: vec![pc("aune"), npc("raider")],
            steps: vec![
                // aune 5,2 = 8; raider 9,3 = 12: the raider's seat (the GM) is asked.
                S::Gm("start_encounter", vec![], &[5, 2, 9, 3]),
                S::TimeOut(&[]),
                S::Now(vec!["raider"]),
            ],
        },
        Scene {
            name: "spotlight initiative, the turn's economy and paying to respond",
            options: &[],
            cast: vec![pc("aune"), pc("bryn"), npc("raider"), npc("wolf")],
            steps: vec![
                // Reaction 3 on 2 dice, in id order: aune 5,2 = 8; bryn 9,1 = 12; raider 9,3 = 12
                // (a tie: the hero goes first); wolf 1,2 = 5. The spotlight is bryn's.
                S::Gm("start_encounter", vec![], &[5, 2, 9, 1, 9, 3, 1, 2]),
                spot("bryn"),
                S::Round(1),
                S::Refused(
                    "aune",
                    "check",
                    vec![("skill", t("melee")), ("cr", n(5))],
                    "not_your_turn",
                ),
                // bryn's action: melee 6,2 = 6 + 4 = 10 beats 5; 2d4 (1, 1) = 2 stress.
                S::Act(
                    "bryn",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("raider")),
                        ("cr", n(5)),
                    ],
                    &[6, 2, 1, 1],
                ),
                S::Res("raider", "stress", 2),
                S::Refused(
                    "bryn",
                    "check",
                    vec![("skill", t("melee")), ("cr", n(5))],
                    "none_left",
                ),
                S::Act("bryn", "interact", vec![("what", t("draws a dagger"))], &[]),
                S::Refused("bryn", "interact", vec![], "none_left"),
                S::Refused("bryn", "move", vec![("spaces", n(7))], "bad_request"),
                S::Act("bryn", "move", vec![("spaces", n(6))], &[]),
                S::Refused("bryn", "move", vec![("spaces", n(1))], "none_left"),
                // The raider was brought into the spotlight: it goes next, not aune or the wolf.
                S::Refused("bryn", "end_turn", vec![("next", e("aune"))], "rule"),
                S::Refused("bryn", "end_turn", vec![("next", e("wolf"))], "rule"),
                S::Act("bryn", "end_turn", vec![("next", e("raider"))], &[]),
                spot("raider"),
                // The raider strikes back: 7,3 = 11 beats 5; 2d4 (2, 2) = 4 stress on bryn.
                S::Act(
                    "raider",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("bryn")),
                        ("cr", n(5)),
                    ],
                    &[7, 3, 2, 2],
                ),
                S::Res("bryn", "stress", 4),
                // bryn has acted and is brought back: Spin 0 cannot pay; 1 10acity can.
                S::Refused(
                    "bryn",
                    "respond",
                    vec![("pay", t("spin"))],
                    "insufficient_resource",
                ),
                S::Refused("aune", "respond", vec![], "rule"),
                S::Act("bryn", "respond", vec![], &[]),
                S::Res("bryn", "tenacity", 2),
                // The answer: 8,3 = 12 beats 5; 2d4 (1, 2) = 3: raider at 5.
                S::Act(
                    "bryn",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("raider")),
                        ("cr", n(5)),
                    ],
                    &[8, 3, 1, 2],
                ),
                S::Res("raider", "stress", 5),
                S::Refused(
                    "bryn",
                    "check",
                    vec![("skill", t("melee")), ("cr", n(5))],
                    "not_your_turn",
                ),
                // The only one it brought in, bryn, has acted: bryn, not the raider, chooses
                // who goes next among those still to act (aune, the wolf): aune.
                S::Refused("raider", "end_turn", vec![("next", e("wolf"))], "rule"),
                S::Act("raider", "end_turn", vec![], &[]),
                S::Asked("who acts next?"),
                S::Check(Box::new(|p: &Played<'_>| {
                    let asked = p.state.encounter().pending.last().cloned().expect("asked");
                    assert_eq!(asked.timeout_ms, 60_000, "the table's decision timeout");
                })),
                S::AnswerRefused(
                    Some(Seat::Player("aune".into())),
                    "aune",
                    vec![],
                    "forbidden",
                ),
                S::Answer("aune", &[]),
                // Generate Spin takes the whole turn.
                S::Act("aune", "generate_spin", vec![], &[]),
                S::Res("aune", "spin", 1),
                S::Refused("aune", "move", vec![("spaces", n(1))], "none_left"),
                S::Act("aune", "end_turn", vec![("next", e("wolf"))], &[]),
                // Everyone has acted: the round resets and the wolf names who opens round 2.
                S::Act("wolf", "end_turn", vec![("next", e("bryn"))], &[]),
                S::Round(2),
                spot("bryn"),
                // Sprint: athletics 5,3 = 5 + 2 = 7 more spaces: 6 + 7 = 13.
                S::Act("bryn", "sprint", vec![], &[5, 3]),
                S::Refused("bryn", "move", vec![("spaces", n(14))], "bad_request"),
                S::Act("bryn", "move", vec![("spaces", n(13))], &[]),
            ],
        },
        Scene {
            name: "defence rolls: ties go to the defender, full defence and fumbles",
            options: &[],
            cast: vec![
                pc("aune"),
                npc("raider"),
                with(npc("ogre"), |v| v["size"] = serde_json::json!(2)),
            ],
            steps: vec![
                // The raider defends first: reaction 6,2 = 6 + 3 = 9; aune 7,4 = 7 + 4 = 11
                // beats it; 2d4 (1, 1) = 2 stress.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("raider")),
                        ("defence", t("reaction")),
                    ],
                    &[6, 2, 7, 4, 1, 1],
                ),
                S::Res("raider", "stress", 2),
                S::PlayerNeverHears("purpose: \"reaction defence\""),
                // 6,1 = 9 against 5,4 = 9: a tie, the defender wins; aune's failure earns 1 Spin.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("raider")),
                        ("defence", t("reaction")),
                    ],
                    &[6, 1, 5, 4],
                ),
                S::Res("aune", "spin", 1),
                S::Answer("accept", &[]),
                S::Res("raider", "stress", 2),
                // Full defence: three dice for the raider (2, 3, 8) = 8 + 3 = 11; aune 9,4 = 13.
                S::Act("raider", "full_defence", vec![], &[]),
                S::Has("raider", "full_defence"),
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("raider")),
                        ("defence", t("reaction")),
                    ],
                    &[2, 3, 8, 9, 4, 1, 1],
                ),
                S::Res("raider", "stress", 4),
                // The ogre is one step larger: aune rolls 3 dice and +1. The ogre fumbles its
                // defence (1, 1) = 1 + 3 = 4, losing a Spin; aune 2,3,6 = 6 + 4 + 1 = 11.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("condition")),
                        ("target", e("ogre")),
                        ("defence", t("reaction")),
                        ("physical", yes()),
                    ],
                    &[1, 1, 2, 3, 6, 2, 2],
                ),
                S::Res("ogre", "spin", -1),
                S::Magnitude("ogre", "hinder", 4),
            ],
        },
        Scene {
            name: "a hinder overcome at the end of a turn, a damaging condition bites each turn",
            options: &[],
            cast: vec![pc("aune"), pc("bryn"), npc("raider")],
            steps: vec![
                // Reaction: aune 9,8 = 12; bryn 1,2 = 5; raider 3,4 = 7.
                S::Gm("start_encounter", vec![], &[9, 8, 1, 2, 3, 4]),
                // Each roll is told as its best die plus the rank: 9 + 3 = 12 for aune; the
                // raider's rank and total are the GM's.
                S::PlayerHears("verb: \"rolls initiative\""),
                S::PlayerHears("label: \"rank\", value: 3 }], total: Some(12)"),
                S::PlayerNeverHears("total: Some(7)"),
                S::Said("total: Some(7)"),
                spot("aune"),
                // 7,2 = 11 beats 5; 2d4 (2, 1) = 3: raider hindered by 3.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("condition")),
                        ("target", e("raider")),
                        ("cr", n(5)),
                    ],
                    &[7, 2, 2, 1],
                ),
                S::Magnitude("raider", "hinder", 3),
                S::Lacks("raider", "area.hinder"),
                S::Act("aune", "end_turn", vec![("next", e("raider"))], &[]),
                // The applier's fresh melee roll 5,3 = 9; the raider's athletics 9,6 = 11: gone.
                S::Act(
                    "raider",
                    "overcome",
                    vec![
                        ("condition", t("hinder")),
                        ("skill", t("athletics")),
                        ("against", t("melee")),
                    ],
                    &[5, 3, 9, 6],
                ),
                S::Said(
                    "modifiers: [Modifier { label: \"athletics\", value: 2 }], total: Some(11)",
                ),
                S::Lacks("raider", "hinder"),
                S::Lacks("raider", "grappled"),
                S::Refused(
                    "raider",
                    "overcome",
                    vec![
                        ("condition", t("hinder")),
                        ("skill", t("athletics")),
                        ("cr", n(3)),
                    ],
                    "rule",
                ),
                // A damaging condition on aune: 8,1 = 12 beats 3; 2d4 (2, 2) = 4 a turn.
                S::Act(
                    "raider",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("condition")),
                        ("condition", t("damage")),
                        ("target", e("aune")),
                        ("cr", n(3)),
                    ],
                    &[8, 1, 2, 2],
                ),
                S::Magnitude("aune", "damage", 4),
                // The raider acted on aune, who has acted: she chooses who goes next, and
                // names someone still to act; herself she may not.
                S::Act("raider", "end_turn", vec![], &[]),
                S::AnswerRefused(None, "aune", vec![], "not_an_option"),
                S::Answer("bryn", &[]),
                S::Act("bryn", "end_turn", vec![("next", e("aune"))], &[]),
                // Round 2: aune's turn starts and the condition deals 4.
                S::Round(2),
                S::Res("aune", "stress", 4),
                // The free try: endurance 3,4 = 4 + 0 against 20 fails; a second free try is spent.
                S::Act(
                    "aune",
                    "overcome",
                    vec![
                        ("condition", t("damage")),
                        ("skill", t("endurance")),
                        ("cr", n(20)),
                    ],
                    &[3, 4],
                ),
                S::Has("aune", "damage"),
                S::Refused(
                    "aune",
                    "overcome",
                    vec![
                        ("condition", t("damage")),
                        ("skill", t("endurance")),
                        ("cr", n(2)),
                    ],
                    "none_left",
                ),
                // Again with the action: 5,1 = 5 beats 2.
                S::Act(
                    "aune",
                    "overcome",
                    vec![
                        ("condition", t("damage")),
                        ("skill", t("endurance")),
                        ("cr", n(2)),
                        ("with_action", yes()),
                    ],
                    &[5, 1],
                ),
                S::Lacks("aune", "damage"),
            ],
        },
        Scene {
            name: "an unconscious character comes round against 2d6 plus 1d6 per wound",
            options: &[],
            cast: vec![
                pc("aune"),
                with(pc("bryn"), |v| {
                    v["wounds"] = serde_json::json!(2);
                    v["stress"] = serde_json::json!(9);
                }),
            ],
            steps: vec![
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("bryn")),
                        ("cr", n(5)),
                    ],
                    &[9, 8, 1, 1],
                ),
                S::Has("bryn", "unconscious"),
                S::Refused(
                    "bryn",
                    "come_round",
                    vec![("skill", t("persuasion"))],
                    "bad_request",
                ),
                S::Refused(
                    "aune",
                    "come_round",
                    vec![("skill", t("concentration"))],
                    "rule",
                ),
                // (2 + 2) d6: 1, 1, 1, 2 = 5; concentration 3,1 = 3 + 2 = 5 ties: still out.
                S::Act(
                    "bryn",
                    "come_round",
                    vec![("skill", t("concentration"))],
                    &[1, 1, 1, 2, 3, 1],
                ),
                S::Said(
                    "modifiers: [Modifier { label: \"concentration\", value: 2 }], total: Some(5)",
                ),
                S::Has("bryn", "unconscious"),
                // 1, 1, 1, 1 = 4; melee (a strength skill) 3,1 = 3 + 4 = 7: awake.
                S::Act(
                    "bryn",
                    "come_round",
                    vec![("skill", t("melee"))],
                    &[1, 1, 1, 1, 3, 1],
                ),
                S::Lacks("bryn", "unconscious"),
            ],
        },
        Scene {
            name: "size halves or doubles a hit's stress, then resistance is ignored",
            options: &[],
            cast: vec![
                pc("aune"),
                with(npc("ogre"), |v| {
                    v["size"] = serde_json::json!(2);
                    v["resistances"] = serde_json::json!({"fire": 2});
                }),
            ],
            steps: vec![
                // One step larger: 3 dice and +1: 5,2,3 = 5 + 4 + 1 = 10 beats 3. Impact
                // 2d4 (3, 4) + sword 1 = 8, halved = 4.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("ogre")),
                        ("cr", n(3)),
                        ("physical", yes()),
                        ("item", t("sword")),
                    ],
                    &[5, 2, 3, 3, 4],
                ),
                S::Res("ogre", "stress", 4),
                S::Said("8 impact becomes 4 stress (size, resistance)"),
                // Fire: 7 halved down = 3, less resistance 2 = 1: stress 5.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("ogre")),
                        ("cr", n(3)),
                        ("physical", yes()),
                        ("damage_type", t("fire")),
                    ],
                    &[5, 2, 3, 3, 4],
                ),
                S::Res("ogre", "stress", 5),
                // The ogre hits the smaller aune: 6,2 = 10 beats 3; 2d4 (1, 2) = 3, doubled = 6.
                S::Act(
                    "ogre",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("aune")),
                        ("cr", n(3)),
                        ("physical", yes()),
                    ],
                    &[6, 2, 1, 2],
                ),
                S::Res("aune", "stress", 6),
            ],
        },
        Scene {
            name: "a resistance to a condition's type adds to the defence against it",
            options: &[],
            cast: vec![
                pc("aune"),
                with(npc("ogre"), |v| {
                    v["resistances"] = serde_json::json!({"fire": 2});
                }),
            ],
            steps: vec![
                // A burning hinder: the ogre defends with reaction 6,2 = 6 + 3 and its fire
                // resistance 2 = 11; aune's 7,4 = 7 + 4 = 11 ties: the defender keeps it off.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("condition")),
                        ("target", e("ogre")),
                        ("defence", t("reaction")),
                        ("damage_type", t("fire")),
                    ],
                    &[6, 2, 7, 4],
                ),
                S::Answer("accept", &[]),
                S::Lacks("ogre", "hinder"),
                // The same dice for a hinder of no type: 9 against 11, hindered by 2d4 (1, 1).
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("condition")),
                        ("target", e("ogre")),
                        ("defence", t("reaction")),
                    ],
                    &[6, 2, 7, 4, 1, 1],
                ),
                S::Magnitude("ogre", "hinder", 2),
                // Fire damage is not avoided by it: 9 against 11 hits; 2d4 (3, 4) = 7, less
                // the resistance 2 = 5 stress.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("ogre")),
                        ("defence", t("reaction")),
                        ("damage_type", t("fire")),
                    ],
                    &[6, 2, 7, 4, 3, 4],
                ),
                S::Res("ogre", "stress", 5),
            ],
        },
        Scene {
            name: "a resistance to a condition's type adds to the challenge dice that avoid it",
            options: &[],
            cast: vec![
                pc("aune"),
                with(npc("goblin"), |v| {
                    v["challenge"] = serde_json::json!({"dice": 1, "bonus": 0});
                    v["resistances"] = serde_json::json!({"fire": 2});
                }),
            ],
            steps: vec![
                // The goblin's challenge d6 (6) and its fire resistance 2 make 8; aune's melee
                // 4,2 = 4 + 4 = 8 ties: kept off.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("condition")),
                        ("target", e("goblin")),
                        ("damage_type", t("fire")),
                    ],
                    &[6, 4, 2],
                ),
                S::Answer("accept", &[]),
                S::Lacks("goblin", "hinder"),
                // No type: 6 against 8, hindered by 2d4 (1, 1).
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("condition")),
                        ("target", e("goblin")),
                    ],
                    &[6, 4, 2, 1, 1],
                ),
                S::Magnitude("goblin", "hinder", 2),
            ],
        },
        Scene {
            name: "option size_rounding up rounds a halved hit up",
            options: &[("tenacity.size_rounding", "up")],
            cast: vec![
                pc("aune"),
                with(npc("ogre"), |v| {
                    v["size"] = serde_json::json!(2);
                    v["resistances"] = serde_json::json!({"fire": 2});
                }),
            ],
            steps: vec![
                // 7 halved up = 4, less 2 = 2 (down it would be 1).
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("ogre")),
                        ("cr", n(3)),
                        ("physical", yes()),
                        ("damage_type", t("fire")),
                    ],
                    &[5, 2, 3, 3, 4],
                ),
                S::Res("ogre", "stress", 2),
            ],
        },
        Scene {
            name: "a stealth roll sets the challenge to find the one hiding",
            options: &[],
            cast: vec![pc("aune"), npc("raider")],
            steps: vec![
                // Stealth 1 on 2 dice: 6,6 = 7, and doubles on an action: +1 Spin.
                S::Act(
                    "raider",
                    "check",
                    vec![("skill", t("stealth")), ("kind", t("stealth"))],
                    &[6, 6],
                ),
                S::Magnitude("raider", "hidden", 7),
                S::Res("raider", "spin", 1),
                // Perception 2: 5,2 = 7 ties the 7 and fails: still hidden (+1 Spin for aune).
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("perception")),
                        ("kind", t("find")),
                        ("target", e("raider")),
                    ],
                    &[5, 2],
                ),
                S::PlayerNeverHears("HiddenTarget"),
                S::TargetSeen(false),
                S::Answer("accept", &[]),
                S::Has("raider", "hidden"),
                // 6,1 = 8 beats 7: found.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("perception")),
                        ("kind", t("find")),
                        ("target", e("raider")),
                    ],
                    &[6, 1],
                ),
                S::Lacks("raider", "hidden"),
                S::Refused(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("perception")),
                        ("kind", t("find")),
                        ("target", e("raider")),
                    ],
                    "rule",
                ),
            ],
        },
        Scene {
            name: "a coup de grace takes two turns and breaks on anything else",
            options: &[],
            cast: vec![pc("aune"), pc("bryn"), npc("raider"), npc("wolf")],
            steps: vec![
                // Reaction: aune 9,8 = 12; bryn 1,2 = 5; raider 3,4 = 7; wolf 1,1 = 4.
                S::Gm("start_encounter", vec![], &[9, 8, 1, 2, 3, 4, 1, 1]),
                S::Act("aune", "coup_de_grace", vec![("target", e("raider"))], &[]),
                S::Has("aune", "coup_de_grace"),
                S::Act("aune", "end_turn", vec![("next", e("raider"))], &[]),
                S::Act("raider", "end_turn", vec![("next", e("bryn"))], &[]),
                S::Act("bryn", "coup_de_grace", vec![("target", e("wolf"))], &[]),
                S::Act("bryn", "end_turn", vec![("next", e("wolf"))], &[]),
                // bryn's defence roll (2,2 = 5) is doing something else: its coup fails.
                // The wolf's 9,1 = 13 beats 5; 2d4 (1, 1) = 2 stress.
                S::Act(
                    "wolf",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("bryn")),
                        ("defence", t("reaction")),
                    ],
                    &[2, 2, 9, 1, 1, 1],
                ),
                S::Lacks("bryn", "coup_de_grace"),
                S::Res("bryn", "stress", 2),
                // The wolf acted on bryn, who has acted: bryn's seat chooses who opens round 2.
                S::Act("wolf", "end_turn", vec![], &[]),
                S::Answer("aune", &[]),
                S::Round(2),
                // aune finishes it with this turn's action; the raider perishes as the turn ends.
                S::Act("aune", "coup_de_grace", vec![("target", e("raider"))], &[]),
                S::Has("raider", "perishing"),
                S::Lacks("raider", "dead"),
                S::Act("aune", "end_turn", vec![("next", e("wolf"))], &[]),
                S::Has("raider", "dead"),
            ],
        },
        Scene {
            name: "help: the better ranked rolls with one more die, one helper at a time",
            options: &[],
            cast: vec![
                pc("aune"),
                bryn_the_investigator(),
                with(pc("carl"), |v| {
                    v["attributes"]["awareness"]["dice"] = serde_json::json!(3);
                }),
            ],
            steps: vec![
                S::Act(
                    "bryn",
                    "help",
                    vec![("target", e("aune")), ("skill", t("investigation"))],
                    &[],
                ),
                S::Refused(
                    "carl",
                    "help",
                    vec![("target", e("aune")), ("skill", t("investigation"))],
                    "rule",
                ),
                // bryn's rank 4 beats aune's 2: bryn's 3 dice + 1: 2,3,6,1 = 6 + 4 = 10 beats 9
                // (aune alone: 2,3 = 3 + 2 = 5).
                S::Act(
                    "aune",
                    "check",
                    vec![("skill", t("investigation")), ("cr", n(9))],
                    &[2, 3, 6, 1],
                ),
                S::Said("total: Some(10)"),
                S::Prompt(false),
                // The help is used up: aune's own 2 dice again, 2,3 = 5 fails.
                S::Act(
                    "aune",
                    "check",
                    vec![("skill", t("investigation")), ("cr", n(9))],
                    &[2, 3],
                ),
                S::Answer("accept", &[]),
                // Survival: bryn has 1, aune 0; by default both need a rank.
                S::Refused(
                    "bryn",
                    "help",
                    vec![("target", e("aune")), ("skill", t("survival"))],
                    "rule",
                ),
                // carl's investigation 2 on 3 dice equals aune's rank: aune keeps her own
                // roll, 2 dice + 1: 2,3,8 = 8 + 2 = 10.
                S::Act(
                    "carl",
                    "help",
                    vec![("target", e("aune")), ("skill", t("investigation"))],
                    &[],
                ),
                S::Act(
                    "aune",
                    "check",
                    vec![("skill", t("investigation")), ("cr", n(9))],
                    &[2, 3, 8],
                ),
                S::Said("total: Some(10)"),
                // A rank of 1 on both sides is enough: bryn's insight 1 helps aune's insight 1.
                S::Act(
                    "bryn",
                    "help",
                    vec![("target", e("aune")), ("skill", t("insight"))],
                    &[],
                ),
            ],
        },
        Scene {
            name: "option help_ranks helper: only the helper needs a rank",
            options: &[("tenacity.help_ranks", "helper")],
            cast: vec![pc("aune"), bryn_the_investigator()],
            steps: vec![
                S::Act(
                    "bryn",
                    "help",
                    vec![("target", e("aune")), ("skill", t("survival"))],
                    &[],
                ),
                // bryn's 3 dice + 1, rank 1: 1,2,3,7 = 7 + 1 = 8 beats 7.
                S::Act(
                    "aune",
                    "check",
                    vec![("skill", t("survival")), ("cr", n(7))],
                    &[1, 2, 3, 7],
                ),
                S::Prompt(false),
            ],
        },
        Scene {
            name: "piloting, elevation, a blind attack and the narrator's bargain",
            options: &[],
            cast: vec![
                with(pc("aune"), |v| v["spin"] = serde_json::json!(-5)),
                npc("raider"),
            ],
            steps: vec![
                // W6: pilot 1 in a ship of maneuverability 3: +1 + 1 = +2: 5,1 = 7 beats 6
                // (with the bare rank 1 it would tie and fail).
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("pilot")),
                        ("cr", n(6)),
                        ("maneuverability", n(3)),
                    ],
                    &[5, 1],
                ),
                S::Prompt(false),
                // From high ground perception rolls 3 dice: 1,2,6 = 6 + 2 = 8 beats 7.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("perception")),
                        ("cr", n(7)),
                        ("elevated", yes()),
                    ],
                    &[1, 2, 6],
                ),
                S::Prompt(false),
                // Blind: a 5 does not find the raider; nothing else is rolled.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("raider")),
                        ("cr", n(3)),
                        ("blind", yes()),
                    ],
                    &[5],
                ),
                S::Res("raider", "stress", 0),
                // A 6 does: 4,4 = 8 beats 3 (doubles: -5 + 1 = -4); 2d4 (1, 1) = 2 stress.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("raider")),
                        ("cr", n(3)),
                        ("blind", yes()),
                    ],
                    &[6, 4, 4, 1, 1],
                ),
                S::Res("raider", "stress", 2),
                S::Res("aune", "spin", -4),
                // The narrator takes 3 negative Spin for a complication, then the last 1 (never past 0).
                S::Refused(
                    "aune",
                    "bargain",
                    vec![("target", e("aune")), ("remove", n(3))],
                    "forbidden",
                ),
                S::Gm(
                    "bargain",
                    vec![("target", e("aune")), ("remove", n(3))],
                    &[],
                ),
                S::Res("aune", "spin", -1),
                S::Gm(
                    "bargain",
                    vec![("target", e("aune")), ("remove", n(3))],
                    &[],
                ),
                S::Res("aune", "spin", 0),
                S::Refused(
                    "gm",
                    "bargain",
                    vec![("target", e("aune")), ("remove", n(1))],
                    "rule",
                ),
            ],
        },
        Scene {
            name: "flanking: a successful first attack hands the ally a Spin",
            options: &[],
            cast: vec![pc("aune"), pc("bryn"), npc("raider")],
            steps: vec![
                // 5,2 = 9 beats 3; 2d4 (1, 1) = 2 stress; bryn, flanking, gains 1 Spin.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("raider")),
                        ("cr", n(3)),
                        ("flank_ally", e("bryn")),
                    ],
                    &[5, 2, 1, 1],
                ),
                S::Res("raider", "stress", 2),
                S::Res("bryn", "spin", 1),
                // 1,2 = 6 against 7 fails: nothing for bryn.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("raider")),
                        ("cr", n(7)),
                        ("flank_ally", e("bryn")),
                    ],
                    &[1, 2],
                ),
                S::Answer("accept", &[]),
                S::Res("bryn", "spin", 1),
            ],
        },
        Scene {
            name: "social standing rises with your impact and falls with theirs",
            options: &[],
            cast: vec![pc("aune"), npc("raider")],
            steps: vec![
                // Standing starts at 5. Melee 4 as intimidation: 8,2 = 12 beats 6; 2d4 (3, 1) = 4:
                // 5 to 9.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("social")),
                        ("target", e("raider")),
                        ("cr", n(6)),
                    ],
                    &[8, 2, 3, 1],
                ),
                S::Magnitude("aune", "standing.raider", 9),
                // The raider's scrutiny: 9,4 = 13 beats 5; 2d4 (4, 4) = 8: 9 to 1.
                S::Act(
                    "raider",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("undermine")),
                        ("target", e("aune")),
                        ("cr", n(5)),
                    ],
                    &[9, 4, 4, 4],
                ),
                S::Magnitude("aune", "standing.raider", 1),
                // And again 2d4 (2, 1) = 3: 1 - 3 stops at 0, credibility lost.
                S::Act(
                    "raider",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("undermine")),
                        ("target", e("aune")),
                        ("cr", n(5)),
                    ],
                    &[9, 4, 2, 1],
                ),
                S::Magnitude("aune", "standing.raider", 0),
                S::Said("and has lost all credibility"),
                // From 0, 9,4 = 13 beats 6; 2d4 (4, 4) = 8, then (1, 1) = 2: 10 sways him.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("social")),
                        ("target", e("raider")),
                        ("cr", n(6)),
                    ],
                    &[9, 4, 4, 4],
                ),
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("social")),
                        ("target", e("raider")),
                        ("cr", n(6)),
                    ],
                    &[9, 4, 1, 1],
                ),
                S::Magnitude("aune", "standing.raider", 10),
                S::Said("aune's standing with raider: 8 to 10 and sways them"),
                S::Refused(
                    "aune",
                    "check",
                    vec![("skill", t("melee")), ("kind", t("social")), ("cr", n(6))],
                    "bad_request",
                ),
            ],
        },
        Scene {
            name: "a held action is used when its trigger comes, a held movement lapses",
            options: &[],
            cast: vec![pc("aune"), pc("bryn"), npc("raider")],
            steps: vec![
                // Reaction: aune 9,8 = 12; bryn 1,2 = 5; raider 3,4 = 7.
                S::Gm("start_encounter", vec![], &[9, 8, 1, 2, 3, 4]),
                S::Act(
                    "aune",
                    "hold",
                    vec![("what", t("action")), ("trigger", t("the raider strikes"))],
                    &[],
                ),
                S::Has("aune", "held_action"),
                S::Refused(
                    "aune",
                    "check",
                    vec![("skill", t("melee")), ("cr", n(3))],
                    "none_left",
                ),
                S::Act("aune", "end_turn", vec![("next", e("raider"))], &[]),
                // 5,2 = 9 beats 3; 2d4 (1, 1) = 2 on bryn.
                S::Act(
                    "raider",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("bryn")),
                        ("cr", n(3)),
                    ],
                    &[5, 2, 1, 1],
                ),
                // The trigger: aune acts now: 6,2 = 10 beats 3; 2d4 (1, 2) = 3 on the raider.
                S::Act("aune", "release", vec![("what", t("action"))], &[]),
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("raider")),
                        ("cr", n(3)),
                    ],
                    &[6, 2, 1, 2],
                ),
                S::Res("raider", "stress", 3),
                S::Lacks("aune", "held_action"),
                // Nothing else held: the turn order no longer shows her holding.
                S::Check(Box::new(|p: &Played<'_>| {
                    let held = &p.state.encounter().turns.held;
                    assert!(!held.iter().any(|e| e.0 == "aune"), "{held:?}");
                })),
                S::Refused("aune", "release", vec![("what", t("action"))], "rule"),
                S::Act("raider", "end_turn", vec![("next", e("bryn"))], &[]),
                S::Act(
                    "bryn",
                    "hold",
                    vec![("what", t("movement")), ("trigger", t("a door opens"))],
                    &[],
                ),
                S::Refused("bryn", "move", vec![("spaces", n(1))], "none_left"),
                S::Act("bryn", "end_turn", vec![("next", e("aune"))], &[]),
                S::Round(2),
                S::Has("bryn", "held_movement"),
                S::Act("aune", "end_turn", vec![("next", e("raider"))], &[]),
                S::Act("raider", "end_turn", vec![("next", e("bryn"))], &[]),
                // bryn's turn begins: the unused hold lapses.
                S::Lacks("bryn", "held_movement"),
            ],
        },
        Scene {
            name: "leaving melee gives parting actions unless one withdraws",
            options: &[],
            cast: vec![pc("aune"), npc("raider"), npc("wolf")],
            steps: vec![
                // Reaction: aune 9,8 = 12; raider 3,4 = 7; wolf 1,2 = 5.
                S::Gm("start_encounter", vec![], &[9, 8, 3, 4, 1, 2]),
                // aune moves off: the raider's parting action is free and out of turn:
                // 5,5 = 9 beats 3 (doubles, but a reaction earns no Spin); 2d4 (1, 1) = 2.
                S::Act(
                    "raider",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("aune")),
                        ("cr", n(3)),
                        ("parting", yes()),
                    ],
                    &[5, 5, 1, 1],
                ),
                S::Res("aune", "stress", 2),
                S::Res("raider", "spin", 0),
                // Withdrawing spends aune's action: no parting actions this turn.
                S::Act("aune", "withdraw", vec![], &[]),
                S::Refused(
                    "wolf",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("damage")),
                        ("target", e("aune")),
                        ("cr", n(3)),
                        ("parting", yes()),
                    ],
                    "rule",
                ),
                S::Refused(
                    "aune",
                    "check",
                    vec![("skill", t("melee")), ("cr", n(3))],
                    "none_left",
                ),
                S::Act("aune", "end_turn", vec![("next", e("raider"))], &[]),
                S::Lacks("aune", "withdrawing"),
            ],
        },
        Scene {
            name: "w4 explore: two successes pool 3 and 2, spent on options of 4 and 1",
            options: &[],
            cast: vec![pc("aune"), pc("bryn"), pc("carl")],
            steps: vec![
                // Investigation 2 (1 impact d4): 7,1 = 9 beats 5, impact 3; 6,2 = 8, impact 2.
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("investigation")),
                        ("kind", t("pool")),
                        ("pool", t("scene")),
                        ("cr", n(5)),
                    ],
                    &[7, 1, 3],
                ),
                S::Act(
                    "bryn",
                    "check",
                    vec![
                        ("skill", t("investigation")),
                        ("kind", t("pool")),
                        ("pool", t("scene")),
                        ("cr", n(5)),
                    ],
                    &[6, 2, 2],
                ),
                // carl's 2,3 = 5 ties and adds nothing.
                S::Act(
                    "carl",
                    "check",
                    vec![
                        ("skill", t("investigation")),
                        ("kind", t("pool")),
                        ("pool", t("scene")),
                        ("cr", n(5)),
                    ],
                    &[2, 3],
                ),
                S::Answer("accept", &[]),
                pool_is("scene", 5),
                S::Gm(
                    "spend_pool",
                    vec![("pool", t("scene")), ("cost", n(4))],
                    &[],
                ),
                S::Gm(
                    "spend_pool",
                    vec![("pool", t("scene")), ("cost", n(1))],
                    &[],
                ),
                pool_is("scene", 0),
                S::Refused(
                    "gm",
                    "spend_pool",
                    vec![("pool", t("scene")), ("cost", n(1))],
                    "insufficient_resource",
                ),
                S::Refused(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("investigation")),
                        ("kind", t("pool")),
                        ("cr", n(5)),
                    ],
                    "bad_request",
                ),
            ],
        },
        Scene {
            name: "w3 a timed task of 5: over the requirement by default",
            options: &[],
            cast: vec![pc("aune"), pc("bryn")],
            steps: vec![
                S::Gm(
                    "task",
                    vec![("pool", t("climb")), ("requirement", n(5))],
                    &[],
                ),
                // Another task at the same time keeps its own requirement.
                S::Gm(
                    "task",
                    vec![("pool", t("door")), ("requirement", n(9))],
                    &[],
                ),
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("investigation")),
                        ("kind", t("pool")),
                        ("pool", t("climb")),
                        ("cr", n(5)),
                    ],
                    &[7, 1, 3],
                ),
                S::Act(
                    "bryn",
                    "check",
                    vec![
                        ("skill", t("investigation")),
                        ("kind", t("pool")),
                        ("pool", t("climb")),
                        ("cr", n(5)),
                    ],
                    &[6, 2, 2],
                ),
                S::PlayerNeverHears("climb is done"),
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("investigation")),
                        ("kind", t("pool")),
                        ("pool", t("climb")),
                        ("cr", n(5)),
                    ],
                    &[7, 1, 1],
                ),
                S::PlayerHears("climb is done (6 of 5)"),
            ],
        },
        Scene {
            name: "option task_done reach: 5 of 5 is done",
            options: &[("tenacity.task_done", "reach")],
            cast: vec![pc("aune"), pc("bryn")],
            steps: vec![
                S::Gm(
                    "task",
                    vec![("pool", t("climb")), ("requirement", n(5))],
                    &[],
                ),
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("investigation")),
                        ("kind", t("pool")),
                        ("pool", t("climb")),
                        ("cr", n(5)),
                    ],
                    &[7, 1, 3],
                ),
                S::Act(
                    "bryn",
                    "check",
                    vec![
                        ("skill", t("investigation")),
                        ("kind", t("pool")),
                        ("pool", t("climb")),
                        ("cr", n(5)),
                    ],
                    &[6, 2, 2],
                ),
                S::PlayerHears("climb is done (5 of 5)"),
            ],
        },
        Scene {
            name: "a condition on an object stays until someone spends an action to remove it",
            options: &[],
            cast: vec![pc("aune"), pc("bryn"), character("door", "object")],
            steps: vec![
                // Aune jams the door shut (a stop) against the narrator's 5: melee 6,2 = 6 + 4
                // = 10; impact 2d4 (1, 1).
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("condition")),
                        ("condition", t("stop")),
                        ("target", e("door")),
                        ("cr", n(5)),
                    ],
                    &[6, 2, 1, 1],
                ),
                S::Has("door", "stop"),
                // Only an object's condition is removed from outside; a creature throws off
                // its own.
                S::Refused(
                    "bryn",
                    "overcome",
                    vec![
                        ("condition", t("stop")),
                        ("skill", t("melee")),
                        ("cr", n(5)),
                        ("on", e("aune")),
                    ],
                    "bad_request",
                ),
                // Bryn forces it: melee 7,3 = 7 + 4 = 11 beats 5; the stop is gone.
                S::Act(
                    "bryn",
                    "overcome",
                    vec![
                        ("condition", t("stop")),
                        ("skill", t("melee")),
                        ("cr", n(5)),
                        ("on", e("door")),
                    ],
                    &[7, 3],
                ),
                S::Lacks("door", "stop"),
            ],
        },
        Scene {
            name: "a condition from an area ends when its bearer moves out",
            options: &[],
            cast: vec![pc("aune"), pc("bryn")],
            steps: vec![
                // Reaction: aune 5,2 = 8; bryn 9,1 = 12: bryn first.
                S::Gm("start_encounter", vec![], &[5, 2, 9, 1]),
                // Bryn sets the brambles on Aune: melee 8,1 = 8 + 4 = 12 beats 3; 2d4 (2, 2) = a
                // hinder of 4 that comes from the area.
                S::Act(
                    "bryn",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("condition")),
                        ("target", e("aune")),
                        ("cr", n(3)),
                        ("area", yes()),
                    ],
                    &[8, 1, 2, 2],
                ),
                S::Magnitude("aune", "hinder", 4),
                S::Has("aune", "area.hinder"),
                S::Act("bryn", "end_turn", vec![("next", e("aune"))], &[]),
                // Moving out of the brambles ends it: no roll.
                S::Act("aune", "move", vec![("spaces", n(2))], &[]),
                S::Lacks("aune", "hinder"),
                S::Lacks("aune", "area.hinder"),
                S::Said("aune leaves the area: its hinder ends"),
            ],
        },
        Scene {
            name: "an area never takes over a condition put on directly",
            options: &[],
            cast: vec![pc("aune"), pc("bryn")],
            steps: vec![
                S::Give("aune", "hinder", 5),
                S::Gm("start_encounter", vec![], &[5, 2, 9, 1]),
                // The brambles' 4 on a hinder of 5 put on directly: it stays as it was.
                S::Act(
                    "bryn",
                    "check",
                    vec![
                        ("skill", t("melee")),
                        ("kind", t("condition")),
                        ("target", e("aune")),
                        ("cr", n(3)),
                        ("area", yes()),
                    ],
                    &[8, 1, 2, 2],
                ),
                S::Magnitude("aune", "hinder", 5),
                S::Lacks("aune", "area.hinder"),
                S::Act("bryn", "end_turn", vec![("next", e("aune"))], &[]),
                // Moving does not shed it.
                S::Act("aune", "move", vec![("spaces", n(2))], &[]),
                S::Magnitude("aune", "hinder", 5),
            ],
        },
        Scene {
            name: "a grapple on two limbs hinders every physical action; moving in it is opposed athletics",
            options: &[],
            cast: vec![
                with(pc("aune"), |v| {
                    v["attributes"]["strength"]["skills"]["unarmed"] = serde_json::json!(2);
                    v["equipment"] = serde_json::json!([
                        { "id": "rope", "properties": ["grappling"] }
                    ]);
                }),
                npc("raider"),
            ],
            steps: vec![
                // Reaction: aune 9,8 = 12; raider 3,4 = 7.
                S::Gm("start_encounter", vec![], &[9, 8, 3, 4]),
                // Two limbs: the raider defends 4,2 = 7; aune 9,1 = 9 + 2 = 11; impact 1d4 (3).
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("unarmed")),
                        ("kind", t("grapple")),
                        ("target", e("raider")),
                        ("defence", t("reaction")),
                        ("item", t("rope")),
                        ("limbs", n(2)),
                    ],
                    &[4, 2, 9, 1, 3],
                ),
                S::Magnitude("raider", "grappled", 3),
                S::Magnitude("raider", "grappled_limbs", 2),
                S::Said("aune grapples raider (hinder 3, 2 limbs: every physical action)"),
                S::Act("aune", "end_turn", vec![("next", e("raider"))], &[]),
                // Every physical action pays the 3 unasked: melee 6,2 = 6 + 4 - 3 = 7.
                S::Act(
                    "raider",
                    "check",
                    vec![("skill", t("melee")), ("cr", n(5)), ("physical", yes())],
                    &[6, 2],
                ),
                S::Said("label: \"situation\", value: -3 }], total: Some(7)"),
                // Not a physical one: perception 6,2 = 6 + 2 = 8, untouched.
                S::Act(
                    "raider",
                    "check",
                    vec![
                        ("skill", t("perception")),
                        ("cr", n(5)),
                        ("reaction", yes()),
                    ],
                    &[6, 2],
                ),
                S::Said(
                    "modifiers: [Modifier { label: \"perception\", value: 2 }], total: Some(8)",
                ),
                // Moving 4 spaces: aune's athletics 5,3 = 5 + 2 = 7 against the raider's
                // 9,8 = 9 + 2 = 11: it wins by 4 and moves all 4.
                S::Act("raider", "move", vec![("spaces", n(4))], &[5, 3, 9, 8]),
                S::Said("raider moves 4 of 4 spaces while grappled"),
                // The free escape try (itself not hindered): aune's unarmed 2,1 = 2 + 2 = 4
                // against athletics 7,1 = 7 + 2 = 9: free, and every limb with it.
                S::Act(
                    "raider",
                    "overcome",
                    vec![
                        ("condition", t("grappled")),
                        ("skill", t("athletics")),
                        ("against", t("unarmed")),
                    ],
                    &[2, 1, 7, 1],
                ),
                S::Lacks("raider", "grappled"),
                S::Lacks("raider", "grappled_limbs"),
            ],
        },
        Scene {
            name: "a grapple hinders, a lock stops movement and hurts, breaking it leaves the grapple",
            options: &[],
            cast: vec![
                with(pc("aune"), |v| {
                    v["attributes"]["strength"]["skills"]["unarmed"] = serde_json::json!(2);
                    v["equipment"] = serde_json::json!([
                        { "id": "sword", "impact_bonus": 1 },
                        { "id": "rope", "properties": ["grappling"] }
                    ]);
                }),
                npc("raider"),
            ],
            steps: vec![
                // Reaction: aune 9,8 = 12; raider 3,4 = 7.
                S::Gm("start_encounter", vec![], &[9, 8, 3, 4]),
                S::Refused(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("unarmed")),
                        ("kind", t("grapple")),
                        ("target", e("raider")),
                        ("cr", n(3)),
                        ("item", t("sword")),
                    ],
                    "rule",
                ),
                // The raider defends 4,2 = 7; aune's unarmed 9,1 = 9 + 2 = 11; impact 1d4 (3).
                S::Act(
                    "aune",
                    "check",
                    vec![
                        ("skill", t("unarmed")),
                        ("kind", t("grapple")),
                        ("target", e("raider")),
                        ("defence", t("reaction")),
                        ("item", t("rope")),
                    ],
                    &[4, 2, 9, 1, 3],
                ),
                S::Magnitude("raider", "grappled", 3),
                S::Lacks("raider", "grappled_limbs"),
                S::Act("aune", "end_turn", vec![("next", e("raider"))], &[]),
                // Escape try: aune's fresh unarmed 8,1 = 10 against athletics 3,2 = 5: held.
                S::Act(
                    "raider",
                    "overcome",
                    vec![
                        ("condition", t("grappled")),
                        ("skill", t("athletics")),
                        ("against", t("unarmed")),
                    ],
                    &[8, 1, 3, 2],
                ),
                S::Has("raider", "grappled"),
                S::Act("raider", "end_turn", vec![("next", e("aune"))], &[]),
                // A lock with an item needs its locking property: the rope grapples only.
                S::Refused(
                    "aune",
                    "lock",
                    vec![("target", e("raider")), ("item", t("rope"))],
                    "rule",
                ),
                // The lock: no check; unarmed 2 gives 1d4 (4) stress.
                S::Act("aune", "lock", vec![("target", e("raider"))], &[4]),
                S::Has("raider", "locked"),
                S::Lacks("raider", "grappled"),
                S::Res("raider", "stress", 4),
                S::Act("aune", "end_turn", vec![("next", e("raider"))], &[]),
                S::Refused("raider", "move", vec![("spaces", n(1))], "rule"),
                // Locked, its own actions roll one hero die fewer (2 → 1): perception 7 + 2
                // = 9 beats 5 on a single die.
                S::Act(
                    "raider",
                    "check",
                    vec![("skill", t("perception")), ("cr", n(5))],
                    &[7],
                ),
                // Breaking the lock: aune 1,2 = 4 against 6,2 = 8: back to a grapple.
                S::Act(
                    "raider",
                    "overcome",
                    vec![
                        ("condition", t("locked")),
                        ("skill", t("athletics")),
                        ("against", t("unarmed")),
                    ],
                    &[1, 2, 6, 2],
                ),
                S::Lacks("raider", "locked"),
                S::Magnitude("raider", "grappled", 3),
            ],
        },
        Scene {
            name: "bad input is refused and changes nothing",
            options: &[],
            cast: vec![pc("aune"), pc("bryn")],
            steps: vec![
                S::Refused(
                    "aune",
                    "check",
                    vec![("skill", t("juggling")), ("cr", n(5))],
                    "unknown_name",
                ),
                S::Refused("aune", "check", vec![("skill", t("melee"))], "bad_request"),
                S::Refused(
                    "aune",
                    "check",
                    vec![("skill", t("melee")), ("cr", n(5)), ("item", t("axe"))],
                    "unknown_name",
                ),
                S::Refused(
                    "aune",
                    "check",
                    vec![("skill", t("melee")), ("cr", n(5)), ("kind", t("damage"))],
                    "bad_request",
                ),
                S::Refused("aune", "fly", vec![], "unknown_action"),
                S::Refused(
                    "gm",
                    "care",
                    vec![
                        ("healer", e("nobody")),
                        ("patient", e("bryn")),
                        ("skill", t("medicine")),
                    ],
                    "unknown_entity",
                ),
            ],
        },
    ]
}

/// Plays the scenes named, each of which must exist.
fn play_named(names: &[&str]) {
    let mut all = scenes();
    for name in names {
        let at = all
            .iter()
            .position(|s| s.name == *name)
            .unwrap_or_else(|| panic!("no scene `{name}`"));
        play(all.remove(at));
    }
}

#[test]
fn every_scene_belongs_to_a_test() {
    let named: usize = GROUPS.iter().map(|n| n.len()).sum();
    assert_eq!(named, scenes().len());
}

const CHECKS_BEAT_A_FIXED_CHALLENGE_AND_FAILURES_CAN_BE_PUSHED: &[&str] = &[
    "a special ability activated in a push adds its bonus for one point",
    "a special ability activated before the roll adds its bonus for one point",
    "w1 investigation against 7 then 8",
    "a failure pushed into success with Spin and 10acity",
    "a push at a cost takes exactly the negative Spin still needed",
];

#[test]
fn checks_beat_a_fixed_challenge_and_failures_can_be_pushed() {
    play_named(CHECKS_BEAT_A_FIXED_CHALLENGE_AND_FAILURES_CAN_BE_PUSHED);
}

const A_CRITICAL_ASKS_THE_PLAYER_FOR_A_HERO_OR_IMPACT_DIE: &[&str] = &[
    "a critical: the player chooses the extra impact die",
    "a critical's extra hero die is added before the comparison",
    "a critical left unanswered takes the extra hero die",
    "option criticals each: two tens give two extra dice",
];

#[test]
fn a_critical_asks_the_player_for_a_hero_or_impact_die() {
    play_named(A_CRITICAL_ASKS_THE_PLAYER_FOR_A_HERO_OR_IMPACT_DIE);
}

const FUMBLES_AND_REACTIONS_MOVE_SPIN_BY_THE_RULE: &[&str] = &[
    "a fumble costs Spin and earns none, even when it succeeds",
    "a reaction earns no Spin for failing",
];

#[test]
fn fumbles_and_reactions_move_spin_by_the_rule() {
    play_named(FUMBLES_AND_REACTIONS_MOVE_SPIN_BY_THE_RULE);
}

const CHALLENGE_DICE_ARE_SUMMED_OR_KEPT_AND_THE_GMS_STAY_HIDDEN: &[&str] = &[
    "secret challenge dice are summed and kept from the players",
    "option challenge_dice highest keeps the best d6",
    "an NPC's challenge dice from its sheet stay the GM's",
];

#[test]
fn challenge_dice_are_summed_or_kept_and_the_gms_stay_hidden() {
    play_named(CHALLENGE_DICE_ARE_SUMMED_OR_KEPT_AND_THE_GMS_STAY_HIDDEN);
}

const IMPACT_ACTIONS_CREATE_ADVANTAGE_AND_HINDERS: &[&str] = &[
    "create an advantage and a hinder that does not stack",
    "flanking: a successful first attack hands the ally a Spin",
];

#[test]
fn impact_actions_create_advantage_and_hinders() {
    play_named(IMPACT_ACTIONS_CREATE_ADVANTAGE_AND_HINDERS);
}

const STRESS_OVER_THE_MAXIMUM_COSTS_A_WOUND_OR_CONSCIOUSNESS: &[&str] = &[
    "over maximum stress with no wound left falls unconscious, then cannot act",
    "over maximum stress, the bearer may choose unconsciousness",
    "hardcore: over the maximum marks a wound, and with none left perishes",
];

#[test]
fn stress_over_the_maximum_costs_a_wound_or_consciousness() {
    play_named(STRESS_OVER_THE_MAXIMUM_COSTS_A_WOUND_OR_CONSCIOUSNESS);
}

const SCENE_END_SPIN_GENERATION_RECOVERY_AND_CARE: &[&str] =
    &["end of scene, generate Spin, recover 10acity and a day of care"];

#[test]
fn scene_end_spin_generation_recovery_and_care() {
    play_named(SCENE_END_SPIN_GENERATION_RECOVERY_AND_CARE);
}

const THE_SPOTLIGHT_PASSES_BY_THE_RULE_AND_THE_TURN_HAS_ONE_OF_EACH: &[&str] = &[
    "spotlight initiative, the turn's economy and paying to respond",
    "the opening roll's winner may pass first place once and still act later",
    "option initiative group: the highest roller picks the first side, the second has an advantage die",
    "option initiative group: with no answer the highest roller's own side goes first",
    "option initiative group: objects take no turns and a side nobody can act for is passed over",
];

#[test]
fn the_spotlight_passes_by_the_rule_and_the_turn_has_one_of_each() {
    play_named(THE_SPOTLIGHT_PASSES_BY_THE_RULE_AND_THE_TURN_HAS_ONE_OF_EACH);
}

const DEFENCE_ROLLS_WIN_TIES_AND_TAKE_THE_SITUATIONS_DICE: &[&str] =
    &["defence rolls: ties go to the defender, full defence and fumbles"];

#[test]
fn defence_rolls_win_ties_and_take_the_situations_dice() {
    play_named(DEFENCE_ROLLS_WIN_TIES_AND_TAKE_THE_SITUATIONS_DICE);
}

const CONDITIONS_ARE_OVERCOME_AND_CHARACTERS_COME_ROUND: &[&str] = &[
    "a grapple hinders, a lock stops movement and hurts, breaking it leaves the grapple",
    "a grapple on two limbs hinders every physical action; moving in it is opposed athletics",
    "a condition on an object stays until someone spends an action to remove it",
    "a condition from an area ends when its bearer moves out",
    "an area never takes over a condition put on directly",
    "a hinder overcome at the end of a turn, a damaging condition bites each turn",
    "an unconscious character comes round against 2d6 plus 1d6 per wound",
];

#[test]
fn conditions_are_overcome_and_characters_come_round() {
    play_named(CONDITIONS_ARE_OVERCOME_AND_CHARACTERS_COME_ROUND);
}

const SIZE_AND_RESISTANCE_CHANGE_THE_STRESS_A_HIT_DEALS: &[&str] = &[
    "size halves or doubles a hit's stress, then resistance is ignored",
    "a resistance to a condition's type adds to the defence against it",
    "a resistance to a condition's type adds to the challenge dice that avoid it",
    "option size_rounding up rounds a halved hit up",
];

#[test]
fn size_and_resistance_change_the_stress_a_hit_deals() {
    play_named(SIZE_AND_RESISTANCE_CHANGE_THE_STRESS_A_HIT_DEALS);
}

const STEALTH_SETS_THE_CHALLENGE_TO_FIND_YOU: &[&str] =
    &["a stealth roll sets the challenge to find the one hiding"];

#[test]
fn stealth_sets_the_challenge_to_find_you() {
    play_named(STEALTH_SETS_THE_CHALLENGE_TO_FIND_YOU);
}

const A_COUP_DE_GRACE_TAKES_TWO_TURNS: &[&str] =
    &["a coup de grace takes two turns and breaks on anything else"];

#[test]
fn a_coup_de_grace_takes_two_turns_and_breaks_on_anything_else() {
    play_named(A_COUP_DE_GRACE_TAKES_TWO_TURNS);
}

const HELP_GIVES_THE_BETTER_RANK_AND_A_DIE: &[&str] = &[
    "help: the better ranked rolls with one more die, one helper at a time",
    "option help_ranks helper: only the helper needs a rank",
];

#[test]
fn help_gives_the_better_rank_and_a_die() {
    play_named(HELP_GIVES_THE_BETTER_RANK_AND_A_DIE);
}

const PILOTING_ELEVATION_BLIND_ATTACKS_AND_THE_BARGAIN: &[&str] =
    &["piloting, elevation, a blind attack and the narrator's bargain"];

#[test]
fn piloting_elevation_blind_attacks_and_the_bargain() {
    play_named(PILOTING_ELEVATION_BLIND_ATTACKS_AND_THE_BARGAIN);
}

const SOCIAL_STANDING_MOVES_WITH_IMPACT: &[&str] =
    &["social standing rises with your impact and falls with theirs"];

#[test]
fn social_standing_moves_with_impact() {
    play_named(SOCIAL_STANDING_MOVES_WITH_IMPACT);
}

const HOLD_WAITS_FOR_ITS_TRIGGER: &[&str] =
    &["a held action is used when its trigger comes, a held movement lapses"];

#[test]
fn hold_waits_for_its_trigger() {
    play_named(HOLD_WAITS_FOR_ITS_TRIGGER);
}

const PARTING_ACTIONS_AND_WITHDRAWING: &[&str] =
    &["leaving melee gives parting actions unless one withdraws"];

#[test]
fn parting_actions_and_withdrawing() {
    play_named(PARTING_ACTIONS_AND_WITHDRAWING);
}

const SHARED_IMPACT_POOLS_FOR_EXPLORING_AND_TASKS: &[&str] = &[
    "w4 explore: two successes pool 3 and 2, spent on options of 4 and 1",
    "w3 a timed task of 5: over the requirement by default",
    "option task_done reach: 5 of 5 is done",
];

#[test]
fn shared_impact_pools_for_exploring_and_tasks() {
    play_named(SHARED_IMPACT_POOLS_FOR_EXPLORING_AND_TASKS);
}

const BAD_INPUT_IS_REFUSED_AND_CHANGES_NOTHING: &[&str] =
    &["bad input is refused and changes nothing"];

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    play_named(BAD_INPUT_IS_REFUSED_AND_CHANGES_NOTHING);
}

const GROUPS: [&[&str]; 20] = [
    SHARED_IMPACT_POOLS_FOR_EXPLORING_AND_TASKS,
    PARTING_ACTIONS_AND_WITHDRAWING,
    HOLD_WAITS_FOR_ITS_TRIGGER,
    SOCIAL_STANDING_MOVES_WITH_IMPACT,
    PILOTING_ELEVATION_BLIND_ATTACKS_AND_THE_BARGAIN,
    HELP_GIVES_THE_BETTER_RANK_AND_A_DIE,
    A_COUP_DE_GRACE_TAKES_TWO_TURNS,
    STEALTH_SETS_THE_CHALLENGE_TO_FIND_YOU,
    SIZE_AND_RESISTANCE_CHANGE_THE_STRESS_A_HIT_DEALS,
    CONDITIONS_ARE_OVERCOME_AND_CHARACTERS_COME_ROUND,
    CHECKS_BEAT_A_FIXED_CHALLENGE_AND_FAILURES_CAN_BE_PUSHED,
    A_CRITICAL_ASKS_THE_PLAYER_FOR_A_HERO_OR_IMPACT_DIE,
    FUMBLES_AND_REACTIONS_MOVE_SPIN_BY_THE_RULE,
    CHALLENGE_DICE_ARE_SUMMED_OR_KEPT_AND_THE_GMS_STAY_HIDDEN,
    IMPACT_ACTIONS_CREATE_ADVANTAGE_AND_HINDERS,
    STRESS_OVER_THE_MAXIMUM_COSTS_A_WOUND_OR_CONSCIOUSNESS,
    SCENE_END_SPIN_GENERATION_RECOVERY_AND_CARE,
    THE_SPOTLIGHT_PASSES_BY_THE_RULE_AND_THE_TURN_HAS_ONE_OF_EACH,
    DEFENCE_ROLLS_WIN_TIES_AND_TAKE_THE_SITUATIONS_DICE,
    BAD_INPUT_IS_REFUSED_AND_CHANGES_NOTHING,
];

/// Who may do what: the GM's actions to the GM only, each character's to the seat that plays
/// it (the GM for an NPC), under the system's own id and resources.
#[test]
fn the_catalogue_offers_each_seat_its_own_actions() {
    use crate::options::TableOptions;
    use crate::state::{MemoryState, StateMut};
    use crate::system::RuleSystem;
    use std::collections::BTreeMap;

    assert_eq!(Tenacity.id(), "tenacity");
    let keys: Vec<&str> = Tenacity.resources().iter().map(|r| r.key).collect();
    assert_eq!(keys, ["tenacity", "spin", "stress", "wounds", "recovery"]);
    let options = TableOptions::resolve(&Tenacity.options(), &BTreeMap::new()).unwrap();
    let mut state = MemoryState::new(options);
    for sheet in [pc("aune"), npc("raider")] {
        state.insert_combatant(Tenacity.sheet_from_json(&sheet).unwrap());
    }
    let offered = |seat: &Seat| -> Vec<(Option<String>, String)> {
        let mut v: Vec<(Option<String>, String)> = Tenacity
            .actions(&state, seat)
            .into_iter()
            .map(|a| (a.actor.map(|x| x.to_string()), a.name))
            .collect();
        v.sort();
        v
    };
    let gm = offered(&Seat::Gm);
    let aune = offered(&Seat::Player("aune".into()));
    for name in super::super::actions::GM_ACTIONS {
        assert!(gm.contains(&(None, name.to_owned())), "the GM's {name}");
        assert!(!aune.iter().any(|(_, n)| n == name), "not aune's: {name}");
    }
    for name in super::super::actions::CHARACTER_ACTIONS {
        let mine = |who: &str| (Some(who.to_owned()), name.to_owned());
        assert!(aune.contains(&mine("aune")), "aune's {name}");
        assert!(
            gm.contains(&mine("raider")),
            "the raider's {name}, for the GM"
        );
        assert!(
            !aune.contains(&mine("raider")),
            "not the raider's for aune: {name}"
        );
    }
}

/// The GM ends the encounter, and the scene ends with it: positive Spin is lost, negative Spin
/// stays, stress recovers; nothing is left to end.
#[test]
fn ending_the_encounter_ends_the_scene() {
    play(Scene {
        name: "ending the encounter ends the scene",
        options: &[],
        cast: vec![
            with(pc("aune"), |v| {
                v["spin"] = serde_json::json!(3);
                v["stress"] = serde_json::json!(4);
            }),
            with(npc("raider"), |v| v["spin"] = serde_json::json!(-2)),
        ],
        steps: vec![
            // Reaction: aune 5,2 = 8; raider 4,3 = 7.
            S::Gm("start_encounter", vec![], &[5, 2, 4, 3]),
            S::Refused("aune", "end_encounter", vec![], "forbidden"),
            S::Gm("end_encounter", vec![], &[]),
            S::Res("aune", "spin", 0),
            S::Res("aune", "stress", 0),
            S::Res("raider", "spin", -2),
            S::Check(Box::new(|p: &Played<'_>| {
                assert!(!p.state.encounter().active, "the encounter is over");
            })),
        ],
    });
}

/// A special ability activated in the push, not before the roll: one point (here 10acity, the
/// last one) for its bonus, and the failure becomes a success. A push the character cannot pay
/// says what it needs and what there is.
#[test]
fn a_special_ability_activated_in_the_push_pays_one_point_for_its_bonus() {
    play(Scene {
        name: "a special ability activated in the push",
        options: &[],
        cast: vec![with(pc("aune"), |v| {
            v["abilities"] =
                serde_json::json!([{"id": "focus", "name": "Focused mind", "bonus": 2}]);
            v["tenacity"] = serde_json::json!(1);
        })],
        steps: vec![
            // Investigation 2: 4,2 = 6 against 7 fails (and the failure earns 1 Spin).
            S::Act(
                "aune",
                "check",
                vec![("skill", t("investigation")), ("cr", n(7))],
                &[4, 2],
            ),
            S::Res("aune", "spin", 1),
            // Focus takes the one 10acity point first: a point and a Spin more are 2 asked
            // against 0 + 1 left, refused as a whole.
            S::AnswerRefused(
                None,
                "push",
                vec![("points", n(1)), ("spin", n(1)), ("ability", t("focus"))],
                "insufficient_resource: needs 2, has 1",
            ),
            // Focus for the last 10acity: 6 + 2 = 8 beats 7 with nothing more paid.
            S::AnswerWith("push", vec![("ability", t("focus"))], &[]),
            S::Said("aune activates a special ability"),
            S::Res("aune", "tenacity", 0),
            S::Res("aune", "spin", 1),
            S::Prompt(false),
        ],
    });
}

/// No challenge dice at all: the challenge is its bonus alone, and no d6 is drawn.
#[test]
fn no_challenge_dice_leave_the_bonus_alone() {
    play(Scene {
        name: "no challenge dice",
        options: &[],
        cast: vec![pc("aune")],
        steps: vec![
            // Investigation 2: 4,2 = 6 beats 0d6 + 3 = 3.
            S::Act(
                "aune",
                "check",
                vec![
                    ("skill", t("investigation")),
                    ("challenge_dice", n(0)),
                    ("challenge_bonus", n(3)),
                ],
                &[4, 2],
            ),
            S::Said("total: Some(6)"),
            S::Prompt(false),
        ],
    });
}

/// A fumble on a roll to throw a condition off costs a Spin; naming oneself with `--on` is
/// throwing off one's own condition.
#[test]
fn throwing_off_a_condition_a_fumble_costs_spin_and_on_oneself_is_ones_own() {
    play(Scene {
        name: "overcome: a fumble, and --on oneself",
        options: &[],
        cast: vec![pc("aune")],
        steps: vec![
            S::Give("aune", "hinder", 2),
            // Endurance 0 on 1,1: a fumble, 1 against 3 fails, Spin 0 → -1.
            S::Act(
                "aune",
                "overcome",
                vec![
                    ("condition", t("hinder")),
                    ("skill", t("endurance")),
                    ("cr", n(3)),
                ],
                &[1, 1],
            ),
            S::Res("aune", "spin", -1),
            S::Has("aune", "hinder"),
            // 5,1 = 5 beats 3, the condition named on aune herself.
            S::Act(
                "aune",
                "overcome",
                vec![
                    ("condition", t("hinder")),
                    ("skill", t("endurance")),
                    ("cr", n(3)),
                    ("on", e("aune")),
                ],
                &[5, 1],
            ),
            S::Lacks("aune", "hinder"),
        ],
    });
}

/// A grappler of unarmed rank 1 has no impact dice: its grapple and its lock draw none, and
/// the lock still takes hold.
#[test]
fn a_lock_with_no_impact_dice_still_takes_hold() {
    play(Scene {
        name: "a lock with no impact dice",
        options: &[],
        cast: roped_cast(),
        steps: roped_grapple_then(vec![
            S::Has("raider", "grappled"),
            S::Act("aune", "end_turn", vec![("next", e("raider"))], &[]),
            S::Act("raider", "end_turn", vec![("next", e("aune"))], &[]),
            S::Act("aune", "lock", vec![("target", e("raider"))], &[]),
            S::Has("raider", "locked"),
            S::Res("raider", "stress", 0),
        ]),
    });
}

/// Someone who began a coup de grâce on one and then turns to another begins again on the
/// other: a coup finishes only on the one it began on.
#[test]
fn a_coup_de_grace_finishes_only_on_the_one_it_began_on() {
    play(Scene {
        name: "a coup turned on another begins again",
        options: &[],
        cast: vec![pc("aune"), npc("raider"), npc("wolf")],
        steps: vec![
            // Reaction: aune 9,8 = 12; raider 3,4 = 7; wolf 1,1 = 4.
            S::Gm("start_encounter", vec![], &[9, 8, 3, 4, 1, 1]),
            S::Act("aune", "coup_de_grace", vec![("target", e("raider"))], &[]),
            S::Act("aune", "end_turn", vec![("next", e("raider"))], &[]),
            S::Act("raider", "end_turn", vec![("next", e("wolf"))], &[]),
            S::Act("wolf", "end_turn", vec![("next", e("aune"))], &[]),
            S::Round(2),
            S::Act("aune", "coup_de_grace", vec![("target", e("wolf"))], &[]),
            S::Lacks("wolf", "perishing"),
            S::Lacks("raider", "perishing"),
            S::Has("aune", "coup_de_grace"),
        ],
    });
}

/// A damaging condition from an area deals its impact each turn like any other: its magnitude
/// is the impact (only a stop has none).
#[test]
fn a_damaging_condition_from_an_area_keeps_its_impact() {
    play(Scene {
        name: "an area's damaging condition",
        options: &[],
        cast: vec![pc("aune"), pc("bryn")],
        steps: vec![
            // Melee 8,1 = 8 + 4 = 12 beats 3; 2d4 (3, 2) = 5.
            S::Act(
                "bryn",
                "check",
                vec![
                    ("skill", t("melee")),
                    ("kind", t("condition")),
                    ("condition", t("damage")),
                    ("target", e("aune")),
                    ("cr", n(3)),
                    ("area", yes()),
                ],
                &[8, 1, 3, 2],
            ),
            S::Magnitude("aune", "damage", 5),
            S::Has("aune", "area.damage"),
        ],
    });
}

/// Group initiative: a side chosen second in the list goes first, round after round; a table
/// of one side is never asked.
#[test]
fn group_initiative_keeps_the_chosen_side_first_and_asks_no_lone_side() {
    play(Scene {
        name: "the players chosen first",
        options: &[("tenacity.initiative", "group")],
        cast: vec![pc("aune"), npc("raider")],
        steps: vec![
            // aune 9,3 = 12; raider 5,2 = 8: aune's seat picks her own side.
            S::Gm("start_encounter", vec![], &[9, 3, 5, 2]),
            S::Check(Box::new(|p: &Played<'_>| {
                let asked = p.state.encounter().pending.last().cloned().expect("asked");
                assert_eq!(asked.timeout_ms, 60_000, "the table's decision timeout");
            })),
            S::Answer("players", &[]),
            S::Now(vec!["aune"]),
            S::Act("aune", "end_turn", vec![], &[]),
            S::Now(vec!["raider"]),
            S::Act("raider", "end_turn", vec![], &[]),
            S::Round(2),
            S::Now(vec!["aune"]),
        ],
    });
    play(Scene {
        name: "one side alone",
        options: &[("tenacity.initiative", "group")],
        cast: vec![pc("aune"), pc("bryn")],
        steps: vec![
            S::Gm("start_encounter", vec![], &[9, 3, 5, 2]),
            S::Prompt(false),
            S::Now(vec!["aune", "bryn"]),
        ],
    });
}

/// A held movement spent when its trigger comes moves up to the character's movement (6 here),
/// no further.
#[test]
fn a_held_movement_released_moves_within_the_movement() {
    play(Scene {
        name: "a held movement released",
        options: &[],
        cast: vec![pc("aune"), npc("raider")],
        steps: vec![
            // Reaction: aune 9,8 = 12; raider 3,4 = 7.
            S::Gm("start_encounter", vec![], &[9, 8, 3, 4]),
            S::Act(
                "aune",
                "hold",
                vec![("what", t("movement")), ("trigger", t("the raider moves"))],
                &[],
            ),
            S::Act("aune", "end_turn", vec![("next", e("raider"))], &[]),
            S::Refused(
                "aune",
                "release",
                vec![("what", t("movement")), ("spaces", n(7))],
                "bad_request: must be 0 to 6",
            ),
            S::Act(
                "aune",
                "release",
                vec![("what", t("movement")), ("spaces", n(6))],
                &[],
            ),
            S::Said("aune moves 6 spaces"),
            S::Lacks("aune", "held_movement"),
        ],
    });
}

/// The opening roll's ties: a hero over an opponent whatever their order, and between two
/// opponents the first keeps it.
#[test]
fn opening_roll_ties_go_to_the_hero_then_to_the_first() {
    // Reaction 3 on 2 dice: 9,3 = 12 for everyone.
    play(Scene {
        name: "a hero ties two opponents listed before her",
        options: &[],
        cast: vec![npc("ant"), npc("bat"), pc("zed")],
        steps: vec![
            S::Gm("start_encounter", vec![], &[9, 3, 9, 3, 9, 3]),
            S::Now(vec!["zed"]),
        ],
    });
    play(Scene {
        name: "two opponents tie",
        options: &[],
        cast: vec![npc("ant"), npc("bat")],
        steps: vec![
            S::Gm("start_encounter", vec![], &[9, 3, 9, 3]),
            S::Now(vec!["ant"]),
        ],
    });
}

/// Moving while grappled is won by the margin of the athletics contest, at most the spaces
/// asked, and moving out of an area sheds its condition; moving no spaces leaves nothing.
#[test]
fn moving_while_grappled_goes_as_far_as_the_margin() {
    play(Scene {
        name: "moving while grappled",
        options: &[],
        cast: roped_cast(),
        steps: roped_grapple_then(vec![
            S::Act("aune", "end_turn", vec![("next", e("raider"))], &[]),
            S::Give("raider", "hinder", 2),
            S::Give("raider", "area.hinder", 0),
            // Six spaces asked: aune's athletics 5,3 = 5 + 2 = 7, the raider's 9,1 = 9 + 2 = 11:
            // won by 4, it moves 4, out of the area.
            S::Act("raider", "move", vec![("spaces", n(6))], &[5, 3, 9, 1]),
            S::Said("modifiers: [Modifier { label: \"athletics\", value: 2 }], total: Some(11)"),
            S::Said("raider moves 4 of 6 spaces while grappled"),
            S::Lacks("raider", "hinder"),
        ]),
    });
    play(Scene {
        name: "moving no spaces",
        options: &[],
        cast: vec![pc("aune")],
        steps: vec![
            S::Gm("start_encounter", vec![], &[9, 8]),
            S::Give("aune", "hinder", 2),
            S::Give("aune", "area.hinder", 0),
            S::Act("aune", "move", vec![("spaces", n(0))], &[]),
            S::Has("aune", "hinder"),
        ],
    });
}

/// First place is passed only before the turn has begun; and only someone brought back into
/// the spotlight may respond after acting.
#[test]
fn first_place_is_passed_before_the_turn_begins_and_only_the_brought_back_respond() {
    play(Scene {
        name: "passing and responding out of turn",
        options: &[],
        cast: vec![pc("aune"), pc("bryn"), npc("raider")],
        steps: vec![
            // Reaction 3: aune 5,2 = 8; bryn 9,1 = 12; raider 4,3 = 7. Bryn holds it.
            S::Gm("start_encounter", vec![], &[5, 2, 9, 1, 4, 3]),
            S::Act("bryn", "move", vec![("spaces", n(1))], &[]),
            S::Refused(
                "bryn",
                "pass_first",
                vec![("to", e("aune"))],
                "rule: has already begun its turn",
            ),
            S::Act("bryn", "end_turn", vec![("next", e("raider"))], &[]),
            // Bryn has acted, but the raider has not brought her back: no response.
            S::Refused(
                "bryn",
                "respond",
                vec![],
                "rule: may respond only after acting",
            ),
            S::Res("bryn", "tenacity", 3),
        ],
    });
}

/// Two helpers on two skills of one character keep their own dice; a grappled mover who wins
/// no space stays in its area, condition and all.
#[test]
fn two_helps_keep_their_dice_and_a_mover_held_in_place_keeps_its_area() {
    play(Scene {
        name: "two helps at once",
        options: &[],
        cast: vec![
            pc("aune"),
            bryn_the_investigator(),
            with(pc("carl"), |v| {
                v["attributes"]["awareness"]["skills"]["perception"] = serde_json::json!(3);
            }),
        ],
        steps: vec![
            S::Act(
                "bryn",
                "help",
                vec![("target", e("aune")), ("skill", t("investigation"))],
                &[],
            ),
            S::Act(
                "carl",
                "help",
                vec![("target", e("aune")), ("skill", t("perception"))],
                &[],
            ),
            // Investigation: bryn's 3 dice + 1: 2,3,6,1 = 6 + 4 = 10.
            S::Act(
                "aune",
                "check",
                vec![("skill", t("investigation")), ("cr", n(9))],
                &[2, 3, 6, 1],
            ),
            S::Said("total: Some(10)"),
        ],
    });
    play(Scene {
        name: "held in place",
        options: &[],
        cast: roped_cast(),
        steps: roped_grapple_then(vec![
            S::Act("aune", "end_turn", vec![("next", e("raider"))], &[]),
            S::Give("raider", "hinder", 2),
            S::Give("raider", "area.hinder", 0),
            // aune's athletics 9,1 = 11 against the raider's 5,3 = 7: it moves none.
            S::Act("raider", "move", vec![("spaces", n(3))], &[9, 1, 5, 3]),
            S::Said("raider moves 0 of 3 spaces while grappled"),
            S::Has("raider", "hinder"),
        ]),
    });
}

/// aune, unarmed 1 with a grappling rope, and a raider.
fn roped_cast() -> Vec<Value> {
    vec![
        with(pc("aune"), |v| {
            v["equipment"] = serde_json::json!([
                { "id": "rope", "properties": ["grappling"] }
            ]);
        }),
        npc("raider"),
    ]
}

/// The encounter starts (reaction: aune 9,8 = 12; raider 3,4 = 7) and aune grapples the
/// raider with her rope (it defends 4,2 = 4 + 3 = 7; her unarmed 9,1 = 9 + 1 = 10, rank 1: no
/// impact dice); then `then`.
fn roped_grapple_then(then: Vec<S>) -> Vec<S> {
    let mut steps = vec![
        S::Gm("start_encounter", vec![], &[9, 8, 3, 4]),
        S::Act(
            "aune",
            "check",
            vec![
                ("skill", t("unarmed")),
                ("kind", t("grapple")),
                ("target", e("raider")),
                ("defence", t("reaction")),
                ("item", t("rope")),
            ],
            &[4, 2, 9, 1],
        ),
    ];
    steps.extend(then);
    steps
}
