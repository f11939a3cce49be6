//! What the system says of itself to the server: its id, the resources a ruling may set and
//! their bounds, the actions each seat is offered, and the modifier tables an attack takes as
//! arguments, played through the real `decide`.

use std::collections::BTreeMap;

use crate::ids::Seat;
use crate::options::TableOptions;
use crate::state::{MemoryState, StateMut};
use crate::system::RuleSystem;
use crate::testing::scene::{S, Scene};

use super::super::Mist;
use super::scenes::{beatrix, play, t, thug};

#[test]
fn the_system_names_itself_and_the_bounds_of_what_a_ruling_may_set() {
    assert_eq!(Mist.id(), "mist");
    let bounds: Vec<(&str, i64, i64)> = Mist
        .resources()
        .iter()
        .map(|r| (r.key, r.min, r.max))
        .collect();
    assert_eq!(
        bounds,
        [
            ("life", -10_000, 10_000),
            ("fatigue", 0, 10_000),
            ("action", 0, 10)
        ]
    );
}

#[test]
fn out_of_a_fight_a_player_is_offered_care_and_the_gm_the_scene_actions() {
    let options = TableOptions::resolve(&Mist.options(), &BTreeMap::new()).unwrap();
    let mut state = MemoryState::new(options);
    for sheet in [beatrix(), thug("gunman")] {
        state.insert_combatant(Mist.sheet_from_json(&sheet).unwrap());
    }
    let offered = |seat: &Seat| -> Vec<(Option<String>, String)> {
        let mut v: Vec<_> = Mist
            .actions(&state, seat)
            .into_iter()
            .map(|a| (a.actor.map(|x| x.to_string()), a.name))
            .collect();
        v.sort();
        v
    };
    let mine = |names: &[&str]| -> Vec<(Option<String>, String)> {
        names
            .iter()
            .map(|n| (Some("beatrix".to_owned()), (*n).to_owned()))
            .collect()
    };
    assert_eq!(
        offered(&Seat::Player("beatrix".into())),
        mine(&["medicine_heal", "revive"])
    );
    let gm: Vec<String> = offered(&Seat::Gm)
        .into_iter()
        .filter(|(actor, _)| actor.is_none())
        .map(|(_, n)| n)
        .collect();
    assert_eq!(
        gm,
        [
            "ambush",
            "clear_jam",
            "perception",
            "rest",
            "start_encounter",
            "stealth"
        ]
    );
}

#[test]
fn an_attack_takes_the_ranged_table_as_its_arguments() {
    play(Scene {
        name: "far and half covered",
        options: &[],
        cast: vec![beatrix(), thug("gunman")],
        steps: vec![
            S::Start(&[1, 9]),
            // The knife thrown far at a half-covered gunman: the ranged table raises the
            // difficulty, Evade 7 + far 3 + half cover 2 = 12, and 4 + Senses 3 + Thrown 2 = 9
            // misses it (it would hit the bare 7). No dodge is asked.
            S::Act(
                "beatrix",
                "attack",
                vec![
                    ("target", t("gunman")),
                    ("weapon", t("knife")),
                    ("far", crate::action::ArgValue::Flag(true)),
                    ("half_cover", crate::action::ArgValue::Flag(true)),
                ],
                &[4],
            ),
            S::Said("misses"),
            S::Prompt(false),
        ],
    });
}

/// A table with Beatrix (knife and pistol), the gunman and a fallen thug, as `setup` leaves
/// it; what Beatrix's seat is offered, by name, each with the choices its arguments list now.
fn beatrix_offered(setup: impl FnOnce(&mut MemoryState)) -> Vec<String> {
    use crate::state::StateView;
    let options = TableOptions::resolve(&Mist.options(), &BTreeMap::new()).unwrap();
    let mut state = MemoryState::new(options);
    let armed = super::with(beatrix(), |v| {
        v["weapons"] = serde_json::json!([
            {"id": "knife", "name": "knife", "kind": "thrown", "damage": "d10/2"},
            {"id": "pistol", "name": "pistol", "kind": "gun", "damage": "2d10h", "reload": [2, 1, 0]}
        ]);
    });
    for sheet in [armed, thug("gunman"), thug("thug-b")] {
        state.insert_combatant(Mist.sheet_from_json(&sheet).unwrap());
    }
    let mut down = state.combatant(&"thug-b".into()).unwrap().clone();
    down.statuses
        .insert(super::super::UNCONSCIOUS.into(), status());
    state.insert_combatant(down);
    setup(&mut state);
    Mist.actions(&state, &Seat::Player("beatrix".into()))
        .into_iter()
        .map(|a| {
            let lists: Vec<String> = a
                .args
                .iter()
                .filter(|s| !s.now.is_empty())
                .map(|s| format!("{}={}", s.name, s.now.join("|")))
                .collect();
            if lists.is_empty() {
                a.name
            } else {
                format!("{} {}", a.name, lists.join(" "))
            }
        })
        .collect()
}

fn status() -> crate::state::Status {
    crate::state::Status {
        source: "test".into(),
        magnitude: 0,
        rounds_left: None,
    }
}

fn mark(state: &mut MemoryState, statuses: &[&str]) {
    use crate::state::StateView;
    let mut b = state.combatant(&"beatrix".into()).unwrap().clone();
    for s in statuses {
        b.statuses.insert((*s).to_owned(), status());
    }
    state.insert_combatant(b);
}

/// Beatrix's pistol fired and not reloaded, with `also`.
fn fired(state: &mut MemoryState, also: &[&str]) {
    let key = crate::mist::unloaded_key("pistol");
    mark(state, &[also, &[key.as_str()]].concat());
}

