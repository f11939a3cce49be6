//! Encounter rules as scenarios: each is a cast, table options and a list of steps (commands
//! with the exact dice faces they draw, and what must hold after), played by [`play`] through
//! the real `decide` and `apply`. The comment on each step gives its arithmetic.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::action::ArgValue;
use crate::action::{Args, Command};
use crate::dice::Primitive;
use crate::event::{Event, Fact};
use crate::grid::Cell;
use crate::ids::EntityId;
use crate::ids::Seat;
use crate::options::{OptionValue, TableOptions};
use crate::state::{MemoryState, StateMut, StateView, Status};
use crate::system::RuleSystem;
use crate::testing::scene::{self, Played, S, Scene};

use super::super::Vigor;
use super::{creature, with};

/// Plays a scenario; the hearing steps read the player `aune`'s copy.
fn play(s: Scene) {
    scene::play(&Vigor, "aune", s);
}

/// The bonus die of the last check the last command rolled.
fn bonus_die(die: Primitive) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let at = p.at;
        let check = p
            .last
            .iter()
            .flat_map(Event::facts)
            .filter_map(|f| match f {
                Fact::Checked(r) => Some(r),
                _ => None,
            })
            .last()
            .expect(at);
        let bonus: Vec<Primitive> = check
            .roll
            .dice
            .iter()
            .filter(|d| d.term == 1)
            .map(|d| d.die)
            .collect();
        assert!(
            !bonus.is_empty() && bonus.iter().all(|d| *d == die),
            "{at}: {bonus:?}"
        );
        assert!(
            check.label.contains(&format!("bonus d{}", die.sides())),
            "{at}: {}",
            check.label
        );
    }))
}

/// The die of the weapon's damage dice in the last command.
fn damage_die(die: Primitive) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let roll = p
            .last
            .iter()
            .flat_map(Event::facts)
            .find_map(|f| match f {
                Fact::Rolled { purpose, roll, .. } if purpose.starts_with("damage") => Some(roll),
                _ => None,
            })
            .expect(p.at);
        assert_eq!(roll.dice[0].die, die, "{}", p.at);
    }))
}

/// The open prompt's default (what a silent seat gets) and its time to answer, both shown to
/// the seat that decides: the table's decision time is 60 s unless an option sets it.
fn window(default: &'static str) -> S {
    S::Check(Box::new(move |p: &Played<'_>| {
        let step = p.state.encounter().pending.last().expect(p.at);
        assert_eq!(
            (step.default.as_str(), step.timeout_ms),
            (default, 60_000),
            "{}",
            p.at
        );
    }))
}

fn t(s: &str) -> ArgValue {
    ArgValue::Text(s.to_owned())
}

fn n(i: i64) -> ArgValue {
    ArgValue::Int(i)
}

fn at_raider() -> Vec<(&'static str, ArgValue)> {
    vec![("target", t("raider"))]
}

/// Aune (a player's) and a raider (the GM's), Aune first (initiative 15 against 5).
fn duel(aune: Value, raider: Value) -> Vec<Value> {
    vec![aune, raider]
}

fn pc() -> Value {
    creature("aune", "pc")
}

fn npc() -> Value {
    creature("raider", "npc")
}

fn set(v: Value, key: &str, value: Value) -> Value {
    with(v, |v| v[key] = value)
}

use S::*;

#[test]
fn attacks_must_beat_guard_and_the_defense_contest_goes_to_the_attacker_on_a_tie() {
    let scenes = vec![
        Scene {
            name: "a total equal to Guard misses; one above hits; 2 actions a turn",
            options: &[],
            cast: duel(pc(), npc()),
            steps: vec![
                Start(&[15, 5]),
                Order(&["aune", "raider"]),
                Turn(Some("aune")),
                Res("aune", "actions", 2),
                // 10 + d10 5 = 15 against Guard 15: a miss. The raider's Guard is the GM's.
                Act("aune", "attack", at_raider(), &[10, 5]),
                Prompt(false),
                Said("miss"),
                // Guard 15 and nothing added: there is no "because" to tell.
                Said("result: \"miss\", because: None"),
                TargetSeen(false),
                // 10 + 6 = 16 beats 15: the raider may react, for Defense's 5 Vigor; silent,
                // it takes the hit.
                Act("aune", "attack", at_raider(), &[10, 6]),
                Prompt(true),
                Asked("aune hits raider with sword: defend (Dodge, Deflect or Block) for 5 Vigor?"),
                window("take"),
                // No reaction: sword d8 5 + Strength d10 3 = 8 off Durability 10.
                Answer("take", &[5, 3]),
                // No armour and no cover: the roll is all of it, with nothing else listed.
                Damage(&[("rolled", 8)], 8),
                Res("raider", "durability", 2),
                HiddenFromPlayers("raider", "durability"),
                // The table hears who hit whom with what, and how it looks, not the numbers.
                PlayerHears(
                    "verb: \"hits\", target: Some(EntityId(\"raider\")), instrument: Some(\"sword\")",
                ),
                PlayerHears("wound: Some(\"hurt\")"),
                PlayerNeverHears("before: Some(10)"),
                Said("before: Some(10), after: Some(2)"),
                Res("aune", "actions", 0),
                Refused("aune", "attack", at_raider(), "insufficient_resource"),
            ],
        },
        Scene {
            name: "Defense costs 5 Vigor, a tie goes to the attacker, a higher roll evades",
            options: &[],
            cast: duel(pc(), npc()),
            steps: vec![
                Start(&[15, 5]),
                Act("aune", "attack", at_raider(), &[10, 6]),
                // Defense 10 + Speed d10 6 = 16 ties the attack's 16: the attack hits.
                Answer("defend", &[10, 6, 5, 3]),
                Res("raider", "vigor", 5),
                Res("raider", "durability", 2),
                Said("fails"),
                // 12 + 6 = 18; the Defense 15 + 4 = 19 beats it: no damage, Vigor 5 → 0.
                Act("aune", "attack", at_raider(), &[12, 6]),
                Answer("defend", &[15, 4]),
                Said("evades"),
                Res("raider", "durability", 2),
                Res("raider", "vigor", 0),
                // Vigor exhausted: Winded.
                Has("raider", "winded"),
            ],
        },
        Scene {
            name: "no answer in time: the hit is taken, no Vigor spent; an opening lapses",
            options: &[],
            cast: vec![pc(), npc()],
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 1, 0),
                Start(&[15, 5]),
                Act("aune", "attack", at_raider(), &[10, 6]),
                TimeOut(&[5, 3]),
                Res("raider", "durability", 2),
                Res("raider", "vigor", 10),
                Act("aune", "escape", vec![], &[]),
                TimeOut(&[]),
                Prompt(false),
                Res("aune", "durability", 10),
            ],
        },
        Scene {
            name: "a Defense without the Vigor for it is refused and the prompt stays open",
            options: &[],
            cast: duel(pc(), set(npc(), "vigor", json!(4))),
            steps: vec![
                Start(&[15, 5]),
                Act("aune", "attack", at_raider(), &[10, 6]),
                AnswerRefused(None, "defend", vec![], "insufficient_resource"),
                // The player may not answer the GM's creature's prompt.
                AnswerRefused(
                    Some(Seat::Player("aune".into())),
                    "take",
                    vec![],
                    "forbidden",
                ),
                Prompt(true),
                Res("raider", "vigor", 4),
                Answer("take", &[5, 3]),
                Res("raider", "durability", 2),
            ],
        },
    ];
    scenes.into_iter().for_each(play);
}

#[test]
fn defend_makes_defensive_reactions_cost_3_until_the_next_turn_begins() {
    play(Scene {
        name: "defend, then react for 3",
        options: &[],
        cast: duel(pc(), npc()),
        steps: vec![
            Start(&[15, 5]),
            Act("aune", "defend", vec![], &[]),
            Has("aune", "defending"),
            Res("aune", "actions", 1),
            Act("aune", "end_turn", vec![], &[]),
            Turn(Some("raider")),
            // The raider's 12 + 6 = 18 hits; Aune's Defense 15 + 5 = 20 evades for 5 - 2 = 3.
            // An NPC's roll reaches the players as its dice and its verdict only.
            Act("raider", "attack", vec![("target", t("aune"))], &[12, 6]),
            TargetSeen(false),
            // Defending: 5 - 2 = 3 Vigor asked; the NPC's sword is named by its kind only.
            Asked(
                "raider hits aune with a melee weapon: defend (Dodge, Deflect or Block) for 3 Vigor?",
            ),
            Answer("defend", &[15, 5]),
            Res("aune", "vigor", 7),
            // Round end: Recovery gives Stamina 25 / 5 = 5 Vigor, up to the maximum of 10.
            Act("raider", "end_turn", vec![], &[]),
            Round(2),
            Res("aune", "vigor", 10),
            // Aune's next turn has begun: Defend is over.
            Turn(Some("aune")),
            Lacks("aune", "defending"),
        ],
    });
}

