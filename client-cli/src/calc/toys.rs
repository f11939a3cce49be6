//! The toy systems of `tablehold-toys` through the calculator: each shape written as a request
//! of steps, resolved by the code `tablehold rules resolve` runs (parse, prepare, resolve,
//! render), and checked twice: against the numbers worked out by hand, and against the same
//! commands decided over the same faces directly on the rules' in-memory state, event for
//! event.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use serde_json::{Value, json};
use tablehold_rules::dice::ScriptedDice;
use tablehold_rules::grid::Cell;
use tablehold_rules::options::TableOptions;
use tablehold_rules::{
    ArgValue, Args, Combatant, Command, CommandBody, Event, MemoryState, RuleSystem, Seat, SeatId,
    StateMut, apply, decide,
};
use tablehold_toys::{Mist, Tenacity, Vigor, rosters};

use super::resolve_text;

struct Case {
    name: &'static str,
    system: &'static dyn RuleSystem,
    roster: Vec<Combatant>,
    faces: Vec<u32>,
    /// The request's steps, as a user writes them (prompts and seats left to their defaults).
    steps: Value,
    /// The same steps as the rules take them.
    commands: Vec<Command>,
}

fn player(id: &str) -> Seat {
    Seat::Player(SeatId::from(id))
}

fn act(seat: Seat, actor: Option<&str>, action: &str, args: Args) -> Command {
    Command::act(seat, actor, action, args)
}

fn answer(seat: Seat, prompt_id: u64, choice: &str, args: Args) -> Command {
    Command {
        seat,
        body: CommandBody::Answer {
            prompt_id,
            choice: choice.to_owned(),
            args,
        },
    }
}

fn text(key: &str, value: &str) -> Args {
    Args::default().with(key, ArgValue::Text(value.to_owned()))
}

