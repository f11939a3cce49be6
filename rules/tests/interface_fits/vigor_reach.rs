//! vigor: reach and nerve. A character that leaves a foe's reach (the next cell) gives it an
//! opportunity to strike: the move's trigger opens a window to the foe's seat, the mover
//! having written nothing about it. And an NPC's morale is a roll-under check on a d10.

use super::*;
use tablehold_rules::toolkit::turns;

/// A raider (reach: the next cell, damage 3, Morale 6) beside Aune (p1); Bram (p2) far off.
pub(crate) fn reach_table() -> Table {
    let table = Table::new(&Vigor, reach_roster(), vec![5, 4, 3]);
    // Initiative d10s 5, 4, 3 in id order: Aune, then Bram, then the raider.
    assert_eq!(turns::describe(&table.state), "aune's turn");
    assert_eq!(
        table.state.encounter.order,
        vec![id("aune"), id("bram"), id("raider")]
    );
    table
}

fn step_cmd(seat: Seat, who: &str, x: i32, y: i32) -> Command {
    Command::act(
        seat,
        Some(who),
        STEP,
        Args::default().with("to", ArgValue::Cell(Cell::new(x, y))),
    )
}

#[test]
fn vigor_leaving_a_foes_reach_opens_its_opportunity_by_the_move_trigger() {
    // (who moves, to, whether the raider is asked). Reach is the next cell, diagonals count
    // one by default.
    let cases = [
        ("aune", (3, 0), true),
        ("aune", (0, 1), false),
        ("aune", (2, 1), false),
        ("bram", (9, 9), false),
    ];
    for (who, (x, y), asked) in cases {
        let mut table = reach_table();
        let seat = if who == "aune" {
            player("p1")
        } else {
            player("p2")
        };
        table.run(
            &Vigor,
            step_cmd(seat, who, x, y),
            &mut ScriptedDice::new(vec![]),
        );
        let windows: Vec<&PendingStep> = table.state.encounter.pending.iter().collect();
        assert_eq!(windows.len(), usize::from(asked), "{who} to ({x}, {y})");
        if asked {
            assert_eq!(windows[0].rule, VIGOR_OPPORTUNITY);
            assert_eq!(windows[0].seats, vec![Seat::Gm]);
            assert_eq!(windows[0].question, "aune leaves raider's reach: strike?");
        }
        table.assert_replays();
    }
}

#[test]
fn vigor_an_opportunity_taken_hurts_and_a_ruling_move_provokes_none() {
    let mut table = reach_table();
    let mut no_dice = ScriptedDice::new(vec![]);
    table.run(&Vigor, step_cmd(player("p1"), "aune", 3, 0), &mut no_dice);
    let prompt = table.prompt().prompt_id;
    // While it is open the table waits: Aune may not step again.
    assert_eq!(
        table
            .refuse(&Vigor, step_cmd(player("p1"), "aune", 4, 0), &mut no_dice)
            .code(),
        "awaiting_decision"
    );
    table.run(
        &Vigor,
        Command::answer(Seat::Gm, prompt, "strike"),
        &mut no_dice,
    );
    assert_eq!(table.resource("aune", "durability"), 7);
    // The GM moves Bram next to the raider and away again by ruling: nothing is set off.
    let rule_move = format!("{}move", tablehold_rules::engine::RULING_PREFIX);
    for cell in [Cell::new(2, 0), Cell::new(9, 9)] {
        let ruling = Args::default()
            .with("target", ArgValue::Text("bram".into()))
            .with("to", ArgValue::Cell(cell));
        table.run(
            &Vigor,
            Command::act(Seat::Gm, None, &rule_move, ruling),
            &mut no_dice,
        );
    }
    assert!(table.state.encounter.pending.is_empty());
    table.assert_replays();
    table.hold_as_fixture("vigor-opportunity");
}

// (d10 face, outcome, margin, flees): 1d10 at most Morale 6 holds.
#[test]
fn vigor_morale_is_a_roll_under_check() {
    let cases = [
        (6, Outcome::Success, 0, false),
        (7, Outcome::Failure, -1, true),
        (1, Outcome::Success, 5, false),
        (10, Outcome::Failure, -4, true),
    ];
    for (face, outcome, margin, flees) in cases {
        let mut table = reach_table();
        let events = table.run(
            &Vigor,
            Command::act(Seat::Gm, Some("raider"), MORALE, Args::default()),
            &mut ScriptedDice::new(vec![face]),
        );
        let check = checks(&events)[0];
        assert_eq!(check.against, Against::AtMost(6));
        assert_eq!(
            (check.total, check.outcome, check.margin),
            (i64::from(face), outcome, Some(margin)),
            "face {face}"
        );
        assert_eq!(
            table.state.combatants[&id("raider")].has_status("fleeing"),
            flees,
            "face {face}"
        );
        table.assert_replays();
    }
}

#[test]
fn vigor_starts_its_encounter_once_rolling_initiative_in_id_order() {
    let table = reach_table();
    let rolled: Vec<(String, i64)> = checks(&table.log)
        .iter()
        .filter(|c| c.label == "initiative")
        .map(|c| (c.actor.clone().unwrap().0, c.total))
        .collect();
    assert_eq!(
        rolled,
        vec![
            ("aune".to_owned(), 5),
            ("bram".to_owned(), 4),
            ("raider".to_owned(), 3)
        ]
    );
    let start = || Command::act(Seat::Gm, None, START_ENCOUNTER, Args::default());
    assert_eq!(
        table.refuse(&Vigor, start(), &mut ScriptedDice::new(vec![1, 1, 1])),
        Refusal::EncounterRunning
    );
    assert!(!action_names(&Vigor, &table.state, &Seat::Gm).contains(&START_ENCOUNTER.to_owned()));
    let empty = MemoryState::new(table.state.options.clone());
    assert_eq!(
        decide(&Vigor, &empty, &start(), &mut ScriptedDice::new(vec![])),
        Err(DecideError::Refused(Refusal::Rule(
            "nobody is at the table to fight".into()
        )))
    );
    assert_eq!(action_names(&Vigor, &empty, &Seat::Gm)[0], START_ENCOUNTER);
}