#[test]
fn charges_challenges_and_wounded_step_the_bonus_dice_of_attack_and_damage() {
    let scenes = vec![
        Scene {
            name: "a charge and two challenges leave one challenge: d8, which bursts",
            options: &[],
            cast: duel(pc(), npc()),
            steps: vec![
                Start(&[15, 5]),
                // 10 + d8 8 (bursts) + d8 1 = 19.
                Act(
                    "aune",
                    "attack",
                    vec![
                        ("target", t("raider")),
                        ("charges", n(1)),
                        ("challenges", n(2)),
                    ],
                    &[10, 8, 1],
                ),
                bonus_die(Primitive::D8),
                Prompt(true),
                // The attack's charge and challenges stay on the attack: damage is d8 + d10.
                Answer("take", &[5, 3]),
                Res("raider", "durability", 2),
            ],
        },
        Scene {
            name: "Durability 0 wounds (the rest stops there) and the wounded roll d8s",
            options: &[],
            cast: duel(pc(), set(npc(), "durability", json!(3))),
            steps: vec![
                Start(&[15, 5]),
                Act("aune", "attack", at_raider(), &[10, 6]),
                // 5 + 3 = 8 against Durability 3: 0, Health untouched (overflow: stop).
                Answer("take", &[5, 3]),
                Res("raider", "durability", 0),
                PlayerHears("wound: Some(\"wounded\")"),
                Res("raider", "health", 10),
                Has("raider", "wounded"),
                Act("aune", "end_turn", vec![], &[]),
                // The wounded raider's bonus die is a d8: 12 + 5 = 17 hits.
                Act("raider", "attack", vec![("target", t("aune"))], &[12, 5]),
                bonus_die(Primitive::D8),
                // Its damage bonus die is a d8 too: sword 4 + Strength d8 2 = 6.
                Answer("take", &[4, 2]),
                Res("aune", "durability", 4),
                Said("Durability"),
                // How the raider's damage was made up is the GM's; Aune hears the amount.
                GmOnly(&["\"label\":\"rolled\""]),
                PlayerHears("amount: Some(6)"),
            ],
        },
        Scene {
            name: "with overflow carry the rest of the wounding hit reaches Health",
            options: &[("vigor.overflow", "carry")],
            cast: duel(pc(), set(npc(), "durability", json!(3))),
            steps: vec![
                Start(&[15, 5]),
                Act("aune", "attack", at_raider(), &[10, 6]),
                // 8 damage: 3 to Durability, 5 to Health.
                Answer("take", &[5, 3]),
                Res("raider", "durability", 0),
                Res("raider", "health", 5),
            ],
        },
        Scene {
            name: "a shot at a prone raider takes one challenge (d8); a blade at it does not",
            options: &[],
            cast: duel(
                with(pc(), |v| {
                    v["weapons"] = json!([
                        { "id": "sword", "name": "sword", "damage": 1 },
                        { "id": "crossbow", "name": "crossbow", "damage": 1, "ranged": true, "damage_bonus": "skill" }
                    ]);
                }),
                npc(),
            ),
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 1, 0),
                Give("raider", "prone", 0),
                Start(&[15, 5]),
                // Ranged at the prone: one challenge, Agility's d10 to d8; 10 + 6 = 16 hits.
                Act(
                    "aune",
                    "attack",
                    vec![("target", t("raider")), ("weapon", t("crossbow"))],
                    &[10, 6],
                ),
                bonus_die(Primitive::D8),
                // No Skill dice: the crossbow's d8 alone, 1 off Durability 10.
                Answer("take", &[1]),
                Res("raider", "durability", 9),
                // The sword at the same prone raider: the plain d10, nothing moved it.
                Act("aune", "attack", at_raider(), &[10, 6]),
                Said("label: \"attack\", roll:"),
            ],
        },
        Scene {
            name: "with no Agility dice a charge moves nothing: the roll is the d20 alone",
            options: &[],
            cast: duel(with(pc(), |v| v["bonus_dice"]["agility"] = json!(0)), npc()),
            steps: vec![
                Start(&[15, 5]),
                // d20 16 beats Guard 15; no bonus die is rolled, so none is named.
                Act(
                    "aune",
                    "attack",
                    vec![("target", t("raider")), ("charges", n(1))],
                    &[16],
                ),
                Prompt(true),
                Said("label: \"attack\", roll:"),
            ],
        },
        Scene {
            name: "a wounded defender's Speed die is a d8; prone, a quarter of one die is none",
            options: &[],
            cast: duel(pc(), set(npc(), "durability", json!(0))),
            steps: vec![
                Start(&[15, 5]),
                Has("raider", "wounded"),
                // 10 + 6 = 16 hits; Defense 15 + Speed d8 (wounded) 2 = 17 beats it.
                Act("aune", "attack", at_raider(), &[10, 6]),
                Answer("defend", &[15, 2]),
                bonus_die(Primitive::D8),
                Said("evades"),
                Res("raider", "vigor", 5),
                // Knocked down: 1 Speed die / 4 = 0, so Defense is the d20 alone, 17 > 16.
                Gm("knock_down", vec![("target", t("raider"))], &[]),
                Act("aune", "attack", at_raider(), &[10, 6]),
                Answer("defend", &[17]),
                Said("label: \"defense\", roll:"),
                Said("evades"),
                Res("raider", "vigor", 0),
            ],
        },
    ];
    scenes.into_iter().for_each(play);
}

#[test]
fn a_burst_on_a_damage_bonus_die_adds_by_the_table_option_and_is_a_critical_hit() {
    let tough = || set(npc(), "durability_max", json!(20));
    let scenes = vec![
        Scene {
            name: "explode (default): d10 10 bursts and adds a d10 2",
            options: &[],
            cast: duel(pc(), tough()),
            steps: vec![
                Start(&[15, 5]),
                Act("aune", "attack", at_raider(), &[10, 6]),
                // 5 + 10 + 2 = 17 off 20.
                Answer("take", &[5, 10, 2]),
                Res("raider", "durability", 3),
                Said("critical hit"),
            ],
        },
        Scene {
            name: "none: the 10 is named a critical hit and adds nothing",
            options: &[("vigor.burst", "none")],
            cast: duel(pc(), tough()),
            steps: vec![
                Start(&[15, 5]),
                Act("aune", "attack", at_raider(), &[10, 6]),
                // 5 + 10 = 15 off 20.
                Answer("take", &[5, 10]),
                Res("raider", "durability", 5),
                Said("critical hit"),
            ],
        },
    ];
    scenes.into_iter().for_each(play);
}

#[test]
fn an_off_hand_attack_costs_8_vigor_and_two_challenges_to_hit_and_damage() {
    let armed = || {
        with(pc(), |v| {
            v["weapons"]
                .as_array_mut()
                .unwrap()
                .push(json!({ "id": "dagger", "name": "dagger", "damage": 1 }));
        })
    };
    let off = || vec![("target", t("raider")), ("off_hand", t("dagger"))];
    let scenes = vec![
        Scene {
            name: "both strikes in one action",
            options: &[],
            cast: duel(armed(), set(npc(), "durability_max", json!(20))),
            steps: vec![
                Start(&[15, 5]),
                // Main strike 10 + 6 = 16 hits; the raider takes 5 + 3 = 8.
                Act("aune", "attack", off(), &[10, 6]),
                Res("aune", "vigor", 2),
                // Then, in the same answer, the off-hand: 15 + d6 4 = 19 (two challenges: d10
                // to d6), struck with the dagger, not the sword again.
                Answer("take", &[5, 3, 15, 4]),
                bonus_die(Primitive::D6),
                Said(
                    "verb: \"strikes off-hand at\", target: Some(EntityId(\"raider\")), instrument: Some(\"dagger\")",
                ),
                Prompt(true),
                // Dagger d8 3 + Strength d6 2 (two challenges on damage too) = 5.
                Answer("take", &[3, 2]),
                Res("raider", "durability", 7),
                Res("aune", "actions", 1),
            ],
        },
        Scene {
            name: "not without 8 Vigor",
            options: &[],
            cast: duel(set(armed(), "vigor", json!(7)), npc()),
            steps: vec![
                Start(&[15, 5]),
                Refused("aune", "attack", off(), "insufficient_resource"),
                Res("aune", "actions", 2),
            ],
        },
    ];
    scenes.into_iter().for_each(play);
}