fn cases() -> Vec<Case> {
    let start = || act(Seat::Gm, None, "start_encounter", Args::default());
    vec![
        Case {
            name: "vigor opening",
            system: &Vigor,
            roster: rosters::opening_roster(),
            // Initiative d10s in id order: aune 5, bram 4, cato 3, raider 2.
            faces: vec![5, 4, 3, 2],
            steps: json!([
                {"act": {"name": "start_encounter"}},
                {"act": {"name": "stumble", "actor": "raider"}},
                {"answer": {"choice": "strike", "seat": {"player": "p1"}}},
                {"answer": {"choice": "hold", "seat": {"player": "p2"}}},
                {"timeout": {}}
            ]),
            commands: vec![
                start(),
                act(Seat::Gm, Some("raider"), "stumble", Args::default()),
                answer(player("p1"), 0, "strike", Args::default()),
                answer(player("p2"), 0, "hold", Args::default()),
                Command::time_out(0),
            ],
        },
        Case {
            name: "vigor reach and morale",
            system: &Vigor,
            roster: rosters::reach_roster(),
            // Initiative aune 5, bram 4, raider 3; the raider's morale d10 7.
            faces: vec![5, 4, 3, 7],
            steps: json!([
                {"act": {"name": "start_encounter"}},
                {"act": {"name": "step", "actor": "aune", "args": {"to": {"x": 0, "y": 2}}, "seat": {"player": "p1"}}},
                {"answer": {"choice": "strike"}},
                {"act": {"name": "morale", "actor": "raider"}}
            ]),
            commands: vec![
                start(),
                act(
                    player("p1"),
                    Some("aune"),
                    "step",
                    Args::default().with("to", ArgValue::Cell(Cell::new(0, 2))),
                ),
                answer(Seat::Gm, 0, "strike", Args::default()),
                act(Seat::Gm, Some("raider"), "morale", Args::default()),
            ],
        },
        Case {
            name: "mist interrupt",
            system: &Mist,
            roster: rosters::mist_roster(),
            // The aim's d10, once the thug's side is over.
            faces: vec![6],
            steps: json!([
                {"act": {"name": "start_encounter"}},
                {"act": {"name": "move", "actor": "beatrix", "args": {"to": {"x": 4, "y": 0}}, "seat": {"player": "p1"}}},
                {"act": {"name": "delay", "actor": "beatrix", "seat": {"player": "p1"}}},
                {"act": {"name": "aim", "actor": "markus", "args": {"target": "thug"}, "seat": {"player": "p2"}}},
                {"act": {"name": "strike", "actor": "thug", "args": {"target": "beatrix"}}},
                {"answer": {"choice": "act", "args": {"action": "move", "to": {"x": 0, "y": 0}}}}
            ]),
            commands: vec![
                start(),
                act(
                    player("p1"),
                    Some("beatrix"),
                    "move",
                    Args::default().with("to", ArgValue::Cell(Cell::new(4, 0))),
                ),
                act(player("p1"), Some("beatrix"), "delay", Args::default()),
                act(player("p2"), Some("markus"), "aim", text("target", "thug")),
                act(Seat::Gm, Some("thug"), "strike", text("target", "beatrix")),
                // Prompt 0 is Markus's aim, deferred.
                answer(
                    player("p1"),
                    1,
                    "act",
                    text("action", "move").with("to", ArgValue::Cell(Cell::new(0, 0))),
                ),
            ],
        },
        Case {
            name: "10acity push",
            system: &Tenacity,
            roster: rosters::push_roster(),
            faces: vec![8],
            steps: json!([
                {"act": {"name": "start_encounter"}},
                {"act": {"name": "push", "actor": "missa", "args": {"obstacle": "door"}, "seat": {"player": "p1"}}},
                {"answer": {"args": {"points": 2}}}
            ]),
            commands: vec![
                start(),
                act(
                    player("p1"),
                    Some("missa"),
                    "push",
                    text("obstacle", "door"),
                ),
                answer(
                    player("p1"),
                    0,
                    "",
                    Args::default().with("points", ArgValue::Int(2)),
                ),
            ],
        },
        Case {
            name: "10acity contest",
            system: &Tenacity,
            roster: rosters::spotlight_roster(),
            // Missa's d10 6, the narrator's 2d6 3 and 4.
            faces: vec![6, 3, 4],
            steps: json!([
                {"act": {"name": "start_encounter"}},
                {"act": {"name": "contest", "actor": "missa", "args": {"against": "cultist", "skill": "investigation"}, "seat": {"player": "p1"}}},
                {"act": {"name": "hand_on", "actor": "missa", "args": {"to": "cultist"}, "seat": {"player": "p1"}}}
            ]),
            commands: vec![
                start(),
                act(
                    player("p1"),
                    Some("missa"),
                    "contest",
                    text("against", "cultist")
                        .with("skill", ArgValue::Text("investigation".into())),
                ),
                act(
                    player("p1"),
                    Some("missa"),
                    "hand_on",
                    text("to", "cultist"),
                ),
            ],
        },
    ]
}

/// The calculator's JSON report of `case` as `seat` sees it.
fn calculate(case: &Case, seat: Value) -> Value {
    let sheets: Vec<Value> = case
        .roster
        .iter()
        .map(|c| serde_json::to_value(c).unwrap())
        .collect();
    let request = json!({"combatants": sheets, "seat": seat, "steps": case.steps});
    let report = resolve_text(
        case.system,
        case.name,
        &request.to_string(),
        case.faces.clone(),
        true,
    )
    .unwrap_or_else(|e| panic!("{}: {e:#}", case.name));
    assert!(
        report.warnings.is_empty(),
        "{}: {:?}",
        case.name,
        report.warnings
    );
    serde_json::from_str(&report.stdout).unwrap()
}

/// The same commands over the same faces, straight on the rules' in-memory state: the GM's
/// view of every event.
fn directly(case: &Case) -> Vec<Event> {
    let options = TableOptions::resolve(&case.system.options(), &BTreeMap::new()).unwrap();
    let mut state = MemoryState::new(options);
    for c in &case.roster {
        state.insert_combatant(c.clone());
    }
    let mut dice = ScriptedDice::new(case.faces.clone());
    let mut all = Vec::new();
    for command in &case.commands {
        let events = decide(case.system, &state, command, &mut dice)
            .unwrap_or_else(|e| panic!("{}: {command:?}: {e}", case.name));
        for e in events {
            apply(&mut state, &e).unwrap();
            all.extend(e.view(&Seat::Gm));
        }
    }
    all
}

