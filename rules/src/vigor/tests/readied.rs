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
            name: "a readied attack keeps its numbers and flags, an item readied is the sheet's",
            options: &[],
            cast: vec![
                with(aune(), |v| {
                    v["items"] = json!([{ "id": "potion", "name": "potion", "count": 1 }]);
                }),
                raider(),
            ],
            steps: vec![
                Give("raider", "unaware", 0),
                Start(&[15, 5]),
                // The item it carries may be readied (one it lacks may not: above).
                Act(
                    "aune",
                    "ready",
                    readies("use_item", vec![("item", t("potion"))]),
                    &[],
                ),
                Res("aune", "actions", 1),
            ],
        },
        Scene {
            name: "a readied attack's charge and its blow from behind reach the roll at the spring",
            options: &[],
            cast: vec![aune(), raider()],
            steps: vec![
                Give("raider", "unaware", 0),
                Start(&[15, 5]),
                Act(
                    "aune",
                    "ready",
                    readies(
                        "attack",
                        vec![
                            ("target", t("raider")),
                            ("charges", ArgValue::Int(1)),
                            ("from_behind", ArgValue::Flag(true)),
                        ],
                    ),
                    &[],
                ),
                Act("aune", "end_turn", vec![], &[]),
                // The charge steps the Agility die to d12; from behind the unaware raider's
                // Guard 15 is halved to 8: 3 + 6 = 9 beats it (against 15 it would miss).
                Gm("spring_ready", spring(), &[3, 6, 5, 3]),
                Said("1 charge"),
                Said("hit"),
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

/// What the table hears set aside, for each kind of readied action: an NPC's step reaches the
/// players withheld, a player's as this sentence.
#[test]
fn a_readied_action_is_said_by_its_kind_without_naming_the_sheets_things() {
    use crate::action::Args;
    let args = |pairs: &[(&str, &str)]| {
        Args(
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), ArgValue::Text((*v).to_owned())))
                .collect(),
        )
    };
    type Case = (
        &'static str,
        &'static [(&'static str, &'static str)],
        &'static str,
    );
    let cases: &[Case] = &[
        (
            "attack",
            &[("target", "raider"), ("weapon", "sword")],
            "an attack on raider",
        ),
        (
            "use_skill",
            &[("skill", "awareness")],
            "a skill check (awareness)",
        ),
        (
            "use_item",
            &[("item", "potion"), ("target", "bryn")],
            "an item on bryn",
        ),
        ("use_ability", &[("ability", "flurry")], "an ability"),
        ("stabilise", &[("target", "bryn")], "first aid on bryn"),
        ("stand", &[], "to stand up"),
        ("escape", &[], "to flee"),
        ("move", &[], "to move"),
    ];
    for (action, pairs, said) in cases {
        assert_eq!(
            super::super::ready::what(action, &args(pairs)),
            *said,
            "{action}"
        );
    }
}

/// A step readied by an older server (a target and a weapon, no action named) is still sprung
/// as the attack it was.
#[test]
fn a_step_readied_by_an_older_server_is_sprung_as_its_attack() {
    use crate::action::{Args, Command};
    use crate::decision::{PendingStep, StepValue};
    use crate::ids::Seat;
    use crate::options::TableOptions;
    use crate::state::{MemoryState, StateMut, StateView};
    use crate::system::RuleSystem;
    use std::collections::BTreeMap;
    let options = TableOptions::resolve(&Vigor.options(), &BTreeMap::new()).expect("options");
    let mut state = MemoryState::new(options);
    for sheet in [creature("aune", "pc"), creature("raider", "npc")] {
        state.insert_combatant(Vigor.sheet_from_json(&sheet).expect("sheet"));
    }
    let start = Command::act(Seat::Gm, None, "start_encounter", Args::default());
    scene::run(&Vigor, &mut state, &start, &[15, 5]).expect("starts");
    let aune = Seat::Player("aune".into());
    let end = Command::act(aune, Some("aune"), "end_turn", Args::default());
    scene::run(&Vigor, &mut state, &end, &[]).expect("ends");
    // The older shape: `target` as an entity and `weapon` as text, no `action`.
    state.encounter_mut().deferred.push(PendingStep {
        prompt_id: 90,
        rule: "vigor.ready".into(),
        actor: Some("aune".into()),
        question: "aune readies an attack on raider: when it steps in".into(),
        trigger: Some("when it steps in".into()),
        data: BTreeMap::from([
            ("target".to_owned(), StepValue::Entity("raider".into())),
            ("weapon".to_owned(), StepValue::Text("sword".into())),
        ]),
        ..PendingStep::default()
    });
    // Sprung in the raider's turn: 10 + 6 = 16 beats Guard 15 and it cannot defend; sword 5 +
    // Strength 3 = 8 off Durability 10.
    let spring = Command::act(
        Seat::Gm,
        None,
        "spring_ready",
        Args([("target".to_owned(), ArgValue::Text("aune".into()))].into()),
    );
    scene::run(&Vigor, &mut state, &spring, &[10, 6, 5, 3]).expect("springs");
    let raider = state.combatant(&"raider".into()).expect("raider");
    assert_eq!(raider.resource("durability"), 2);
}