#[test]
fn winded_at_0_vigor_takes_no_actions_until_recovery_gives_back_5() {
    let armed = |stamina: i64| {
        with(pc(), |v| {
            v["vigor"] = json!(8);
            v["abilities"]["stamina"] = json!(stamina);
            v["weapons"]
                .as_array_mut()
                .unwrap()
                .push(json!({ "id": "dagger", "name": "dagger", "damage": 1 }));
        })
    };
    let off = || vec![("target", t("raider")), ("off_hand", t("dagger"))];
    let scenes = vec![
        Scene {
            name: "Stamina 25: 5 back at the round's end",
            options: &[],
            cast: duel(armed(25), npc()),
            steps: vec![
                Start(&[15, 5]),
                // 8 Vigor for the off-hand: 0, Winded. Both strikes miss (2 and 2 + d6 1).
                Act("aune", "attack", off(), &[1, 1, 1, 1]),
                Has("aune", "winded"),
                Refused("aune", "defend", vec![], "cannot_act"),
                Act("aune", "end_turn", vec![], &[]),
                Act("raider", "end_turn", vec![], &[]),
                Res("aune", "vigor", 5),
                Lacks("aune", "winded"),
                Round(2),
                Turn(Some("aune")),
                Res("aune", "actions", 2),
            ],
        },
        Scene {
            name: "Stamina 20: 4 back is not enough, the next turn passes by itself",
            options: &[],
            cast: duel(armed(20), npc()),
            steps: vec![
                Start(&[15, 5]),
                Act("aune", "attack", off(), &[1, 1, 1, 1]),
                Act("aune", "end_turn", vec![], &[]),
                Act("raider", "end_turn", vec![], &[]),
                Res("aune", "vigor", 4),
                Has("aune", "winded"),
                Round(2),
                Turn(Some("raider")),
                Said("winded"),
                Act("raider", "end_turn", vec![], &[]),
                Res("aune", "vigor", 8),
                Lacks("aune", "winded"),
                Turn(Some("aune")),
            ],
        },
        Scene {
            name: "nobody can act: two whole rounds pass by themselves, then no one's turn",
            options: &[],
            // Three at 0 Vigor (Winded) with Stamina 0: Recovery never gives back the 5.
            cast: [pc(), npc(), creature("wolf", "npc")]
                .into_iter()
                .map(|c| {
                    with(c, |v| {
                        v["vigor"] = json!(0);
                        v["abilities"]["stamina"] = json!(0);
                    })
                })
                .collect(),
            steps: vec![
                Has("aune", "winded"),
                // Each turn passes; round 1 ends, round 2 ends, round 3 begins, and the GM
                // is left to rule.
                Start(&[15, 5, 3]),
                Said("takes no actions this turn: winded"),
                Round(3),
                Turn(None),
                Res("aune", "vigor", 0),
            ],
        },
    ];
    scenes.into_iter().for_each(play);
}

#[test]
fn initiative_is_the_d20_alone_highest_first_with_over_watch_and_ambush() {
    let four = || vec![pc(), creature("bryn", "pc"), npc(), creature("wolf", "npc")];
    let scenes = vec![
        Scene {
            name: "players first on a tie (default)",
            options: &[],
            cast: four(),
            // aune 12, bryn 18, raider 12, wolf 3.
            steps: vec![
                Start(&[12, 18, 12, 3]),
                Order(&["bryn", "aune", "raider", "wolf"]),
            ],
        },
        Scene {
            name: "enemies first on a tie (option)",
            options: &[("vigor.initiative_ties", "enemies_first")],
            cast: four(),
            steps: vec![
                Start(&[12, 18, 12, 3]),
                Order(&["bryn", "raider", "aune", "wolf"]),
            ],
        },
        Scene {
            name: "Over Watch adds a bonus die: 12 + d10 1 = 13 goes before the raider's 12",
            options: &[("vigor.initiative_ties", "enemies_first")],
            cast: four(),
            steps: vec![
                Give("aune", "over_watch", 0),
                Start(&[12, 1, 18, 12, 3]),
                Order(&["bryn", "aune", "raider", "wolf"]),
            ],
        },
        Scene {
            name: "wounded: Over Watch's die is a d8; with no die, nothing is stepped",
            options: &[],
            cast: duel(
                set(pc(), "durability", json!(0)),
                set(npc(), "durability", json!(0)),
            ),
            steps: vec![
                Give("raider", "over_watch", 0),
                // Aune: the d20 alone, 15. The raider: 5 + Over Watch's die, stepped to a d8 by
                // Wounded, 3 = 8.
                Start(&[15, 5, 3]),
                bonus_die(Primitive::D8),
                Said("label: \"initiative\", roll:"),
                Order(&["aune", "raider"]),
            ],
        },
        Scene {
            name: "ambushed: 1 action in round 1; ambusher: one more",
            options: &[],
            cast: duel(pc(), npc()),
            steps: vec![
                Give("raider", "ambusher", 0),
                Give("aune", "ambushed", 0),
                // Over Watch from the wrong side is ambushed: no die (one face each).
                Give("aune", "over_watch", 0),
                Start(&[5, 15]),
                Turn(Some("raider")),
                Res("raider", "actions", 3),
                Act("raider", "end_turn", vec![], &[]),
                Res("aune", "actions", 1),
                Act("aune", "end_turn", vec![], &[]),
                // Round 2: the base again.
                Res("raider", "actions", 2),
            ],
        },
    ];
    scenes.into_iter().for_each(play);
}

#[test]
fn moves_cover_speed_in_feet_and_talents_give_more_actions() {
    let scenes = vec![
        Scene {
            name: "knocked down in her own turn Aune loses an action; out of it, none",
            options: &[],
            cast: duel(pc(), npc()),
            steps: vec![
                Start(&[15, 5]),
                Gm("knock_down", vec![("target", t("aune"))], &[]),
                Has("aune", "prone"),
                Res("aune", "actions", 1),
                GmRefused("knock_down", vec![("target", t("aune"))], "rule"),
                Act("aune", "stand", vec![], &[]),
                Res("aune", "actions", 0),
                Act("aune", "end_turn", vec![], &[]),
                Gm("knock_down", vec![("target", t("aune"))], &[]),
                Res("aune", "actions", 0),
                Res("raider", "actions", 2),
            ],
        },
        Scene {
            name: "three actions, 30 ft each, 5 ft cells",
            options: &[],
            cast: duel(set(pc(), "actions", json!(3)), npc()),
            steps: vec![
                Place("aune", 0, 0),
                Start(&[15, 5]),
                Res("aune", "actions", 3),
                // 7 cells is 35 ft, past Speed 30.
                Refused(
                    "aune",
                    "move",
                    vec![("to", ArgValue::Cell(Cell::new(7, 0)))],
                    "out_of_range",
                ),
                Act(
                    "aune",
                    "move",
                    vec![("to", ArgValue::Cell(Cell::new(6, 0)))],
                    &[],
                ),
                Act(
                    "aune",
                    "move",
                    vec![("to", ArgValue::Cell(Cell::new(12, 0)))],
                    &[],
                ),
                // Knocked down: a quarter of 30 is 7 ft, so one cell, not two.
                Give("aune", "prone", 0),
                Refused(
                    "aune",
                    "move",
                    vec![("to", ArgValue::Cell(Cell::new(14, 0)))],
                    "out_of_range",
                ),
                Act("aune", "stand", vec![], &[]),
                Lacks("aune", "prone"),
                Res("aune", "actions", 0),
                Refused(
                    "aune",
                    "move",
                    vec![("to", ArgValue::Cell(Cell::new(13, 0)))],
                    "insufficient_resource",
                ),
            ],
        },
    ];
    scenes.into_iter().for_each(play);
}