#[test]
fn every_toy_shape_resolves_in_the_calculator_as_it_does_in_memory() {
    for case in cases() {
        let report = calculate(&case, json!("gm"));
        let events: Vec<Event> = serde_json::from_value(report["events"].clone()).unwrap();
        assert_eq!(events, directly(&case), "{}", case.name);
        let steps = report["steps"].as_array().unwrap();
        assert_eq!(steps.len(), case.commands.len(), "{}", case.name);
        assert_eq!(report["unused_faces"], json!([]), "{}", case.name);
    }
}

/// The numbers of each shape, worked out from the toys' rules (see `tablehold-toys`).
#[test]
fn the_calculator_reports_each_toy_shapes_numbers() {
    let by_name = |name: &str| cases().into_iter().find(|c| c.name == name).unwrap();

    // Aune strikes (damage 2), Bram holds, Cato's time runs out and holds. The window is
    // answered by each seat, so nothing lands until it closes: then 10 - 2.
    let r = calculate(&by_name("vigor opening"), json!("gm"));
    assert_eq!(r["final"]["raider"]["resources"]["durability"], json!(8));
    assert_eq!(r["open_prompts"], json!([]));
    assert_eq!(r["steps"][2]["changed"], json!({}));
    assert_eq!(
        r["steps"][4]["changed"]["raider"]["resources"]["durability"],
        json!([10, 8])
    );

    // Aune steps out of reach, the raider strikes for 3; its morale d10 7 is over 6: it flees.
    let r = calculate(&by_name("vigor reach and morale"), json!("gm"));
    assert_eq!(r["final"]["aune"]["resources"]["durability"], json!(7));
    let morale = &r["checks"][3];
    assert_eq!(
        (
            &morale["label"],
            &morale["total"],
            &morale["against"],
            &morale["outcome"]
        ),
        (
            &json!("morale"),
            &json!(7),
            &json!({"at_most": 6}),
            &json!("failure")
        )
    );
    assert!(
        r["final"]["raider"]["statuses"].get("fleeing").is_some(),
        "{r}"
    );

    // Beatrix steps back out of the strike; Markus's aim fires after the enemies' side:
    // d10 6 + Senses 2 + aim 3 = 11 against Evade 9.
    let r = calculate(&by_name("mist interrupt"), json!("gm"));
    assert_eq!(r["final"]["beatrix"]["position"], json!({"x": 0, "y": 0}));
    let aim = r["checks"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (&aim["actor"], &aim["total"], &aim["outcome"]),
        (&json!("markus"), &json!(11), &json!("success"))
    );

    // d10 8 + 2 points = 10 beats the door's hidden 9. The GM reads the challenge; Missa's
    // seat reads her total and its verdict, and nowhere the 9.
    let push = by_name("10acity push");
    let gm = calculate(&push, json!("gm"));
    let check = &gm["checks"][0];
    assert_eq!(
        (&check["total"], &check["hidden_tn"], &check["outcome"]),
        (&json!(10), &json!(9), &json!("success"))
    );
    assert_eq!(gm["final"]["missa"]["resources"]["hero_points"], json!(1));
    let missa = calculate(&push, json!({"player": "p1"}));
    assert_eq!(missa["checks"][0]["total"], json!(10));
    assert!(missa["checks"][0].get("hidden_tn").is_none(), "{missa}");
    let seen = missa.to_string();
    assert!(!seen.contains("\"challenge\""), "{seen}");
    assert!(!seen.contains("window_secret"), "{seen}");

    // 6 + Investigation 5 = 11 against the narrator's 3 + 4: wins by 4; then the cultist holds
    // the spotlight.
    let r = calculate(&by_name("10acity contest"), json!("gm"));
    let events: Vec<Event> = serde_json::from_value(r["events"].clone()).unwrap();
    let margin = events.iter().flat_map(Event::facts).find_map(|f| match f {
        tablehold_rules::Fact::Checked(c) if c.label == "investigation" => {
            Some((c.total, c.margin))
        }
        _ => None,
    });
    assert_eq!(margin, Some((11, Some(4))));
    assert_eq!(r["turn"], json!("spotlight: cultist"));
}