fn fight(state: &mut MemoryState, now: &[&str]) {
    let enc = state.encounter_mut();
    enc.active = true;
    enc.turns.shape = crate::turns::TurnShape::Group;
    enc.turns.now = now.iter().map(|n| (*n).into()).collect();
}

/// Each row: where Beatrix stands, and every action her seat is offered with the choices its
/// arguments list (others to target, her weapons, the fallen to revive, the guns to reload).
#[test]
fn a_player_is_offered_what_the_moment_allows_with_its_choices() {
    const TARGETS: &str = "target=gunman|thug-b";
    let fighting = |names: &[&str]| -> Vec<String> {
        names
            .iter()
            .map(|n| match *n {
                "attack" => format!("attack {TARGETS} weapon=knife|pistol interrupt=gunman|thug-b"),
                "grab" | "aim" => format!("{n} {TARGETS} weapon=knife|pistol"),
                "revive" => "revive target=thug-b".to_owned(),
                "medicine_heal" => format!("medicine_heal {TARGETS}"),
                other => other.to_owned(),
            })
            .collect()
    };
    type Setup = Box<dyn Fn(&mut MemoryState)>;
    let rows: Vec<(&str, Setup, Vec<String>)> = vec![
        (
            "out of a fight",
            Box::new(|_| {}),
            fighting(&["revive", "medicine_heal"]),
        ),
        (
            "out of a fight, hidden",
            Box::new(|s| mark(s, &["ambusher"])),
            vec![
                "revive target=thug-b".into(),
                format!("medicine_heal {TARGETS}"),
                format!("stun {TARGETS} weapon=knife|pistol"),
            ],
        ),
        (
            "out of a fight, hidden but unconscious",
            Box::new(|s| mark(s, &["ambusher", "unconscious"])),
            vec![],
        ),
        (
            "out of a fight, the pistol fired",
            Box::new(|s| fired(s, &[])),
            [
                fighting(&["revive", "medicine_heal"]),
                vec!["reload weapon=pistol".into()],
            ]
            .concat(),
        ),
        (
            "her group's turn",
            Box::new(|s| fight(s, &["beatrix"])),
            fighting(&["attack", "grab", "aim", "delay", "revive", "act"]),
        ),
        (
            "another group's turn",
            Box::new(|s| fight(s, &["gunman"])),
            vec![],
        ),
        (
            "another group's turn, the pistol fired",
            Box::new(|s| {
                fight(s, &["gunman"]);
                fired(s, &[]);
            }),
            vec![],
        ),
        (
            "another group's turn, holding a delayed action",
            Box::new(|s| {
                fight(s, &["gunman"]);
                mark(s, &["delayed"]);
            }),
            fighting(&["attack", "grab", "aim", "revive", "act"]),
        ),
        (
            "her turn, holding someone, the pistol fired",
            Box::new(|s| {
                fight(s, &["beatrix"]);
                fired(s, &["holding"]);
            }),
            [
                fighting(&["attack", "grab", "aim", "delay", "revive", "act"]),
                vec!["release".into(), "reload weapon=pistol".into()],
            ]
            .concat(),
        ),
        (
            "out of a fight, holding someone",
            Box::new(|s| mark(s, &["holding"])),
            fighting(&["revive", "medicine_heal"]),
        ),
        (
            "in a fight, unconscious",
            Box::new(|s| {
                fight(s, &["beatrix"]);
                mark(s, &["unconscious"]);
            }),
            vec![],
        ),
    ];
    for (moment, setup, want) in rows {
        assert_eq!(beatrix_offered(setup), want, "{moment}");
    }
}

/// The GM's search and hiding say which table option names their attribute.
#[test]
fn hiding_and_searching_name_their_own_option() {
    let help = |name: &str| -> String {
        crate::mist::actions::spec(name, None)
            .unwrap()
            .args
            .iter()
            .find(|a| a.name == "attribute")
            .map(|a| a.help.clone())
            .unwrap()
    };
    assert!(help("stealth").contains("mist.stealth_attribute"));
    assert!(help("perception").contains("mist.perception_attribute"));
}

/// Out of a fight as in one, an unconscious character does nothing: it may not revive
/// another, heal with Medicine, reload or let go; nothing is drawn and nothing changes.
#[test]
fn the_fallen_neither_revive_nor_heal_nor_reload_nor_let_go_out_of_a_fight() {
    let medic = super::with(beatrix(), |v| {
        v["weapons"] = serde_json::json!([
            {"id": "pistol", "name": "pistol", "kind": "gun", "damage": "2d10h", "reload": [2, 1, 0]}
        ]);
    });
    play(Scene {
        name: "unconscious out of a fight",
        options: &[],
        cast: vec![medic, super::scenes::markus(), thug("gunman")],
        steps: vec![
            S::Give("markus", "unconscious", 8),
            S::Give("beatrix", "unconscious", 8),
            S::Refused(
                "beatrix",
                "revive",
                vec![("target", t("markus")), ("skill", t("medicine"))],
                "cannot_act: beatrix cannot act: unconscious",
            ),
            S::Refused(
                "beatrix",
                "medicine_heal",
                vec![("target", t("gunman"))],
                "cannot_act: beatrix cannot act: unconscious",
            ),
            // Her pistol fired (`unloaded.pistol`, one round of reloading left).
            S::Give("beatrix", "unloaded.pistol", 1),
            S::Refused(
                "beatrix",
                "reload",
                vec![("weapon", t("pistol"))],
                "cannot_act: beatrix cannot act: unconscious",
            ),
            S::Magnitude("beatrix", "unloaded.pistol", 1),
            // Nor does she let go of someone she held when she fell.
            S::Give("beatrix", "holding", 0),
            S::Refused(
                "beatrix",
                "release",
                vec![],
                "cannot_act: beatrix cannot act: unconscious",
            ),
            S::Has("beatrix", "holding"),
        ],
    });
}