#[test]
fn emergency_aid_takes_2_actions_and_restores_1d10_durability_on_vs_20() {
    let cast = || {
        vec![
            with(pc(), |v| v["skills"] = json!({ "medicine": 1 })),
            set(creature("bryn", "pc"), "durability", json!(0)),
            npc(),
        ]
    };
    let aid = || vec![("target", t("bryn"))];
    let scenes = vec![
        Scene {
            name: "12 + d10 8 = 20 reaches VS 20 (ties succeed by default)",
            options: &[],
            cast: cast(),
            steps: vec![
                Start(&[15, 10, 5]),
                Has("bryn", "wounded"),
                Act("aune", "emergency_aid", aid(), &[12, 8, 7]),
                Res("bryn", "durability", 7),
                Lacks("bryn", "wounded"),
                Res("aune", "actions", 0),
            ],
        },
        Scene {
            name: "the same 20 fails when ties fail",
            options: &[("vigor.vs_tie", "fails")],
            cast: cast(),
            steps: vec![
                Start(&[15, 10, 5]),
                Act("aune", "emergency_aid", aid(), &[12, 8]),
                Res("bryn", "durability", 0),
                Res("aune", "actions", 0),
            ],
        },
        Scene {
            name: "hurt but not wounded (Durability 5) may be aided; with a charge, a d12",
            options: &[],
            cast: vec![
                with(pc(), |v| v["skills"] = json!({ "medicine": 1 })),
                set(creature("bryn", "pc"), "durability", json!(5)),
                npc(),
            ],
            steps: vec![
                Start(&[15, 10, 5]),
                // 12 + Medicine d12 8 = 20; 1d10 7 on 5 is 12, no more than the maximum 10.
                Act(
                    "aune",
                    "emergency_aid",
                    vec![("target", t("bryn")), ("charges", n(1))],
                    &[12, 8, 7],
                ),
                Said("label: \"Medicine (1 charge: bonus d12)\""),
                Res("bryn", "durability", 10),
            ],
        },
        Scene {
            name: "no Medicine dice: the d20 alone, 20 reaches VS 20, a charge names nothing",
            options: &[],
            cast: vec![
                pc(),
                set(creature("bryn", "pc"), "durability", json!(0)),
                npc(),
            ],
            steps: vec![
                Start(&[15, 10, 5]),
                Act(
                    "aune",
                    "emergency_aid",
                    vec![("target", t("bryn")), ("charges", n(1))],
                    &[20, 4],
                ),
                Said("label: \"Medicine\", roll:"),
                Res("bryn", "durability", 4),
            ],
        },
        Scene {
            name: "not on a creature that is not hurt, and not with one action",
            options: &[],
            cast: cast(),
            steps: vec![
                Start(&[15, 10, 5]),
                Refused("aune", "emergency_aid", at_raider(), "rule"),
                Act("aune", "defend", vec![], &[]),
                Refused("aune", "emergency_aid", aid(), "insufficient_resource"),
            ],
        },
    ];
    scenes.into_iter().for_each(play);
}

#[test]
fn health_0_is_shock_for_stamina_rounds_then_death_and_stabilising_stops_it() {
    let dying = || {
        with(npc(), |v| {
            v["durability"] = json!(0);
            v["health"] = json!(3);
            v["abilities"]["stamina"] = json!(2);
        })
    };
    let medic = || with(pc(), |v| v["skills"] = json!({ "medical_science": 1 }));
    let scenes = vec![
        Scene {
            name: "two rounds of Shock for Stamina 2",
            options: &[],
            cast: duel(pc(), dying()),
            steps: vec![
                Start(&[15, 5]),
                Act("aune", "attack", at_raider(), &[10, 6]),
                // Wounded already: 5 + 3 = 8 off Health 3 leaves 0.
                Answer("take", &[5, 3]),
                Res("raider", "health", 0),
                // The table hears the state it is left in: Health 0 is Shock.
                PlayerHears("wound: Some(\"in shock\")"),
                Has("raider", "shock"),
                Has("raider", "unconscious"),
                Act("aune", "end_turn", vec![], &[]),
                Lacks("raider", "dead"),
                Round(2),
                Act("aune", "end_turn", vec![], &[]),
                Has("raider", "dead"),
            ],
        },
        Scene {
            name: "any damage in Shock kills, with no reaction",
            options: &[],
            cast: duel(pc(), dying()),
            steps: vec![
                Start(&[15, 5]),
                Act("aune", "attack", at_raider(), &[10, 6]),
                Answer("take", &[5, 3]),
                // 16 hits; unconscious, the raider cannot react; 1 + 1 kills.
                Act("aune", "attack", at_raider(), &[10, 6, 1, 1]),
                Prompt(false),
                Has("raider", "dead"),
            ],
        },
        Scene {
            name: "Medical Science VS 20 stabilises: the countdown stops",
            options: &[],
            cast: duel(medic(), dying()),
            steps: vec![
                Start(&[15, 5]),
                Act("aune", "attack", at_raider(), &[10, 6]),
                Answer("take", &[5, 3]),
                // 15 + d10 5 = 20.
                Act("aune", "stabilise", at_raider(), &[15, 5]),
                Has("raider", "stabilised"),
                Lacks("raider", "shock"),
                Has("raider", "unconscious"),
                Act("aune", "end_turn", vec![], &[]),
                Act("aune", "end_turn", vec![], &[]),
                Round(3),
                Lacks("raider", "dead"),
            ],
        },
    ];
    scenes.into_iter().for_each(play);
}

#[test]
fn cover_raises_guard_against_a_shot_and_adds_armor_rank_to_what_it_lets_through() {
    let archer = || {
        with(pc(), |v| {
            v["weapons"] = json!([
                { "id": "crossbow", "name": "crossbow", "damage": 1, "ranged": true, "damage_bonus": "skill" }
            ]);
        })
    };
    let shoot = || vec![("target", t("raider")), ("weapon", t("crossbow"))];
    // (cover status magnitude, its word, a roll that ties the raised Guard, one that beats it,
    // the crossbow's d8 8 after cover's Armor Rank, Durability left of 10, what the table hears)
    type Row = (
        i64,
        &'static str,
        &'static [u32],
        &'static [u32],
        &'static [(&'static str, i64)],
        i64,
        i64,
        &'static str,
    );
    let rows: [Row; 3] = [
        // Light: Guard 15 + 10 = 25; 16 + 9 ties, 20 + 6 beats; it stops nothing: 8.
        (
            1,
            "light cover",
            &[16, 9],
            &[20, 6],
            &[("rolled", 8)],
            8,
            2,
            "wound: Some(\"hurt\")",
        ),
        // Partial: 15 + 3 = 18; 10 + 8 ties, 10 + 9 beats; AR +5: 8 - 5 = 3.
        (
            2,
            "partial cover",
            &[10, 8],
            &[10, 9],
            &[("rolled", 8), ("cover", -5)],
            3,
            7,
            "wound: Some(\"hurt\")",
        ),
        // Full: 15 + 5 = 20; 12 + 8 ties, 12 + 9 beats; AR +10 stops all 8: unharmed.
        (
            3,
            "full cover",
            &[12, 8],
            &[12, 9],
            &[("rolled", 8), ("cover", -8)],
            0,
            10,
            "wound: Some(\"unharmed\")",
        ),
    ];
    for (magnitude, word, ties, beats, steps, through, left, heard) in rows {
        play(Scene {
            name: "a shot at the raider in cover",
            options: &[],
            cast: duel(archer(), npc()),
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 10, 0),
                Give("raider", "cover", magnitude),
                Start(&[15, 5]),
                Act("aune", "attack", shoot(), ties),
                Prompt(false),
                Said(word),
                Act("aune", "attack", shoot(), beats),
                Prompt(true),
                // No Skill dice: the crossbow's d8 alone.
                Answer("take", &[8]),
                Damage(steps, through),
                PlayerHears(heard),
                Res("raider", "durability", left),
            ],
        });
    }
}

#[test]
fn guard_is_halved_behind_the_unaware_and_raised_against_the_larger() {
    let scenes = vec![
        Scene {
            name: "unaware, from behind: 5 + 3 = 8 ties Guard 8, 5 + 4 = 9 hits",
            options: &[],
            cast: duel(pc(), npc()),
            steps: vec![
                Give("raider", "unaware", 0),
                Start(&[15, 5]),
                Act(
                    "aune",
                    "attack",
                    vec![
                        ("target", t("raider")),
                        ("from_behind", ArgValue::Flag(true)),
                    ],
                    &[5, 3],
                ),
                Prompt(false),
                Act(
                    "aune",
                    "attack",
                    vec![
                        ("target", t("raider")),
                        ("from_behind", ArgValue::Flag(true)),
                    ],
                    &[5, 4],
                ),
                Prompt(true),
                Said("halved"),
            ],
        },
        Scene {
            name: "a player's character's Guard is open to the players",
            options: &[],
            cast: vec![pc(), set(creature("bryn", "pc"), "side", json!("rivals"))],
            steps: vec![
                Start(&[15, 5]),
                Act("aune", "attack", vec![("target", t("bryn"))], &[10, 5]),
                TargetSeen(true),
            ],
        },
        Scene {
            name: "from behind a creature that is aware: Guard stays 15",
            options: &[],
            cast: duel(pc(), npc()),
            steps: vec![
                Start(&[15, 5]),
                Act(
                    "aune",
                    "attack",
                    vec![
                        ("target", t("raider")),
                        ("from_behind", ArgValue::Flag(true)),
                    ],
                    &[5, 4],
                ),
                Prompt(false),
            ],
        },
        Scene {
            name: "a medium attacker against a small wolf: Guard 20; 15 + 5 misses, 15 + 6 hits",
            options: &[],
            cast: vec![pc(), set(creature("wolf", "npc"), "size", json!("small"))],
            steps: vec![
                Start(&[15, 5]),
                Act("aune", "attack", vec![("target", t("wolf"))], &[15, 5]),
                Prompt(false),
                Act("aune", "attack", vec![("target", t("wolf"))], &[15, 6]),
                Prompt(true),
            ],
        },
    ];
    scenes.into_iter().for_each(play);
}

#[test]
fn bad_input_is_refused_with_its_code_and_changes_nothing() {
    play(Scene {
        name: "refusals",
        options: &[],
        cast: duel(pc(), npc()),
        steps: vec![
            Refused("aune", "attack", at_raider(), "no_encounter"),
            Refused("aune", "start_encounter", vec![], "forbidden"),
            Start(&[15, 5]),
            Refused(
                "raider",
                "attack",
                vec![("target", t("aune"))],
                "not_your_turn",
            ),
            Refused(
                "aune",
                "attack",
                vec![("target", t("raider")), ("weapon", t("bow"))],
                "unknown_name",
            ),
            Refused(
                "aune",
                "attack",
                vec![("target", t("nobody"))],
                "unknown_entity",
            ),
            Refused("aune", "attack", vec![("target", t("aune"))], "rule"),
            Refused(
                "aune",
                "attack",
                vec![("target", t("raider")), ("charges", n(11))],
                "bad_request",
            ),
            Refused("aune", "fly", vec![], "unknown_action"),
            Place("aune", 0, 0),
            Place("raider", 3, 0),
            // 15 ft away, and a sword reaches 6.
            Refused("aune", "attack", at_raider(), "out_of_range"),
        ],
    });
}

#[test]
fn fleeing_or_standing_up_opens_openings_to_foes_within_reach_for_5_vigor() {
    let three = |raider: Value| vec![pc(), raider, creature("wolf", "npc")];
    let scenes = vec![
        Scene {
            name: "escape: the adjacent raider takes it, the distant wolf is not asked",
            options: &[],
            cast: three(npc()),
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 1, 0),
                Place("wolf", 5, 0),
                Start(&[15, 5, 3]),
                Act("aune", "escape", vec![], &[]),
                Res("aune", "actions", 1),
                Prompt(true),
                // 12 + 5 = 17 beats Guard 15; Aune is in her own turn and cannot react:
                // sword 4 + Strength 2 = 6 off Durability 10.
                Answer("take_opening", &[12, 5, 4, 2]),
                Res("raider", "vigor", 5),
                Res("aune", "durability", 4),
                Prompt(false),
            ],
        },
        Scene {
            name: "escape: an ally beside Aune is not asked, nor an incapacitated foe",
            options: &[],
            cast: vec![pc(), creature("bryn", "pc"), npc(), creature("wolf", "npc")],
            steps: vec![
                Place("aune", 0, 0),
                Place("bryn", 0, 1),
                Place("raider", 1, 0),
                Place("wolf", 1, 1),
                Give("wolf", "incapacitated", 0),
                Start(&[15, 10, 5, 3]),
                Act("aune", "escape", vec![], &[]),
                // The raider alone, for Take Opening's 5 Vigor; silent, it lets her go.
                Asked(
                    "aune flees within raider's reach: take the opening (an attack for 5 Vigor)?",
                ),
                window("let_go"),
                Answer("let_go", &[]),
                Prompt(false),
            ],
        },
        Scene {
            name: "exactly 5 Vigor pays for an opening, leaving the raider Winded",
            options: &[],
            cast: three(set(npc(), "vigor", json!(5))),
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 1, 0),
                Start(&[15, 5, 3]),
                Act("aune", "escape", vec![], &[]),
                // 5 - 5 = 0 Vigor; 10 + 5 = 15 ties Guard 15, a miss.
                Answer("take_opening", &[10, 5]),
                Res("raider", "vigor", 0),
                Has("raider", "winded"),
                Res("aune", "durability", 10),
            ],
        },
        Scene {
            name: "an opening needs 5 Vigor and may be let go",
            options: &[],
            cast: three(set(npc(), "vigor", json!(4))),
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 1, 1),
                Start(&[15, 5, 3]),
                Act("aune", "escape", vec![], &[]),
                AnswerRefused(None, "take_opening", vec![], "insufficient_resource"),
                Answer("let_go", &[]),
                Res("aune", "durability", 10),
                Prompt(false),
            ],
        },
        Scene {
            name: "standing up: each adjacent foe is asked in turn",
            options: &[],
            cast: three(npc()),
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 1, 0),
                Place("wolf", 0, 1),
                Give("aune", "prone", 0),
                Start(&[15, 5, 3]),
                Act("aune", "stand", vec![], &[]),
                Answer("let_go", &[]),
                Prompt(true),
                // The wolf: 10 + 5 = 15 ties Guard 15, a miss.
                Answer("take_opening", &[10, 5]),
                Res("wolf", "vigor", 5),
                Res("aune", "durability", 10),
                Prompt(false),
            ],
        },
    ];
    scenes.into_iter().for_each(play);
}

#[test]
fn quality_dice_and_the_armour_reading_follow_their_table_options() {
    use super::super::harm::quality_die;
    use super::super::sheet::Quality::*;
    let opts = |pairs: &[(&str, &str)]| {
        let given = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), OptionValue::Choice((*v).to_owned())))
            .collect();
        TableOptions::resolve(&Vigor.options(), &given).unwrap()
    };
    let default = opts(&[]);
    // Ordinary d8 and heroic d10 are the text's; feeble, epic, legendary are options.
    let got: Vec<u32> = [Feeble, Ordinary, Heroic, Epic, Legendary]
        .into_iter()
        .map(|q| quality_die(&default, q).sides())
        .collect();
    assert_eq!(got, vec![6, 8, 10, 12, 20]);
    let changed = opts(&[
        ("vigor.feeble_die", "d4"),
        ("vigor.epic_die", "d10"),
        ("vigor.legendary_die", "d12"),
    ]);
    let got: Vec<u32> = [Feeble, Epic, Legendary]
        .into_iter()
        .map(|q| quality_die(&changed, q).sides())
        .collect();
    assert_eq!(got, vec![4, 10, 12]);
    // A heroic axe against ordinary mail (AR 3): through by the three-step reading it is
    // 6 + 3 - 3 = 6; with `any_superior` the armour is ignored: 9.
    let mailed = || {
        with(npc(), |v| {
            v["armour"] = json!([{ "name": "mail", "rank": 3 }]);
            v["durability_max"] = json!(20);
        })
    };
    let axe = || {
        with(pc(), |v| {
            v["weapons"] =
                json!([{ "id": "axe", "name": "axe", "damage": 1, "quality": "heroic" }]);
        })
    };
    for (options, left) in [
        (&[][..], 14),
        (&[("vigor.armour_quality", "any_superior")][..], 11),
    ] {
        play(Scene {
            name: "heroic axe against ordinary mail",
            options,
            cast: duel(axe(), mailed()),
            steps: vec![
                Start(&[15, 5]),
                Act(
                    "aune",
                    "attack",
                    vec![("target", t("raider")), ("weapon", t("axe"))],
                    &[10, 6],
                ),
                Answer("take", &[6, 3]),
                Res("raider", "durability", left),
            ],
        });
    }
}

#[test]
fn bare_hands_deal_one_feeble_die_and_a_named_weapon_its_quality_dice() {
    let unarmed = || vec![("target", t("raider")), ("weapon", t("unarmed"))];
    let scenes = vec![
        Scene {
            name: "unarmed: d6 6 + Strength d10 3 = 9 (feeble die d6 by default)",
            options: &[],
            cast: duel(pc(), npc()),
            steps: vec![
                Start(&[15, 5]),
                Act("aune", "attack", unarmed(), &[10, 6]),
                Answer("take", &[6, 3]),
                damage_die(Primitive::D6),
                Res("raider", "durability", 1),
            ],
        },
        Scene {
            name: "unarmed with the feeble die at d4: 4 + 3 = 7",
            options: &[("vigor.feeble_die", "d4")],
            cast: duel(pc(), npc()),
            steps: vec![
                Start(&[15, 5]),
                Act("aune", "attack", unarmed(), &[10, 6]),
                Answer("take", &[4, 3]),
                damage_die(Primitive::D4),
                Res("raider", "durability", 3),
            ],
        },
        Scene {
            name: "no weapon named: the sheet's first, an ordinary sword, d8 8 + 1 = 9",
            options: &[],
            cast: duel(pc(), npc()),
            steps: vec![
                Start(&[15, 5]),
                Act("aune", "attack", at_raider(), &[10, 6]),
                Answer("take", &[8, 1]),
                damage_die(Primitive::D8),
                Res("raider", "durability", 1),
            ],
        },
    ];
    scenes.into_iter().for_each(play);
}

#[test]
fn recovery_gives_back_what_special_abilities_name_but_no_durability_to_the_wounded() {
    let healer = |durability: i64| {
        with(pc(), |v| {
            v["durability"] = json!(durability);
            v["mana_max"] = json!(5);
            v["mana"] = json!(0);
            v["recovery"] = json!({ "durability": 3, "mana": 2 });
        })
    };
    for (durability, after, wounded) in [(5, 8, false), (9, 10, false), (0, 0, true)] {
        play(Scene {
            name: "one Recovery phase",
            options: &[],
            cast: duel(healer(durability), npc()),
            steps: vec![
                Start(&[15, 5]),
                Act("aune", "end_turn", vec![], &[]),
                Act("raider", "end_turn", vec![], &[]),
                Round(2),
                // Durability +3 up to the maximum 10, none while wounded; Mana +2.
                Res("aune", "durability", after),
                Res("aune", "mana", 2),
                if wounded {
                    Has("aune", "wounded")
                } else {
                    Lacks("aune", "wounded")
                },
            ],
        });
    }
    // An NPC that does not recover Vigor keeps what it had; one that does gets 5; a dead one
    // recovers nothing (its turn passes by itself).
    for (recovers, dead, vigor) in [(false, false, 3), (true, false, 8), (true, true, 3)] {
        let mut steps = vec![Start(&[15, 5])];
        if dead {
            steps.push(Give("raider", "dead", 0));
        }
        steps.push(Act("aune", "end_turn", vec![], &[]));
        if !dead {
            steps.push(Act("raider", "end_turn", vec![], &[]));
        }
        steps.extend([Round(2), Res("raider", "vigor", vigor)]);
        play(Scene {
            name: "Vigor for the raider or not",
            options: &[],
            cast: duel(
                pc(),
                with(npc(), |v| {
                    v["vigor"] = json!(3);
                    v["recovers_vigor"] = json!(recovers);
                }),
            ),
            steps,
        });
    }
}

#[test]
fn poor_visibility_caps_ranged_attacks_and_raises_what_they_must_beat() {
    let archer = || {
        with(pc(), |v| {
            v["weapons"] = json!([
                { "id": "crossbow", "name": "crossbow", "damage": 1, "ranged": true, "damage_bonus": "skill" },
                { "id": "sword", "name": "sword", "damage": 1 }
            ]);
        })
    };
    let shoot = || vec![("target", t("raider")), ("weapon", t("crossbow"))];
    let level = |l: &str| vec![("level", t(l))];
    let scenes = vec![
        Scene {
            name: "normal, then reduced (+5): 16 hits Guard 15, then misses 20",
            options: &[],
            cast: duel(archer(), npc()),
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 10, 0),
                Start(&[15, 5]),
                Act("aune", "attack", shoot(), &[10, 6]),
                Prompt(true),
                Answer("take", &[1]),
                Gm("visibility", level("reduced"), &[]),
                Act("aune", "attack", shoot(), &[10, 6]),
                Prompt(false),
                Said("poor visibility"),
            ],
        },
        Scene {
            name: "low: 200 ft is past the 150 ft cap; melee is not affected",
            options: &[],
            cast: duel(archer(), npc()),
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 40, 0),
                Start(&[15, 5]),
                Gm("visibility", level("low"), &[]),
                Refused("aune", "attack", shoot(), "out_of_range"),
            ],
        },
        Scene {
            name: "zero: point blank (5 ft) has no penalty, 15 ft has +15",
            options: &[],
            cast: duel(archer(), npc()),
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 1, 0),
                Start(&[15, 5]),
                Gm("visibility", level("zero"), &[]),
                Act("aune", "attack", shoot(), &[10, 6]),
                Prompt(true),
                Answer("take", &[1]),
                // The sword at 5 ft: visibility does not touch melee.
                Act(
                    "aune",
                    "attack",
                    vec![("target", t("raider")), ("weapon", t("sword"))],
                    &[10, 6],
                ),
                Prompt(true),
                Answer("take", &[1, 1]),
            ],
        },
        Scene {
            name: "reduced: 305 ft is past the 300 ft cap; 300 ft is in range",
            options: &[],
            cast: duel(archer(), npc()),
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 61, 0),
                Start(&[15, 5]),
                Gm("visibility", level("reduced"), &[]),
                Refused("aune", "attack", shoot(), "out_of_range"),
                Place("raider", 60, 0),
                // 15 + 6 = 21 beats 15 + 5 = 20.
                Act("aune", "attack", shoot(), &[15, 6]),
                Prompt(true),
            ],
        },
        Scene {
            name: "low at 50 ft: 20 + 5 = 25 ties 15 + 10, 20 + 6 = 26 hits",
            options: &[],
            cast: duel(archer(), npc()),
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 10, 0),
                Start(&[15, 5]),
                Gm("visibility", level("low"), &[]),
                Act("aune", "attack", shoot(), &[20, 5]),
                Prompt(false),
                Act("aune", "attack", shoot(), &[20, 6]),
                Prompt(true),
            ],
        },
        Scene {
            name: "zero: 10 ft is not point blank (under 10 ft), 35 ft is past the 30 ft cap",
            options: &[],
            cast: duel(archer(), npc()),
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 2, 0),
                Start(&[15, 5]),
                Gm("visibility", level("zero"), &[]),
                // 10 + 6 = 16 against 15 + 15 = 30: a miss.
                Act("aune", "attack", shoot(), &[10, 6]),
                Prompt(false),
                Place("raider", 7, 0),
                Refused("aune", "attack", shoot(), "out_of_range"),
            ],
        },
        Scene {
            name: "zero at 30 ft, the cap itself: in range, and 10 + 6 = 16 misses 15 + 15 = 30",
            options: &[],
            cast: duel(archer(), npc()),
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 6, 0),
                Start(&[15, 5]),
                Gm("visibility", level("zero"), &[]),
                Act("aune", "attack", shoot(), &[10, 6]),
                Prompt(false),
                Said("poor visibility"),
            ],
        },
        Scene {
            name: "zero at 15 ft: 10 + 6 = 16 against 15 + 15 = 30 misses",
            options: &[],
            cast: duel(archer(), npc()),
            steps: vec![
                Place("aune", 0, 0),
                Place("raider", 3, 0),
                Start(&[15, 5]),
                Gm("visibility", level("zero"), &[]),
                Act("aune", "attack", shoot(), &[10, 6]),
                Prompt(false),
                Refused("aune", "visibility", level("low"), "forbidden"),
            ],
        },
    ];
    scenes.into_iter().for_each(play);
}

#[test]
fn resistance_and_skill_checks_roll_the_named_dice() {
    let with_secret = |mut a: Vec<(&'static str, ArgValue)>| {
        a.push(("secret", ArgValue::Flag(true)));
        a
    };
    let tough = || {
        with(pc(), |v| {
            v["bonus_dice"]["resistance"] = json!(1);
            v["skills"] = json!({ "awareness": 2 });
        })
    };
    let resist = |vs: i64| {
        vec![
            ("target", t("aune")),
            ("ability", t("strength")),
            ("vs", n(vs)),
        ]
    };
    // Each of the seven abilities names its own dice, and the general Resistance die is always
    // added: (ability, faces of the d20 and of its dice plus the Resistance one, total). Agility,
    // Speed and Reason have one die each, Stamina and Resolve two, Soul none.
    let by_ability: [(&'static str, &'static [u32], &'static str); 6] = [
        // One die and the Resistance one: 10 + 3 + 2.
        ("agility", &[10, 3, 2], "total: Some(15)"),
        ("speed", &[10, 3, 2], "total: Some(15)"),
        // Stamina 2 + Resistance 1: three d10s, 10 + 1 + 2 + 3.
        ("stamina", &[10, 1, 2, 3], "total: Some(16)"),
        // Soul none: the Resistance die alone, 10 + 4.
        ("soul", &[10, 4], "total: Some(14)"),
        ("reason", &[10, 3, 2], "total: Some(15)"),
        ("resolve", &[10, 1, 2, 3], "total: Some(16)"),
    ];
    let mut each = Vec::new();
    for (ability, faces, total) in by_ability {
        let args = vec![
            ("target", t("aune")),
            ("ability", t(ability)),
            ("vs", n(20)),
        ];
        each.extend([Gm("resistance", args, faces), Said(total)]);
    }
    let scenes = vec![
        Scene {
            name: "the ability the GM names: agility, speed, stamina, soul, reason, resolve",
            options: &[],
            cast: duel(
                with(tough(), |v| {
                    v["bonus_dice"]["stamina"] = json!(2);
                    v["bonus_dice"]["reason"] = json!(1);
                    v["bonus_dice"]["resolve"] = json!(2);
                }),
                npc(),
            ),
            steps: each,
        },
        Scene {
            name: "Strength d10 + Resistance d10: 10 + 3 + 2 = 15 reaches VS 15, fails VS 16",
            options: &[],
            cast: duel(tough(), npc()),
            steps: vec![
                Gm("resistance", resist(15), &[10, 3, 2]),
                Said("result: \"resists\""),
                Gm("resistance", resist(16), &[10, 3, 2]),
                Said("result: \"fails\""),
                TargetSeen(true),
                // A secret VS: the players learn the verdict, not the number.
                Gm("resistance", with_secret(resist(16)), &[10, 3, 2]),
                TargetSeen(false),
                Refused("aune", "resistance", resist(15), "forbidden"),
            ],
        },
        Scene {
            name: "a charge steps the dice to d12 and the label says so; with no dice, no label",
            options: &[],
            cast: duel(tough(), npc()),
            steps: vec![
                // Strength and Resistance d12s: 10 + 11 + 2 = 23.
                Gm(
                    "resistance",
                    vec![
                        ("target", t("aune")),
                        ("ability", t("strength")),
                        ("vs", n(15)),
                        ("charges", n(1)),
                    ],
                    &[10, 11, 2],
                ),
                Said("label: \"strength Resistance (1 charge: bonus d12)\""),
                // The raider has no Soul or Resistance dice: the d20 alone, 16.
                Gm(
                    "resistance",
                    vec![
                        ("target", t("raider")),
                        ("ability", t("soul")),
                        ("vs", n(15)),
                        ("charges", n(1)),
                    ],
                    &[16],
                ),
                Said("label: \"soul Resistance\", roll:"),
                Start(&[15, 5]),
                // Awareness' two d12s: 10 + 11 + 2 = 23.
                Act(
                    "aune",
                    "use_skill",
                    vec![("skill", t("awareness")), ("charges", n(1))],
                    &[10, 11, 2],
                ),
                Said("label: \"awareness (1 charge: bonus d12)\""),
                Said("total: Some(23)"),
                Act(
                    "aune",
                    "use_skill",
                    vec![("skill", t("menace")), ("charges", n(1))],
                    &[9],
                ),
                Said("label: \"menace\", roll:"),
            ],
        },
        Scene {
            name: "Use Skill: awareness, two d10s, an open total of 10 + 3 + 4 = 17, 1 action",
            options: &[],
            cast: duel(tough(), npc()),
            steps: vec![
                Start(&[15, 5]),
                Act(
                    "aune",
                    "use_skill",
                    vec![("skill", t("awareness")), ("target", t("raider"))],
                    &[10, 3, 4],
                ),
                Said("total: Some(17)"),
                Res("aune", "actions", 1),
                // A skill the sheet lacks rolls the d20 alone.
                Act("aune", "use_skill", vec![("skill", t("menace"))], &[9]),
                Said("total: Some(9)"),
            ],
        },
        Scene {
            name: "a poison harms Health directly, leaving Durability",
            options: &[],
            cast: duel(
                with(pc(), |v| {
                    v["weapons"] = json!([{ "id": "venom", "name": "venom", "damage": 1, "damage_type": "toxic", "to_health": true }]);
                }),
                npc(),
            ),
            steps: vec![
                Start(&[15, 5]),
                Act("aune", "attack", at_raider(), &[10, 6]),
                Answer("take", &[5, 3]),
                Res("raider", "durability", 10),
                Res("raider", "health", 2),
            ],
        },
    ];
    scenes.into_iter().for_each(play);
}

#[test]
fn a_readied_attack_is_sprung_as_a_reaction_before_the_next_turn_or_lapses() {
    let readies = || {
        vec![
            ("trigger", t("when the raider steps forward")),
            ("target", t("raider")),
        ]
    };
    let spring = || vec![("target", t("aune"))];
    let scenes = vec![
        Scene {
            name: "sprung in the raider's turn: it cannot react, no Vigor is spent",
            options: &[],
            cast: duel(pc(), npc()),
            steps: vec![
                Place("raider", 2, 0),
                Start(&[15, 5]),
                Act("aune", "ready", readies(), &[]),
                // The log shows what is set aside and the words it waits for.
                Check(Box::new(|p: &Played<'_>| {
                    let step = p.state.encounter().deferred.last().expect(p.at);
                    assert_eq!(
                        (step.question.as_str(), step.trigger.as_deref()),
                        (
                            "aune readies an attack on raider: when the raider steps forward",
                            Some("when the raider steps forward")
                        ),
                        "{}",
                        p.at
                    );
                })),
                Res("aune", "actions", 1),
                Refused("aune", "ready", readies(), "rule"),
                Act("aune", "end_turn", vec![], &[]),
                Act(
                    "raider",
                    "move",
                    vec![("to", ArgValue::Cell(Cell::new(1, 0)))],
                    &[],
                ),
                Refused("aune", "spring_ready", spring(), "forbidden"),
                // 10 + 6 = 16 hits; 5 + 3 = 8 off Durability 10.
                Gm("spring_ready", spring(), &[10, 6, 5, 3]),
                Prompt(false),
                Res("raider", "durability", 2),
                Res("aune", "vigor", 10),
            ],
        },
        Scene {
            name: "unused, it lapses when Aune's next turn begins",
            options: &[],
            cast: duel(pc(), npc()),
            steps: vec![
                Start(&[15, 5]),
                Act("aune", "ready", readies(), &[]),
                Act("aune", "end_turn", vec![], &[]),
                Act("raider", "end_turn", vec![], &[]),
                Turn(Some("aune")),
                Said("lapses"),
                GmRefused("spring_ready", spring(), "rule"),
            ],
        },
        Scene {
            name: "the GM ends the encounter: the turn's actions go, Defend and Ready lapse",
            options: &[],
            cast: duel(set(pc(), "actions", json!(3)), npc()),
            steps: vec![
                Start(&[15, 5]),
                // Three actions: Ready and Defend leave one.
                Act("aune", "ready", readies(), &[]),
                Act("aune", "defend", vec![], &[]),
                Res("aune", "actions", 1),
                Gm("end_encounter", vec![], &[]),
                Res("aune", "actions", 0),
                Lacks("aune", "defending"),
                Said("lapses"),
                // Nothing left to end.
                GmRefused("end_encounter", vec![], "no_encounter"),
            ],
        },
    ];
    scenes.into_iter().for_each(play);
}

#[test]
fn the_catalogue_offers_each_seat_what_it_may_do_now() {
    let options = TableOptions::resolve(&Vigor.options(), &BTreeMap::new()).unwrap();
    let mut state = MemoryState::new(options);
    for sheet in [pc(), npc()] {
        state.insert_combatant(Vigor.sheet_from_json(&sheet).unwrap());
    }
    let names = |state: &MemoryState, seat: &Seat| -> Vec<String> {
        let mut v: Vec<String> = Vigor
            .actions(state, seat)
            .into_iter()
            .map(|a| a.name)
            .collect();
        v.sort();
        v
    };
    let aune = Seat::Player("aune".into());
    assert_eq!(names(&state, &Seat::Gm), vec!["start_encounter"]);
    assert!(names(&state, &aune).is_empty(), "nothing before the fight");
    let start = Command::act(Seat::Gm, None, "start_encounter", Args::default());
    scene::run(&Vigor, &mut state, &start, &[15, 5]).unwrap();
    let turn = [
        "attack",
        "defend",
        "emergency_aid",
        "end_turn",
        "escape",
        "move",
        "ready",
        "stabilise",
        "use_ability",
        "use_item",
        "use_skill",
    ];
    assert_eq!(names(&state, &aune), turn.to_vec(), "Aune's turn");
    assert_eq!(
        names(&state, &Seat::Gm),
        vec![
            "end_encounter",
            "knock_down",
            "resistance",
            "spring_ready",
            "visibility"
        ],
        "the raider waits; the GM has the table's actions"
    );
    // Prone: standing up is offered too.
    state
        .combatant_mut(&EntityId::from("aune"))
        .unwrap()
        .statuses
        .insert(
            "prone".into(),
            Status {
                source: "ruling".into(),
                magnitude: 0,
                rounds_left: None,
            },
        );
    assert!(names(&state, &aune).contains(&"stand".to_owned()));
}

#[test]
fn objects_cannot_react_and_break_at_0_while_a_winded_creature_still_may_react() {
    let door = || {
        json!({
            "id": "door", "name": "door", "kind": "object",
            "vigor_max": 0, "durability_max": 5, "health_max": 0,
            "armour": [{ "name": "oak", "rank": 2 }]
        })
    };
    let scenes = vec![
        Scene {
            name: "a door with AR 2: 5 + 3 = 8, 6 through, Durability 5 to 0: destroyed",
            options: &[],
            cast: vec![pc(), door()],
            steps: vec![
                Start(&[15]),
                Act(
                    "aune",
                    "attack",
                    vec![("target", t("door"))],
                    &[10, 6, 5, 3],
                ),
                Prompt(false),
                Res("door", "durability", 0),
                Has("door", "dead"),
                PlayerHears("wound: Some(\"destroyed\")"),
            ],
        },
        Scene {
            name: "a sturdier door, Durability 10: the same 6 through leaves 4, hurt, not in shock",
            options: &[],
            cast: vec![pc(), set(door(), "durability_max", json!(10))],
            steps: vec![
                Start(&[15]),
                Act(
                    "aune",
                    "attack",
                    vec![("target", t("door"))],
                    &[10, 6, 5, 3],
                ),
                Res("door", "durability", 4),
                Lacks("door", "dead"),
                // An object has no Health to go into Shock with: it is only hurt.
                PlayerHears("wound: Some(\"hurt\")"),
            ],
        },
        Scene {
            name: "Winded stops actions, not reactions: with Defend's 3 it pays from 4",
            options: &[],
            cast: duel(pc(), set(npc(), "vigor", json!(4))),
            steps: vec![
                Give("raider", "winded", 0),
                Give("raider", "defending", 2),
                Start(&[15, 5]),
                Act("aune", "attack", at_raider(), &[10, 6]),
                Prompt(true),
                Answer("defend", &[15, 5]),
                Res("raider", "vigor", 1),
                Res("raider", "durability", 10),
            ],
        },
    ];
    scenes.into_iter().for_each(play);
}

#[test]
fn abilities_cost_vigor_and_mana_now_and_carry_their_actions_into_later_turns() {
    let caster = || {
        with(pc(), |v| {
            v["mana_max"] = json!(6);
            v["abilities_list"] = json!([
                { "id": "flurry", "name": "Flurry", "actions": 1, "vigor": 3 },
                { "id": "firestorm", "name": "Firestorm", "actions": 5, "mana": 4 }
            ]);
        })
    };
    let using = |id: &str| vec![("ability", t(id))];
    // A technique that exposes its user: the adjacent raider may take the opening.
    play(Scene {
        name: "a technique that opens",
        options: &[],
        cast: duel(
            with(caster(), |v| v["abilities_list"][0]["opens"] = json!(true)),
            npc(),
        ),
        steps: vec![
            Place("aune", 0, 0),
            Place("raider", 1, 0),
            Start(&[15, 5]),
            Act("aune", "use_ability", using("flurry"), &[]),
            Prompt(true),
            // 12 + 5 = 17 hits; Aune is in her turn: 4 + 2 = 6 off Durability 10.
            Answer("take_opening", &[12, 5, 4, 2]),
            Res("aune", "durability", 4),
            Res("raider", "vigor", 5),
        ],
    });
    play(Scene {
        name: "a 1-action technique, then a 5-action spell over three turns",
        options: &[],
        cast: duel(caster(), npc()),
        steps: vec![
            Start(&[15, 5]),
            Refused("aune", "use_ability", using("meteor"), "unknown_name"),
            Act("aune", "use_ability", using("flurry"), &[]),
            Said("takes effect now"),
            Res("aune", "vigor", 7),
            Res("aune", "actions", 1),
            // 5 actions: 1 now, then 2 and 2 in the next two turns.
            Act("aune", "use_ability", using("firestorm"), &[]),
            Res("aune", "mana", 2),
            Res("aune", "actions", 0),
            Has("aune", "channelling"),
            Act("aune", "end_turn", vec![], &[]),
            Act("raider", "end_turn", vec![], &[]),
            // Round 2: both actions go on the spell; the turn passes by itself.
            Round(2),
            Turn(Some("raider")),
            Said("go on the ability"),
            Has("aune", "channelling"),
            Act("raider", "end_turn", vec![], &[]),
            // Round 3: the last two; it takes effect.
            Round(3),
            Lacks("aune", "channelling"),
            Said("completes Firestorm"),
            Act("raider", "end_turn", vec![], &[]),
            Round(4),
            Turn(Some("aune")),
            // Mana comes back only by a special ability: still 2, not enough for another.
            Refused(
                "aune",
                "use_ability",
                using("firestorm"),
                "insufficient_resource",
            ),
        ],
    });
}

#[test]
fn an_item_takes_an_action_and_one_of_what_is_carried() {
    let carrier = || {
        with(pc(), |v| {
            v["items"] = json!([{ "id": "potion", "name": "healing potion", "count": 1 }]);
        })
    };
    let potion = || vec![("item", t("potion"))];
    play(Scene {
        name: "one potion",
        options: &[],
        cast: duel(carrier(), npc()),
        steps: vec![
            Start(&[15, 5]),
            Res("aune", "item.potion", 1),
            Act("aune", "use_item", potion(), &[]),
            Said("uses healing potion (0 left)"),
            Res("aune", "item.potion", 0),
            Res("aune", "actions", 1),
            Refused("aune", "use_item", potion(), "insufficient_resource"),
            Refused(
                "aune",
                "use_item",
                vec![("item", t("bomb"))],
                "unknown_name",
            ),
        ],
    });
}

#[test]
fn an_attacking_technique_rolls_its_own_ability_and_may_carry_an_off_hand_strike() {
    let fighter = || {
        with(pc(), |v| {
            v["vigor_max"] = json!(20);
            v["bonus_dice"]["speed"] = json!(2);
            v["weapons"]
                .as_array_mut()
                .unwrap()
                .push(json!({ "id": "dagger", "name": "dagger", "damage": 1 }));
            v["abilities_list"] = json!([
                { "id": "whirl", "name": "Whirl", "vigor": 2, "weapon": "sword",
                  "attack_ability": "speed", "light_weapon": true },
                { "id": "smash", "name": "Smash", "weapon": "sword" },
                { "id": "cleave", "name": "Cleave", "actions": 3, "weapon": "sword" },
                { "id": "focus", "name": "Focus" }
            ]);
        })
    };
    let tough = || set(npc(), "durability_max", json!(20));
    let ability = |id: &str, extra: &[(&'static str, ArgValue)]| {
        let mut a = vec![("ability", t(id))];
        a.extend(extra.iter().cloned());
        a
    };
    play(Scene {
        name: "Whirl: Speed's two d10s, then a dagger off-hand for 8 Vigor",
        options: &[],
        cast: duel(fighter(), tough()),
        steps: vec![
            Start(&[15, 5]),
            Refused(
                "aune",
                "use_ability",
                ability("focus", &[("off_hand", t("dagger"))]),
                "rule",
            ),
            Refused(
                "aune",
                "use_ability",
                ability(
                    "smash",
                    &[("target", t("raider")), ("off_hand", t("dagger"))],
                ),
                "rule",
            ),
            Refused("aune", "use_ability", ability("whirl", &[]), "bad_request"),
            Refused(
                "aune",
                "use_ability",
                ability("cleave", &[("target", t("raider"))]),
                "insufficient_resource",
            ),
            // 10 + 3 + 3 = 16 hits; Vigor 20 - 2 - 8 = 10.
            Act(
                "aune",
                "use_ability",
                ability(
                    "whirl",
                    &[("target", t("raider")), ("off_hand", t("dagger"))],
                ),
                &[10, 3, 3],
            ),
            Res("aune", "vigor", 10),
            // The hit is taken (5 + 3); in the same answer the off-hand: Agility's one die,
            // two challenges: d6. 15 + 4 = 19.
            Answer("take", &[5, 3, 15, 4]),
            Res("raider", "durability", 12),
            bonus_die(Primitive::D6),
            Answer("take", &[1, 1]),
            Res("raider", "durability", 10),
            Res("aune", "actions", 1),
            // Smash takes the 1 action left and costs no Vigor, with no off-hand to pay for:
            // Agility's die, 10 + 5 = 15, misses Guard 15.
            Act(
                "aune",
                "use_ability",
                ability("smash", &[("target", t("raider"))]),
                &[10, 5],
            ),
            Said("miss"),
            Res("aune", "vigor", 10),
            Res("aune", "actions", 0),
        ],
    });
    // Whirl with an off-hand costs its 2 Vigor and the off-hand's 8: 10 pays, 9 does not.
    for (vigor, pays) in [(9, false), (10, true)] {
        let whirl = || {
            ability(
                "whirl",
                &[("target", t("raider")), ("off_hand", t("dagger"))],
            )
        };
        play(Scene {
            name: "Whirl with an off-hand for 2 + 8 Vigor",
            options: &[],
            cast: duel(set(fighter(), "vigor", json!(vigor)), tough()),
            steps: if pays {
                vec![
                    Start(&[15, 5]),
                    // Both strikes miss: 1 + 1 + 1 = 3, then 1 + d6 1 = 2.
                    Act("aune", "use_ability", whirl(), &[1, 1, 1, 1, 1]),
                    Res("aune", "vigor", 0),
                ]
            } else {
                vec![
                    Start(&[15, 5]),
                    Refused("aune", "use_ability", whirl(), "insufficient_resource"),
                    Res("aune", "vigor", 9),
                ]
            },
        });
    }
}
